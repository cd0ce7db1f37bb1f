package cel

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// assertSameAsTracked checks that ValidateObject (the fast path, with its
// fallback) returns exactly the errors (messages and order) and warnings of
// the tracked ValidateWithWarnings, and the results of the eager twin of a
// lazily compiled validator (assertSameAsEager), and returns whether the fast attempt
// completed without falling back.
func assertSameAsTracked(t testing.TB, name string, v *Validator, fldPath *field.Path, obj, old any, budget int64) (fastCompleted bool) {
	t.Helper()
	wantErrs, wantWarns, _ := v.ValidateWithWarnings(context.Background(), fldPath, obj, old, budget)
	gotErrs, gotWarns := v.ValidateObject(context.Background(), fldPath, obj, old, budget)
	if g, w := errList(gotErrs), errList(wantErrs); !equalStrings(g, w) {
		t.Errorf("%s (budget %d): fast errors differ\n got %q\nwant %q", name, budget, g, w)
	}
	if !equalStrings(gotWarns, wantWarns) {
		t.Errorf("%s (budget %d): fast warnings differ\n got %q\nwant %q", name, budget, gotWarns, wantWarns)
	}
	if v == nil || v.root == nil {
		return false
	}
	fErrs, fWarns, ok := v.validateFast(context.Background(), fldPath, obj, old, budget)
	if ok && (!equalStrings(errList(fErrs), errList(wantErrs)) || !equalStrings(fWarns, wantWarns)) {
		t.Errorf("%s (budget %d): completed fast attempt differs: %q %q", name, budget, errList(fErrs), fWarns)
	}
	// validators built with SkipCheck compile lazily: compare with eager
	assertSameAsEager(t, name, v, fldPath, obj, old, budget)
	return ok
}

