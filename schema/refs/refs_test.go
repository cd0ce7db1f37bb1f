package refs

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"kdv.dev/schema"
)

// defs decodes a components.schemas object.
func defs(t *testing.T, doc string) map[string]*schema.Props {
	t.Helper()
	var m map[string]*schema.Props
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// equalJSON compares a resolved schema with the expected JSON, ignoring
// key order and formatting.
func equalJSON(t *testing.T, got *schema.Props, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("resolved:\n%s\nwant:\n%s", b, want)
	}
}

func TestResolveInlinesRefsAndKeepsDefinitions(t *testing.T) {
	src := `{
	  "a.Outer": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "a", "version": "v1", "kind": "Outer"}],
	    "properties": {
	      "inner": {"$ref": "#/components/schemas/a.Inner"},
	      "list": {"type": "array", "items": {"$ref": "#/components/schemas/a.Inner"}},
	      "map": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/a.Inner"}}}},
	  "a.Inner": {"type": "object", "description": "inner", "x-kubernetes-group-version-kind": [{"group": "a", "version": "v1", "kind": "Inner"}],
	    "properties": {"n": {"type": "integer"}}}
	}`
	d := defs(t, src)
	before, _ := json.Marshal(d)
	got, err := Resolve(d, "a.Outer")
	if err != nil {
		t.Fatal(err)
	}
	inner := `{"type": "object", "description": "inner", "properties": {"n": {"type": "integer"}}}`
	equalJSON(t, got, `{"type": "object", "x-kubernetes-group-version-kind": [{"group": "a", "version": "v1", "kind": "Outer"}],
	  "properties": {"inner": `+inner+`, "list": {"type": "array", "items": `+inner+`},
	    "map": {"type": "object", "additionalProperties": `+inner+`}}}`)
	after, _ := json.Marshal(d)
	if string(before) != string(after) {
		t.Errorf("Resolve modified its input:\n%s\nwas\n%s", after, before)
	}
}

// allOf: [{$ref}] with siblings is how a use site adds a description, a
// default or rules to a definition: the siblings win, rules add up.
func TestResolveMergesUseSiteKeywords(t *testing.T) {
	d := defs(t, `{
	  "a.Root": {"type": "object", "properties": {
	    "spec": {"allOf": [{"$ref": "#/components/schemas/a.Spec"}], "description": "use site", "default": {"x": "d"},
	      "x-kubernetes-validations": [{"rule": "has(self.x)"}], "properties": {"x": {"maxLength": 3}}},
	    "plain": {"$ref": "#/components/schemas/a.Spec", "description": "also use site"}}},
	  "a.Spec": {"type": "object", "description": "definition", "x-kubernetes-validations": [{"rule": "self.x != 'a'"}],
	    "properties": {"x": {"type": "string", "minLength": 1}}}
	}`)
	got, err := Resolve(d, "a.Root")
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, got, `{"type": "object", "properties": {
	  "spec": {"type": "object", "description": "use site", "default": {"x": "d"},
	    "x-kubernetes-validations": [{"rule": "self.x != 'a'"}, {"rule": "has(self.x)"}],
	    "properties": {"x": {"type": "string", "minLength": 1, "maxLength": 3}}},
	  "plain": {"type": "object", "description": "also use site", "x-kubernetes-validations": [{"rule": "self.x != 'a'"}],
	    "properties": {"x": {"type": "string", "minLength": 1}}}}}`)
}

