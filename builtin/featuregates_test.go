package builtin

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin/internal/gates"
	"kdv.dev/builtin/internal/gendata"
	"kdv.dev/schema"
)

// A sample of the gates against k8s.io/kubernetes v1.37.2's
// pkg/features/kube_features.go (and the staging gates it lists).
func TestFeatureGateSample(t *testing.T) {
	for _, tc := range []struct {
		name  string
		minor int
		want  Gate
	}{
		// {1.33 alpha off}
		{"ContainerStopSignals", 37, Gate{Name: "ContainerStopSignals", Stage: StageAlpha, Since: "1.33"}},
		// {1.35 alpha off}, {1.37 beta off}
		{"GenericWorkload", 35, Gate{Name: "GenericWorkload", Stage: StageAlpha, Since: "1.35"}},
		{"GenericWorkload", 36, Gate{Name: "GenericWorkload", Stage: StageAlpha, Since: "1.35"}},
		{"GenericWorkload", 37, Gate{Name: "GenericWorkload", Stage: StageBeta, Since: "1.37"}},
		// {1.24 alpha off}, {1.35 beta off}, {1.37 beta on}
		{"MaxUnavailableStatefulSet", 35, Gate{Name: "MaxUnavailableStatefulSet", Stage: StageBeta, Since: "1.35"}},
		{"MaxUnavailableStatefulSet", 37, Gate{Name: "MaxUnavailableStatefulSet", Stage: StageBeta, Default: true, Since: "1.37"}},
		// {1.27 alpha}, {1.33 beta on}, {1.35 GA on, locked}
		{"InPlacePodVerticalScaling", 35, Gate{Name: "InPlacePodVerticalScaling", Stage: StageGA, Default: true, LockToDefault: true, Since: "1.35"}},
		// a gate first in 1.37, at 1.35: pre-alpha
		{"AtomicWriteVolumeUserFields", 35, Gate{Name: "AtomicWriteVolumeUserFields", Stage: StagePreAlpha, Since: "0.0"}},
		// {1.37 beta off}, {1.37 beta on, MinCompatibilityVersion 1.37}:
		// a 1.37 server's minimum compatibility version is 1.36.
		{"DRAFractionalCapacityRange", 37, Gate{Name: "DRAFractionalCapacityRange", Stage: StageBeta, Since: "1.37"}},
		// k8s.io/apiserver's genericfeatures.CoordinatedLeaderElection and
		// k8s.io/apiextensions-apiserver's CRDValidationRatcheting
		{"CoordinatedLeaderElection", 37, Gate{Name: "CoordinatedLeaderElection", Stage: StageBeta, Since: "1.33"}},
		{"CRDValidationRatcheting", 37, Gate{Name: "CRDValidationRatcheting", Stage: StageGA, Default: true, LockToDefault: true, Since: "1.33"}},
	} {
		got, ok := FeatureGate(tc.name, tc.minor)
		if !ok || got != tc.want {
			t.Errorf("FeatureGate(%s, %d) = %+v, %v; want %+v", tc.name, tc.minor, got, ok, tc.want)
		}
	}
	if _, ok := FeatureGate("NoSuchGate", 37); ok {
		t.Error("FeatureGate(NoSuchGate) known")
	}
	if n := len(FeatureGateNames()); n < 200 {
		t.Errorf("%d gates, want the kube-apiserver's 200 and more", n)
	}
}

// --feature-gates as the kube-apiserver parses and checks it.
func TestParseFeatureGates(t *testing.T) {
	for _, tc := range []struct {
		value, err string
		on, off    []string
	}{
		{value: "", off: []string{"ContainerStopSignals"}, on: []string{"PodLevelResources"}},
		{value: "ContainerStopSignals=true, PodLevelResources=false", on: []string{"ContainerStopSignals"}, off: []string{"PodLevelResources", "EmptyDirVolumeMode"}},
		{value: "AllAlpha=true,EmptyDirVolumeMode=false", on: []string{"ContainerStopSignals", "PodLevelResources"}, off: []string{"EmptyDirVolumeMode", "GenericWorkload"}},
		{value: "AllBeta=false", off: []string{"PodLevelResources"}, on: []string{"InPlacePodVerticalScaling"}},
		{value: "ContainerStopSignals=1", on: []string{"ContainerStopSignals"}},
		{value: "NoSuchGate=true", err: "unrecognized feature gate: NoSuchGate"},
		{value: "ContainerStopSignals", err: "missing bool value for ContainerStopSignals"},
		{value: "ContainerStopSignals=yes", err: "invalid value of ContainerStopSignals=yes"},
		{value: "InPlacePodVerticalScaling=false", err: "cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true"},
	} {
		fg, err := ParseFeatureGates(tc.value, 37)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.value, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.value, err)
			continue
		}
		for _, g := range tc.on {
			if !fg.Enabled(g, 37) {
				t.Errorf("%q: %s off", tc.value, g)
			}
		}
		for _, g := range tc.off {
			if fg.Enabled(g, 37) {
				t.Errorf("%q: %s on", tc.value, g)
			}
		}
	}
	if _, err := ParseFeatureGates("AtomicWriteVolumeUserFields=true", 35); err == nil || !strings.Contains(err.Error(), "PreAlpha") {
		t.Errorf("a gate not yet in 1.35: %v", err)
	}
}

