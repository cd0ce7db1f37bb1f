package cel_test

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/cel"
	"kdv.dev/schema"
)

// Compile the rules of a schema once, then validate objects on create and
// update; the CRD-time errors come back from NewValidator.
func ExampleNewValidator() {
	var props schema.Props
	_ = json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {"spec": {
			"type": "object",
			"properties": {"replicas": {"type": "integer"}, "mode": {"type": "string"}},
			"x-kubernetes-validations": [
				{"rule": "self.replicas >= 0", "message": "replicas must not be negative"},
				{"rule": "self.mode == oldSelf.mode", "message": "mode is immutable"}
			]
		}}
	}`), &props)
	s, _ := schema.NewStructural(&props)
	v, errs := cel.NewValidator(s, true, cel.Options{FieldPath: field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")})
	fmt.Println("compile errors:", len(errs))

	obj := map[string]any{"spec": map[string]any{"replicas": int64(-1), "mode": "a"}}
	old := map[string]any{"spec": map[string]any{"replicas": int64(1), "mode": "b"}}
	created, _ := v.Validate(context.Background(), nil, obj, nil, cel.RuntimeCELCostBudget)
	fmt.Println(created.ToAggregate())
	updated, _ := v.Validate(context.Background(), nil, obj, old, cel.RuntimeCELCostBudget)
	fmt.Println(updated.ToAggregate())
	// Output:
	// compile errors: 0
	// spec: Invalid value: replicas must not be negative
	// [spec: Invalid value: replicas must not be negative, spec: Invalid value: mode is immutable]
}
