package gendata

import (
	"reflect"
	"testing"

	"kdv.dev/builtin/internal/gates"
)

func TestMergeSpecs(t *testing.T) {
	alpha30 := gates.Spec{Version: "1.30", PreRelease: gates.Alpha}
	beta31 := gates.Spec{Version: "1.31", Default: true, PreRelease: gates.Beta}
	ga33 := gates.Spec{Version: "1.33", Default: true, PreRelease: gates.GA, LockToDefault: true}
	oldBeta31 := gates.Spec{Version: "1.31", Default: false, PreRelease: gates.Beta}
	for _, tc := range []struct {
		name         string
		newer, older []gates.Spec
		want         []gates.Spec
	}{
		{"gate only in the older source", nil, []gates.Spec{alpha30, beta31}, []gates.Spec{alpha30, beta31}},
		{"older history before the newer's first spec", []gates.Spec{beta31, ga33}, []gates.Spec{alpha30, beta31}, []gates.Spec{alpha30, beta31, ga33}},
		{"same version: the newer source wins", []gates.Spec{beta31}, []gates.Spec{oldBeta31}, []gates.Spec{beta31}},
		{"1.9 sorts before 1.10", []gates.Spec{{Version: "1.10", PreRelease: gates.Beta}}, []gates.Spec{{Version: "1.9", PreRelease: gates.Alpha}}, []gates.Spec{{Version: "1.9", PreRelease: gates.Alpha}, {Version: "1.10", PreRelease: gates.Beta}}},
	} {
		if got := mergeSpecs(tc.newer, tc.older); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: mergeSpecs = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
