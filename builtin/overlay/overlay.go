// Package overlay holds kdv's rule overlay for the Kubernetes built-in
// types: the Go defaulters and hand-written validation of
// k8s.io/kubernetes, declared as tags on k8s.io/api types and fields, in
// files per group-version (<group>_<version>[_<topic>].tags; "core" for the
// core group), each entry citing the function it mirrors. The format is
// kdv.dev/idl's Overlay. The generator merges these tags with k8s.io/api's
// own: the embedded built-in schemas (package builtin) and `kdv gen openapi
// k8s.io/api/...` publish them.
package overlay

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"

	"kdv.dev/idl"
)

//go:embed *.tags
var files embed.FS

// ForRelease is All with each overlay's entries limited to those that
// apply to Kubernetes 1.<minor> (idl.Overlay.ForRelease).
func ForRelease(minor int) ([]*idl.Overlay, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	out := make([]*idl.Overlay, len(all))
	for i, o := range all {
		out[i] = o.ForRelease(minor)
	}
	return out, nil
}

// All parses every overlay file, sorted by name. The files are part of kdv,
// so an error is a defect of kdv.
func All() ([]*idl.Overlay, error) {
	names, err := fs.Glob(files, "*.tags")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*idl.Overlay
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		o, err := idl.ParseOverlay("builtin/overlay/"+n, b)
		if err != nil {
			return nil, fmt.Errorf("kdv's built-in rule overlay: %w", err)
		}
		out = append(out, o)
	}
	return out, nil
}
