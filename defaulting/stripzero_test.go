package defaulting

import (
	"reflect"
	"testing"

	"kdv.dev/schema/schematest"
)

// x-kubernetes-strip-zero removes the JSON zero value of a field before
// defaults apply, as Go decoding of a non-pointer field into a built-in
// type does: imagePullPolicy: "" is unset, and protocol: "" gets the
// default "TCP" like an absent protocol (k8s.io/kubernetes
// pkg/apis/core/v1 SetDefaults_ContainerPort).
func TestStripZero(t *testing.T) {
	s := schematest.Structural(t, `
type: object
properties:
  imagePullPolicy: {type: string, x-kubernetes-strip-zero: true}
  protocol: {type: string, default: TCP, x-kubernetes-strip-zero: true}
  paused: {type: boolean, x-kubernetes-strip-zero: true}
  replicas: {type: integer, x-kubernetes-strip-zero: true}
  ratio: {type: number, x-kubernetes-strip-zero: true}
  args: {type: array, items: {type: string}, x-kubernetes-strip-zero: true}
  labels: {type: object, additionalProperties: {type: string}, x-kubernetes-strip-zero: true}
  name: {type: string}
  ports:
    type: array
    items:
      type: object
      properties:
        protocol: {type: string, default: TCP, x-kubernetes-strip-zero: true}
`)
	for _, tc := range []struct {
		name string
		in   map[string]any
		want map[string]any
	}{
		{"zero values are stripped, then defaulted",
			map[string]any{"imagePullPolicy": "", "protocol": "", "paused": false, "replicas": int64(0), "ratio": float64(0), "args": []any{}, "labels": map[string]any{}, "name": ""},
			map[string]any{"protocol": "TCP", "name": ""}},
		{"other values stay",
			map[string]any{"imagePullPolicy": "Always", "protocol": "UDP", "paused": true, "replicas": int64(3), "ratio": 0.5, "args": []any{""}, "labels": map[string]any{"a": ""}},
			map[string]any{"imagePullPolicy": "Always", "protocol": "UDP", "paused": true, "replicas": int64(3), "ratio": 0.5, "args": []any{""}, "labels": map[string]any{"a": ""}}},
		{"a zero of another type is not the field's zero: left for validation",
			map[string]any{"imagePullPolicy": false, "replicas": "", "protocol": int64(0)},
			map[string]any{"imagePullPolicy": false, "replicas": "", "protocol": int64(0)}},
		{"nested in list items",
			map[string]any{"ports": []any{map[string]any{"protocol": ""}, map[string]any{}}},
			map[string]any{"protocol": "TCP", "ports": []any{map[string]any{"protocol": "TCP"}, map[string]any{"protocol": "TCP"}}}},
	} {
		for _, compiled := range []bool{false, true} {
			x := deepCopyJSON(tc.in).(map[string]any)
			if compiled {
				NewDefaulter(s).Default(x)
			} else {
				Default(x, s)
			}
			if !reflect.DeepEqual(x, tc.want) {
				t.Errorf("%s (compiled %v):\n got %v\nwant %v", tc.name, compiled, x, tc.want)
			}
		}
	}
}
