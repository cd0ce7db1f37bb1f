package defaulting

import (
	"reflect"
	"testing"

	"kdv.dev/schema"
	"kdv.dev/schema/schematest"
)

// TestDefault holds the cases of the apiserver's TestDefault
// (k8s.io/apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm_test.go,
// names quoted) and kdv's own, with the apiserver's expectations.
func TestDefault(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		in, want string
	}{
		{`"empty"`, ``, `null`, `null`},
		{`"scalar"`, `{default: foo}`, `4`, `4`},
		{`"scalar array"`, `{items: {default: foo}}`, `[1,2]`, `[1,2]`},
		{`"object array"`, `{items: {properties: {a: {default: A}, b: {default: B}, c: {default: C}}}}`,
			`[{"a":1},{"b":1},{"c":1}]`,
			`[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]`},
		{`"object array object"`, `
properties:
  array: {items: {properties: {a: {default: A}, b: {default: B}}}}
  object: {properties: {a: {default: "N"}, b: {default: O}}}
  additionalProperties: {additionalProperties: {properties: {a: {default: alpha}, b: {default: beta}}}}
  foo: {default: bar}`,
			`{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}`,
			`{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}`},
		{`"empty and null"`, `{items: {properties: {a: {default: A}}}}`,
			`[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]`,
			`[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]`},
		{`"null in nullable list"`, `{nullable: true, items: {properties: {a: {default: A}}}}`, `[null]`, `[null]`},
		{`"null in non-nullable list"`, `{items: {default: A}}`, `[null]`, `["A"]`},
		{`"null in nullable object"`, `{properties: {a: {nullable: true, default: A}}}`, `{"a": null}`, `{"a": null}`},
		{`"null in non-nullable object"`, `{properties: {a: {default: A}}}`, `{"a": null}`, `{"a": "A"}`},
		{`"null in nullable object with additionalProperties"`, `{additionalProperties: {nullable: true, default: A}}`, `{"a": null}`, `{"a": null}`},
		{`"null in non-nullable object with additionalProperties"`, `{additionalProperties: {default: A}}`, `{"a": null}`, `{"a": "A"}`},
		{`"null unknown field"`, `{additionalProperties: true}`, `{"a": null}`, `{"a": null}`},

		// kdv cases.
		{"nested defaults: parent default is defaulted further", `
type: object
properties:
  spec:
    type: object
    default: {replicas: 2}
    properties:
      replicas: {type: integer, default: 1}
      strategy:
        type: object
        default: {}
        properties:
          type: {type: string, default: RollingUpdate}`,
			`{}`, `{"spec":{"replicas":2,"strategy":{"type":"RollingUpdate"}}}`},
		{"defaults inside array items of a defaulted list", `
type: object
properties:
  ports:
    type: array
    default: [{port: 80}]
    items:
      type: object
      properties:
        port: {type: integer}
        protocol: {type: string, default: TCP}`,
			`{}`, `{"ports":[{"port":80,"protocol":"TCP"}]}`},
		{"default null is not applied", `{properties: {a: {nullable: true, default: null}}}`, `{}`, `{}`},
		{"defaults below preserve-unknown-fields", `
type: object
x-kubernetes-preserve-unknown-fields: true
properties:
  known: {type: object, properties: {a: {type: string, default: x}}}`,
			`{"unknown":{"a":null},"known":{}}`, `{"unknown":{"a":null},"known":{"a":"x"}}`},
		// x-kubernetes-default-from, as SetDefaults_Service copies a
		// ServicePort's port into a zero or empty targetPort: after the
		// constant defaults (port's 0), never over a set value, never
		// from a missing sibling.
		{"default from a sibling", `
type: object
properties:
  ports:
    type: array
    items:
      type: object
      properties:
        port: {type: integer, default: 0}
        targetPort: {x-kubernetes-int-or-string: true, x-kubernetes-default-from: port}
  other: {type: object, properties: {a: {type: string, x-kubernetes-default-from: b}, b: {type: string}}}`,
			`{"ports":[{"port":80},{"port":81,"targetPort":0},{"port":82,"targetPort":""},{"port":83,"targetPort":null},{"port":84,"targetPort":"http"},{"port":85,"targetPort":8080},{}],"other":{}}`,
			`{"ports":[{"port":80,"targetPort":80},{"port":81,"targetPort":81},{"port":82,"targetPort":82},{"port":83,"targetPort":83},{"port":84,"targetPort":"http"},{"port":85,"targetPort":8080},{"port":0,"targetPort":0}],"other":{}}`},
		// x-kubernetes-default-expression, as SetDefaults_Container
		// computes imagePullPolicy from the image's tag: only where the
		// policy is missing, "" (stripped zero) or null; an image of
		// another type computes nothing; on the object before its
		// constant defaults, as SetDefaults_Job's completions (1 when
		// completions and parallelism are both unset) sees parallelism
		// before its default of 1.
		{"default from an expression", `
type: object
properties:
  containers:
    type: array
    items:
      type: object
      properties:
        image: {type: string}
        imagePullPolicy: {type: string, x-kubernetes-strip-zero: true, x-kubernetes-default-expression: "imageTag(self.?image.orValue('')) == 'latest' ? 'Always' : 'IfNotPresent'"}
        seen: {type: string, x-kubernetes-default-expression: "self.?mode.orValue('none')"}
        completions: {type: integer, x-kubernetes-default-expression: "has(self.parallelism) ? optional.none() : optional.of(1)"}
        parallelism: {type: integer, default: 1}
        mode: {type: string, default: m}
        length: {type: integer, x-kubernetes-default-expression: "size(self.?image.orValue(''))"}`,
			`{"containers":[{"image":"nginx"},{"image":"nginx:1.2","parallelism":3},{"image":"nginx:latest","imagePullPolicy":""},{"image":"nginx","imagePullPolicy":null},{"image":"nginx","imagePullPolicy":"Never"},{},{"image":7,"length":3}]}`,
			`{"containers":[{"image":"nginx","imagePullPolicy":"Always","mode":"m","seen":"none","length":5,"parallelism":1,"completions":1},{"image":"nginx:1.2","imagePullPolicy":"IfNotPresent","mode":"m","seen":"none","length":9,"parallelism":3},{"image":"nginx:latest","imagePullPolicy":"Always","mode":"m","seen":"none","length":12,"parallelism":1,"completions":1},{"image":"nginx","imagePullPolicy":"Always","mode":"m","seen":"none","length":5,"parallelism":1,"completions":1},{"image":"nginx","imagePullPolicy":"Never","mode":"m","seen":"none","length":5,"parallelism":1,"completions":1},{"imagePullPolicy":"IfNotPresent","mode":"m","seen":"none","length":0,"parallelism":1,"completions":1},{"image":7,"mode":"m","seen":"none","length":3,"parallelism":1,"completions":1}]}`},
		// an object computed by an expression, as SetDefaults_Volume
		// sets EmptyDir: &EmptyDirVolumeSource{} on a volume without a
		// source: set where missing or null, then defaulted inside like
		// a constant {} default; an object with a value per key; each
		// volume gets its own object.
		{"object default from an expression", `
type: object
properties:
  volumes:
    type: array
    items:
      type: object
      properties:
        name: {type: string}
        hostPath: {type: object, properties: {path: {type: string}}}
        emptyDir:
          type: object
          x-kubernetes-default-expression: "self.all(k, k == 'name' || self[k] == null) ? optional.of({}) : optional.none()"
          properties:
            medium: {type: string, default: ""}
            sizeLimit: {type: string}
        marker:
          type: object
          x-kubernetes-default-expression: "{'by': 'expression', 'name': self.?name.orValue('')}"
          properties:
            by: {type: string}
            name: {type: string}
            level: {type: integer, default: 1}`,
			`{"volumes":[{"name":"a"},{"name":"b","hostPath":{"path":"/x"}},{"name":"c","emptyDir":{"sizeLimit":"1Gi"}},{"name":"d","emptyDir":null},{"name":"e","hostPath":null},{}]}`,
			`{"volumes":[` +
				`{"name":"a","emptyDir":{"medium":""},"marker":{"by":"expression","name":"a","level":1}},` +
				`{"name":"b","hostPath":{"path":"/x"},"marker":{"by":"expression","name":"b","level":1}},` +
				`{"name":"c","emptyDir":{"sizeLimit":"1Gi","medium":""},"marker":{"by":"expression","name":"c","level":1}},` +
				`{"name":"d","emptyDir":{"medium":""},"marker":{"by":"expression","name":"d","level":1}},` +
				`{"name":"e","hostPath":null,"emptyDir":{"medium":""},"marker":{"by":"expression","name":"e","level":1}},` +
				`{"emptyDir":{"medium":""},"marker":{"by":"expression","name":"","level":1}}]}`},
		{"scalar where object expected is left alone", `{properties: {a: {properties: {b: {default: 1}}}}}`,
			`{"a":"str"}`, `{"a":"str"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, want := schematest.JSON(t, tt.in), schematest.JSON(t, tt.want)
			Default(in, schematest.Structural(t, tt.schema))
			if !reflect.DeepEqual(in, want) {
				t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
			in = schematest.JSON(t, tt.in)
			NewDefaulter(schematest.Structural(t, tt.schema)).Default(in)
			if !reflect.DeepEqual(in, want) {
				t.Errorf("Defaulter got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
		})
	}
}

// TestDefaultDeepCopies checks that defaulted values share nothing with the
// schema or with each other.
func TestDefaultDeepCopies(t *testing.T) {
	s := schematest.Structural(t, `{items: {properties: {a: {type: object, default: {l: [1]}}}}}`)
	obj := schematest.JSON(t, `[{},{}]`).([]any)
	Default(obj, s)
	obj[0].(map[string]any)["a"].(map[string]any)["l"].([]any)[0] = int64(9)
	if got := obj[1].(map[string]any)["a"].(map[string]any)["l"].([]any)[0]; got != int64(1) {
		t.Fatalf("second item shares the default: %v", got)
	}
	d := s.Items.Properties["a"].Default.Object.(map[string]any)["l"].([]any)[0]
	if d != int64(1) {
		t.Fatalf("schema default mutated: %v", d)
	}
}

// TestPruneNonNullableNullsWithoutDefaults holds the cases of the
// apiserver's TestPruneNonNullableNullsWithoutDefaults
// (defaulting/prunenulls_test.go).
func TestPruneNonNullableNullsWithoutDefaults(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		in, want string
	}{
		{`"empty"`, ``, `null`, `null`},
		{`"scalar"`, `{default: foo}`, `4`, `4`},
		{`"scalar array"`, ``, `[1,null]`, `[1,null]`},
		{`"object array"`, `{items: {properties: {a: {default: A}, b: {nullable: true}, c: {default: C, nullable: true}, d: {}}}}`,
			`[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]`,
			`[{"a":null},{"b":null},{"c":null},{},{"e":null}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, want := schematest.JSON(t, tt.in), schematest.JSON(t, tt.want)
			PruneNonNullableNullsWithoutDefaults(in, schematest.Structural(t, tt.schema))
			if !reflect.DeepEqual(in, want) {
				t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
		})
	}
}

