package defaulting_test

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/defaulting"
	"kdv.dev/schema"
)

func mustStructural(j string) *schema.Structural {
	var p schema.Props
	if err := json.Unmarshal([]byte(j), &p); err != nil {
		panic(err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		panic(err)
	}
	return s
}

// ExampleDefault defaults a parent, then the defaulted parent's fields.
func ExampleDefault() {
	s := mustStructural(`{"type":"object","properties":{"spec":{"type":"object","default":{},
		"properties":{"replicas":{"type":"integer","default":1},"paused":{"type":"boolean","default":false}}}}}`)
	obj := map[string]any{}
	defaulting.Default(obj, s) // or defaulting.NewDefaulter(s).Default(obj), compiled once
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output: {"spec":{"paused":false,"replicas":1}}
}

// ExampleValidateDefaults checks a CRD version schema's defaults as the
// apiserver does on CRD create. The empty name before "in body" is the
// apiserver's: the default is validated as a value of its own.
func ExampleValidateDefaults() {
	s := mustStructural(`{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"replicas":{"type":"integer","minimum":1,"default":0},
		"mode":{"type":"object","properties":{"a":{"type":"string"}},"default":{"a":"x","b":"y"}}}}}}`)
	errs, err := defaulting.ValidateDefaults(context.Background(),
		field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s, true, true)
	if err != nil {
		fmt.Println(err)
	}
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[mode].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1
}
