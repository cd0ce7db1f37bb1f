package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	featuregatetesting "k8s.io/component-base/featuregate/testing"

	"kdv.dev/builtin"
	"kdv.dev/manifest"
	"kdv.dev/resource"
)

// gatedDeployment is a Deployment whose pod template spec carries extra
// (YAML lines indented for the pod spec) and whose container carries
// container (a flow-mapping entry).
func gatedDeployment(container, extra string) string {
	if container != "" {
		container = ", " + container
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers:
      - {name: c, image: i%s}
%s`, container, extra)
}

const gatedStatefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: default}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers:
      - {name: c, image: i}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0}}
`

// The API-change guide's rules for gated fields, kdv against
// k8s.io/kubernetes's own strategies (PrepareForCreate/PrepareForUpdate
// drop the fields of disabled features) with the same feature gates, set
// in the reference with featuregatetesting.SetFeatureGateDuringTest and in
// kdv with --feature-gates. Verdicts and error fields must agree. The
// reference cannot show an update whose old object uses a field its gate
// now disables: it stores the old object under the same gates, which drop
// the field (kdv's side: resource TestGatedFieldRules).
func TestGatedFieldsMatchApiserver(t *testing.T) {
	stop := func(v string) string { return "lifecycle: {stopSignal: " + v + "}" }
	for _, tc := range []struct {
		name     string
		doc, old string
		gates    string // kdv's --feature-gates, also set in the reference
		rejected bool
		// gap: kdv is known to accept what the reference rejects; the
		// row fails when that changes, to be moved to the agreeing rows.
		gap bool
	}{
		{name: "alpha off, create: dropped", doc: gatedDeployment(stop("SIGBOGUS"), "")},
		{name: "alpha on, create: validated", doc: gatedDeployment(stop("SIGBOGUS"), ""), gates: "ContainerStopSignals=true", rejected: true},
		{name: "alpha on, create: valid", doc: gatedDeployment(stop("SIGTERM"), "      os: {name: linux}\n"), gates: "ContainerStopSignals=true"},
		// Known gap: ValidatePodSpec's validateStopSignal forbids a stop
		// signal without spec.os.name, a cross-field rule reported at each
		// container's path, which no static fieldPath of a CEL rule on
		// PodSpec can say; kdv accepts.
		{name: "alpha on, create: no os (known gap)", doc: gatedDeployment(stop("SIGTERM"), ""), gates: "ContainerStopSignals=true", rejected: true, gap: true},
		{name: "alpha off, update, only new: dropped", doc: gatedDeployment(stop("SIGBOGUS"), ""), old: gatedDeployment("", "")},
		{name: "alpha on, update: validated", doc: gatedDeployment(stop("SIGBOGUS"), ""), old: gatedDeployment("", ""), gates: "ContainerStopSignals=true", rejected: true},
		{name: "alpha off, create (volume): dropped", doc: gatedDeployment("", "      volumes:\n      - {name: v, emptyDir: {mode: 0755}}\n")},
		{name: "beta off by default, create: dropped", doc: gatedDeployment("", "      schedulingGroup: {podGroupName: g}\n")},
		{name: "beta on by default: validated", doc: gatedStatefulSet, rejected: true},
		{name: "beta turned off: dropped", doc: gatedStatefulSet, gates: "MaxUnavailableStatefulSet=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fg, err := builtin.ParseFeatureGates(tc.gates, builtinMinor)
			if err != nil {
				t.Fatal(err)
			}
			for kv := range strings.SplitSeq(tc.gates, ",") {
				if k, v, ok := strings.Cut(kv, "="); ok {
					featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, featuregate.Feature(k), v == "true")
				}
			}
			var old []byte
			if tc.old != "" {
				old = []byte(tc.old)
			}
			ref, err := CheckBuiltin([]byte(tc.doc), old)
			if err != nil {
				t.Fatal(err)
			}
			var refFields []string
			for _, e := range ref.Errors {
				refFields = append(refFields, e.Field)
			}
			kdvFields, warnings := kdvGated(t, tc.doc, tc.old, fg)
			slices.Sort(refFields)
			slices.Sort(kdvFields)
			if tc.gap {
				if !ref.Rejected() || len(kdvFields) != 0 {
					t.Errorf("known gap changed: reference errors %v, kdv errors at %v", ref.Errors, kdvFields)
				}
				return
			}
			if ref.Rejected() != tc.rejected || !slices.Equal(refFields, kdvFields) {
				t.Errorf("reference: rejected %v, errors %v; kdv: errors at %v (warnings %q); want rejected %v", ref.Rejected(), ref.Errors, kdvFields, warnings, tc.rejected)
			}
		})
	}
}

// kdvGated validates doc (an update of old when old is not empty) as
// kdv validate --feature-gates does, and returns the errors' fields.
func kdvGated(t *testing.T, doc, old string, fg builtin.FeatureGates) (fields, warnings []string) {
	t.Helper()
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: builtinMinor, FeatureGates: fg})
	if err := resource.UseBuiltin(reg, builtinMinor); err != nil {
		t.Fatal(err)
	}
	d := manifest.Parse("doc.yaml", []byte(doc), manifest.Options{})[0]
	val, err := reg.Validator(d.GVK())
	if err != nil {
		t.Fatal(err)
	}
	var oldObj map[string]any
	if old != "" {
		oldObj = manifest.Parse("old.yaml", []byte(old), manifest.Options{})[0].Object
	}
	out := val.Validate(context.Background(), d.Object, oldObj)
	if out.DecodeErr != nil || out.DecodeError != "" || len(out.UnknownFields) > 0 {
		t.Fatalf("kdv decode: %v %s %v", out.DecodeErr, out.DecodeError, out.UnknownFields)
	}
	for _, e := range out.Errors {
		fields = append(fields, e.Field)
	}
	return fields, out.Warnings
}
