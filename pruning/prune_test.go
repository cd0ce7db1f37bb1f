package pruning

import (
	"kdv.dev/schema/schematest"
	"reflect"
	"strings"
	"testing"
)

// pruneCase is one case; names in quotes are the apiserver's case names in
// k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm_test.go
// TestPrune, whose expectations these are.
type pruneCase struct {
	name           string
	schema         string // YAML; "" is a nil schema
	isResourceRoot bool
	in, want       string // JSON
	wantPruned     []string
}

const nestedPreserveSchema = `
type: object
x-kubernetes-preserve-unknown-fields: true
properties:
  alpha: {type: string}
  beta: {type: number}
  pruning:
    type: object
    properties:
      preserving: {type: object, x-kubernetes-preserve-unknown-fields: true}
      pruning: {type: object}
  preserving:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      preserving: {type: object, x-kubernetes-preserve-unknown-fields: true}
      preservingUnknownType: {x-kubernetes-preserve-unknown-fields: true}
      pruning: {type: object}
  preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    additionalProperties:
      type: object
      properties:
        specified: {type: object}
  preservingAdditionalPropertiesKeyPruneValues:
    type: object
    additionalProperties:
      type: object
      properties:
        specified: {type: object}
`

const embeddedSchema = `
type: object
properties:
  pruned:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      spec: {type: object}
  preserving:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
  nested:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      spec:
        type: object
        properties:
          embedded:
            type: object
            x-kubernetes-embedded-resource: true
            properties:
              spec: {type: object}
`

const embeddedIn = `{
  "apiVersion": "foo/v1", "kind": "Foo",
  "metadata": {"name": "instance", "unspecified": "bar"},
  "unspecified": "bar",
  "pruned": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}},
  "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}},
  "nested": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance", "unspecified": "bar"},
    "spec": {"unspecified": "bar",
      "embedded": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
        "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}}}}
}`

var embeddedPruned = []string{"nested.spec.embedded.spec.unspecified", "nested.spec.embedded.unspecified", "nested.spec.unspecified", "nested.unspecified", "pruned.spec.unspecified", "pruned.unspecified", "unspecified"}

