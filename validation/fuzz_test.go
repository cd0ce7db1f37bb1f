package validation

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kdv.dev/schema"
)

// FuzzValidate checks that no schema/value pair makes the validator panic,
// on create and on update, and that deep nesting is bounded.
func FuzzValidate(f *testing.F) {
	for _, tc := range apiserverCases {
		for _, fl := range tc.failing {
			b, _ := json.Marshal(fl.obj)
			f.Add(tc.schema, string(b), "")
			f.Add(tc.schema, string(b), string(b))
		}
	}
	f.Add(typedSchema, `{"spec":{"items":[{"name":"a"},{"name":"a"}],"tags":["a","a"]}}`, `{"spec":{"items":[{"name":"a","value":1}]}}`)
	f.Add(`{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object"}}}`, `{"metadata":{"name":".."}}`, `{}`)
	f.Add(`{"type":"array","items":{"type":"array","items":{"type":"array"}}}`, strings.Repeat("[", 200)+strings.Repeat("]", 200), "")
	f.Add(`{"anyOf":[{"type":"integer"},{"oneOf":[{"enum":[1,"a",null]},{"not":{"minimum":1}}]}],"allOf":[{"multipleOf":0}]}`, `1.5`, `1`)
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON, oldJSON string) {
		var p schema.Props
		if json.Unmarshal([]byte(schemaJSON), &p) != nil {
			return
		}
		s, err := schema.NewStructural(&p)
		if err != nil {
			return
		}
		for _, root := range []bool{false, true} {
			v, err := New(s, Options{IsResourceRoot: root, SkipCEL: true})
			if err != nil {
				return
			}
			var obj, old schema.JSON
			if obj.UnmarshalJSON([]byte(objJSON)) != nil {
				return
			}
			_ = v.Validate(context.Background(), obj.Object, nil)
			if old.UnmarshalJSON([]byte(oldJSON)) == nil && oldJSON != "" {
				_, _ = v.ValidateWithWarnings(context.Background(), obj.Object, old.Object)
			}
		}
	})
}

func TestDeepNestingBounded(t *testing.T) {
	v := mustValidator(t, `{"type":"array","items":{"type":"array"}}`, Options{})
	var x any = []any{}
	for i := 0; i < 20000; i++ {
		x = []any{x}
	}
	_ = v.Validate(context.Background(), x, x)
	// A schema nested beyond the compile limit is refused, not crashed on.
	deep := &schema.Structural{Generic: schema.Generic{Type: "array"}}
	for i := 0; i < maxSchemaDepth+5; i++ {
		deep = &schema.Structural{Generic: schema.Generic{Type: "array"}, Items: deep}
	}
	if _, err := New(deep, Options{}); err == nil {
		t.Error("New accepted a schema nested beyond the limit")
	}
}
