package pruning

import (
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"kdv.dev/schema/schematest"
)

// coerceEmbeddedSchema is the schema of the apiserver's TestCoerce
// (pkg/apiserver/schema/objectmeta/algorithm_test.go).
const coerceEmbeddedSchema = embeddedSchema

const coerceEmbeddedWant = `
  "pruned": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance"}, "spec": {"unspecified": "bar"}},
  "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance"}, "spec": {"unspecified": "bar"}},
  "nested": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance"},
    "spec": {"unspecified": "bar",
      "embedded": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
        "metadata": {"name": "instance"}, "spec": {"unspecified": "bar"}}}}
}`

// TestCoerceMeta holds the cases of the apiserver's TestCoerce (names
// quoted) with ReturnUnknownFieldPaths=true, plus error cases.
func TestCoerceMeta(t *testing.T) {
	tests := []struct {
		name        string
		schema      string
		includeRoot bool
		drop        bool
		in, want    string
		wantErr     string
		wantUnknown []string
	}{
		{name: `"empty"`, in: `null`, want: `null`},
		{name: `"scalar"`, schema: `{}`, in: `4`, want: `4`},
		{name: `"scalar array"`, schema: `{items: {}}`, in: `[1,2]`, want: `[1,2]`},
		{name: `"x-kubernetes-embedded-resource"`, schema: coerceEmbeddedSchema, in: embeddedIn,
			want: `{"apiVersion": "foo/v1", "kind": "Foo",
  "metadata": {"name": "instance", "unspecified": "bar"}, "unspecified": "bar",` + coerceEmbeddedWant,
			wantUnknown: []string{"nested.metadata.unspecified", "nested.spec.embedded.metadata.unspecified", "preserving.metadata.unspecified", "pruned.metadata.unspecified"}},
		{name: `"x-kubernetes-embedded-resource, with includeRoot=true"`, schema: coerceEmbeddedSchema, in: embeddedIn, includeRoot: true,
			want: `{"apiVersion": "foo/v1", "kind": "Foo",
  "metadata": {"name": "instance"}, "unspecified": "bar",` + coerceEmbeddedWant,
			wantUnknown: []string{"metadata.unspecified", "nested.metadata.unspecified", "nested.spec.embedded.metadata.unspecified", "preserving.metadata.unspecified", "pruned.metadata.unspecified"}},
		{name: `"without name"`, schema: `{type: object, properties: {pruned: {type: object, x-kubernetes-embedded-resource: true}}}`,
			in:   `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"namespace":"kube-system"}}}`,
			want: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"namespace":"kube-system"}}}`},
		{name: `"x-kubernetes-embedded-resource, with dropInvalidFields=true"`, drop: true,
			schema: `{type: object, properties: {pruned: {type: object, x-kubernetes-embedded-resource: true, properties: {spec: {type: object}}}}}`,
			in:     `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":42,"kind":42,"metadata":{"name":"instance","namespace":["abc"],"labels":{"foo":42}}}}`,
			want:   `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"metadata":{"name":"instance"}}}`},
		{name: `"invalid metadata type, with dropInvalidFields=true"`, drop: true,
			schema: `{type: object, properties: {pruned: {type: object, x-kubernetes-embedded-resource: true}}}`,
			in:     `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":42,"kind":42,"metadata":[42]}}`,
			want:   `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"metadata":[42]}}`},

		// Errors without dropInvalidFields (request decoding).
		{name: "non-string kind", schema: `{type: object, properties: {spec: {type: object, properties: {t: {type: object, x-kubernetes-embedded-resource: true}}}}}`,
			in: `{"spec":{"t":{"kind":42}}}`, wantErr: `spec.t.kind: Invalid value: 42: must be a string`},
		{name: "malformed metadata", schema: `{type: object, properties: {m: {type: object, additionalProperties: {type: object, x-kubernetes-embedded-resource: true}}}}`,
			in:      `{"m":{"k":{"metadata":{"labels":5}}}}`,
			wantErr: `m[k].metadata: Invalid value: {"labels":5}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string`},
		{name: "unknown fields in list items use field.Path format",
			schema:      `{type: object, properties: {l: {type: array, items: {type: object, x-kubernetes-embedded-resource: true}}, m: {type: object, additionalProperties: {type: object, x-kubernetes-embedded-resource: true}}}}`,
			in:          `{"l":[{"metadata":{"a":1}}],"m":{"k":{"metadata":{"b":1,"creationTimestamp":null}}}}`,
			want:        `{"l":[{"metadata":{}}],"m":{"k":{"metadata":{}}}}`,
			wantUnknown: []string{"l[0].metadata.a", "m[k].metadata.b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := schematest.JSON(t, tt.in)
			err, unknown := CoerceMeta(nil, in, schematest.Structural(t, tt.schema), tt.includeRoot, MetaOptions{DropInvalidFields: tt.drop, ReturnUnknownFieldPaths: true})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if want := schematest.JSON(t, tt.want); !reflect.DeepEqual(in, want) {
				t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
			if !reflect.DeepEqual(unknown, tt.wantUnknown) {
				t.Errorf("unknown:\n\t%s\nwant:\n\t%s", strings.Join(unknown, "\n\t"), strings.Join(tt.wantUnknown, "\n\t"))
			}
		})
	}
}

