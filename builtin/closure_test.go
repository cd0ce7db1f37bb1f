package builtin

import (
	"encoding/json"
	"reflect"
	"testing"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema/refs"
)

// Props decodes only the definitions a kind reaches; the result must equal
// resolving the kind against every definition of the version, for every
// kind of every embedded version.
func TestPropsFromDefinitionClosure(t *testing.T) {
	for _, minor := range Versions() {
		j := dataJSON(t, minor)
		var all datafile.Data
		if err := json.Unmarshal(j, &all); err != nil {
			t.Fatal(err)
		}
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
