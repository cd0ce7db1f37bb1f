package validation

import (
	"context"
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

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
