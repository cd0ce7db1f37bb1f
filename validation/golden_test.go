package validation

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"kdv.dev/schema"
)

// testdata/apiserver_golden.json holds the errors the apiextensions-apiserver
// v0.37.2 code returns for a set of schemas and values (int-or-string,
// numeric formats and bounds, string formats, junctors with properties,
// nested additionalProperties, nullable and enum, preserve-unknown-fields,
// ratcheting of objects, maps, atomic/set/map lists and junctors, and CRD
// shapes: resource quantities, containers with list-map ports, root
// additionalProperties, nested arrays, enums of objects). It was
// generated outside this module by running the apiserver's own functions:
// validation.ValidateCustomResource plus listtype.ValidateListSetsAndMaps on
// create, and validation.ValidateCustomResourceUpdate with
// WithRatcheting(common.NewCorrelatedObject(...)) plus the list-type check
// (when the old object passes it) on update, for every pair of values of a
// group. Errors are sorted, as the apiserver's order is random there.
func TestApiserverGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/apiserver_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var groups []struct {
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Cases       []struct {
			Description string          `json:"description"`
			Data        json.RawMessage `json:"data"`
			Old         json.RawMessage `json:"old"`
			Errors      []string        `json:"errors"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &groups); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range groups {
		v := mustValidator(t, string(g.Schema), Options{SkipCEL: true})
		for _, c := range g.Cases {
			var obj, old schema.JSON
			if err := obj.UnmarshalJSON(c.Data); err != nil {
				t.Fatal(err)
			}
			var oldObj any
			if len(c.Old) > 0 {
				if err := old.UnmarshalJSON(c.Old); err != nil {
					t.Fatal(err)
				}
				oldObj = old.Object
			}
			got := fieldStrings(v.Validate(context.Background(), obj.Object, oldObj))
			if !sortedEqual(sortedCopy(got), c.Errors) {
				t.Errorf("%s / %s:\n got  %q\n want %q", g.Description, c.Description, sortedCopy(got), c.Errors)
			}
			n++
		}
	}
	t.Logf("%d apiserver golden cases", n)
}
