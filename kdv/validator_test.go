package kdv_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"kdv.dev/kdv"
)

// The expected messages below are the apiserver's: for GatewayClass,
// bench/cmd/apiserver-verdict (k8s.io/apiextensions-apiserver v0.37.2) on
// the same objects; for built-in kinds, bench/cmd/builtin-verdict
// (k8s.io/kubernetes v1.37.2), as in the README.

const patternError = `spec.controllerName: Invalid value: "bad name": spec.controllerName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$'`

var ctx = context.Background()

func newValidator(t testing.TB, opts ...kdv.Option) *kdv.Validator {
	t.Helper()
	v, err := kdv.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func gatewayClass(controller string, extra map[string]any) map[string]any {
	spec := map[string]any{"controllerName": controller}
	for k, x := range extra {
		spec[k] = x
	}
	return map[string]any{
		"apiVersion": "gateway.networking.k8s.io/v1",
		"kind":       "GatewayClass",
		"metadata":   map[string]any{"name": "eg"},
		"spec":       spec,
	}
}

func messages(r *kdv.Result) []string {
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Error())
	}
	return out
}

func TestGatewayClass(t *testing.T) {
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	for _, tc := range []struct {
		name         string
		obj, old     map[string]any
		errors       []string
		unknown      []string
		valid        bool
		badRequest   bool
		warnContains string
	}{
		{name: "valid", obj: gatewayClass("example.com/gateway", map[string]any{"description": "d"}), valid: true},
		{name: "pattern", obj: gatewayClass("bad name", nil), errors: []string{patternError}},
		{name: "unknown field and pattern", obj: gatewayClass("bad name", map[string]any{"colour": "x"}),
			unknown: []string{`unknown field "spec.colour"`}, errors: []string{patternError}, badRequest: true},
		{name: "transition rule", obj: gatewayClass("example.com/other", nil), old: gatewayClass("example.com/gateway", nil),
			errors: []string{`spec.controllerName: Invalid value: "example.com/other": field is immutable`}},
		{name: "unchanged update", obj: gatewayClass("example.com/gateway", nil), old: gatewayClass("example.com/gateway", nil), valid: true},
		// The apiserver ratchets the unchanged invalid value: no error on
		// update; kdv says so in a warning.
		{name: "ratcheted", obj: gatewayClass("bad name", map[string]any{"description": "new"}), old: gatewayClass("bad name", nil),
			valid: true, warnContains: "spec.controllerName"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r *kdv.Result
			var err error
			if tc.old != nil {
				r, err = v.ValidateUpdate(ctx, tc.obj, tc.old)
			} else {
				r, err = v.Validate(ctx, tc.obj)
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Valid() != tc.valid || (r.Err() == nil) != tc.valid {
				t.Errorf("Valid = %t, Err = %v", r.Valid(), r.Err())
			}
			if got := messages(r); !reflect.DeepEqual(got, tc.errors) {
				t.Errorf("errors\n got %q\nwant %q", got, tc.errors)
			}
			if !reflect.DeepEqual(r.UnknownFields, tc.unknown) {
				t.Errorf("unknown fields %q, want %q", r.UnknownFields, tc.unknown)
			}
			if tc.badRequest != apierrors.IsBadRequest(r.Err()) {
				t.Errorf("Err = %v: want a bad request: %t", r.Err(), tc.badRequest)
			}
			if !tc.valid && !tc.badRequest && !apierrors.IsInvalid(r.Err()) {
				t.Errorf("Err = %v: want Invalid", r.Err())
			}
			if tc.warnContains != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), tc.warnContains) {
				t.Errorf("warnings %q: want one about %s", r.Warnings, tc.warnContains)
			}
		})
	}
}

// Err is the apiserver's answer: a 422 with one cause per error, or the
// 400 of strict decoding.
func TestErr(t *testing.T) {
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	r, err := v.Validate(ctx, gatewayClass("bad name", nil))
	if err != nil {
		t.Fatal(err)
	}
	var se *apierrors.StatusError
	if !errors.As(r.Err(), &se) || se.ErrStatus.Code != 422 || len(se.ErrStatus.Details.Causes) != 1 ||
		se.ErrStatus.Details.Kind != "GatewayClass" || se.ErrStatus.Details.Group != "gateway.networking.k8s.io" || se.ErrStatus.Details.Name != "eg" {
		t.Errorf("Err = %#v", r.Err())
	}
	if want := `GatewayClass.gateway.networking.k8s.io "eg" is invalid: ` + patternError; r.Err().Error() != want {
		t.Errorf("Err = %q\nwant %q", r.Err(), want)
	}
	r, _ = v.Validate(ctx, gatewayClass("example.com/gc", map[string]any{"colour": "x"}))
	if want := `GatewayClass in version "v1" cannot be handled as a GatewayClass: strict decoding error: unknown field "spec.colour"`; r.Err() == nil || r.Err().Error() != want || !apierrors.IsBadRequest(r.Err()) {
		t.Errorf("Err = %v, want the 400 %q", r.Err(), want)
	}
}

