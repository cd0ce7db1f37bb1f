package cel

import (
	"context"
	"encoding/json"
	"testing"

	"kdv.dev/schema"
)

func mustSchema(t testing.TB, js string) *schema.Structural {
	t.Helper()
	var p schema.Props
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSmoke(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.a > 0","message":"a must be positive"}],"properties":{"a":{"type":"integer"}}}}}`)
	v, errs := NewValidator(s, true, Options{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	got, rem := v.Validate(context.Background(), nil, map[string]any{"spec": map[string]any{"a": int64(0)}}, nil, RuntimeCELCostBudget)
	t.Log(got, rem)
	if len(got) != 1 || got[0].Error() != `spec: Invalid value: a must be positive` {
		t.Fatalf("got %v", got)
	}
}
