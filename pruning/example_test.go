package pruning_test

import (
	"encoding/json"
	"fmt"

	"kdv.dev/pruning"
	"kdv.dev/schema"
)

// Example runs the apiserver's decode-time steps on a custom resource with
// strict field validation.
func Example() {
	var props schema.Props
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"replicas":{"type":"integer"},"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}`), &props)
	s, _ := schema.NewStructural(&props)

	var obj map[string]any
	_ = json.Unmarshal([]byte(`{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"a","nmae":"typo"},
		"spec":{"replicas":1,"replica":2,"template":{"kind":"Pod","metadata":{"labels":{"a":"b"},"bogus":1},"anything":true}}}`), &obj)

	unknown, err := pruning.Apply(obj, s, pruning.ApplyOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range pruning.UnknownFieldErrors(unknown) {
		fmt.Println(e)
	}
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output:
	// unknown field "metadata.nmae"
	// unknown field "spec.replica"
	// unknown field "spec.template.metadata.bogus"
	// {"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"a"},"spec":{"replicas":1,"template":{"anything":true,"kind":"Pod","metadata":{"labels":{"a":"b"}}}}}
}