// WithFieldValidation: Strict (default, kubectl's) rejects unknown fields,
// Warn (the apiserver's default for clients that do not say) prunes them
// with a warning, Ignore prunes them silently.
func TestFieldValidation(t *testing.T) {
	obj := gatewayClass("example.com/gc", map[string]any{"colour": "x"})
	for _, tc := range []struct {
		mode     string
		valid    bool
		warnings []string
	}{
		{"", false, nil},
		{metav1.FieldValidationStrict, false, nil},
		{metav1.FieldValidationWarn, true, []string{`unknown field "spec.colour"`}},
		{metav1.FieldValidationIgnore, true, nil},
	} {
		v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD), kdv.WithFieldValidation(tc.mode))
		r, err := v.Validate(ctx, obj)
		if err != nil {
			t.Fatal(err)
		}
		if r.Valid() != tc.valid || !reflect.DeepEqual(r.Warnings, tc.warnings) {
			t.Errorf("%q: valid %t, warnings %q; want %t, %q", tc.mode, r.Valid(), r.Warnings, tc.valid, tc.warnings)
		}
		if _, pruned := r.Object["spec"].(map[string]any)["colour"]; pruned {
			t.Errorf("%q: spec.colour not pruned from Object", tc.mode)
		}
	}
}

func deployment() *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
}

// Every accepted form of an object gets the same verdict: typed with or
// without TypeMeta, unstructured, a decoded map, and a map written in Go
// with ints, []any of maps and map[string]string.
func TestObjectForms(t *testing.T) {
	v := newValidator(t)
	const want = "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
	typed := deployment()
	typed.Spec.Replicas = ptr.To[int32](-1)
	withMeta := typed.DeepCopy()
	withMeta.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}
	decoded, err := runtime.DefaultUnstructuredConverter.ToUnstructured(withMeta)
	if err != nil {
		t.Fatal(err)
	}
	goMap := map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]string{"name": "web"},
		"spec": map[string]any{
			"replicas": -1, // an int, not int64
			"selector": map[string]any{"matchLabels": map[string]string{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]string{"app": "web"}},
				"spec":     map[string]any{"containers": []map[string]string{{"name": "web", "image": "nginx"}}},
			},
		},
	}
	for name, obj := range map[string]any{
		"typed":        typed,
		"typed meta":   withMeta,
		"unstructured": &unstructured.Unstructured{Object: decoded},
		"map":          decoded,
		"go map":       goMap,
	} {
		r, err := v.Validate(ctx, obj)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := messages(r); len(got) != 1 || got[0] != want || r.GVK.Kind != "Deployment" || r.GVK.Group != "apps" || r.Namespace != "default" {
			t.Errorf("%s: %v %s %q: %q", name, r.GVK, r.Namespace, r.Name, got)
		}
	}
	if typed.Namespace != "" || typed.Kind != "" {
		t.Errorf("the typed object was changed: %+v", typed.ObjectMeta)
	}
}

// Validate changes nothing of its argument; Result.Object is the object
// pruned and defaulted.
func TestInputUnchanged(t *testing.T) {
	v := newValidator(t)
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(deployment())
	if err != nil {
		t.Fatal(err)
	}
	obj["apiVersion"], obj["kind"] = "apps/v1", "Deployment"
	before := runtime.DeepCopyJSON(obj)
	r, err := v.Validate(ctx, obj)
	if err != nil || !r.Valid() {
		t.Fatal(err, r.Err())
	}
	if !reflect.DeepEqual(obj, before) {
		t.Errorf("Validate changed its argument:\n%v\n%v", obj, before)
	}
	if ns, _, _ := unstructured.NestedString(r.Object, "metadata", "namespace"); ns != "default" {
		t.Errorf("Result.Object namespace %q", ns)
	}
	if policy, _, _ := unstructured.NestedString(r.Object, "spec", "template", "spec", "restartPolicy"); policy != "Always" {
		t.Errorf("Result.Object not defaulted: restartPolicy %q", policy)
	}
}

// Typed objects without TypeMeta get their group from their package.
func TestTypedKinds(t *testing.T) {
	v := newValidator(t)
	for _, tc := range []struct {
		obj  runtime.Object
		want schema.GroupVersionKind
	}{
		{&corev1.Event{}, schema.GroupVersionKind{Version: "v1", Kind: "Event"}},
		{&eventsv1.Event{}, schema.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"}},
		{&networkingv1.Ingress{}, schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}},
		{&rbacv1.Role{}, schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}},
	} {
		r, err := v.Validate(ctx, tc.obj)
		if err != nil {
			t.Errorf("%T: %v", tc.obj, err)
			continue
		}
		if r.GVK != tc.want {
			t.Errorf("%T: %v, want %v", tc.obj, r.GVK, tc.want)
		}
	}
}