var pruneCases = []pruneCase{
	{name: `"empty"`, in: `null`, want: `null`},
	{name: `"scalar"`, schema: `{}`, in: `4`, want: `4`},
	{name: `"scalar array"`, schema: `{items: {}}`, in: `[1,2]`, want: `[1,2]`},
	{name: `"object array"`, schema: `{items: {properties: {a: {}, c: {}}}}`,
		in:   `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
		want: `[{"a":1},{},{"a":1,"c":3}]`, wantPruned: []string{"[1].b", "[2].b"}},
	{name: `"object array with nil schema"`,
		in:   `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
		want: `[{},{},{}]`, wantPruned: []string{"[0].a", "[1].b", "[2].a", "[2].b", "[2].c"}},
	{name: `"object array object"`,
		schema:     `{properties: {array: {items: {properties: {a: {}, c: {}}}}, specified: {properties: {a: {}, c: {}}}}}`,
		in:         `{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}`,
		want:       `{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}`,
		wantPruned: []string{"array[1].b", "array[2].b", "specified.b", "unspecified"}},
	{name: `"nested x-kubernetes-preserve-unknown-fields"`, schema: nestedPreserveSchema,
		in: `{
  "unspecified":"bar", "alpha": "abc", "beta": 42.0,
  "unspecifiedObject": {"unspecified": "bar"},
  "pruning": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
     "pruning": {"unspecified": "bar"}, "apiVersion": "unknown", "preserving": {"unspecified": "bar"}},
  "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
     "pruning": {"unspecified": "bar"}, "preserving": {"unspecified": "bar"},
     "preservingUnknownType": [{"foo":true},{"bar":true}]},
  "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {
     "foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}},
  "preservingAdditionalPropertiesKeyPruneValues": {
     "foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}}
}`,
		want: `{
  "unspecified":"bar", "alpha": "abc", "beta": 42.0,
  "unspecifiedObject": {"unspecified": "bar"},
  "pruning": {"pruning": {}, "preserving": {"unspecified": "bar"}},
  "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
     "pruning": {}, "preserving": {"unspecified": "bar"},
     "preservingUnknownType": [{"foo":true},{"bar":true}]},
  "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {}}},
  "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {}}}
}`,
		wantPruned: []string{"preserving.pruning.unspecified", "preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified", "preservingAdditionalPropertiesKeyPruneValues.foo.unspecified", "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified", "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified", "pruning.apiVersion", "pruning.pruning.unspecified", "pruning.unspecified", "pruning.unspecifiedObject"}},
	{name: `"additionalProperties with schema"`,
		schema: `{properties: {a: {}, c: {additionalProperties: {type: integer}}}}`,
		in:     `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}`,
		want:   `{"a":1,"c":{"a":1,"b":2,"c":{}}}`, wantPruned: []string{"b", "c.c.a"}},
	{name: `"additionalProperties with bool"`,
		schema: `{properties: {a: {}, c: {additionalProperties: false}}}`,
		in:     `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}`,
		want:   `{"a":1,"c":{"a":1,"b":2,"c":{}}}`, wantPruned: []string{"b", "c.c.a", "c.c.apiVersion"}},
	{name: `"x-kubernetes-embedded-resource"`, schema: embeddedSchema, in: embeddedIn,
		want: `{
  "pruned": {"apiVersion": "foo/v1", "kind": "Foo",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {}},
  "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}},
  "nested": {"apiVersion": "foo/v1", "kind": "Foo",
    "metadata": {"name": "instance", "unspecified": "bar"},
    "spec": {"embedded": {"apiVersion": "foo/v1", "kind": "Foo",
        "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {}}}}
}`, wantPruned: embeddedPruned},
	{name: `"x-kubernetes-embedded-resource, with root=true"`, schema: embeddedSchema, in: embeddedIn, isResourceRoot: true,
		want: `{
  "apiVersion": "foo/v1", "kind": "Foo",
  "metadata": {"name": "instance", "unspecified": "bar"},
  "pruned": {"apiVersion": "foo/v1", "kind": "Foo",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {}},
  "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
    "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}},
  "nested": {"apiVersion": "foo/v1", "kind": "Foo",
    "metadata": {"name": "instance", "unspecified": "bar"},
    "spec": {"embedded": {"apiVersion": "foo/v1", "kind": "Foo",
        "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {}}}}
}`, wantPruned: embeddedPruned},

	// kdv cases, expectations derived from the apiserver's algorithm.
	{name: "nil root schema with isResourceRoot keeps only type and object meta",
		isResourceRoot: true,
		in:             `{"apiVersion":"a/v1","kind":"A","metadata":{"x":1},"spec":{"a":1}}`,
		want:           `{"apiVersion":"a/v1","kind":"A","metadata":{"x":1}}`, wantPruned: []string{"spec"}},
	{name: "meta fields nested below the root are reported",
		schema: `{type: object, properties: {spec: {type: object}}}`,
		in:     `{"kind":"A","spec":{"kind":"B","metadata":{}}}`,
		want:   `{"spec":{}}`, wantPruned: []string{"spec.kind", "spec.metadata"}},
	{name: "empty key counts as a path segment",
		schema: `{type: object, properties: {"": {type: object}}}`,
		in:     `{"":{"metadata":1,"x":2}}`,
		want:   `{"":{}}`, wantPruned: []string{".metadata", ".x"}},
	{name: "preserve-unknown-fields arrays recurse into items schema",
		schema: `{type: array, x-kubernetes-preserve-unknown-fields: true, items: {type: object, properties: {a: {type: object, properties: {b: {}}}}}}`,
		in:     `[{"a":{"b":1,"c":2},"d":3}]`,
		want:   `[{"a":{"b":1},"d":3}]`, wantPruned: []string{"[0].a.c"}},
	{name: "scalar where an object is specified is kept",
		schema: `{type: object, properties: {a: {type: object, properties: {b: {}}}}}`,
		in:     `{"a":"str","z":[{"q":1}]}`,
		want:   `{"a":"str"}`, wantPruned: []string{"z"}},
	{name: "sorted as strings, not by index value",
		schema:     `{type: object, properties: {l: {type: array, items: {type: object}}}}`,
		in:         `{"l":[{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1},{"a":1}]}`,
		want:       `{"l":[{},{},{},{},{},{},{},{},{},{},{}]}`,
		wantPruned: []string{"l[0].a", "l[10].a", "l[1].a", "l[2].a", "l[3].a", "l[4].a", "l[5].a", "l[6].a", "l[7].a", "l[8].a", "l[9].a"}},
}

func TestPrune(t *testing.T) {
	for _, tt := range pruneCases {
		t.Run(tt.name, func(t *testing.T) {
			s := schematest.Structural(t, tt.schema)
			in, want := schematest.JSON(t, tt.in), schematest.JSON(t, tt.want)
			pruned := Prune(in, s, Options{IsResourceRoot: tt.isResourceRoot})
			if !reflect.DeepEqual(in, want) {
				t.Errorf("object:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
			if !reflect.DeepEqual(pruned, tt.wantPruned) {
				t.Errorf("pruned:\n\t%s\nwant:\n\t%s", strings.Join(pruned, "\n\t"), strings.Join(tt.wantPruned, "\n\t"))
			}

			// Same result without paths, as the apiserver's
			// TrackUnknownFieldPaths=false.
			in2 := schematest.JSON(t, tt.in)
			if p := Prune(in2, s, Options{IsResourceRoot: tt.isResourceRoot, DiscardPaths: true}); p != nil {
				t.Errorf("DiscardPaths returned %v", p)
			}
			if !reflect.DeepEqual(in2, want) {
				t.Errorf("DiscardPaths object:\n%s\nwant:\n%s", schematest.Indent(in2), schematest.Indent(want))
			}
			// Pruning is idempotent.
			if p := Prune(in, s, Options{IsResourceRoot: tt.isResourceRoot}); len(p) != 0 {
				t.Errorf("second Prune removed %v", p)
			}
		})
	}
}

func TestPruneDoesNotMutateSchema(t *testing.T) {
	s := schematest.Structural(t, `{type: object, properties: {a: {type: object}}}`)
	Prune(schematest.JSON(t, `{"apiVersion":"v1","a":{"b":1}}`), s, Options{IsResourceRoot: true})
	if s.XEmbeddedResource {
		t.Fatal("IsResourceRoot must not set XEmbeddedResource on the caller's schema")
	}
}
