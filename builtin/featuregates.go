package builtin

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"kdv.dev/builtin/internal/gates"
	"kdv.dev/schema"
)

// featureGatesJSON is generated from the versioned feature specs of
// k8s.io/kubernetes v1.37.2 pkg/features (defaultVersionedKubernetesFeatureGates,
// which lists the kube-apiserver's gates including k8s.io/apiserver's and
// k8s.io/apiextensions-apiserver's), read as source by
// internal/cmd/genfeaturegates.
//
//go:embed data/featuregates.json
var featureGatesJSON []byte

// Stages of a feature gate at a release.
const (
	StageAlpha      = gates.Alpha
	StageBeta       = gates.Beta
	StageGA         = gates.GA
	StageDeprecated = gates.Deprecated
	// StagePreAlpha is a gate at a release before its first spec: off,
	// and a cluster cannot turn it on.
	StagePreAlpha = gates.PreAlpha
)

// Gate is a feature gate of the kube-apiserver as one release has it.
type Gate struct {
	Name string
	// Default says whether the gate is on unless --feature-gates says
	// otherwise.
	Default bool
	// Stage is StageAlpha, StageBeta, StageGA, StageDeprecated or
	// StagePreAlpha.
	Stage string
	// LockToDefault: a cluster cannot set the gate to anything but
	// Default.
	LockToDefault bool
	// Since is the release the spec in force applies from ("1.33").
	Since string
}

var featureGates = sync.OnceValues(func() (*gates.Data, error) {
	var d gates.Data
	if err := json.Unmarshal(featureGatesJSON, &d); err != nil {
		return nil, fmt.Errorf("builtin: data/featuregates.json: %w", err)
	}
	return &d, nil
})

// FeatureGate returns gate name as Kubernetes 1.<minor> has it (its
// versioned spec in force at that release, as a kube-apiserver emulating
// it picks it); false when the kube-apiserver does not know the gate.
func FeatureGate(name string, minor int) (Gate, bool) {
	d, err := featureGates()
	if err != nil {
		return Gate{}, false
	}
	specs, ok := d.Gates[name]
	if !ok {
		return Gate{}, false
	}
	s := gates.At(specs, minor)
	return Gate{Name: name, Default: s.Default, Stage: s.PreRelease, LockToDefault: s.LockToDefault, Since: s.Version}, true
}

// FeatureGateNames returns the names of every gate the kube-apiserver
// knows, sorted.
func FeatureGateNames() []string {
	d, err := featureGates()
	if err != nil {
		return nil
	}
	return sortedKeys(d.Gates)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// FeatureGates is a cluster's --feature-gates setting: gates set to true
// or false, over the defaults of its release. The zero value is a cluster
// with default gates.
type FeatureGates struct {
	set map[string]bool
	// allAlpha and allBeta are AllAlpha and AllBeta: every alpha (beta)
	// gate not set by name takes their value.
	allAlpha, allBeta *bool
}

// ParseFeatureGates parses kube's --feature-gates syntax,
// "Gate=true,Other=false" (component-base featuregate Set: values as
// strconv.ParseBool reads them; AllAlpha and AllBeta set every alpha or
// beta gate), and checks each gate as the kube-apiserver of
// 1.<minor> does: an unknown gate, a gate locked to its default and set
// otherwise, and a gate not yet in that release are errors naming it.
func ParseFeatureGates(value string, minor int) (FeatureGates, error) {
	var fg FeatureGates
	for s := range strings.SplitSeq(value, ",") {
		if len(s) == 0 {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return FeatureGates{}, fmt.Errorf("missing bool value for %s", k)
		}
		v = strings.TrimSpace(v)
		on, err := strconv.ParseBool(v)
		if err != nil {
			return FeatureGates{}, fmt.Errorf("invalid value of %s=%s, err: %v", k, v, err)
		}
		switch k {
		case "AllAlpha":
			fg.allAlpha = &on
			continue
		case "AllBeta":
			fg.allBeta = &on
			continue
		}
		g, known := FeatureGate(k, minor)
		switch {
		case !known:
			return FeatureGates{}, fmt.Errorf("unrecognized feature gate: %s", k)
		case g.LockToDefault && g.Default != on:
			return FeatureGates{}, fmt.Errorf("cannot set feature gate %s to %v, feature is locked to %v", k, on, g.Default)
		case g.Stage == StagePreAlpha:
			return FeatureGates{}, fmt.Errorf("cannot set feature gate %s to %v, feature is PreAlpha at emulated version 1.%d", k, on, minor)
		}
		if fg.set == nil {
			fg.set = map[string]bool{}
		}
		fg.set[k] = on
	}
	return fg, nil
}

// Enabled reports whether gate name is on in a Kubernetes 1.<minor>
// cluster with these settings: set by name, else by AllAlpha or AllBeta
// for a gate of that stage that is not locked, else its default. A gate
// the kube-apiserver does not know is off.
func (fg FeatureGates) Enabled(name string, minor int) bool {
	if on, ok := fg.set[name]; ok {
		return on
	}
	g, ok := FeatureGate(name, minor)
	if !ok {
		return false
	}
	if !g.LockToDefault {
		if g.Stage == StageAlpha && fg.allAlpha != nil {
			return *fg.allAlpha
		}
		if g.Stage == StageBeta && fg.allBeta != nil {
			return *fg.allBeta
		}
	}
	return g.Default
}

// Setting returns the value gate name is set to by name, and whether it
// is.
func (fg FeatureGates) Setting(name string) (on, set bool) {
	on, set = fg.set[name]
	return on, set
}

// IsZero reports whether no gate is set (the cluster runs the defaults).
func (fg FeatureGates) IsZero() bool {
	return len(fg.set) == 0 && fg.allAlpha == nil && fg.allBeta == nil
}

// AnnotateFeatureGates publishes, in OpenAPI definitions of k8s.io/api
// types (by name, as kdv gen openapi writes them), the KEP-2558 lifecycle
// of every field guarded by a feature gate in Kubernetes 1.<minor>, as the
// embedded schemas carry it: x-kubernetes-api-lifecycle {kubernetes:
// {minVersion, status, featureGate}}, status being the least mature stage
// of the field's gates (alpha, beta, deprecated; none once GA) and
// minVersion the release its gate was introduced in. Gated fields are
// those of +featureGate and +lifecycle tags and those whose description
// says they need a gate ("This is an alpha field and requires enabling
// the X feature gate"). It returns notes about gates it does not know.
func AnnotateFeatureGates(schemas map[string]*schema.Props, minor int) ([]string, error) {
	d, err := featureGates()
	if err != nil {
		return nil, err
	}
	return d.Annotate(schemas, minor), nil
}
