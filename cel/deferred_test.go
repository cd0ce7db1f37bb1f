package cel

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestDeferredCompile: with the compile cache warm, a built-in rule is
// compiled only when an object reaches it past its vacuity test, and then
// reports exactly what the rule compiled up front reports.
func TestDeferredCompile(t *testing.T) {
	src := `type: object
properties:
  num: {type: integer}
  str: {type: string}
x-kubernetes-validations:
- {rule: "!has(self.num) || self.num >= 0", message: "must be greater than or equal to 0", reason: FieldValueInvalid, fieldPath: .num}
- {rule: "!has(self.str) || self.str != 'x'", messageExpression: "'not ' + self.str", reason: FieldValueInvalid, fieldPath: .str}
- {rule: "self.?num.orValue(0) < 10 || self.?str.orValue('') != ''", message: "both", reason: FieldValueRequired, fieldPath: .str}
`
	objs := []map[string]any{{}, {"num": int64(-1)}, {"str": "x"}, {"num": int64(11)}}
	validate := func(v *Validator, obj map[string]any) string {
		got, _ := v.ValidateObject(context.Background(), field.NewPath("spec"), obj, nil, RuntimeCELCostBudget)
		return fmt.Sprint(got)
	}
	newV := func() *Validator {
		v, errs := NewValidator(yamlSchema(t, src), false, Options{BuiltIn: true, SkipCheck: true})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return v
	}
	var want []string
	cold := newV() // no cache: compiled when the node is first evaluated
	for _, o := range objs {
		want = append(want, validate(cold, o))
	}
	if want[1] == "[]" || want[2] == "[]" || want[3] == "[]" || want[0] != "[]" {
		t.Fatalf("without the cache: %q", want)
	}
	if err := SetCompileCacheDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	defer SetCompileCacheDir("")
	sharedRules.Clear() // a node compiled above would be reused as is
	v := newV()
	validate(v, objs[1]) // fills the cache
	sharedRules.Clear()
	v = newV()
	if got := validate(v, objs[0]); got != want[0] {
		t.Errorf("warm cache, %v: %s, want %s", objs[0], got, want[0])
	}
	nr := v.root.compiledRules()
	for i, c := range nr.compiled {
		if c.deferred == nil {
			t.Fatalf("rule %d read from a warm cache was compiled up front", i)
		}
		if i < 2 && c.deferred.compile == nil {
			t.Errorf("rule %d is vacuous on {} but was compiled", i)
		}
	}
	for i, o := range objs[1:] {
		if got := validate(v, o); got != want[i+1] {
			t.Errorf("warm cache, %v: %s, want %s", o, got, want[i+1])
		}
	}
}

// FuzzRuleMeta: a meta entry is a side input (the cache directory);
// decoding never panics, and what decodes encodes back to itself.
func FuzzRuleMeta(f *testing.F) {
	f.Add(encodeRuleMeta(true, &vacuity{fields: []string{"a", "bb"}, guards: []string{"a"}}))
	f.Add(encodeRuleMeta(false, &vacuity{guards: []string{"x"}}))
	f.Add(encodeRuleMeta(false, nil))
	f.Add([]byte{2, 200, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		old, v, err := decodeRuleMeta(b)
		if err != nil {
			return
		}
		o2, v2, err := decodeRuleMeta(encodeRuleMeta(old, v))
		if err != nil || o2 != old || (v == nil) != (v2 == nil) || v != nil && (!reflect.DeepEqual(v.fields, v2.fields) || !reflect.DeepEqual(v.guards, v2.guards)) {
			t.Fatalf("round trip of %q: %v %+v %v", b, o2, v2, err)
		}
	})
}
