package builtin

import (
	"sync"
	"testing"

	"kdv.dev/schema"
)

// TestConcurrentLookup looks kinds up from several goroutines, as the
// validator's workers do (run with -race).
func TestConcurrentLookup(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range []string{"Pod", "Service", "ConfigMap"} {
				if _, err := Lookup(36, schema.GroupVersionKind{Version: "v1", Kind: k}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
