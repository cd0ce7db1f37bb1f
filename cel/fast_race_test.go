package cel

import (
	"context"
	"sync"
	"testing"
)

// TestFastPathConcurrent: concurrent first uses of a validator (lazy
// planning of untracked programs and guards) give the tracked results
// (run with -race to check the lazy planning).
func TestFastPathConcurrent(t *testing.T) {
	schemas := experimentalSchemas(t)
	k := gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}
	s := schemas[k]
	var objs []map[string]any
	for _, ex := range gatewayExamples(t) {
		if gvkOf(ex.obj) == k {
			applyDefaults(ex.obj, s)
			objs = append(objs, ex.obj)
		}
	}
	if len(objs) == 0 {
		t.Skip("no HTTPRoute examples")
	}
	tracked, _ := NewValidator(s, true, Options{SkipCheck: true})
	want := make([][]string, len(objs))
	for i, o := range objs {
		errs, _, _ := tracked.ValidateWithWarnings(context.Background(), nil, o, nil, RuntimeCELCostBudget)
		want[i] = errList(errs)
	}
	v, _ := NewValidator(s, true, Options{SkipCheck: true})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for j := range objs {
				i := (j + w*7) % len(objs)
				errs, _ := v.ValidateObject(context.Background(), nil, objs[i], nil, RuntimeCELCostBudget)
				if !equalStrings(errList(errs), want[i]) {
					t.Errorf("object %d: %q, want %q", i, errList(errs), want[i])
				}
			}
		}(w)
	}
	wg.Wait()
}
