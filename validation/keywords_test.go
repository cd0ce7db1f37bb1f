package validation

import (
	"context"
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/formats"
	"kdv.dev/schema"
)

// mustValidator compiles a schema written as JSON.
func mustValidator(t testing.TB, schemaJSON string, opts Options) *Validator {
	t.Helper()
	var p schema.Props
	if err := json.Unmarshal([]byte(schemaJSON), &p); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatalf("structural: %v", err)
	}
	v, err := New(s, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return v
}

// mustJSON decodes JSON the way the apiserver does (integers as int64).
func mustJSON(t testing.TB, s string) any {
	t.Helper()
	var p schema.JSON
	if err := p.UnmarshalJSON([]byte(s)); err != nil {
		t.Fatalf("value %s: %v", s, err)
	}
	return p.Object
}

func errStrings(t testing.TB, v *Validator, obj, old any) []string {
	t.Helper()
	var out []string
	for _, e := range v.Validate(context.Background(), obj, old) {
		out = append(out, e.Error())
	}
	return out
}

func TestSmoke(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","minimum":0}}}}}`, Options{})
	got := errStrings(t, v, mustJSON(t, `{"spec":{"replicas":-1}}`), nil)
	want := "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func fieldStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestKeywordMessages covers each keyword's exact apiserver error (messages
// from kube-openapi pkg/validation/errors, converted by
// kubeOpenAPIResultToFieldErrors).
func TestKeywordMessages(t *testing.T) {
	cases := []struct {
		schema, obj string
		want        []string
	}{
		{`{"type":"integer","minimum":0}`, `-1`, []string{`<nil>: Invalid value: -1:  in body should be greater than or equal to 0`}},
		{`{"type":"object","properties":{"n":{"type":"number","minimum":1.5,"exclusiveMinimum":true}}}`, `{"n":1.5}`, []string{`n: Invalid value: 1.5: n in body should be greater than 1.5`}},
		{`{"type":"object","properties":{"n":{"type":"number","maximum":1000000}}}`, `{"n":1000000.5}`, []string{`n: Invalid value: 1.0000005e+06: n in body should be less than or equal to 1e+06`}},
		{`{"type":"object","properties":{"n":{"type":"integer","maximum":10,"exclusiveMaximum":true}}}`, `{"n":10}`, []string{`n: Invalid value: 10: n in body should be less than 10`}},
		{`{"type":"object","properties":{"n":{"type":"integer","multipleOf":3}}}`, `{"n":10}`, []string{`n: Invalid value: 10: n in body should be a multiple of 3`}},
		{`{"type":"object","properties":{"n":{"type":"number","multipleOf":0.5}}}`, `{"n":0.3}`, []string{`n: Invalid value: 0.3: n in body should be a multiple of 0.5`}},
		{`{"type":"object","properties":{"s":{"type":"string","minLength":3}}}`, `{"s":"ab"}`, []string{`s: Invalid value: "ab": s in body should be at least 3 chars long`}},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":2}}}`, `{"s":"äöü"}`, []string{`s: Too long: may not be more than 2 bytes`}},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":3}}}`, `{"s":"äöü"}`, nil}, // runes, not bytes
		{`{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}`, `{"s":"b"}`, []string{`s: Invalid value: "b": s in body should match '^a'`}},
		{`{"type":"object","properties":{"l":{"type":"array","minItems":2}}}`, `{"l":[1]}`, []string{`l: Invalid value: 1: l in body should have at least 2 items`}},
		{`{"type":"object","properties":{"l":{"type":"array","uniqueItems":true}}}`, `{"l":[{"a":1},{"a":1}]}`, []string{`l: Invalid value: "": l in body shouldn't contain duplicates`}},
		{`{"type":"object","properties":{"m":{"type":"object","minProperties":1}}}`, `{"m":{}}`, []string{`m: Invalid value: 0: m in body should have at least 1 properties`}},
		{`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]}}}`, `{"e":"c"}`, []string{`e: Unsupported value: "c": supported values: "a", "b"`}},
		{`{"type":"object","properties":{"e":{"type":"integer","enum":[1,2]}}}`, `{"e":3}`, []string{`e: Unsupported value: 3: supported values: "1", "2"`}},
		{`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y"]}}}`, `{"o":{}}`, []string{`o.x: Required value`, `o.y: Required value`}},
		{`{"type":"object","additionalProperties":{"type":"string","minLength":2}}`, `{"k":"a"}`, []string{`k: Invalid value: "a": .k in body should be at least 2 chars long`}},
		{`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}}}}`, `{"m":{"a.b":"x"}}`, []string{`m.a.b: Invalid value: "string": m.a.b in body must be of type integer: "string"`}},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","maximum":1}}}}}}`, `{"l":[{"n":1},{"n":2}]}`, []string{`l[1].n: Invalid value: 2: l[1].n in body should be less than or equal to 1`}},
		{`{"type":"object","properties":{"u":{"type":"string","format":"uuid"}}}`, `{"u":"nope"}`, []string{`u: Invalid value: "nope": u in body must be of type uuid: "nope"`}},
		{`{"type":"object","properties":{"u":{"type":"string","format":"no-such-format"}}}`, `{"u":"nope"}`, nil},
		{`{"type":"object","properties":{"o":{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}}}`, `{"o":{"a":1,"b":2}}`, []string{`<nil>: Invalid value: "": "o" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{`{"type":"object","properties":{"o":{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}}}`, `{"o":{}}`, []string{`<nil>: Invalid value: "": "o" must validate one and only one schema (oneOf). Found none valid`, `o.a: Required value`}},
		{`{"type":"object","properties":{"o":{"type":"object","not":{"required":["a"]}}}}`, `{"o":{"a":1}}`, []string{`<nil>: Invalid value: "": "o" must not validate the schema (not)`}},
		{`{"type":"object","properties":{"p":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`, `{"p":{"anything":[1,{"x":null}]}}`, nil},
	}
	for i, tc := range cases {
		v := mustValidator(t, tc.schema, Options{})
		assertSameSet(t, i, errStrings(t, v, mustJSON(t, tc.obj), nil), tc.want)
	}
}

// TestValidationErrorsOverride covers x-kubernetes-validation-errors, the
// kdv extension that replaces a keyword's message and reason.
func TestValidationErrorsOverride(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"s":{"type":"string","pattern":"^[a-z]+$","x-kubernetes-validation-errors":{"pattern":{"message":"must be lowercase letters","reason":"FieldValueForbidden"}}},
		"n":{"type":"integer","maximum":3,"x-kubernetes-validation-errors":{"maximum":{"message":"at most three"}}},
		"o":{"type":"object","required":["x"],"x-kubernetes-validation-errors":{"required":{"message":"x is mandatory"}}}}}`, Options{})
	assertSameSet(t, 0, errStrings(t, v, mustJSON(t, `{"s":"A","n":4,"o":{}}`), nil), []string{
		`s: Forbidden: must be lowercase letters`,
		`n: Invalid value: 4: at most three`,
		`o.x: Required value: x is mandatory`,
	})
}

// TestValidationErrorsAtList: "at":"list" reports an item's error at its
// list, as ValidatePersistentVolumeClaimSpec reports each unsupported
// access mode at spec.accessModes (expected lines from the reference,
// bench/cmd/builtin-verdict, Kubernetes 1.37); a map value's error keeps
// its key.
func TestValidationErrorsAtList(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"accessModes":{"type":"array","items":{"type":"string","enum":["ReadWriteOnce"],"x-kubernetes-validation-errors":{"enum":{"at":"list"}}}},
		"m":{"type":"object","additionalProperties":{"type":"string","enum":["a"],"x-kubernetes-validation-errors":{"enum":{"at":"list"}}}}}}`, Options{})
	assertSameSet(t, 0, errStrings(t, v, mustJSON(t, `{"accessModes":["ReadWriteOnce","Bad","Worse"],"m":{"k":"b"}}`), nil), []string{
		`accessModes: Unsupported value: "Bad": supported values: "ReadWriteOnce"`,
		`accessModes: Unsupported value: "Worse": supported values: "ReadWriteOnce"`,
		`m.k: Unsupported value: "b": supported values: "a"`,
	})
}

// TestExtendedFormats covers a formats registry enforcing formats beyond the
// apiserver's (kdv-extended): their checkers' own errors are reported.
func TestExtendedFormats(t *testing.T) {
	s := `{"type":"object","properties":{"s":{"type":"string","format":"dns1123label"}}}`
	if errs := errStrings(t, mustValidator(t, s, Options{}), mustJSON(t, `{"s":"Not_A_Label"}`), nil); len(errs) > 0 {
		t.Errorf("the apiserver ignores format dns1123label, got %q", errs)
	}
	v := mustValidator(t, s, Options{Formats: formats.New(formats.Options{Extended: true})})
	got := v.Validate(context.Background(), mustJSON(t, `{"s":"Not_A_Label"}`), nil)
	if len(got) == 0 || got[0].Field != "s" || got[0].Type != field.ErrorTypeInvalid {
		t.Errorf("extended format: got %v", got)
	}
}