// TestGetObjectMeta holds the cases of the apiserver's
// TestGetObjectMetaWithOptions (objectmeta/coerce_test.go).
func TestGetObjectMeta(t *testing.T) {
	const malformedErr = "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
	unknownAndMalformed := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","unknownField":"foo","generateName":null,"generation":null,"labels":{"foo":"bar"},"annotations":11}}`
	unknownOnly := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","unknownField":"foo","generateName":null,"generation":null,"labels":{"foo":"bar"}}}`
	malformedOnly := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","generateName":null,"generation":null,"labels":{"foo":"bar"},"annotations":11}}`
	good := &metav1.ObjectMeta{Name: "my-meta", Labels: map[string]string{"foo": "bar"}}
	tests := []struct {
		obj         string
		drop, paths bool
		want        *metav1.ObjectMeta
		wantUnknown []string
		wantErr     string
	}{
		{obj: unknownAndMalformed, wantErr: malformedErr},
		{obj: unknownAndMalformed, drop: true, want: good},
		{obj: unknownAndMalformed, paths: true, wantErr: malformedErr},
		{obj: unknownAndMalformed, drop: true, paths: true, want: good, wantUnknown: []string{"metadata.unknownField"}},
		{obj: unknownOnly, want: good},
		{obj: unknownOnly, drop: true, want: good},
		{obj: unknownOnly, paths: true, want: good, wantUnknown: []string{"metadata.unknownField"}},
		{obj: unknownOnly, drop: true, paths: true, want: good, wantUnknown: []string{"metadata.unknownField"}},
		{obj: malformedOnly, wantErr: malformedErr},
		{obj: malformedOnly, drop: true, want: good},
		{obj: malformedOnly, paths: true, wantErr: malformedErr},
		{obj: malformedOnly, drop: true, paths: true, want: good},
	}
	for i, tt := range tests {
		obj := schematest.JSON(t, tt.obj).(map[string]any)
		got, _, unknown, err := GetObjectMeta(obj, nil, MetaOptions{DropInvalidFields: tt.drop, ReturnUnknownFieldPaths: tt.paths})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%d: got %v, want %v", i, got, tt.want)
		}
		if (err == nil) != (tt.wantErr == "") || err != nil && err.Error() != tt.wantErr {
			t.Errorf("%d: error %v, want %q", i, err, tt.wantErr)
		}
		if !reflect.DeepEqual(unknown, tt.wantUnknown) {
			t.Errorf("%d: unknown %v, want %v", i, unknown, tt.wantUnknown)
		}
	}
}

// TestGetObjectMetaCaseSensitive mirrors the apiserver's TestGetObjectMeta:
// decoding is case-sensitive, so "Name" never wins over "name", and a
// malformed creationTimestamp is dropped.
func TestGetObjectMetaCaseSensitive(t *testing.T) {
	for i := 0; i < 20; i++ {
		obj := schematest.JSON(t, `{"metadata":{"name":"good","Name":"bad1","nAme":"bad2","naMe":"bad3","namE":"bad4",
			"namespace":"good","Namespace":"bad1","nAmespace":"bad2","naMespace":"bad3","namEspace":"bad4","creationTimestamp":"a"}}`).(map[string]any)
		meta, _, _, err := GetObjectMeta(obj, nil, MetaOptions{DropInvalidFields: true})
		if err != nil {
			t.Fatal(err)
		}
		if meta.Name != "good" || meta.Namespace != "good" {
			t.Fatalf("got %#v", meta)
		}
	}
}

// TestGetObjectMetaNils mirrors the apiserver's TestGetObjectMetaNils.
func TestGetObjectMetaNils(t *testing.T) {
	obj := schematest.JSON(t, `{"kind":"Pod","apiVersion":"v1","metadata":{"generateName":null,"generation":null,"labels":{"foo":null}}}`).(map[string]any)
	o, _, _, err := GetObjectMeta(obj, nil, MetaOptions{DropInvalidFields: true})
	if err != nil {
		t.Fatal(err)
	}
	if o.GenerateName != "" || o.Generation != 0 || !reflect.DeepEqual(o.Labels, map[string]string{"foo": ""}) {
		t.Errorf("got %#v", o)
	}
}

func TestGetObjectMetaParentPath(t *testing.T) {
	obj := schematest.JSON(t, `{"metadata":{"x":1}}`).(map[string]any)
	_, _, unknown, err := GetObjectMeta(obj, field.NewPath("spec").Index(2), MetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil || !reflect.DeepEqual(unknown, []string{"spec[2].metadata.x"}) {
		t.Fatalf("got %v, %v", unknown, err)
	}
}

// TestCoerceMetaDeterministicError: with several errors the apiserver
// reports one in random map order; kdv always reports the first in sorted
// key order.
func TestCoerceMetaDeterministicError(t *testing.T) {
	s := schematest.Structural(t, `{type: object, additionalProperties: {type: object, x-kubernetes-embedded-resource: true}}`)
	for i := 0; i < 30; i++ {
		obj := schematest.JSON(t, `{"z":{"kind":1},"m":{"metadata":{"x":1}},"b":{"kind":true},"a":{"apiVersion":"v1","kind":"K"}}`)
		err, paths := CoerceMeta(nil, obj, s, false, MetaOptions{ReturnUnknownFieldPaths: true})
		if err == nil || err.Error() != "[b].kind: Invalid value: true: must be a string" || paths != nil {
			t.Fatalf("got %v, %v", err, paths)
		}
	}
}
