package resource

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
)

// TestPrepare: kinds prepared while the input is read are compiled once,
// in the background, and Validator, asked concurrently by workers, returns
// that one validator; a kind without a schema is left for Validator to
// report, and the kinds a run skips are not prepared.
func TestPrepare(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	in := "apiVersion: apps/v1\nkind: Deployment\n---\napiVersion: v1\nkind: Secret\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\n---\napiVersion: apps/v1\nkind: Deployment\n"
	_, err := manifest.ReadPending([]string{"-"}, strings.NewReader(in), manifest.Options{
		Split: PrepareRead(reg, RunOptions{SkipKinds: []string{"secret"}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	reg.mu.Lock()
	prepared := len(reg.prepared)
	secret := reg.prepared[schema.GroupVersionKind{Version: "v1", Kind: "Secret"}]
	reg.mu.Unlock()
	if prepared != 2 || secret {
		t.Errorf("prepared %d kinds (Secret: %v), want Deployment and Widget", prepared, secret)
	}
	var wg sync.WaitGroup
	got := make([]*Validator, 8)
	for i := range got {
		wg.Go(func() {
			v, err := reg.Validator(deployment)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	for _, v := range got {
		if v == nil || v != got[0] {
			t.Fatalf("Validator returned %p and %p: want one validator", v, got[0])
		}
	}
	var nse *NoSchemaError
	if _, err := reg.Validator(widget); !errors.As(err, &nse) {
		t.Errorf("Validator(Widget) = %v, want a NoSchemaError", err)
	}
}
