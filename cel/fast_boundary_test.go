package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/warning"

	"kdv.dev/schema"
)

type recorder struct{ warnings []string }

func (r *recorder) AddWarning(_, text string) { r.warnings = append(r.warnings, text) }

const budgetErr = `validation failed due to running out of cost budget, no further validation rules will be run`

// TestFastPathBoundaries: where the per-call limit or the budget decides,
// ValidateObject gives today's tracked errors (the apiserver's messages),
// completing fast only where the cost bounds prove the limits cannot be
// hit, and falling back to tracked evaluation otherwise.
func TestFastPathBoundaries(t *testing.T) {
	bigList := `{type: object, properties: {l: {type: array, maxItems: 5000, items: {type: string, maxLength: 1000}}}}`
	ints := `{type: object, properties: {i: {type: integer}, str: {type: string}, items: {type: array, items: {type: integer, x-kubernetes-validations: [{rule: "self >= 0"}]}}, o: {type: object, properties: {a: {type: string, maxLength: 3}}, x-kubernetes-preserve-unknown-fields: true}}}`
	cases := []struct {
		name, schema string
		rules        []schema.ValidationRule
		obj, old     string
		budget       int64
		perCallLimit uint64
		want         []string
		// wantFast: the fast attempt completes (no fallback)
		wantFast bool
	}{
		{name: "maxCost over the per-call limit, small actual cost: evaluated tracked inside the fast attempt",
			schema: bigList, rules: []schema.ValidationRule{{Rule: "self.l.all(x, x.contains('abc'))"}},
			obj: `{l: [abc, xabc]}`, wantFast: true},
		{name: "per-call limit exceeded at runtime",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.i > 0"}, {Rule: "self.i > 1"}}, perCallLimit: 1,
			obj:  `{i: 5}`,
			want: []string{`root: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.i > 0`}, wantFast: true},
		{name: "budget runs out in item rules",
			schema: ints, obj: `{items: [1, -1, 2, 3, 4, 5]}`, budget: 5,
			want: []string{"root.items[1]: Invalid value: -1: failed rule: self >= 0", `root.items[2]: Invalid value: "integer": ` + budgetErr}},
		{name: "budget exactly the actual cost, which the bound equals: fast",
			schema: ints, obj: `{items: [1, 2, 3]}`, budget: 6, wantFast: true},
		{name: "budget exactly the actual cost, below the bound: tracked",
			schema: `{type: array, items: {type: string, maxLength: 10, x-kubernetes-validations: [{rule: "self.contains('a')"}]}}`,
			obj:    `[a, b, ab]`, budget: 6, want: []string{`root[1]: Invalid value: "b": failed rule: self.contains('a')`}},
		{name: "budget ample: fast",
			schema: ints, obj: `{items: [1, -2, 3]}`, budget: 1000,
			want: []string{"root.items[1]: Invalid value: -2: failed rule: self >= 0"}, wantFast: true},
		{name: "apiserver estimate below actual cost (scalar equality): the bound is not",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.i == 5"}}, obj: `{i: 5}`, budget: 2,
			want: []string{`root: Invalid value: "object": ` + budgetErr}},
		{name: "apiserver estimate below actual cost (object equality)",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.o == oldSelf.o"}},
			obj: `{o: {a: x, b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8, j: 9, k: 10, l: 11}}`, old: `{o: {a: x, b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8, j: 9, k: 10, l: 11}}`, budget: 5,
			want: []string{`root: Invalid value: "object": ` + budgetErr}},
		{name: "object beyond the guard's key bound: tracked",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.o == oldSelf.o"}},
			obj: `{o: {` + strings.Repeat("k: 1, ", 1) + manyKeys(80) + `}}`, old: `{o: {a: y}}`,
			want: []string{"root: Invalid value: failed rule: self.o == oldSelf.o"}},
		{name: "messageExpression within budget",
			schema: ints, rules: []schema.ValidationRule{{Rule: "false", MessageExpression: `"str1 " + self.str`}},
			obj: `{str: "a string"}`, budget: 50, want: []string{"root: Invalid value: str1 a string"}},
		{name: "messageExpression within budget, bound within budget",
			schema: ints, rules: []schema.ValidationRule{{Rule: "false", MessageExpression: `"str1 " + self.str`}},
			obj: `{str: "a string"}`, want: []string{"root: Invalid value: str1 a string"}, wantFast: true},
		{name: "messageExpression out of budget",
			schema: ints, rules: []schema.ValidationRule{{Rule: "false", MessageExpression: `"str1 " + self.str`}},
			obj: `{str: "a string"}`, budget: 3,
			want: []string{`root: Invalid value: "object": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run`}},
		{name: "messageExpression per-call limit",
			schema: ints, rules: []schema.ValidationRule{{Rule: "false", MessageExpression: `"string 1" + "string 2" + "string 3"`}}, perCallLimit: 2,
			obj:  `{str: "a string"}`,
			want: []string{`root: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "\"string 1\" + \"string 2\" + \"string 3\""`}, wantFast: true},
		{name: "transition rule on update",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.i == oldSelf.i", Message: "immutable"}},
			obj: `{i: 2}`, old: `{i: 1}`, want: []string{"root: Invalid value: immutable"}, wantFast: true},
		{name: "transition rule skipped on create",
			schema: ints, rules: []schema.ValidationRule{{Rule: "self.i == oldSelf.i", Message: "immutable"}},
			obj: `{i: 2}`, wantFast: true},
		{name: "string beyond its maxLength: tracked (the bound assumes maxLength)",
			schema: `{type: object, properties: {s: {type: string, maxLength: 2, x-kubernetes-validations: [{rule: "self.size() < 100", message: "short"}]}}}`,
			obj:    `{s: "` + strings.Repeat("a", 200) + `"}`, want: []string{`root.s: Invalid value: "` + strings.Repeat("a", 200) + `": short`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := yamlSchema(t, c.schema)
			s.XValidations = append(s.XValidations, c.rules...)
			v, _ := NewValidator(s, false, Options{SkipCheck: true, PerCallLimit: c.perCallLimit})
			obj, old := yamlObj(t, c.obj), yamlObj(t, c.old)
			budget := c.budget
			if budget == 0 {
				budget = RuntimeCELCostBudget
			}
			root := field.NewPath("root")
			got, _ := v.ValidateObject(context.Background(), root, obj, old, budget)
			if g := errList(got); !equalStrings(g, c.want) {
				t.Errorf("errors\n got %q\nwant %q", g, c.want)
			}
			tracked, _, _ := v.ValidateWithWarnings(context.Background(), root, obj, old, budget)
			if g, w := errList(got), errList(tracked); !equalStrings(g, w) {
				t.Errorf("fast %q, tracked %q", g, w)
			}
			if _, _, ok := v.validateFast(context.Background(), root, obj, old, budget); ok != c.wantFast {
				t.Errorf("fast attempt completed: %v, want %v", ok, c.wantFast)
			}
		})
	}
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("k")
		b.WriteString(strings.Repeat("x", i+1))
		b.WriteString(": 1, ")
	}
	return strings.TrimSuffix(b.String(), ", ")
}

