package bench

import (
	"strings"
	"testing"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// FuzzDifferential feeds arbitrary JSON objects of the corpus kinds to kdv
// and to the apiserver's code, on create and as an update of the corpus
// example they were seeded from, and fails on any disagreement outside
// the allow-list. Seeds: every corpus example.
//
//	go test -run XXX -fuzz FuzzDifferential -fuzztime 60s .
func FuzzDifferential(f *testing.F) {
	c := loadCorpus(f)
	for _, ex := range c.Examples {
		j, err := utiljson.Marshal(ex.Obj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(j)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if err := utiljson.Unmarshal(data, &obj); err != nil || obj == nil {
			return
		}
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		gv, err := k8sschema.ParseGroupVersion(apiVersion)
		if err != nil {
			return
		}
		kp := c.Kinds[gv.WithKind(kind)]
		if kp == nil {
			return
		}
		var old map[string]any
		for _, ex := range c.Examples {
			if ex.Kind == kp {
				old = ex.Obj
				break
			}
		}
		// The allow-list knows a request's status by its mutation kind.
		mutation := "fuzz"
		if _, ok := obj["status"]; ok {
			mutation = "status"
		}
		for _, cs := range []objCase{
			{Name: "create", Mutation: mutation, Kind: kp, Obj: obj},
			{Name: "update", Mutation: mutation, Kind: kp, Obj: obj, Old: old},
		} {
			d := compareCase(cs)
			if d == nil || d.Class != "" {
				continue
			}
			allowed := false
			for _, k := range knownObjectDifferences {
				if k.Match(d) {
					allowed = true
					break
				}
			}
			if !allowed {
				t.Errorf("%s of %s:\napiserver:\n%skdv:\n%s", cs.Name, data, d.Ref, d.KDV)
			}
		}
	})
}

// FuzzDifferentialCRD wraps arbitrary JSON as the openAPIV3Schema of a
// small CRD and compares kdv's CRD check (resource.CheckCRD) with the
// apiserver's ValidateCustomResourceDefinition: same errors, same order.
//
//	go test -run XXX -fuzz FuzzDifferentialCRD -fuzztime 60s .
func FuzzDifferentialCRD(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string","maxLength":3,"default":"abcd"}}}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.a == 'x'","message":"m"}],"properties":{"a":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"spec":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}}`,
		`{"type":"object","properties":{"spec":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
		`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10}}},"spec":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","additionalProperties":{"type":"integer","minimum":1,"default":0}}}}`,
		`{"type":"object","properties":{"spec":{"type":"string","enum":["a","b"],"pattern":"^[a-z]+$","format":"date-time"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s any
		if err := utiljson.Unmarshal(data, &s); err != nil {
			return
		}
		crd := map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1",
			"kind":       "CustomResourceDefinition",
			"metadata":   map[string]any{"name": "widgets.example.com"},
			"spec": map[string]any{
				"group": "example.com",
				"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
				"scope": "Namespaced",
				"versions": []any{map[string]any{
					"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": s},
				}},
			},
		}
		if hasCaseVariantKey(s) {
			// GAP (kdv.dev/schema): ParseCRD matches field names case-
			// insensitively ("messAge" is read as "message"); the
			// apiserver's JSON decoder is case-sensitive. Skipped until
			// fixed, see the report.
			return
		}
		ref, kdv := crdVerdicts(crd)
		if ref.DecodeErr != "" {
			// Not a v1 CRD the apiserver can decode: nothing to compare.
			return
		}
		if d := crdDisagreement(crd, ref, kdv); d != nil && d.Class == "" {
			d.Case = objCase{Name: "fuzz"}
			for _, k := range knownCRDDifferences {
				if k.Match(d) {
					return
				}
			}
			t.Errorf("schema %s:\napiserver:\n%skdv:\n%s", data, ref, kdv)
		}
	})
}

// schemaKeys are the JSON names of JSONSchemaProps and ValidationRule.
var schemaKeys = strings.Fields(`id $schema $ref description type format title default maximum
	exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern maxItems minItems
	uniqueItems multipleOf enum maxProperties minProperties required items allOf oneOf anyOf not
	properties additionalProperties patternProperties dependencies additionalItems definitions
	externalDocs example nullable x-kubernetes-preserve-unknown-fields x-kubernetes-embedded-resource
	x-kubernetes-int-or-string x-kubernetes-list-map-keys x-kubernetes-list-type x-kubernetes-map-type
	x-kubernetes-validations rule message messageExpression reason fieldPath optionalOldSelf url`)

// hasCaseVariantKey reports whether v has a key that differs from a schema
// keyword only in case.
func hasCaseVariantKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			for _, sk := range schemaKeys {
				if k != sk && strings.EqualFold(k, sk) {
					return true
				}
			}
			if hasCaseVariantKey(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasCaseVariantKey(e) {
				return true
			}
		}
	}
	return false
}
