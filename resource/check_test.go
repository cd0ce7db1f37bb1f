package resource

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"kdv.dev/manifest"
	"kdv.dev/schema"
)

// The hostile CRD of kdv.dev/validation: spec.mode nests allOf, anyOf,
// oneOf and not 28 levels deep, and its default ("x") fails them.
const hostileCRD = "../validation/testdata/hostile/junctions.crd.yaml"

// TestCheckCRDHostileJunctors checks that CheckCRD validates a default
// against deeply nested junctors once per clause: it reports the default's
// 31 errors (the apiserver's: the outer anyOf, the best failing clause of
// every level's anyOf, the outer allOf) where it used to run for minutes.
func TestCheckCRDHostileJunctors(t *testing.T) {
	b, err := os.ReadFile(hostileCRD)
	if err != nil {
		t.Fatal(err)
	}
	crd, err := schema.ParseCRD(b)
	if err != nil {
		t.Fatal(err)
	}
	errs, _ := CheckCRD(crd, CheckOptions{StrictUnknownFields: true})
	const def = "spec.validation.openAPIV3Schema.properties[spec].properties[mode].default"
	if len(errs) != 31 {
		t.Fatalf("got %d errors, want 31: %v", len(errs), errs)
	}
	for _, e := range errs {
		if e.Field != def {
			t.Errorf("error not on the default: %v", e)
		}
	}
	for i, want := range map[int]string{
		0:  `"" must validate at least one schema (anyOf)`,
		1:  ` in body should match '^alt-28-[a-z]{3}$'`,
		28: ` in body should match '^alt-1-[a-z]{3}$'`,
		29: ` in body should match '^leaf-[0-9]+$'`,
		30: `"" must validate all the schemas (allOf)`,
	} {
		if errs[i].Detail != want {
			t.Errorf("error %d: got %q, want %q", i, errs[i].Detail, want)
		}
	}
}

// junctorCRD is a CRD whose field f nests allOf, not and anyOf depth
// levels deep, with a default that fails every level.
func junctorCRD(depth int) []byte {
	s := `{"pattern":"^leaf$"}`
	for k := 1; k <= depth; k++ {
		s = fmt.Sprintf(`{"allOf":[%s,{"not":{"pattern":"^deny$"}}],"anyOf":[{"pattern":"^alt-%d$"},{"pattern":"^leaf$"}]}`, s, k)
	}
	field := `{"type":"string","default":"x",` + strings.TrimPrefix(s, "{")
	return fmt.Appendf(nil, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: nests.example.com
spec:
  group: example.com
  names: {kind: Nest, listKind: NestList, plural: nests, singular: nest}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {"type":"object","properties":{"f":%s}}
`, field)
}

// TestCheckCRDJunctorNestingScales checks that default validation in
// CheckCRD is linear in the junctor nesting: doubling it takes less than
// 4x as long (validating failing clauses twice doubled the time per level).
func TestCheckCRDJunctorNestingScales(t *testing.T) {
	const n = 12
	var calls [2]func()
	for i, depth := range []int{n, 2 * n} {
		crd, err := schema.ParseCRD(junctorCRD(depth))
		if err != nil {
			t.Fatal(err)
		}
		// The outer anyOf, each level's best failing anyOf clause, the
		// leaf pattern, the outer allOf.
		if errs, _ := CheckCRD(crd, CheckOptions{}); len(errs) != depth+3 {
			t.Fatalf("depth %d: got %d errors, want %d: %v", depth, len(errs), depth+3, errs)
		}
		calls[i] = func() { CheckCRD(crd, CheckOptions{}) }
	}
	// Interleaved samples, so that both depths see the same machine load;
	// the shortest per-call time of each.
	var times [2]time.Duration
	for k := range 7 {
		for i, f := range calls {
			start, runs := time.Now(), 0
			for runs == 0 || time.Since(start) < 20*time.Millisecond {
				f()
				runs++
			}
			if d := time.Since(start) / time.Duration(runs); k == 0 || d < times[i] {
				times[i] = d
			}
		}
		if times[1] > 40*times[0] {
			break
		}
	}
	t.Logf("depth %d: %v, depth %d: %v", n, times[0], 2*n, times[1])
	if times[1] > 4*times[0] {
		t.Errorf("doubling the nesting from %d to %d took %.1fx as long", n, 2*n, float64(times[1])/float64(times[0]))
	}
}

// Fields of alpha features (x-kubernetes-api-lifecycle status alpha with a
// feature gate) are dropped before validation on create, with a warning,
// as the apiserver's strategies drop them (reference: bench
// cmd/builtin-verdict accepts a Pod with lifecycle.stopSignal: SIGBOGUS,
// ContainerStopSignals being off). Updates: TestGatedFieldRules.
func TestBuiltInGatedFieldsDropped(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n    lifecycle: {stopSignal: SIGBOGUS}\n"
	docs := manifest.Parse("p.yaml", []byte(pod), manifest.Options{})
	v, err := reg.Validator(docs[0].GVK())
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []map[string]any{nil} {
		out := v.Validate(context.Background(), docs[0].Object, old)
		if out.Invalid() || len(out.Warnings) != 1 || !strings.HasPrefix(out.Warnings[0], "spec.containers[0].lifecycle.stopSignal: dropped: feature gate ContainerStopSignals is alpha") {
			t.Errorf("old %v: errors %v, warnings %q", old != nil, out.Errors, out.Warnings)
		}
		lc := out.Object["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["lifecycle"].(map[string]any)
		if _, ok := lc["stopSignal"]; ok {
			t.Errorf("old %v: stopSignal not dropped: %v", old != nil, lc)
		}
	}
}