func TestDefaultHandBuiltGoTypes(t *testing.T) {
	// A hand-built schema may hold non-JSON Go types; copying must not panic.
	s := &schema.Structural{Properties: map[string]schema.Structural{
		"a": {Generic: schema.Generic{Default: schema.JSON{Object: 5}}},
	}}
	obj := map[string]any{}
	Default(obj, s)
	if obj["a"] != 5 {
		t.Fatalf("got %v", obj)
	}
}

// TestDefaultKEPExamples runs the examples of the CRD defaulting KEP
// (kubernetes/enhancements keps/sig-api-machinery/20190426-crd-defaulting.md,
// now 575-crd-defaulting). Example 3's null case differs from the KEP's
// text: since Kubernetes 1.20 the apiserver defaults a null on a
// non-nullable field (algorithm_test.go "null in non-nullable object").
func TestDefaultKEPExamples(t *testing.T) {
	tests := []struct {
		name, schema, in, want string
	}{
		{"1. default in the undefined case", `{type: object, properties: {foo: {type: string, default: abc}}}`, `{}`, `{"foo":"abc"}`},
		{"2. no defaulting", `{type: object, properties: {foo: {type: string, default: abc}}}`, `{"foo":"def"}`, `{"foo":"def"}`},
		{"3. array default in the undefined case", `{type: object, properties: {foo: {type: array, items: {type: integer}, default: [1]}}}`, `{}`, `{"foo":[1]}`},
		{"3. null (defaulted, unlike the KEP text)", `{type: object, properties: {foo: {type: array, items: {type: integer}, default: [1]}}}`, `{"foo":null}`, `{"foo":[1]}`},
		{"3. empty lists stay empty lists", `{type: object, properties: {foo: {type: array, items: {type: integer}, default: [1]}}}`, `{"foo":[]}`, `{"foo":[]}`},
		{"4. top-down defaulting", `{type: object, properties: {foo: {type: object, properties: {a: {type: string, default: abc}, b: {type: string}}, default: {b: def}}}}`, `{}`, `{"foo":{"a":"abc","b":"def"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, want := schematest.JSON(t, tt.in), schematest.JSON(t, tt.want)
			Default(in, schematest.Structural(t, tt.schema))
			if !reflect.DeepEqual(in, want) {
				t.Errorf("got:\n%s\nwant:\n%s", schematest.Indent(in), schematest.Indent(want))
			}
		})
	}
}
