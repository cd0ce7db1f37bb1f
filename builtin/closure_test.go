package builtin

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema/refs"
)

// Props decodes only the definitions a kind reaches; the result must equal
// resolving the kind against every definition of the version, for every
// kind of every embedded version.
func TestPropsFromDefinitionClosure(t *testing.T) {
	for _, minor := range Versions() {
		all := fullData(t, minor)
		for _, k := range all.Kinds {
			want, werr := refs.Resolve(all.Schemas, k.Definition)
			got, gerr := Props(minor, k.GroupVersionKind)
			if (werr == nil) != (gerr == nil) {
				t.Errorf("1.%d %v: error %v, want %v", minor, k.GroupVersionKind, gerr, werr)
				continue
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("1.%d %v: resolved schema differs", minor, k.GroupVersionKind)
			}
		}
		t.Logf("1.%d: %d kinds", minor, len(all.Kinds))
	}
}

// fullData decodes the embedded data file of 1.<minor> with encoding/json
// and completes a file that shares definitions with its base (Inherited)
// from the base file, decoded the same way: the loader's result, reached
// without the loader.
func fullData(tb testing.TB, minor int) datafile.Data {
	tb.Helper()
	var d datafile.Data
	if err := json.Unmarshal(dataJSON(tb, minor), &d); err != nil {
		tb.Fatal(err)
	}
	if d.Base == 0 {
		if len(d.Inherited) > 0 {
			tb.Fatalf("1.%d: inherited definitions without a base", minor)
		}
		return d
	}
	var base datafile.Data
	if err := json.Unmarshal(dataJSON(tb, d.Base), &base); err != nil {
		tb.Fatal(err)
	}
	if base.Base != 0 {
		tb.Fatalf("1.%d: its base 1.%d shares definitions itself", minor, d.Base)
	}
	for _, n := range d.Inherited {
		p, ok := base.Schemas[n]
		if !ok {
			tb.Fatalf("1.%d: inherited definition %s is not in 1.%d", minor, n, d.Base)
		}
		if _, dup := d.Schemas[n]; dup {
			tb.Fatalf("1.%d: definition %s is both its own and inherited", minor, n)
		}
		d.Schemas[n] = p
	}
	return d
}

// The loader completes a release that shares definitions: every
// definition it holds is the one fullData finds, and a file naming a
// definition its base lacks is an error, not a silent gap.
func TestSharedDefinitions(t *testing.T) {
	shared := 0
	for _, minor := range Versions() {
		d := fullData(t, minor)
		if d.Base == 0 {
			continue
		}
		shared++
		v, err := get(minor)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.raw) != len(d.Schemas) {
			t.Errorf("1.%d: loader holds %d definitions, the file and its base %d", minor, len(v.raw), len(d.Schemas))
		}
		for n, p := range d.Schemas {
			var got any
			if err := json.Unmarshal(v.raw[n], &got); err != nil {
				t.Fatalf("1.%d %s: %v", minor, n, err)
			}
			want, _ := json.Marshal(p)
			var w any
			_ = json.Unmarshal(want, &w)
			if !reflect.DeepEqual(got, w) {
				t.Errorf("1.%d %s: loaded definition differs", minor, n)
			}
		}
	}
	if shared == 0 {
		t.Error("no embedded release shares definitions with another")
	}
	// A broken file: inherits a definition its base lacks, or from itself.
	bad := rawData{Base: 37, Inherited: []string{"io.k8s.api.nosuch.v1.Thing"}}
	if err := bad.inherit(99); err == nil || !strings.Contains(err.Error(), "definition io.k8s.api.nosuch.v1.Thing is not in 1.37") {
		t.Errorf("inherit of a missing definition: %v", err)
	}
	self := rawData{Base: 37}
	if err := self.inherit(37); err == nil {
		t.Error("inherit from itself: no error")
	}
}
