package defaulting

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// CompileDefaultExpression refuses what cannot be a default and compiles
// each source once.
func TestCompileDefaultExpression(t *testing.T) {
	for _, bad := range []string{
		"self.",            // syntax
		"unknownFn(self)",  // undeclared function
		"[1, 2]",           // a list is no default
		"{1: 'a'}",         // nor a map with int keys
		"imageTag(1)",      // no such overload
		"optional.of([1])", // nor an optional list
	} {
		if _, err := CompileDefaultExpression(bad); err == nil {
			t.Errorf("%q compiled, want an error", bad)
		} else if !strings.Contains(err.Error(), "default expression") {
			t.Errorf("%q: error %q does not say what failed", bad, err)
		}
	}
	a, err := CompileDefaultExpression("'x'")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompileDefaultExpression("'x'")
	if a != b {
		t.Error("the same source compiled twice")
	}
}

// Eval computes no default, and does not panic, where the object does not
// let the expression compute one: a field of another type, a huge value,
// a loop past the cost limit, a nil object.
func TestExpressionEvalOddInput(t *testing.T) {
	policy, err := CompileDefaultExpression("imageTag(self.?image.orValue('')) == 'latest' ? 'Always' : 'IfNotPresent'")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		self map[string]any
		want any
	}{
		{"no image", map[string]any{}, "IfNotPresent"},
		{"nil object", nil, "IfNotPresent"},
		{"untagged", map[string]any{"image": "nginx"}, "Always"},
		{"tagged", map[string]any{"image": "nginx:1"}, "IfNotPresent"},
		{"huge image", map[string]any{"image": strings.Repeat("a", 3<<20)}, "IfNotPresent"},
		{"image an integer", map[string]any{"image": int64(7)}, nil},
		{"image a list", map[string]any{"image": []any{"nginx"}}, nil},
		{"image a map", map[string]any{"image": map[string]any{"a": "b"}}, nil},
	} {
		got, ok := policy.Eval(c.self)
		if c.want == nil {
			if ok {
				t.Errorf("%s: got %v, want no default", c.name, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%s: got %v (%v), want %v", c.name, got, ok, c.want)
		}
	}
	loop, err := CompileDefaultExpression("self.items.map(a, self.items.map(b, self.items.map(c, 1))).size()")
	if err != nil {
		t.Fatal(err)
	}
	items := make([]any, 200)
	for i := range items {
		items[i] = int64(i)
	}
	if got, ok := loop.Eval(map[string]any{"items": items}); ok {
		t.Errorf("cubic loop over 200 items: got %v, want the cost limit to stop it", got)
	}
	if got, ok := loop.Eval(map[string]any{"items": items[:3]}); !ok || got != int64(3) {
		t.Errorf("small loop: got %v (%v), want 3", got, ok)
	}
	opt, err := CompileDefaultExpression("has(self.parallelism) ? optional.none() : optional.of(1)")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := opt.Eval(map[string]any{}); !ok || got != int64(1) {
		t.Errorf("optional.of(1): got %v (%v), want 1", got, ok)
	}
	if got, ok := opt.Eval(map[string]any{"parallelism": int64(2)}); ok {
		t.Errorf("optional.none(): got %v, want no default", got)
	}
	// objects: {} and optional.of({}) as SetDefaults_Volume's emptyDir;
	// a value that is no JSON default (a list, a null, a non-string key
	// of a dyn map) computes none.
	for _, c := range []struct {
		src  string
		want any
	}{
		{"{}", map[string]any{}},
		{"optional.of({})", map[string]any{}},
		{"{'a': 1, 'b': {'c': 'd', 'e': true, 'f': 1.5}}", map[string]any{"a": int64(1), "b": map[string]any{"c": "d", "e": true, "f": 1.5}}},
		{"{'a': [1]}", nil},
		{"{'a': null}", nil},
		{"{'a': self.k}", nil}, // self.k is a dyn int key map below
		{"{'a': {'a': {'a': {'a': {'a': {'a': {'a': {'a': {'a': 1}}}}}}}}}", nil},
	} {
		e, err := CompileDefaultExpression(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		got, ok := e.Eval(map[string]any{"k": map[int64]any{1: "x"}})
		if c.want == nil {
			if ok {
				t.Errorf("%s: got %v, want no default", c.src, got)
			}
		} else if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v (%v), want %v", c.src, got, ok, c.want)
		}
	}
	a, _ := CompileDefaultExpression("{}")
	x, _ := a.Eval(nil)
	y, _ := a.Eval(nil)
	x.(map[string]any)["k"] = "v"
	if len(y.(map[string]any)) != 0 {
		t.Error("two evaluations share one object")
	}
	var nilExpr *Expression
	if _, ok := nilExpr.Eval(map[string]any{}); ok {
		t.Error("nil expression computed a default")
	}
}

// TestExpressionEvaluatorAgreesWithCEL: kdv's default expressions give
// the same result through the Evaluator (the prover, tried first) as
// through CEL alone, on parents of every shape, and the Evaluator decides
// the usual ones.
func TestExpressionEvaluatorAgreesWithCEL(t *testing.T) {
	exprs := []string{
		"imageTag(self.?image.orValue('')) == 'latest' ? 'Always' : 'IfNotPresent'",
		"self.all(k, k == 'name' || self[k] == null) ? optional.of({}) : optional.none()",
		"has(self.parallelism) ? optional.none() : optional.of(1)",
		"has(self.backoffLimitPerIndex) ? 2147483647 : 6",
	}
	parents := []map[string]any{
		{},
		{"name": "a"},
		{"name": "a", "image": "nginx"},
		{"name": "a", "image": "nginx:latest"},
		{"name": "a", "image": "nginx:1.2@sha256:" + strings.Repeat("a", 64)},
		{"name": "a", "image": "Bad:Image"},
		{"name": "a", "image": int64(3)},
		{"name": "v", "configMap": map[string]any{"name": "c"}},
		{"name": "v", "emptyDir": nil},
		{"name": "v", "hostPath": nil, "secret": nil},
		{"parallelism": int64(2)},
		{"backoffLimitPerIndex": int64(1)},
		{"parallelism": nil},
	}
	decided := 0
	for _, src := range exprs {
		e, err := CompileDefaultExpression(src)
		if err != nil {
			t.Fatal(err)
		}
		celOnly := &Expression{prg: e.prg}
		for _, p := range parents {
			got, gotOK := e.Eval(p)
			want, wantOK := celOnly.Eval(p)
			if gotOK != wantOK || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s on %v: %v (%v), CEL %v (%v)", src, p, got, gotOK, want, wantOK)
			}
			if _, _, ok := e.ev.Eval(p); ok {
				decided++
			}
		}
	}
	if decided < len(exprs)*len(parents)*3/4 {
		t.Errorf("the Evaluator decided %d of %d evaluations", decided, len(exprs)*len(parents))
	}
	// a result is a fresh map each time: defaults are modified later
	e, _ := CompileDefaultExpression("self.all(k, k == 'name' || self[k] == null) ? optional.of({}) : optional.none()")
	a, _ := e.Eval(map[string]any{"name": "v"})
	a.(map[string]any)["medium"] = "Memory"
	if b, _ := e.Eval(map[string]any{"name": "v"}); len(b.(map[string]any)) != 0 {
		t.Errorf("the default object is shared between evaluations: %v", b)
	}
}
