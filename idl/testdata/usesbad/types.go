package usesbad

import "kdv.dev/idl/testdata/badtags"

// U uses a dependency with bad tags.
type U struct {
	// T is from the dependency.
	T badtags.T `json:"t"`
}