func TestResolveWellKnownTypes(t *testing.T) {
	src := `{
	  "a.Root": {"type": "object", "properties": {
	    "port": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
	    "cpu": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
	    "raw": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"},
	    "fields": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"},
	    "unknown": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.runtime.Unknown"}}},
	  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "string", "format": "int-or-string", "description": "ios"},
	  "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string", "description": "q"},
	  "io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object", "description": "raw", "properties": {"x": {"type": "string"}}},
	  "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": {"type": "object", "description": "f"},
	  "io.k8s.apimachinery.pkg.runtime.Unknown": {"type": "object", "description": "u"}
	}`
	common := `"port": {"description": "ios", "x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
	    "raw": {"type": "object", "description": "raw", "x-kubernetes-preserve-unknown-fields": true},
	    "unknown": {"type": "object", "description": "u", "x-kubernetes-preserve-unknown-fields": true}`
	// a built-in object's managed fields take any JSON value (no type);
	// controller-gen's FieldsV1 is an object
	builtinFields := `"fields": {"description": "f", "x-kubernetes-preserve-unknown-fields": true}`
	crdFields := `"fields": {"type": "object", "description": "f", "x-kubernetes-preserve-unknown-fields": true}`
	got, err := Resolve(defs(t, src), "a.Root")
	if err != nil {
		t.Fatal(err)
	}
	// the apiserver accepts a Quantity as a string or any number (0.5):
	// untyped, with the pattern ParseQuantity applies to strings
	equalJSON(t, got, `{"type": "object", "properties": {`+common+`, `+builtinFields+`,
	    "cpu": {"description": "q", "x-kubernetes-int-or-string": true, "pattern": `+jsonString(quantityPattern)+`}}}`)
	got, err = ResolveCRD(defs(t, src), "a.Root")
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, got, `{"type": "object", "properties": {`+common+`, `+crdFields+`,
	    "cpu": {"description": "q", "x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}], "pattern": `+jsonString(crdQuantityPattern)+`}}}`)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A recursive definition is unrolled MaxRecursion levels; below, an object
// preserving unknown fields, and a list-map of such objects loses the keys
// and rules that name fields it no longer declares.
func TestResolveRecursion(t *testing.T) {
	d := defs(t, `{
	  "a.Node": {"type": "object", "description": "node", "properties": {
	    "name": {"type": "string"},
	    "child": {"$ref": "#/components/schemas/a.Node"},
	    "children": {"type": "array", "items": {"$ref": "#/components/schemas/a.Node"},
	      "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
	      "x-kubernetes-validations": [{"rule": "self.all(c, c.name != '')"}]}}}
	}`)
	got, err := Resolve(d, "a.Node")
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	p := got
	for ; p != nil && p.Properties != nil; levels++ {
		children := p.Properties["children"]
		cut := levels == MaxRecursion-1
		if (children.XListType == nil) != cut || (len(children.XListMapKeys) == 0) != cut || (len(children.XValidations) == 0) != cut {
			t.Errorf("level %d: children list type %v, keys %v, rules %v; want them dropped: %v",
				levels, children.XListType, children.XListMapKeys, children.XValidations, cut)
		}
		c, ok := p.Properties["child"]
		if !ok {
			t.Fatalf("level %d: no child", levels)
		}
		p = &c
	}
	if levels != MaxRecursion {
		t.Errorf("unrolled %d levels, want %d", levels, MaxRecursion)
	}
	if p.Type != "object" || p.XPreserveUnknownFields == nil || !*p.XPreserveUnknownFields || p.Description != "node" {
		t.Errorf("cut-off node: %+v, want an object preserving unknown fields", p)
	}
}

// Rules naming a property without a type cannot compile: CEL declares no
// field for it. They are dropped, the others kept. Quantity, dyn in both
// forms (int-or-string), keeps its rules.
func TestResolveDropsRulesOnUntypedProperties(t *testing.T) {
	d := defs(t, `{
	  "a.Root": {"type": "object", "properties": {
	    "cpu": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
	    "raw": {"description": "untyped", "x-kubernetes-preserve-unknown-fields": true},
	    "cpus": {"type": "integer"}},
	    "x-kubernetes-validations": [{"rule": "has(self.raw)"}, {"rule": "self.cpus > 0"}, {"rule": "true", "messageExpression": "string(self.raw)"}, {"rule": "has(self.cpu)"}]},
	  "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"}
	}`)
	for _, resolve := range []func(map[string]*schema.Props, string) (*schema.Props, error){Resolve, ResolveCRD} {
		got, err := resolve(d, "a.Root")
		if err != nil {
			t.Fatal(err)
		}
		if len(got.XValidations) != 2 || got.XValidations[0].Rule != "self.cpus > 0" || got.XValidations[1].Rule != "has(self.cpu)" {
			t.Errorf("rules %+v, want self.cpus > 0 and has(self.cpu)", got.XValidations)
		}
	}
}

