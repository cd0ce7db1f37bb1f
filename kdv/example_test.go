package kdv_test

import (
	"context"
	"fmt"
	"log"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	"kdv.dev/kdv"
)

// gatewayClassCRD is the Gateway API GatewayClass CRD, copied unchanged
// from kubernetes-sigs/gateway-api (testdata/SOURCE).
const gatewayClassCRD = "testdata/gateway.networking.k8s.io_gatewayclasses.yaml"

// A custom resource checked against its CRD, as an operator's unit test
// would check it instead of creating it in envtest.
func Example() {
	v, err := kdv.New(kdv.WithCRDFiles(gatewayClassCRD))
	if err != nil {
		log.Fatal(err)
	}
	gc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "gateway.networking.k8s.io/v1",
		"kind":       "GatewayClass",
		"metadata":   map[string]any{"name": "internet"},
		"spec":       map[string]any{"controllerName": "example.com gateway"},
	}}
	res, err := v.Validate(context.Background(), gc)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range res.Errors {
		fmt.Println(e)
	}
	fmt.Println(apierrors.IsInvalid(res.Err()))
	// Output:
	// spec.controllerName: Invalid value: "example.com gateway": spec.controllerName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$'
	// true
}

// A built-in kind, typed: the Go type gives the apiVersion and kind, and
// Err is the error the apiserver answers.
func ExampleValidator_Validate() {
	v, err := kdv.New() // the built-in kinds of the newest release kdv embeds
	if err != nil {
		log.Fatal(err)
	}
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](-1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
	res, err := v.Validate(context.Background(), d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Err())
	// Output:
	// Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
}

// An update that changes a field whose CEL rule forbids it (a transition
// rule, self == oldSelf).
func ExampleValidator_ValidateUpdate() {
	v, err := kdv.New(kdv.WithCRDFiles(gatewayClassCRD))
	if err != nil {
		log.Fatal(err)
	}
	gatewayClass := func(controller string) map[string]any {
		return map[string]any{
			"apiVersion": "gateway.networking.k8s.io/v1",
			"kind":       "GatewayClass",
			"metadata":   map[string]any{"name": "internet"},
			"spec":       map[string]any{"controllerName": controller},
		}
	}
	old := gatewayClass("example.com/gateway")
	res, err := v.ValidateUpdate(context.Background(), gatewayClass("example.com/other-gateway"), old)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Err())
	// Output:
	// GatewayClass.gateway.networking.k8s.io "internet" is invalid: spec.controllerName: Invalid value: "example.com/other-gateway": field is immutable
}

// Several documents at once; unknown fields are the apiserver's strict
// decoding errors (WithFieldValidation chooses).
func ExampleValidator_ValidateYAML() {
	v, err := kdv.New(kdv.WithCRDFiles(gatewayClassCRD))
	if err != nil {
		log.Fatal(err)
	}
	results, err := v.ValidateYAML(context.Background(), "gateway.yaml", []byte(`
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: internet
spec:
  controllerName: example.com/gateway
  colour: blue
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: debug
`))
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Printf("line %d: %s %s: valid %t: %v\n", r.Line, r.GVK.Kind, r.Name, r.Valid(), r.Err())
	}
	// Output:
	// line 2: GatewayClass internet: valid false: GatewayClass in version "v1" cannot be handled as a GatewayClass: strict decoding error: unknown field "spec.colour"
	// line 10: ConfigMap settings: valid true: <nil>
}
