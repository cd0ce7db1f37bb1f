package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
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
		// ValidatePodSpec's validateStopSignal forbids a stop signal
		// without spec.os, reported at each container's path (a PodSpec
		// rule with a wildcard fieldPath, core_v1_gated.tags).
		{name: "alpha on, create: no os", doc: gatedDeployment(stop("SIGTERM"), ""), gates: "ContainerStopSignals=true", rejected: true},
		{name: "alpha off, update, only new: dropped", doc: gatedDeployment(stop("SIGBOGUS"), ""), old: gatedDeployment("", "")},
		{name: "alpha on, update: validated", doc: gatedDeployment(stop("SIGBOGUS"), ""), old: gatedDeployment("", ""), gates: "ContainerStopSignals=true", rejected: true},
		{name: "alpha off, create (volume): dropped", doc: gatedDeployment("", "      volumes:\n      - {name: v, emptyDir: {mode: 0755}}\n")},
		{name: "beta off by default, create: dropped", doc: gatedDeployment("", "      schedulingGroup: {podGroupName: g}\n")},
		{name: "beta on by default: validated", doc: gatedStatefulSet, rejected: true},
		{name: "beta turned off: dropped", doc: gatedStatefulSet, gates: "MaxUnavailableStatefulSet=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fg := setGates(t, tc.gates)
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

// setGates sets gates (kube-apiserver --feature-gates syntax) in the
// reference for the rest of the test and returns them parsed for kdv.
func setGates(t *testing.T, gates string) builtin.FeatureGates {
	t.Helper()
	fg, err := builtin.ParseFeatureGates(gates, builtinMinor)
	if err != nil {
		t.Fatal(err)
	}
	for kv := range strings.SplitSeq(gates, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, featuregate.Feature(k), v == "true")
		}
	}
	return fg
}

// referenceErrors runs the reference on doc (an update of old when old is
// not empty) and returns its verdict and its errors' whole strings; a
// decoding failure fails the test.
func referenceErrors(t *testing.T, doc, old string) (*BuiltinVerdict, []string) {
	t.Helper()
	var oldDoc []byte
	if old != "" {
		oldDoc = []byte(old)
	}
	ref, err := CheckBuiltin([]byte(doc), oldDoc)
	if err != nil {
		t.Fatal(err)
	}
	if ref.DecodeErr != "" {
		t.Fatalf("reference decode: %s", ref.DecodeErr)
	}
	var errs []string
	for _, e := range ref.Errors {
		errs = append(errs, e.Error())
	}
	return ref, errs
}

// kdvGated validates doc (an update of old when old is not empty) as
// kdv validate --feature-gates does, and returns the errors' fields.
func kdvGated(t *testing.T, doc, old string, fg builtin.FeatureGates) (fields, warnings []string) {
	t.Helper()
	out := kdvGatedOutcome(t, doc, old, fg)
	for _, e := range out.Errors {
		fields = append(fields, e.Field)
	}
	return fields, out.Warnings
}

// kdvGatedErrors is kdvGated with the errors' whole strings (field, type
// and detail).
func kdvGatedErrors(t *testing.T, doc, old string, fg builtin.FeatureGates) (errs, warnings []string) {
	t.Helper()
	out := kdvGatedOutcome(t, doc, old, fg)
	for _, e := range out.Errors {
		errs = append(errs, e.Error())
	}
	return errs, out.Warnings
}

// kdvGatedOutcome validates doc (an update of old when old is not empty)
// as kdv validate --feature-gates does; a decoding failure fails the test.
func kdvGatedOutcome(t *testing.T, doc, old string, fg builtin.FeatureGates) resource.Outcome {
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
	return out
}

// updateStoredWithGate runs the reference on an update of old to doc
// (both namespaced, in "default") where old was stored while gate was on
// and the update meets the gate's default (off): the one case of the
// API-change guide CheckBuiltin cannot show, since it stores old under the
// update's gates. The steps are CheckBuiltin's.
func updateStoredWithGate(t *testing.T, doc, old string, gate featuregate.Feature) *BuiltinVerdict {
	t.Helper()
	ctx := context.Background()
	k, gvk, j, err := lookupBuiltin([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := decodeBuiltin(j, gvk)
	if err != nil {
		t.Fatal(err)
	}
	om, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	rest.WipeObjectMetaSystemFields(om)
	ctx = request.WithNamespace(ctx, metav1.NamespaceDefault)
	ctx = request.WithRequestInfo(ctx, &request.RequestInfo{
		IsResourceRequest: true, Verb: "update", APIGroup: gvk.Group, APIVersion: gvk.Version,
		Resource: k.resource, Namespace: metav1.NamespaceDefault, Name: om.GetName(),
	})
	var oldObj runtime.Object
	t.Run("store old with "+string(gate), func(t *testing.T) {
		featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, gate, true)
		oldObj, err = storedBuiltin(ctx, k, gvk, []byte(old))
	})
	if err != nil {
		t.Fatal(err)
	}
	if utilfeature.DefaultFeatureGate.Enabled(gate) {
		t.Fatalf("%s still on", gate)
	}
	om.SetResourceVersion("1")
	if k.beginUpdate != nil {
		k.beginUpdate(obj, oldObj)
	}
	v := &BuiltinVerdict{GVK: gvk}
	v.Errors, v.Warnings = beforeUpdate(ctx, k.strategy, obj, oldObj, om)
	return v
}

// The update rule the reference shows only with old stored under other
// gates: a field whose gate is now off is kept, and validated, when the
// old object uses it (the stop signal changed to an unsupported one is an
// error in both), and it is dropped when only the new object has it.
func TestGatedFieldKeptOnUpdateMatchesApiserver(t *testing.T) {
	const gate = "ContainerStopSignals"
	os := "      os: {name: linux}\n"
	for _, tc := range []struct {
		name, doc, old string
		rejected       bool
	}{
		{"old uses it: kept and validated", gatedDeployment("lifecycle: {stopSignal: SIGBOGUS}", os), gatedDeployment("lifecycle: {stopSignal: SIGTERM}", os), true},
		{"old uses it: kept, valid", gatedDeployment("lifecycle: {stopSignal: SIGKILL}", os), gatedDeployment("lifecycle: {stopSignal: SIGTERM}", os), false},
		{"old does not: dropped", gatedDeployment("lifecycle: {stopSignal: SIGBOGUS}", os), gatedDeployment("", os), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := updateStoredWithGate(t, tc.doc, tc.old, gate)
			var refFields []string
			for _, e := range ref.Errors {
				refFields = append(refFields, e.Field)
			}
			kdvFields, warnings := kdvGated(t, tc.doc, tc.old, builtin.FeatureGates{})
			if ref.Rejected() != tc.rejected || !slices.Equal(refFields, kdvFields) {
				t.Errorf("reference: rejected %v, errors %v; kdv: errors at %v (warnings %q); want rejected %v", ref.Rejected(), ref.Errors, kdvFields, warnings, tc.rejected)
			}
		})
	}
}