func TestResolveMissingDefinition(t *testing.T) {
	d := defs(t, `{
	  "a.Root": {"type": "object", "properties": {"spec": {"$ref": "#/components/schemas/a.Spec"}}},
	  "a.Spec": {"type": "object", "properties": {"x": {"type": "array", "items": {"$ref": "#/components/schemas/a.Gone"}}}}
	}`)
	_, err := Resolve(d, "a.Root")
	if err == nil || !strings.Contains(err.Error(), `a.Root: properties[spec]: a.Spec: properties[x]: definition "a.Gone" not found`) {
		t.Errorf("error %v, want the path to the missing definition", err)
	}
	if _, err := Resolve(d, "a.Nope"); err == nil || err.Error() != `definition "a.Nope" not found` {
		t.Errorf("error %v, want definition not found", err)
	}
}

// The kdv extensions of a use site (x-kubernetes-validation-errors,
// strip-zero, list-unique, unique-key, unions) are laid on the resolved
// definition with its other keywords: the type wording of a RawExtension
// field is declared where the field is.
func TestResolveMergesUseSiteExtensions(t *testing.T) {
	d := defs(t, `{
	  "a.Root": {"type": "object", "properties": {
	    "data": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"}],
	      "x-kubernetes-validation-errors": {"type": {"message": "data must be a valid JSON object", "reason": "FieldValueRequired"}}},
	    "list": {"allOf": [{"$ref": "#/components/schemas/a.List"}], "x-kubernetes-strip-zero": true, "x-kubernetes-unique-key": "name", "x-kubernetes-list-unique": false}}},
	  "a.List": {"type": "array", "items": {"type": "string"}},
	  "io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object"}
	}`)
	got, err := Resolve(d, "a.Root")
	if err != nil {
		t.Fatal(err)
	}
	data := got.Properties["data"]
	if data.Type != "object" || data.XValidationErrors["type"].Message != "data must be a valid JSON object" || data.XValidationErrors["type"].Reason != "FieldValueRequired" {
		t.Errorf("data: %+v, want an object with the type's wording", data)
	}
	list := got.Properties["list"]
	if !list.XStripZero || list.XUniqueKey != "name" || list.XListUnique == nil || *list.XListUnique {
		t.Errorf("list: strip-zero %v, unique key %q, list-unique %v", list.XStripZero, list.XUniqueKey, list.XListUnique)
	}
}

// A Resolver gives what Resolve gives, sharing each resolved definition
// between its uses: a use site's keywords (description, rules, wording)
// are laid on a copy, never on the shared definition, whichever is
// resolved first.
func TestResolverSharesDefinitions(t *testing.T) {
	doc := `{
	  "a.Root": {"type": "object", "properties": {
	    "first": {"allOf": [{"$ref": "#/components/schemas/a.Def"}], "description": "first",
	      "x-kubernetes-validations": [{"rule": "self.x > 1"}], "x-kubernetes-validation-errors": {"type": {"message": "first's"}}},
	    "second": {"allOf": [{"$ref": "#/components/schemas/a.Def"}], "description": "second", "x-kubernetes-lifecycle-note": "kept"},
	    "list": {"type": "array", "items": {"$ref": "#/components/schemas/a.Def"}}}},
	  "a.Other": {"type": "object", "properties": {"def": {"$ref": "#/components/schemas/a.Def"}}},
	  "a.Def": {"type": "object", "description": "def", "properties": {"x": {"type": "integer"}},
	    "x-kubernetes-validations": [{"rule": "self.x >= 0"}], "x-kubernetes-validation-errors": {"minimum": {"message": "def's"}}}
	}`
	d := defs(t, doc)
	res := NewResolver(func(n string) (*schema.Props, error) { return d[n], nil })
	for _, order := range [][]string{{"a.Def", "a.Root", "a.Other"}, {"a.Root", "a.Other", "a.Def"}} {
		res := res
		if order[0] != "a.Def" {
			res = NewResolver(func(n string) (*schema.Props, error) { return d[n], nil })
		}
		for _, name := range order {
			got, err := res.Resolve(name)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Resolve(defs(t, doc), name)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("%v: %s:\n got %s\nwant %s", order, name, g, w)
			}
		}
		def, _ := res.Resolve("a.Def")
		if def.Description != "def" || len(def.XValidations) != 1 || len(def.XValidationErrors) != 1 || def.Extra != nil {
			t.Errorf("%v: the shared definition took a use site's keywords: %+v", order, def)
		}
	}
	// the definitions given are not modified either
	if g, _ := json.Marshal(d); string(g) != func() string { w, _ := json.Marshal(defs(t, doc)); return string(w) }() {
		t.Errorf("definitions modified: %s", g)
	}
}
