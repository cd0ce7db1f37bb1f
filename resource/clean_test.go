package resource

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/pruning"
)

// A built-in object the typed decoding check calls clean is one pruning
// would not change: ValidateInPlace then skips the pruning walks. Checked
// on every built-in seed of the harness (and the kubernetes/examples
// corpus when ../shared is there), each as written and mutated: an
// unknown field added to, and a null set on, every object of the
// document in turn. A clean verdict on a variant pruning changes fails;
// so does a seed set where unknown fields or nulls are never found dirty.
func TestCleanMeansNothingToPrune(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../bench/testdata/builtin/*.yaml")
	more, _ := filepath.Glob("../../shared/corpus/kubernetes-examples/*/*.yaml")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("%d seed files", len(files))
	}
	var clean, dirty, mutatedDirty, checked int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range manifest.Parse(f, data, manifest.Options{}) {
			if d.Object == nil {
				continue
			}
			v, err := reg.Validator(d.GVK())
			if err != nil || v.typed == nil {
				continue
			}
			check := func(what string, obj map[string]any) bool {
				checked++
				ok, err := v.typedDecode(obj)
				if err != nil || !ok {
					return false
				}
				pruned := deepCopy(obj)
				paths := pruning.Prune(pruned, v.schema.Structural, pruning.Options{IsResourceRoot: true})
				pruning.PruneNonNullableNullsWithoutDefaults(pruned, v.schema.Structural)
				if len(paths) > 0 || !reflect.DeepEqual(pruned, obj) {
					t.Errorf("%s line %d (%s): clean, but pruning removes %v", f, d.Line, what, paths)
				}
				return true
			}
			if check("as written", deepCopy(d.Object)) {
				clean++
			} else {
				dirty++
			}
			for i, p := range objectPaths(d.Object) {
				if p[0] == "metadata" || i > 40 {
					continue // metadata is not Prune's; bound the variants
				}
				for _, mut := range []struct {
					what string
					set  func(map[string]any)
				}{
					{fmt.Sprint("unknown field in ", p), func(m map[string]any) { m["kdvNoSuchField"] = "x" }},
					{fmt.Sprint("null in ", p), func(m map[string]any) {
						for _, k := range sortedKeys(m) {
							m[k] = nil
							return
						}
					}},
				} {
					obj := deepCopy(d.Object)
					m := objectAt(obj, p)
					if len(m) == 0 {
						continue
					}
					mut.set(m)
					if !check(mut.what, obj) {
						mutatedDirty++
					}
				}
			}
		}
	}
	t.Logf("%d objects checked: %d seeds clean, %d not; %d mutations found not clean", checked, clean, dirty, mutatedDirty)
	if clean < 100 || mutatedDirty < 100 {
		t.Errorf("the check found too few clean seeds (%d) or dirty mutations (%d)", clean, mutatedDirty)
	}
}

// objectPaths lists the objects below the root of x, each as the steps
// (keys and list indexes) reaching it, in a stable order.
func objectPaths(x any) [][]any {
	var out [][]any
	var walk func(x any, p []any)
	walk = func(x any, p []any) {
		switch x := x.(type) {
		case map[string]any:
			if len(p) > 0 {
				out = append(out, slices.Clone(p))
			}
			for _, k := range sortedKeys(x) {
				walk(x[k], append(p, k))
			}
		case []any:
			for i, v := range x {
				walk(v, append(p, i))
			}
		}
	}
	walk(x, nil)
	return out
}

// objectAt is the object x holds at steps p.
func objectAt(x any, p []any) map[string]any {
	for _, s := range p {
		switch s := s.(type) {
		case string:
			m, _ := x.(map[string]any)
			x = m[s]
		case int:
			l, _ := x.([]any)
			if s >= len(l) {
				return nil
			}
			x = l[s]
		}
	}
	m, _ := x.(map[string]any)
	return m
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
