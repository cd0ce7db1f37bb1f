package pruning

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"kdv.dev/schema/schematest"
)

const applySchema = `
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer}
      nullable: {type: string, nullable: true}
      defaulted: {type: string, default: "x"}
      list:
        type: array
        items:
          type: object
          properties:
            m: {type: string}
      template:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          spec: {type: object}
  status:
    type: object
    x-kubernetes-preserve-unknown-fields: true
`

// TestApply checks the order of the decode-time steps of the apiserver's
// unstructuredSchemaCoercer.apply (customresource_handler.go).
func TestApply(t *testing.T) {
	tests := []struct {
		name        string
		opts        ApplyOptions
		in, want    string
		wantUnknown []string
		wantErr     string
	}{
		{name: "strict: root metadata first, then pruned, then embedded metadata",
			opts: ApplyOptions{ReturnUnknownFieldPaths: true},
			in: `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","zzz":1,"aaa":2},"foo":1,
				"spec":{"replicas":null,"nullable":null,"defaulted":null,"bar":1,"list":[{"m":"a","x":1}],
				"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","bogus":1},"spec":{"a":1},"other":1}},
				"status":{"anything":{"goes":1}}}`,
			want: `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n"},
				"spec":{"nullable":null,"defaulted":null,"list":[{"m":"a"}],
				"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}}},
				"status":{"anything":{"goes":1}}}`,
			wantUnknown: []string{"metadata.aaa", "metadata.zzz", "foo", "spec.bar", "spec.list[0].x", "spec.template.other", "spec.template.spec.a", "spec.template.metadata.bogus"}},
		{name: "no paths without strict",
			in:   `{"apiVersion":"g/v1","kind":"K","foo":1}`,
			want: `{"apiVersion":"g/v1","kind":"K"}`},
		{name: "preserveUnknownFields only coerces metadata",
			opts:        ApplyOptions{PreserveUnknownFields: true, ReturnUnknownFieldPaths: true},
			in:          `{"apiVersion":"g/v1","kind":"K","foo":1,"spec":{"replicas":null,"template":{"metadata":{"x":1}}}}`,
			want:        `{"apiVersion":"g/v1","kind":"K","foo":1,"spec":{"replicas":null,"template":{"metadata":{}}}}`,
			wantUnknown: []string{"spec.template.metadata.x"}},
		{name: "kind not a string", in: `{"apiVersion":"g/v1","kind":5}`,
			wantErr: ".kind accessor error: 5 is of the type int64, expected string"},
		{name: "apiVersion malformed", in: `{"apiVersion":"a/b/c","kind":"K"}`,
			wantErr: "unexpected GroupVersion string: a/b/c"},
		{name: "root metadata malformed", in: `{"apiVersion":"g/v1","kind":"K","metadata":{"labels":[1]}}`,
			wantErr: "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"},
		{name: "embedded kind not a string", in: `{"apiVersion":"g/v1","kind":"K","spec":{"template":{"kind":true}}}`,
			wantErr: "spec.template.kind: Invalid value: true: must be a string"},
		{name: "dropInvalidMetadata drops malformed root metadata fields",
			opts: ApplyOptions{DropInvalidMetadata: true},
			in:   `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","labels":[1]}}`,
			want: `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n"}}`},
	}
	s := schematest.Structural(t, applySchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := schematest.JSON(t, tt.in).(map[string]any)
			unknown, err := Apply(obj, s, tt.opts)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
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

// TestPruneNonNullableNullsWithoutDefaults holds the cases of the apiserver's
// TestPruneNonNullableNullsWithoutDefaults (defaulting/prunenulls_test.go).
func TestPruneNonNullableNullsWithoutDefaults(t *testing.T) {
	s := schematest.Structural(t, `
type: object
properties:
  a: {type: string}
  b: {type: string, nullable: true}
  c: {type: string, default: "x"}
  d: {type: string, nullable: true, default: "y"}
  e:
    type: array
    items: {type: object, additionalProperties: {type: string}}
  f:
    type: object
    additionalProperties: {type: string}
`)
	in := schematest.JSON(t, `{"a":null,"b":null,"c":null,"d":null,"e":[{"x":null}],"f":{"y":null},"unknown":null}`)
	PruneNonNullableNullsWithoutDefaults(in, s)
	want := schematest.JSON(t, `{"b":null,"c":null,"d":null,"e":[{}],"f":{},"unknown":null}`)
	if !reflect.DeepEqual(in, want) {
		t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
	}
}

// TestUnknownFieldErrors checks the strict decoding message the apiserver
// builds from Apply's paths.
func TestUnknownFieldErrors(t *testing.T) {
	obj := schematest.JSON(t, `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","x":1},"spec":{"foo":1}}`).(map[string]any)
	unknown, err := Apply(obj, schematest.Structural(t, applySchema), ApplyOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		t.Fatal(err)
	}
	got := runtime.NewStrictDecodingError(UnknownFieldErrors(unknown)).Error()
	if want := `strict decoding error: unknown field "metadata.x", unknown field "spec.foo"`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// HasEmbeddedResource finds x-kubernetes-embedded-resource below the root
// (the root's own metadata is handled apart), through properties, items
// and additionalProperties; without one, Apply may skip the coercion walk.
func TestHasEmbeddedResource(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   bool
	}{
		{`{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"a":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}`, true},
		{`{"type":"object","additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}`, true},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`, false},
	} {
		if got := HasEmbeddedResource(schematest.Structural(t, tc.schema)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.schema, got, tc.want)
		}
	}
	if !HasEmbeddedResource(schematest.Structural(t, applySchema)) {
		t.Error("the apply tests' schema has an embedded resource below the root")
	}
}
