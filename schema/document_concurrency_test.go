package schema

import (
	"sync"
	"testing"
)

// TestDocumentConcurrent resolves schemas from several goroutines (run with
// -race): a Document is documented as safe for concurrent use.
func TestDocumentConcurrent(t *testing.T) {
	d := loadDoc(t, "apis__apps__v1_openapi.json")
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range d.Names()[:40] {
				if _, err := d.Schema(n); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
