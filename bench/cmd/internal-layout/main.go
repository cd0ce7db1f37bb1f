// Command internal-layout compares, for every built-in kind the bench
// serves, the Go field sequence of its k8s.io/api (versioned) types with
// that of k8s.io/kubernetes's internal types, walking the type graph from
// each kind down.
//
// The apiserver prints a struct-valued bad value (`spec.template: Invalid
// value: {"Spec":{"Volumes":null,...}}: field is immutable`) and the diff
// of ValidatePodUpdate's `pod updates may not change fields ...` as the
// encoding/json rendering of the internal struct: Go field names (internal
// types have no json tags), every field (no omitempty), anonymous structs
// flattened, apimachinery types (ObjectMeta, LabelSelector, Quantity, Time)
// with their own json tags. Where the two sequences agree, the versioned
// types' Go layout, which kdv's generators already load, is enough to
// print such values as the apiserver does; this lists where they do not.
//
//	cd bench && go run ./cmd/internal-layout
package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	_ "kdv.dev/bench" // installs the API groups into legacyscheme
)

// fields are the struct fields encoding/json would emit for an internal
// type: k8s.io/api and k8s.io/kubernetes structs ignore json tags (so
// anonymous structs are flattened), others keep theirs.
func fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && isAPI(f.Type) {
			out = append(out, fields(f.Type)...)
			continue
		}
		out = append(out, f)
	}
	return out
}

func isAPI(t reflect.Type) bool {
	p := t.PkgPath()
	return strings.HasPrefix(p, "k8s.io/api/") || strings.HasPrefix(p, "k8s.io/kubernetes/")
}

func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	return t
}

type walker struct {
	seen        map[string]bool
	same, diffs int
}

func (w *walker) compare(v, in reflect.Type, path string) {
	v, in = elem(v), elem(in)
	if v.Kind() != reflect.Struct || in.Kind() != reflect.Struct || !isAPI(in) {
		return
	}
	key := v.String() + "/" + in.String()
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	vf, inf := fields(v), fields(in)
	names := func(fs []reflect.StructField) string {
		var s []string
		for _, f := range fs {
			s = append(s, f.Name)
		}
		return strings.Join(s, ",")
	}
	if names(vf) != names(inf) {
		w.diffs++
		fmt.Printf("%s (%s, %s):\n  versioned: %s\n  internal:  %s\n", path, v, in, names(vf), names(inf))
	} else {
		w.same++
	}
	byName := map[string]reflect.StructField{}
	for _, f := range vf {
		byName[f.Name] = f
	}
	for _, f := range inf {
		if g, ok := byName[f.Name]; ok {
			w.compare(g.Type, f.Type, path+"."+f.Name)
		}
	}
}

func main() {
	s := legacyscheme.Scheme
	w := &walker{seen: map[string]bool{}}
	all := s.AllKnownTypes()
	var internal []string
	for gvk := range all {
		if gvk.Version == runtime.APIVersionInternal && !strings.HasSuffix(gvk.Kind, "List") && !strings.HasSuffix(gvk.Kind, "Options") {
			internal = append(internal, gvk.Group+"/"+gvk.Kind)
		}
	}
	sort.Strings(internal)
	kinds := 0
	for _, gk := range internal {
		group, kind, _ := strings.Cut(gk, "/")
		var in, v reflect.Type
		for gvk, t := range all {
			if gvk.Group != group || gvk.Kind != kind {
				continue
			}
			switch {
			case gvk.Version == runtime.APIVersionInternal:
				in = t
			case gvk.Version == "v1" || v == nil && !strings.Contains(gvk.Version, "alpha") && !strings.Contains(gvk.Version, "beta"):
				v = t
			}
		}
		if in == nil || v == nil {
			continue
		}
		kinds++
		w.compare(v, in, gk)
	}
	fmt.Printf("%d kinds, %d struct types: %d with the same field sequence, %d different\n", kinds, w.same+w.diffs, w.same, w.diffs)
}