// TestFeatureGateDataUpToDate fails when regenerating
// data/featuregates.json would change it (run go generate ./builtin/); it
// skips when k8s.io/kubernetes's source is not in the module cache and
// cannot be downloaded.
func TestFeatureGateDataUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("reads k8s.io/kubernetes")
	}
	d, err := gendata.FeatureGatesFrom(gendata.FeatureGateSources())
	if err != nil {
		t.Skipf("k8s.io/kubernetes %s source not available: %v", gendata.KubernetesVersion, err)
	}
	got, err := gendata.BuildFeatureGates(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, featureGatesJSON) {
		t.Error("data/featuregates.json is stale: run go generate ./builtin/")
	}
}

// schemasOf reads the definitions of the data file of 1.<minor> (with those
// it shares with its base).
func schemasOf(t *testing.T, minor int) map[string]*schema.Props {
	t.Helper()
	return fullData(t, minor).Schemas
}

// The lifecycle of gated fields in each release's schemas: status from
// the gate's stage in that release, minVersion from its first spec.
func TestFieldLifecyclePerRelease(t *testing.T) {
	for _, tc := range []struct {
		minor      int
		def, field string
		want       schema.Lifecycle
	}{
		{37, "io.k8s.api.core.v1.Lifecycle", "stopSignal", schema.Lifecycle{MinVersion: "v1.33", Status: "alpha", FeatureGate: "ContainerStopSignals"}},
		{35, "io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy", "maxUnavailable", schema.Lifecycle{MinVersion: "v1.24", Status: "beta", FeatureGate: "MaxUnavailableStatefulSet"}},
		{36, "io.k8s.api.core.v1.PodSpec", "schedulingGroup", schema.Lifecycle{MinVersion: "v1.35", Status: "alpha", FeatureGate: "GenericWorkload"}},
		{37, "io.k8s.api.core.v1.PodSpec", "schedulingGroup", schema.Lifecycle{MinVersion: "v1.35", Status: "beta", FeatureGate: "GenericWorkload"}},
		// GA: no status
		{37, "io.k8s.api.core.v1.Container", "resizePolicy", schema.Lifecycle{MinVersion: "v1.27", FeatureGate: "InPlacePodVerticalScaling"}},
		// from the description only: "This field is alpha and requires
		// EmptyDirVolumeMode featuregate to be enabled."
		{37, "io.k8s.api.core.v1.EmptyDirVolumeSource", "mode", schema.Lifecycle{MinVersion: "v1.37", Status: "alpha", FeatureGate: "EmptyDirVolumeMode"}},
	} {
		p, ok := schemasOf(t, tc.minor)[tc.def]
		if !ok {
			t.Errorf("1.%d: no %s", tc.minor, tc.def)
			continue
		}
		if got := p.Properties[tc.field].XAPILifecycle["kubernetes"]; got != tc.want {
			t.Errorf("1.%d %s.%s: %+v, want %+v", tc.minor, tc.def, tc.field, got, tc.want)
		}
	}
}

