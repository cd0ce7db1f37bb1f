package pruning

import (
	"kdv.dev/schema/schematest"
	"reflect"
	"testing"
)

// TestKEPExamples runs the eleven examples of KEP-2332 "Pruning for Custom
// Resources" (kubernetes/enhancements keps/sig-api-machinery/
// 2332-pruning-for-custom-resources, section Examples) through the whole
// decode step, as resources of apiVersion a/v1. Expectations are the
// apiserver's (checked against k8s.io/apiextensions-apiserver v0.37.2);
// where they differ from the KEP's text, the case says so: the
// implementation resumes pruning at every specified property below
// x-kubernetes-preserve-unknown-fields, and additionalProperties schemas do
// not inherit it.
func TestKEPExamples(t *testing.T) {
	tests := []struct {
		name        string
		schema      string
		in, want    string
		wantUnknown []string
	}{
		{"1. unspecified", `{type: object}`,
			`{"foo":42,"json":{"bar":43}}`, `{}`, []string{"foo", "json"}},
		{"2. properties at top-level", `{type: object, properties: {foo: {type: object}}}`,
			`{"foo":{"abc":42},"json":{"bar":43}}`, `{"foo":{}}`, []string{"foo.abc", "json"}},
		{"3. properties at multiple levels", `{type: object, properties: {foo: {type: object, properties: {bar: {type: object}}}}}`,
			`{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`, `{"foo":{"bar":{}}}`, []string{"foo.bar.abc", "foo.def", "json"}},
		{"4. additionalProperties with a non-empty schema", `{type: object, properties: {foo: {type: object, additionalProperties: {type: object}}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{"foo.abc.x", "foo.def.y", "json"}},
		{"5. additionalProperties: false", `{type: object, properties: {foo: {type: object, additionalProperties: false}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{"foo.abc.x", "foo.def.y", "json"}},
		{"6. arbitrary JSON", `{type: object, properties: {json: {x-kubernetes-preserve-unknown-fields: true, nullable: true}}}`,
			`{"foo":42,"json":{"bar":43}}`, `{"json":{"bar":43}}`, []string{"foo"}},
		// The KEP keeps bar.abc; the apiserver prunes it ({type: object}
		// at bar specifies no properties).
		{"7. JSON, but with properties at the same level", `{type: object, properties: {json: {type: object, x-kubernetes-preserve-unknown-fields: true, nullable: true, properties: {bar: {type: object}}}}}`,
			`{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, `{"json":{"bar":{},"def":44}}`, []string{"foo", "json.bar.abc"}},
		{"8. JSON, but with properties at the same and lower levels", `{type: object, properties: {json: {type: object, x-kubernetes-preserve-unknown-fields: true, nullable: true, properties: {bar: {type: object, properties: {inner: {type: integer}}}}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{"inner":43},"def":45}}`, []string{"foo", "json.bar.abc"}},
		// The KEP keeps everything in bar; in the apiserver the
		// additionalProperties schema does not inherit
		// x-kubernetes-preserve-unknown-fields.
		{"9. additionalProperties within JSON", `{type: object, properties: {json: {type: object, x-kubernetes-preserve-unknown-fields: true, nullable: true, additionalProperties: {type: object}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{},"def":45}}`, []string{"foo", "json.bar.abc", "json.bar.inner"}},
		{"10. embedded resource", `{type: object, properties: {object: {type: object, nullable: true, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}`,
			`{"apiVersion":"a/v1","kind":"A","foo":42,"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
			`{"apiVersion":"a/v1","kind":"A","object":{"bar":43,"abc":44,"metadata":{"name":"example"}}}`, []string{"foo", "object.metadata.garbage"}},
		{"11. implicit metav1.TypeMeta and metav1.ObjectMeta", `{type: object}`,
			`{"apiVersion":"example/v1","kind":"Foo","metadata":{"name":"example","garbage":43},"foo":42}`,
			`{"apiVersion":"example/v1","kind":"Foo","metadata":{"name":"example"}}`, []string{"metadata.garbage", "foo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := schematest.JSON(t, tt.in).(map[string]any)
			unknown, err := Apply(obj, schematest.Structural(t, tt.schema), ApplyOptions{ReturnUnknownFieldPaths: true})
			if err != nil {
				t.Fatal(err)
			}
			if want := schematest.JSON(t, tt.want); !reflect.DeepEqual(any(obj), want) {
				t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(obj), schematest.Indent(want))
			}
			if !reflect.DeepEqual(unknown, tt.wantUnknown) {
				t.Errorf("unknown %q, want %q", unknown, tt.wantUnknown)
			}
		})
	}
}
