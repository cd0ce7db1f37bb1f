package cel

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"kdv.dev/schema"
)

func TestDiffSteps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{in: ".spec", want: []string{"spec"}},
		{in: ".containers[*].image", want: []string{"containers", "*", "image"}},
		{in: "[*][*].a", want: []string{"*", "*", "a"}},
		{in: "", want: nil},
		{in: "spec", bad: true},
		{in: "..a", bad: true},
		{in: ".a[0]", bad: true},
		{in: ".a.", bad: true},
	} {
		got, err := diffSteps(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGraft(t *testing.T) {
	obj := func() map[string]any {
		return map[string]any{
			"containers": []any{
				map[string]any{"name": "a", "image": "new1"},
				map[string]any{"name": "b"},
				map[string]any{"name": "c", "image": "new3"},
			},
			"deadline":   int64(5),
			"volumeName": "",
		}
	}
	old := map[string]any{
		"containers": []any{
			map[string]any{"name": "a", "image": "old1"},
			map[string]any{"name": "b", "image": "old2"},
		},
		"volumeName": "pv",
	}
	dst := obj()
	got := graft(dst, old, []string{"containers", "*", "image"}, false)
	got = graft(got, old, []string{"deadline"}, false)
	want := map[string]any{
		"containers": []any{
			map[string]any{"name": "a", "image": "old1"},
			map[string]any{"name": "b", "image": "old2"},
			// no old item 3: its image is removed, as the old value has none
			map[string]any{"name": "c"},
		},
		"volumeName": "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keep: %v, want %v", got, want)
	}
	if !reflect.DeepEqual(dst, obj()) {
		t.Errorf("graft changed its argument: %v", dst)
	}
	// fill: only an empty value takes the other's
	if got := graft(obj(), old, []string{"volumeName"}, true).(map[string]any)["volumeName"]; got != "pv" {
		t.Errorf("fill of an empty value: %v", got)
	}
	if got := graft(map[string]any{"volumeName": "x"}, old, []string{"volumeName"}, true).(map[string]any)["volumeName"]; got != "x" {
		t.Errorf("fill of a set value: %v", got)
	}
	// an absent object stays absent when the other has nothing either
	if got := graft(nil, map[string]any{}, []string{"a", "b"}, false); got != nil {
		t.Errorf("graft into nil: %v", got)
	}
	// an object emptied, where the other has none, is dropped; one the
	// other has is kept
	aff := map[string]any{"affinity": map[string]any{"nodeAffinity": "new"}}
	if got := graft(aff, map[string]any{}, []string{"affinity", "nodeAffinity"}, false); !reflect.DeepEqual(got, map[string]any{}) {
		t.Errorf("emptied affinity: %v", got)
	}
	if got := graft(aff, map[string]any{"affinity": map[string]any{}}, []string{"affinity", "nodeAffinity"}, false); !reflect.DeepEqual(got, map[string]any{"affinity": map[string]any{}}) {
		t.Errorf("emptied affinity the old pod has: %v", got)
	}
	// a value of another type is left alone
	if got := graft("x", old, []string{"containers", "*", "image"}, false); got != "x" {
		t.Errorf("graft into a string: %v", got)
	}
}

func TestRuleDiffText(t *testing.T) {
	s := &schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
		"spec": {Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
			"a": {Generic: schema.Generic{Type: "string"}},
			"b": {Generic: schema.Generic{Type: "string"}},
			"c": {Generic: schema.Generic{Type: "string"}},
		}},
	}}
	spec := s.Properties["spec"]
	spec.Go = &schema.GoStruct{Fields: []schema.GoStructField{
		{Key: "A", JSON: "a", Zero: `""`}, {Key: "B", JSON: "b", Zero: `""`}, {Key: "C", JSON: "c", Zero: `""`},
	}}
	s.Properties["spec"] = spec
	d, err := compileDiff(&schema.RuleDiff{Path: ".spec", Keep: []string{".a"}, Only: []string{"b", "c"}}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	self := map[string]any{"spec": map[string]any{"a": "x", "b": "<new>"}}
	oldSelf := map[string]any{"spec": map[string]any{"a": "y", "b": "old"}}
	selfCopy := runtime.DeepCopyJSON(self)
	// encoding/json's HTML escaping, absent fields as Go zero values, A
	// left out
	want := "@@ -1,4 +1,4 @@\n {\n- \"B\": \"old\",\n+ \"B\": \"\\u003cnew\\u003e\",\n  \"C\": \"\"\n }\n"
	if got := d.text(self, oldSelf, nil); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if !reflect.DeepEqual(self, selfCopy) {
		t.Errorf("text changed self: %v", self)
	}
	if got := d.text(oldSelf, oldSelf, nil); got != "" {
		t.Errorf("no change: %q", got)
	}
	for _, bad := range []schema.RuleDiff{
		{Path: ".nope"},
		{Path: ".spec", Keep: []string{".nope"}},
		{Path: ".spec", Fill: []string{"a"}},
		{Path: ".spec", Only: []string{"nope"}},
		{Path: ".spec", Keep: []string{".a if self.x"}}, // no CEL environment
	} {
		if _, err := compileDiff(&bad, s, nil); err == nil || !strings.Contains(err.Error(), "x-kubernetes-diff") {
			t.Errorf("%+v: error %v", bad, err)
		}
	}
}

// A diff beyond maxDiffLines is left out, with a word.
func TestRuleDiffTooLong(t *testing.T) {
	items := make([]any, maxDiffLines)
	for i := range items {
		items[i] = "x"
	}
	d := &ruleDiff{steps: []string{"spec"}}
	got := d.text(map[string]any{"spec": items}, map[string]any{"spec": []any{}}, nil)
	if !strings.HasPrefix(got, "(kdv: the diff of ") || !strings.Contains(got, "left out") {
		t.Errorf("got %.200q", got)
	}
}