// errList is the errors' strings in order (errStrings sorts).
func errList(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// assertBudgets compares fast and tracked at the full budget and at the
// object's actual total cost C and C-1: if a cost
// bound were below an actual cost, the fast path would miss the budget
// error at C-1.
func assertBudgets(t testing.TB, name string, v *Validator, obj, old any) (fastCompleted bool) {
	t.Helper()
	fastCompleted = assertSameAsTracked(t, name, v, nil, obj, old, RuntimeCELCostBudget)
	_, _, rem := v.ValidateWithWarnings(context.Background(), nil, obj, old, RuntimeCELCostBudget)
	if c := RuntimeCELCostBudget - rem; rem >= 0 && c > 0 {
		for _, b := range []int64{c, c - 1} {
			assertSameAsTracked(t, name, v, nil, obj, old, b)
		}
	}
	return fastCompleted
}

type corpusObject struct {
	name string
	obj  map[string]any
}

// corpusObjects returns every decodable YAML document of the corpus with
// apiVersion and kind, by group/version/kind.
func corpusObjects(t testing.TB) map[gvk][]corpusObject {
	t.Helper()
	out := map[gvk][]corpusObject{}
	err := filepath.WalkDir(corpusRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, doc := range splitDocs(b) {
			j, err := yaml.YAMLToJSON(doc)
			if err != nil {
				continue
			}
			var obj map[string]any
			if utiljson.Unmarshal(j, &obj) != nil || obj == nil {
				continue
			}
			if k := gvkOf(obj); k.kind != "" && k.kind != "CustomResourceDefinition" {
				out[k] = append(out[k], corpusObject{name: fmt.Sprintf("%s#%d", path, i), obj: obj})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mutations returns up to n deterministic variants of obj, each with one
// change at a random place: strings emptied, lengthened, made paths with
// "//" or numbers; integers negated or large; booleans flipped; keys
// deleted; lists emptied or their first item duplicated.
func mutations(obj map[string]any, n int, seed int64) []map[string]any {
	var paths [][]any
	var walk func(x any, p []any)
	walk = func(x any, p []any) {
		paths = append(paths, append([]any(nil), p...))
		switch x := x.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], append(p, k))
			}
		case []any:
			for i, e := range x {
				walk(e, append(p, i))
			}
		}
	}
	walk(obj, nil)
	rnd := rand.New(rand.NewSource(seed))
	var out []map[string]any
	for i := 0; i < n && len(paths) > 1; i++ {
		p := paths[1+rnd.Intn(len(paths)-1)]
		c := deepCopy(obj).(map[string]any)
		var parent any = c
		for _, s := range p[:len(p)-1] {
			switch s := s.(type) {
			case string:
				parent = parent.(map[string]any)[s]
			case int:
				parent = parent.([]any)[s]
			}
		}
		last := p[len(p)-1]
		get := func() any {
			if k, ok := last.(string); ok {
				return parent.(map[string]any)[k]
			}
			return parent.([]any)[last.(int)]
		}
		set := func(v any) {
			if k, ok := last.(string); ok {
				parent.(map[string]any)[k] = v
			} else {
				parent.([]any)[last.(int)] = v
			}
		}
		switch x := get().(type) {
		case string:
			set([]any{"", x + "x", "/a//b", "42", strings.Repeat(x+"-", 40)}[rnd.Intn(5)])
		case int64:
			set([]any{-x, x + 1, int64(70000), "7"}[rnd.Intn(4)])
		case float64:
			set(-x)
		case bool:
			set(!x)
		case []any:
			switch {
			case len(x) > 0 && rnd.Intn(2) == 0:
				set(append([]any{deepCopy(x[0])}, x...))
			default:
				set([]any{})
			}
		case map[string]any:
			if k, ok := last.(string); ok && rnd.Intn(2) == 0 {
				delete(parent.(map[string]any), k)
			} else if keys := sortedKeys(x); len(keys) > 0 {
				delete(x, keys[rnd.Intn(len(keys))])
			}
		}
		out = append(out, c)
	}
	return out
}

// TestFastPathCorpus: for every CRD version with rules in the corpus
// (Gateway API standard and experimental, Prometheus Operator, Cluster
// API) and every corpus object of its kind, plus mutated objects, the fast
// path gives exactly the tracked errors and warnings on create, on update
// from itself, and on updates between the object and its mutations, at the
// full budget and at budgets around the actual cost. It also checks that
// the fast attempt completes (no fallback) for the valid Gateway API
// examples, so the fast path is really exercised.
func TestFastPathCorpus(t *testing.T) {
	crds := corpusCRDs(t, "gateway-api/config/crd", "prometheus-operator", "cluster-api")
	objects := corpusObjects(t)
	maxObjects, maxMutations := 15, 8
	if testing.Short() {
		maxObjects, maxMutations = 5, 4
	}
	checked, completed := 0, 0
	seen := map[string]bool{}
	for _, c := range crds {
		for _, ver := range c.crd.Spec.Versions {
			k := gvk{c.crd.Spec.Group, ver.Name, c.crd.Spec.Names.Kind}
			objs := objects[k]
			if len(objs) == 0 {
				continue
			}
			s, err := ver.Structural()
			if err != nil || !hasXValidations(s) {
				continue
			}
			key := c.file + "/" + ver.Name
			if seen[key] {
				continue
			}
			seen[key] = true
			v, _ := NewValidator(s, true, Options{SkipCheck: true})
			if len(objs) > maxObjects {
				objs = objs[:maxObjects]
			}
			for i, o := range objs {
				obj := deepCopy(o.obj).(map[string]any)
				applyDefaults(obj, s)
				name := key + " " + o.name
				if assertBudgets(t, name+" create", v, obj, nil) {
					completed++
				}
				assertBudgets(t, name+" update", v, obj, deepCopy(obj))
				checked += 2
				for j, m := range mutations(obj, maxMutations, int64(i)) {
					mn := fmt.Sprintf("%s mutation %d", name, j)
					assertBudgets(t, mn+" create", v, m, nil)
					assertBudgets(t, mn+" update from original", v, m, obj)
					assertBudgets(t, mn+" update to original", v, obj, m)
					checked += 3
				}
			}
		}
	}
	t.Logf("compared fast and tracked on %d (object, old object) pairs; %d creates of corpus objects completed fast", checked, completed)
	if checked < 200 || completed < 40 {
		t.Errorf("only %d comparisons, %d fast completions: corpus changed or fast path not taken", checked, completed)
	}
}

// TestCostBoundCorpus: the bound the fast path charges for a rule or
// messageExpression is at least its actual cost in every tracked
// evaluation of the corpus objects (and their mutations) that fit the
// guard. This is the property the fast path's exactness rests on.
func TestCostBoundCorpus(t *testing.T) {
	crds := corpusCRDs(t, "gateway-api/config/crd", "prometheus-operator", "cluster-api")
	objects := corpusObjects(t)
	evaluations, violations := 0, 0
	for _, c := range crds {
		for _, ver := range c.crd.Spec.Versions {
			k := gvk{c.crd.Spec.Group, ver.Name, c.crd.Spec.Names.Kind}
			s, err := ver.Structural()
			if err != nil || !hasXValidations(s) || len(objects[k]) == 0 {
				continue
			}
			v, _ := NewValidator(s, true, Options{SkipCheck: true})
			objs := objects[k]
			if len(objs) > 25 {
				objs = objs[:25]
			}
			for i, o := range objs {
				obj := deepCopy(o.obj).(map[string]any)
				applyDefaults(obj, s)
				pairs := [][2]any{{obj, nil}, {obj, deepCopy(obj)}}
				for _, m := range mutations(obj, 6, int64(i)) {
					pairs = append(pairs, [2]any{m, nil}, [2]any{m, obj})
				}
				for _, p := range pairs {
					if v.guard != nil && !v.guard.get().fits(p[0]) || v.guard != nil && !v.guard.get().fits(p[1]) {
						continue
					}
					e := v.newEvaluation(context.Background(), false)
					e.observe = func(plan *fastPlan, actual uint64, message bool) {
						evaluations++
						plan = plan.get()
						if ok, bound := plan.ok, plan.cost; message {
							if ok, bound = plan.msgOK, plan.msgCost; ok && actual > bound {
								violations++
								t.Errorf("%s: messageExpression actual cost %d > bound %d", o.name, actual, bound)
							}
						} else if ok && actual > bound {
							violations++
							t.Errorf("%s: rule actual cost %d > bound %d", o.name, actual, bound)
						}
					}
					e.validate(v.root, nil, p[0], p[1], v.ratchet(p[0], p[1]), RuntimeCELCostBudget)
				}
			}
		}
	}
	t.Logf("%d tracked evaluations, %d above their bound", evaluations, violations)
	if evaluations < 1000 {
		t.Errorf("only %d evaluations", evaluations)
	}
}