// mentionOnly are fields whose description names a feature gate that
// guards not the field but one of its values or a behaviour: the
// apiserver does not drop them when the gate is off, so they carry no
// lifecycle entry.
var mentionOnly = map[string]string{
	"StatefulSetUpdateStrategy.type":             "value Recreate (StatefulSetRecreateStrategy)",
	"FileKeySelector.key":                        "a size limit during alpha (EnvFiles guards fileKeyRef)",
	"PersistentVolumeClaimSpec.dataSourceRef":    "its namespace field (CrossNamespaceVolumeDataSource guards TypedObjectReference.namespace)",
	"PersistentVolumeSpec.nodeAffinity":          "mutability (MutablePVNodeAffinity)",
	"PodResourceClaim.resourceClaimTemplateName": "behaviour (DRAWorkloadResourceClaims)",
	"HorizontalPodAutoscalerSpec.minReplicas":    "value 0 (HPAScaleToZero, a +k8s:ifEnabled rule)",
	"PodSecurityContext.seLinuxChangePolicy":     "value MountOption (SELinuxMount; SELinuxChangePolicy guards the field)",
	"PodSecurityContext.supplementalGroups":      "behaviour (SupplementalGroupsPolicy guards supplementalGroupsPolicy)",
	"PodResourceClaimStatus.resourceClaimName":   "behaviour (DRAWorkloadResourceClaims)",
	"Toleration.operator":                        "values Lt and Gt (TaintTolerationComparisonOperators)",
	"CELDeviceSelector.expression":               "a CEL helper (DRAListTypeAttributes)",
	"DeviceConstraint.matchAttribute":            "set semantics (DRAListTypeAttributes)",
	"DeviceConstraint.distinctAttribute":         "set semantics (DRAListTypeAttributes)",
	"APIResource.storageVersionHash":             "populated by the apiserver (StorageVersionHash)",
	"StorageClass.allowedTopologies":             "VolumeScheduling, GA and removed",
	"StorageClass.volumeBindingMode":             "VolumeScheduling, GA and removed",
	"Probe.terminationGracePeriodSeconds":        "ProbeTerminationGracePeriod, GA and removed",
	"RollingUpdateDaemonSet.maxSurge":            "DaemonSetUpdateSurge, GA and removed",
	// Named in the descriptions of 1.30-1.36, whose gates the older
	// k8s.io/kubernetes sources add (gendata.OlderKubernetesVersions).
	"PersistentVolumeClaimSpec.dataSource":               "behaviour (AnyVolumeDataSource widens the kinds dataSource accepts)",
	"PersistentVolumeClaimSpec.resources":                "behaviour (RecoverVolumeExpansionFailure lets a failed expansion be reduced)",
	"PersistentVolumeSource.portworxVolume":              "behaviour (CSIMigrationPortworx redirects the volume to its CSI driver)",
	"PersistentVolumeSpec.portworxVolume":                "behaviour (CSIMigrationPortworx)",
	"Volume.portworxVolume":                              "behaviour (CSIMigrationPortworx)",
	"VolumeSource.portworxVolume":                        "behaviour (CSIMigrationPortworx)",
	"JobStatus.terminating":                              "a status field the controller fills (JobPodReplacementPolicy)",
	"JobStatus.failedIndexes":                            "a status field the controller fills (JobBackoffLimitPerIndex)",
	"PodFailurePolicyRule.action":                        "value FailIndex (JobBackoffLimitPerIndex)",
	"StatefulSetSpec.ordinals":                           "StatefulSetStartOrdinal in apps/v1beta1 and v1beta2, not served (apps/v1 has its lifecycle)",
	"PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy": "PDBUnhealthyPodEvictionPolicy in policy/v1beta1, not served (policy/v1 has its lifecycle)",
}

// Every field whose description names a feature gate has a lifecycle
// entry naming it, or is in mentionOnly with the reason it has none.
func TestGateNamingFieldsHaveLifecycle(t *testing.T) {
	d, err := featureGates()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, minor := range Versions() {
		for name, p := range schemasOf(t, minor) {
			short := name[strings.LastIndex(name, ".")+1:]
			for field, q := range p.Properties {
				_, named := gates.GatesInDescription(q.Description)
				key := short + "." + field
				for _, g := range named {
					if _, ok := d.Gates[g]; !ok && !strings.Contains(mentionOnly[key], g) {
						continue // not a gate name ("the feature gate" after a word)
					}
					if slices.Contains(gates.Split(q.XAPILifecycle["kubernetes"].FeatureGate), g) {
						continue
					}
					if _, ok := mentionOnly[key]; ok {
						used[key] = true
						continue
					}
					t.Errorf("1.%d %s.%s: description names feature gate %s, no lifecycle entry names it", minor, name, field, g)
				}
			}
		}
	}
	for k := range mentionOnly {
		if !used[k] {
			t.Errorf("mentionOnly %s: no field needs it", k)
		}
	}
}

// ParseFeatureGates never panics; what it accepts, it accepts again from
// its own setting, and every gate it sets by name is one it knows.
func FuzzParseFeatureGates(f *testing.F) {
	for _, s := range []string{"", "ContainerStopSignals=true", "AllAlpha=true,PodLevelResources=false", "a=b=c", ",,=,", "X", " InPlacePodVerticalScaling = true "} {
		f.Add(s, 37)
	}
	f.Fuzz(func(t *testing.T, value string, minor int) {
		minor = 30 + (minor%10+10)%10
		fg, err := ParseFeatureGates(value, minor)
		if err != nil {
			return
		}
		var parts []string
		for name, on := range fg.set {
			if _, ok := FeatureGate(name, minor); !ok {
				t.Fatalf("%q: set unknown gate %q", value, name)
			}
			parts = append(parts, fmt.Sprintf("%s=%v", name, on))
		}
		again, err := ParseFeatureGates(strings.Join(parts, ","), minor)
		if err != nil {
			t.Fatalf("%q: its setting %v does not parse: %v", value, parts, err)
		}
		for name := range fg.set {
			if again.Enabled(name, minor) != fg.Enabled(name, minor) {
				t.Fatalf("%q: %s differs", value, name)
			}
		}
	})
}
