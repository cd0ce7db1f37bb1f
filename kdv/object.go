package kdv

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"kdv.dev/builtin"
)

// toMap turns what Validate accepts into the unstructured form the
// apiserver decodes a request body into (map[string]any, []any, string,
// bool, int64, float64, nil):
//
//   - map[string]any and runtime.Unstructured as they are when they
//     already hold only those types; otherwise (an int, a []string, a
//     map[string]string, a struct, as Go code writes them) through JSON,
//     which is what a client sends;
//   - typed objects through runtime.DefaultUnstructuredConverter, with
//     apiVersion and kind found as typeOf says when their TypeMeta is
//     empty.
//
// The map returned may be the caller's: it must not be changed.
func (v *Validator) toMap(obj any) (map[string]any, error) {
	switch o := obj.(type) {
	case nil:
		return nil, fmt.Errorf("kdv: the object is nil")
	case map[string]any:
		return canonical(o)
	case runtime.Unstructured:
		if o.IsList() {
			return nil, fmt.Errorf("kdv: %T is a list: validate each item", obj)
		}
		return canonical(o.UnstructuredContent())
	case runtime.Object:
		if rv := reflect.ValueOf(o); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, fmt.Errorf("kdv: the object is a nil %T", obj)
		}
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("kdv: converting %T: %w", obj, err)
		}
		if gvk := o.GetObjectKind().GroupVersionKind(); gvk.Kind == "" && gvk.Version == "" {
			if gvk, err = v.typeOf(o); err != nil {
				return nil, err
			}
			m["apiVersion"], m["kind"] = gvk.GroupVersion().String(), gvk.Kind
		}
		return m, nil
	}
	return nil, fmt.Errorf("kdv: cannot validate a %T: want *unstructured.Unstructured, map[string]any or a typed runtime.Object", obj)
}

// canonical returns m, or its JSON round trip when it holds values a
// JSON decoder does not produce.
func canonical(m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, fmt.Errorf("kdv: the object is nil")
	}
	if isCanonical(m, 0) {
		return m, nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("kdv: the object cannot be encoded as JSON, as a client would send it: %w", err)
	}
	var out map[string]any
	// utiljson decodes numbers as int64 when integral and float64
	// otherwise, as the apiserver's unstructured decoding does.
	if err := utiljson.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("kdv: decoding the object's JSON: %w", err)
	}
	return out, nil
}

// maxCanonicalDepth bounds isCanonical's recursion; deeper values take
// the JSON round trip, whose encoder reports cycles and whose decoder
// bounds depth (10,000 levels, as the apiserver's).
const maxCanonicalDepth = 1000

// isCanonical reports whether x holds only the types of decoded JSON.
func isCanonical(x any, depth int) bool {
	if depth > maxCanonicalDepth {
		return false
	}
	switch x := x.(type) {
	case nil, string, bool, int64, float64:
		return true
	case map[string]any:
		for _, e := range x {
			if !isCanonical(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isCanonical(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// gvkKey is a version and kind, to find the group of a typed object.
type gvkKey struct{ version, kind string }

// typeOf finds the group, version and kind of a typed object whose
// TypeMeta is empty: by the schemes of WithScheme first, then, for the
// types of k8s.io/api, k8s.io/kube-aggregator and
// k8s.io/apiextensions-apiserver, by their package path
// (".../<group>/<version>") and type name, matched against the embedded
// built-in kinds (the group of a package "networking" is
// "networking.k8s.io", of "core" the core group).
func (v *Validator) typeOf(o runtime.Object) (schema.GroupVersionKind, error) {
	for _, s := range v.schemes {
		kinds, _, err := s.ObjectKinds(o)
		if err == nil && len(kinds) == 1 {
			return kinds[0], nil
		}
		if len(kinds) > 1 {
			return schema.GroupVersionKind{}, fmt.Errorf("kdv: %T is registered as %v in the scheme: set its apiVersion and kind", o, kinds)
		}
	}
	t := reflect.TypeOf(o)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pkg := t.PkgPath()
	var dir, version string
	if i := strings.LastIndexByte(pkg, '/'); i > 0 {
		version = pkg[i+1:]
		if j := strings.LastIndexByte(pkg[:i], '/'); j >= 0 {
			dir = pkg[j+1 : i]
		}
	}
	switch {
	case strings.HasPrefix(pkg, "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/"):
		return schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: version, Kind: t.Name()}, nil
	case strings.HasPrefix(pkg, "k8s.io/api/"), strings.HasPrefix(pkg, "k8s.io/kube-aggregator/pkg/apis/"):
		if g, ok := v.builtinGroup(dir, version, t.Name()); ok {
			return schema.GroupVersionKind{Group: g, Version: version, Kind: t.Name()}, nil
		}
	}
	return schema.GroupVersionKind{}, fmt.Errorf("kdv: %T has no apiVersion and kind: set its TypeMeta, or give its scheme with kdv.WithScheme", o)
}

// builtinGroup finds the group of an embedded built-in kind from the
// directory of its Go package: the only group serving that version and
// kind, or among several the one the directory names.
func (v *Validator) builtinGroup(dir, version, kind string) (string, bool) {
	v.kindsOnce.Do(func() {
		v.kinds = map[gvkKey][]string{}
		list, _ := builtin.Kinds(v.minor)
		for _, k := range list {
			key := gvkKey{k.Version, k.Kind}
			v.kinds[key] = append(v.kinds[key], k.Group)
		}
	})
	groups := v.kinds[gvkKey{version, kind}]
	if len(groups) == 1 {
		return groups[0], true
	}
	for _, g := range groups {
		if (dir == "core" && g == "") || g == dir || strings.HasPrefix(g, dir+".") {
			return g, true
		}
	}
	return "", false
}
