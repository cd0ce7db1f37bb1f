package builtin

import (
	"strings"
	"testing"

	"kdv.dev/cel"
	"kdv.dev/schema"
)

// TestRulesCompile compiles the x-kubernetes-validations rules the
// generator wrote for every built-in kind of every embedded release with kdv's CEL package, as
// the validator does before validating a built-in object. Compile errors
// would make every object of the kind fail. Cost-limit and correlation
// findings (CRD-time checks the apiserver applies to CRDs, not built-ins)
// are logged.
func TestRulesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every rule of every kind")
	}
	for _, minor := range Versions() {
		kinds, err := Kinds(minor)
		if err != nil {
			t.Fatal(err)
		}
		embedded := map[schema.GroupVersionKind]bool{}
		for _, k := range kinds {
			embedded[k.GroupVersionKind] = true
		}
		for _, k := range kinds {
			// A list's items are its item kind's schema: the same rules,
			// compiled there already (half the time of this test).
			if item, ok := strings.CutSuffix(k.Kind, "List"); ok && embedded[schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: item}] {
				continue
			}
			s, err := Lookup(minor, k.GroupVersionKind)
			if err != nil {
				t.Fatal(err)
			}
			// as kdv validates: lazily compiled, every rule compiled here
			v, _ := cel.NewValidator(s, true, cel.Options{KubernetesMinor: minor, BuiltIn: true, SkipCheck: true})
			for _, e := range v.CompileErrors() {
				t.Errorf("1.%d %s: %v", minor, k.GroupVersionKind, e)
			}
			_, errs := cel.NewValidator(s, true, cel.Options{KubernetesMinor: minor, BuiltIn: true})
			for _, e := range errs {
				msg := e.Error()
				if strings.Contains(msg, "uncorrelatable portion") || strings.Contains(msg, "cost") {
					continue // CRD-time limits; validation.New skips them (SkipCheck)
				}
				t.Errorf("1.%d %s: %v", minor, k.GroupVersionKind, e)
			}
		}
	}
}