// TestFastPathMaxCostOverPerCallLimit checks the first case's premise: the
// rule's static cost is above the per-call limit, so no untracked program
// is planned for it.
func TestFastPathMaxCostOverPerCallLimit(t *testing.T) {
	s := withRule(yamlSchema(t, `{type: object, properties: {l: {type: array, maxItems: 5000, items: {type: string, maxLength: 1000}}}}`), "self.l.all(x, x.contains('abc'))")
	v, _ := NewValidator(s, false, Options{SkipCheck: true})
	c := v.root.compiledRules().compiled[0]
	if c.maxCost <= PerCallLimit {
		t.Fatalf("maxCost %d not above the per-call limit", c.maxCost)
	}
	if p := c.fast.get(); p.ok {
		t.Errorf("untracked program planned for a rule with maxCost %d", c.maxCost)
	}
}

// TestUntrackedProgram: the fast path's programs do not track costs (no
// evaluation details; cel-go's cost observer is off), while the compiled
// programs do; both give the same values.
func TestUntrackedProgram(t *testing.T) {
	s := withRule(yamlSchema(t, `{type: object, properties: {s: {type: string, maxLength: 10}}}`), "self.s.matches('^a+$') && self.s.size() < 5")
	v, _ := NewValidator(s, false, Options{SkipCheck: true})
	c := v.root.compiledRules().compiled[0]
	p := c.fast.get()
	if !p.ok {
		t.Fatal("no untracked program planned")
	}
	for _, obj := range []any{map[string]any{"s": "aaa"}, map[string]any{"s": "aab"}, map[string]any{"s": "aaaaaa"}} {
		act, _ := v.root.activations(obj, nil, common.UnstructuredToVal)
		fv, fd, ferr := p.prog.ContextEval(context.Background(), act)
		tv, td, terr := c.program.ContextEval(context.Background(), act)
		if fd != nil && fd.ActualCost() != nil {
			t.Errorf("untracked program tracked cost %d", *fd.ActualCost())
		}
		if td == nil || td.ActualCost() == nil {
			t.Error("compiled program does not track cost")
		}
		if fv != tv || (ferr == nil) != (terr == nil) {
			t.Errorf("%v: untracked %v %v, tracked %v %v", obj, fv, ferr, tv, terr)
		}
	}
}

// TestFastPathWarnings: ratcheted errors become warnings, returned and sent
// to the ctx recorder exactly once, whether the fast attempt completes or is
// abandoned and evaluation falls back to tracking.
func TestFastPathWarnings(t *testing.T) {
	s := yamlSchema(t, `{type: object, properties: {items: {type: array, items: {type: string, maxLength: 10, x-kubernetes-validations: [{rule: "self.contains('a')"}]}}}}`)
	v, _ := NewValidator(s, false, Options{SkipCheck: true})
	obj := yamlObj(t, `{items: [a, b, ab]}`)
	want := []string{`root.items[1]: Invalid value: "b": failed rule: self.contains('a')`}
	_, _, rem := v.ValidateWithWarnings(context.Background(), nil, obj, obj, RuntimeCELCostBudget)
	actual := RuntimeCELCostBudget - rem
	for _, c := range []struct {
		budget   int64
		wantFast bool
	}{{RuntimeCELCostBudget, true}, {actual, false}} {
		rec := &recorder{}
		ctx := warning.WithWarningRecorder(context.Background(), rec)
		errs, warns := v.ValidateObject(ctx, field.NewPath("root"), obj, deepCopy(obj), c.budget)
		if len(errs) != 0 || !equalStrings(warns, want) || !equalStrings(rec.warnings, want) {
			t.Errorf("budget %d: errors %v, warnings %q, recorded %q; want warnings %q once", c.budget, errs, warns, rec.warnings, want)
		}
		if _, _, ok := v.validateFast(context.Background(), field.NewPath("root"), obj, deepCopy(obj), c.budget); ok != c.wantFast {
			t.Errorf("budget %d: fast completed %v, want %v", c.budget, ok, c.wantFast)
		}
	}
}
