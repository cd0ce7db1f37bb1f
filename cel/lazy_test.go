package cel

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// rebuild returns a new validator of v's schema with v's environment, limits
// and value adaptor, compiling its rules lazily or all at once.
func rebuild(v *Validator, lazy bool) *Validator {
	if v == nil || v.root == nil || v.builder == nil {
		return v
	}
	b := &builder{env: v.builder.env, perCallLimit: v.builder.perCallLimit, lazy: lazy, ratchets: v.builder.ratchets}
	r := b.validator(v.schema.Structural, v.root.isResourceRoot, v.ratcheting)
	r.toVal = v.toVal
	return r
}

// eagerValidators caches the eager twin of lazy validators under test.
var eagerValidators sync.Map // *Validator -> *Validator

func eagerOf(v *Validator) *Validator {
	if e, ok := eagerValidators.Load(v); ok {
		return e.(*Validator)
	}
	e := rebuild(v, false)
	eagerValidators.Store(v, e)
	return e
}

// assertSameAsEager checks that a lazily compiled validator returns exactly
// the errors, warnings and remaining budget of the same validator with all
// rules compiled up front (through ValidateWithWarnings and ValidateObject).
// It does nothing for eager validators.
func assertSameAsEager(t testing.TB, name string, v *Validator, fldPath *field.Path, obj, old any, budget int64) {
	t.Helper()
	if v == nil || v.builder == nil || !v.builder.lazy {
		return
	}
	assertEqualResults(t, name, v, eagerOf(v), fldPath, obj, old, budget)
}

// assertEqualResults compares got against want: ValidateWithWarnings
// (errors in order, warnings, remaining budget), then ValidateObject.
func assertEqualResults(t testing.TB, name string, got, want *Validator, fldPath *field.Path, obj, old any, budget int64) {
	t.Helper()
	ctx := context.Background()
	ge, gw, gr := got.ValidateWithWarnings(ctx, fldPath, obj, old, budget)
	we, ww, wr := want.ValidateWithWarnings(ctx, fldPath, obj, old, budget)
	if !equalStrings(errList(ge), errList(we)) || !equalStrings(gw, ww) || gr != wr {
		t.Errorf("%s (budget %d): lazy differs from eager\n got %q %q %d\nwant %q %q %d", name, budget, errList(ge), gw, gr, errList(we), ww, wr)
	}
	ge, gw = got.ValidateObject(ctx, fldPath, obj, old, budget)
	we, ww = want.ValidateObject(ctx, fldPath, obj, old, budget)
	if !equalStrings(errList(ge), errList(we)) || !equalStrings(gw, ww) {
		t.Errorf("%s (budget %d): lazy ValidateObject differs from eager\n got %q %q\nwant %q %q", name, budget, errList(ge), gw, errList(we), ww)
	}
}

// walkNodes calls f on every node of the tree below n.
func walkNodes(n *node, f func(*node)) {
	if n == nil {
		return
	}
	f(n)
	walkNodes(n.items, f)
	walkNodes(n.additionalProperties, f)
	for _, p := range n.properties {
		walkNodes(p, f)
	}
	for _, a := range n.allOf {
		walkNodes(a, f)
	}
}

// reachedRuleNodes adds to set the nodes with rules that evaluating obj
// reaches (as evaluation.validate walks: allOf, items, additionalProperties,
// properties; null values are not validated), assuming no budget runs out.
func reachedRuleNodes(n *node, obj any, set map[*node]bool) {
	if n == nil || obj == nil {
		return
	}
	if len(n.rules) > 0 {
		set[n] = true
	}
	for _, a := range n.allOf {
		reachedRuleNodes(a, obj, set)
	}
	switch o := obj.(type) {
	case []any:
		for _, e := range o {
			reachedRuleNodes(n.items, e, set)
		}
	case map[string]any:
		for k, e := range o {
			reachedRuleNodes(n.additionalProperties, e, set)
			reachedRuleNodes(n.properties[k], e, set)
		}
	}
}

