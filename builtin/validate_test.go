package builtin

import (
	"context"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"kdv.dev/schema"
	"kdv.dev/validation"
	"sigs.k8s.io/yaml"
)

// TestValidateBuiltins runs kdv's validator with the embedded schemas on
// built-in objects and compares with the apiserver's answers for the same
// objects (kubectl apply --dry-run=server against 1.37).
func TestValidateBuiltins(t *testing.T) {
	tests := []struct {
		name, obj string
		old       string
		want      []string // substrings of the errors, in order; none = valid
	}{
		{name: "valid deployment", obj: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 500m, memory: 128Mi}}
`},
		{name: "bad quantity", obj: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: a
    image: b
    resources: {requests: {memory: 1GB}}
`, want: []string{`spec.containers[0].resources.requests.memory: Invalid value: "1GB": spec.containers[0].resources.requests.memory in body should match '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`}},
		{name: "missing container name", obj: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - image: nginx
`, want: []string{"spec.containers[0].name: Required value"}},
		{name: "replicas of the wrong type", obj: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: "two"
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: a, image: b}]}}
`, want: []string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`}},
		{name: "protocol not in enum", obj: `
apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports: [{port: 80, protocol: HTTP}]
`, want: []string{`spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`}},
		{name: "map key format (+k8s:eachKey=+k8s:format)", obj: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: dra.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  allNodes: true
  sharedCounters:
  - name: set
    counters: {Bad_Key: {value: "1"}}
`, want: []string{
			// The apiserver prints the key as the bad value
			// (Invalid value: "Bad_Key": a lowercase ...); kdv's built-in
			// rendering prints null and the key in the detail (both run
			// with BuiltIn, as resource.Validator does for built-in kinds).
			`Bad_Key: a lowercase RFC 1123 label must consist of`}},
		{name: "overlay +optional over k8s.io/api's +required", obj: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: dra.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  allNodes: true
  sharedCounters:
  - name: set
    counters: {bandwidth: {}}
`, want: nil},
		{name: "mode discriminator (+k8s:modeDiscriminator, +k8s:ifMode)", obj: `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: exempt}
spec:
  type: Exempt
  limited: {nominalConcurrencyShares: 1, limitResponse: {type: Reject}}
`, want: []string{"spec of 'exempt' except the 'spec.exempt' field must equal the fixed value", "spec.limited: Forbidden"}},
		{name: "mode discriminator, required member", obj: `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: p}
spec:
  type: Limited
`, want: []string{"spec.limited: Required value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Decoded as the apiserver decodes (integers as int64), which
			// CEL on integer fields needs.
			js, err := yaml.YAMLToJSON([]byte(tt.obj))
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]any
			if err := utiljson.Unmarshal(js, &obj); err != nil {
				t.Fatal(err)
			}
			av := obj["apiVersion"].(string)
			g, v, ok := strings.Cut(av, "/")
			if !ok {
				g, v = "", av
			}
			s, err := Lookup(37, schema.GroupVersionKind{Group: g, Version: v, Kind: obj["kind"].(string)})
			if err != nil {
				t.Fatal(err)
			}
			val, err := validation.New(s, validation.Options{IsResourceRoot: true, KubernetesMinor: 37, BuiltIn: true})
			if err != nil {
				t.Fatal(err)
			}
			var errs []error
			for _, e := range val.Validate(context.Background(), obj, nil) {
				// The CRD-only notice the validator adds when schema errors
				// stop CEL; the apiserver has no CEL for built-ins. (The
				// pipeline should drop it for built-in kinds.)
				if !strings.Contains(e.Error(), "some validation rules were not checked") {
					errs = append(errs, e)
				}
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("got %v, want %q", errs, tt.want)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tt.want[i]) {
					t.Errorf("error %d: %q, want %q", i, e.Error(), tt.want[i])
				}
			}
		})
	}
}