// compiledRuleNodes returns the nodes with rules that are compiled, and the
// number of nodes with rules.
func compiledRuleNodes(v *Validator) (compiled map[*node]bool, total int) {
	compiled = map[*node]bool{}
	walkNodes(v.root, func(n *node) {
		if len(n.rules) == 0 {
			return
		}
		total++
		if n.state.Load() != nil {
			compiled[n] = true
		}
	})
	return compiled, total
}

func sameNodeSet(a, b map[*node]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for n := range a {
		if !b[n] {
			return false
		}
	}
	return true
}

// TestLazyCompileVisitedOnly: a validator built with SkipCheck compiles no
// rule up front and then exactly the nodes the validated objects reach
// (counted through the builder's counter and the nodes' states), with the
// same results as the eager validator; NewValidator without SkipCheck
// compiles every node.
func TestLazyCompileVisitedOnly(t *testing.T) {
	s := experimentalSchemas(t)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	if s == nil {
		t.Skip("no experimental HTTPRoute v1 schema in the corpus")
	}
	v, errs := NewValidator(s, true, Options{SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	compiled, total := compiledRuleNodes(v)
	if len(compiled) != 0 || v.builder.compiles.Load() != 0 {
		t.Fatalf("%d nodes compiled (counter %d) before any evaluation", len(compiled), v.builder.compiles.Load())
	}
	eager, errs := NewValidator(s, true, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if c, etotal := compiledRuleNodes(eager); len(c) != etotal || etotal != total || eager.builder.compiles.Load() != int64(total) {
		t.Fatalf("eager validator compiled %d of %d nodes (counter %d), lazy tree has %d", len(c), etotal, eager.builder.compiles.Load(), total)
	}

	small := decodeYAML(t, []byte(`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /foo}
    backendRefs: [{name: svc, port: 80}]
`))
	bad := decodeYAML(t, []byte(`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches:
    - path: {type: PathPrefix, value: "foo//bar"}
    filters:
    - type: RequestHeaderModifier
`))
	applyDefaults(small, s)
	applyDefaults(bad, s)
	want := map[*node]bool{}
	for i, obj := range []map[string]any{small, bad} {
		name := fmt.Sprintf("object %d", i)
		assertEqualResults(t, name, v, eager, nil, obj, nil, RuntimeCELCostBudget)
		assertEqualResults(t, name+" update", v, eager, nil, obj, deepCopy(obj), RuntimeCELCostBudget)
		reachedRuleNodes(v.root, obj, want)
		got, _ := compiledRuleNodes(v)
		if !sameNodeSet(got, want) || v.builder.compiles.Load() != int64(len(want)) {
			t.Errorf("%s: %d nodes compiled (counter %d), %d reached", name, len(got), v.builder.compiles.Load(), len(want))
		}
		t.Logf("%s: %d of %d nodes with rules compiled", name, len(got), total)
	}
	if len(want) == 0 || len(want) >= total {
		t.Errorf("%d of %d nodes reached: the test does not show lazy compilation", len(want), total)
	}
	if errs, _ := v.ValidateObject(context.Background(), nil, bad, nil, RuntimeCELCostBudget); len(errs) == 0 {
		t.Error("no errors for the bad HTTPRoute")
	}
}

// TestLazyFirstUseCorpus: on every CRD version with rules and objects in the
// corpus, a fresh lazy validator (rules compiled during the evaluation,
// also where the fast path falls back or the budget runs out) gives the
// eager validator's errors, warnings and remaining budget.
func TestLazyFirstUseCorpus(t *testing.T) {
	crds := corpusCRDs(t, "gateway-api/config/crd", "prometheus-operator", "cluster-api")
	objects := corpusObjects(t)
	maxObjects := 4
	if testing.Short() {
		maxObjects = 2
	}
	checked := 0
	seen := map[string]bool{}
	for _, c := range crds {
		for _, ver := range c.crd.Spec.Versions {
			k := gvk{c.crd.Spec.Group, ver.Name, c.crd.Spec.Names.Kind}
			objs := objects[k]
			key := c.file + "/" + ver.Name
			if len(objs) == 0 || seen[key] {
				continue
			}
			seen[key] = true
			s, err := ver.Structural()
			if err != nil || !hasXValidations(s) {
				continue
			}
			eager := newValidator(s, true, Options{}, false)
			if len(objs) > maxObjects {
				objs = objs[:maxObjects]
			}
			for i, o := range objs {
				obj := deepCopy(o.obj).(map[string]any)
				applyDefaults(obj, s)
				pairs := [][2]any{{obj, nil}}
				for _, m := range mutations(obj, 1, int64(i)) {
					pairs = append(pairs, [2]any{m, obj})
				}
				for j, p := range pairs {
					name := fmt.Sprintf("%s %s pair %d", key, o.name, j)
					ctx := context.Background()
					// first use through the fast path
					lazy := rebuild(eager, true)
					ge, gw := lazy.ValidateObject(ctx, nil, p[0], p[1], RuntimeCELCostBudget)
					we, ww := eager.ValidateObject(ctx, nil, p[0], p[1], RuntimeCELCostBudget)
					if !equalStrings(errList(ge), errList(we)) || !equalStrings(gw, ww) {
						t.Errorf("%s: first ValidateObject differs\n got %q %q\nwant %q %q", name, errList(ge), gw, errList(we), ww)
					}
					// first use tracked, with the budget running out
					_, _, rem := eager.ValidateWithWarnings(ctx, nil, p[0], p[1], RuntimeCELCostBudget)
					if cost := RuntimeCELCostBudget - rem; rem >= 0 && cost > 1 {
						assertEqualResults(t, name, rebuild(eager, true), eager, nil, p[0], p[1], cost-1)
					}
					checked++
				}
			}
		}
	}
	t.Logf("compared lazy and eager first uses on %d (object, old object) pairs", checked)
	if checked < 20 {
		t.Errorf("only %d comparisons: corpus changed?", checked)
	}
}

// lazyErrorSchema has a rule that does not compile and a valid rule.
const lazyErrorSchema = `
	type: object
	properties:
		a:
			type: string
			x-kubernetes-validations:
			- rule: nope
		b:
			type: object
			properties:
				c:
					type: integer
					x-kubernetes-validations:
					- rule: self > 0
					  message: must be positive
	`

// lazyInitErrorSchema has items whose type CEL cannot declare (they
// preserve unknown fields and have no type): the apiserver builds their
// validator with a nil type, whose compilation fails as a whole.
const lazyInitErrorSchema = `
	type: array
	x-kubernetes-validations:
	- rule: size(self) < 3
	items:
		x-kubernetes-preserve-unknown-fields: true
		x-kubernetes-validations:
		- rule: "true"
	`

// TestLazyCompileErrors: compile errors are reported at evaluation time,
// as the apiserver's "rule compile error" (a rule) and "rule compiler
// initialization error" (a node whose self type cannot be declared), only
// where a value is present, and the same with lazy and eager compilation.
func TestLazyCompileErrors(t *testing.T) {
	v, _ := NewValidator(yamlSchema(t, lazyErrorSchema), false, Options{SkipCheck: true})
	iv, _ := NewValidator(yamlSchema(t, lazyInitErrorSchema), false, Options{SkipCheck: true})
	cases := []struct {
		v    *Validator
		obj  string
		want []string
	}{
		{v: v, obj: `{b: {c: 1}}`},
		{v: v, obj: `{b: {c: 0}}`, want: []string{`root.b.c: Invalid value: 0: must be positive`}},
		{v: v, obj: `{a: x}`, want: []string{"root.a: Invalid value: \"string\": rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^"}},
		{v: iv, obj: `[]`, want: []string{`root: Invalid value: "array": rule compiler initialization error: failed to convert to declType for CEL validation rules`}},
		{v: iv, obj: `[1, x]`, want: []string{
			`root: Invalid value: "array": rule compiler initialization error: failed to convert to declType for CEL validation rules`,
			`root[0]: Invalid value: "": rule compiler initialization error: failed to convert to declType for CEL validation rules`,
			`root[1]: Invalid value: "": rule compiler initialization error: failed to convert to declType for CEL validation rules`,
		}},
	}
	for _, c := range cases {
		obj := yamlObj(t, c.obj)
		errs, _ := c.v.Validate(context.Background(), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
		if got := errList(errs); !equalStrings(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.obj, got, c.want)
		}
		assertEqualResults(t, c.obj, c.v, eagerOf(c.v), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
		assertEqualResults(t, c.obj+" fresh", rebuild(c.v, true), eagerOf(c.v), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
	}
}

// TestLazyConcurrent: concurrent first uses of one lazy validator, through
// ValidateObject and ValidateWithWarnings, give the eager results, and
// each node is compiled at most once (run with -race).
func TestLazyConcurrent(t *testing.T) {
	type target struct {
		v    *Validator
		objs []any
	}
	var targets []target
	small, _ := NewValidator(yamlSchema(t, lazyErrorSchema), false, Options{SkipCheck: true})
	targets = append(targets, target{small, []any{
		yamlObj(t, `{a: x, b: {c: 0}}`), yamlObj(t, `{b: {c: 2}}`), yamlObj(t, `{a: y}`),
	}})
	initErr, _ := NewValidator(yamlSchema(t, lazyInitErrorSchema), false, Options{SkipCheck: true})
	targets = append(targets, target{initErr, []any{yamlObj(t, `[1, 2, 3]`), yamlObj(t, `[]`)}})
	if _, err := os.Stat(corpusRoot); err == nil {
		schemas := experimentalSchemas(t)
		for _, kind := range []string{"HTTPRoute", "Gateway", "GRPCRoute"} {
			k := gvk{"gateway.networking.k8s.io", "v1", kind}
			s := schemas[k]
			if s == nil {
				continue
			}
			var objs []any
			for _, ex := range gatewayExamples(t) {
				if gvkOf(ex.obj) == k {
					applyDefaults(ex.obj, s)
					objs = append(objs, ex.obj)
				}
			}
			v, _ := NewValidator(s, true, Options{SkipCheck: true})
			targets = append(targets, target{v, objs})
		}
	}
	for ti, tg := range targets {
		eager := rebuild(tg.v, false)
		type result struct {
			errs, warnings []string
			remaining      int64
		}
		want := make([]result, len(tg.objs))
		for i, o := range tg.objs {
			errs, warnings, rem := eager.ValidateWithWarnings(context.Background(), nil, o, nil, RuntimeCELCostBudget)
			want[i] = result{errList(errs), warnings, rem}
		}
		var wg sync.WaitGroup
		for w := 0; w < 6; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for j := range tg.objs {
					i := (j + w*5) % len(tg.objs)
					if w%2 == 0 {
						errs, warnings := tg.v.ValidateObject(context.Background(), nil, tg.objs[i], nil, RuntimeCELCostBudget)
						if !equalStrings(errList(errs), want[i].errs) || !equalStrings(warnings, want[i].warnings) {
							t.Errorf("target %d object %d: ValidateObject %q %q, want %q %q", ti, i, errList(errs), warnings, want[i].errs, want[i].warnings)
						}
						continue
					}
					errs, warnings, rem := tg.v.ValidateWithWarnings(context.Background(), nil, tg.objs[i], nil, RuntimeCELCostBudget)
					if got := (result{errList(errs), warnings, rem}); !equalStrings(got.errs, want[i].errs) || !equalStrings(got.warnings, want[i].warnings) || rem != want[i].remaining {
						t.Errorf("target %d object %d: ValidateWithWarnings %v, want %v", ti, i, got, want[i])
					}
				}
			}(w)
		}
		wg.Wait()
		reached := map[*node]bool{}
		for _, o := range tg.objs {
			reachedRuleNodes(tg.v.root, o, reached)
		}
		compiled, _ := compiledRuleNodes(tg.v)
		if n := tg.v.builder.compiles.Load(); n != int64(len(compiled)) || !sameNodeSet(compiled, reached) {
			t.Errorf("target %d: counter %d, %d nodes compiled, %d reached", ti, n, len(compiled), len(reached))
		}
	}
}
