package bench

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// mutation is one systematic change of an object at one schema node.
type mutation struct {
	Kind string // e.g. "max-length"
	Path string // e.g. spec.rules[0].matches
	Obj  map[string]any
}

// node is a value of the object with the schema that governs it.
type node struct {
	path   []any // string keys and int indices from the root
	value  any
	schema *structuralschema.Structural
}

func pathString(p []any) string {
	var b strings.Builder
	for _, e := range p {
		switch e := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e)
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		}
	}
	return b.String()
}

// walk lists the object's values that have a schema, parents first. At most
// maxItems elements of each list are visited.
func walk(v any, s *structuralschema.Structural, path []any, out *[]node) {
	if s == nil {
		return
	}
	*out = append(*out, node{path: path, value: v, schema: s})
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if len(path) == 0 && (k == "metadata" || k == "apiVersion" || k == "kind") {
				continue
			}
			if ps, ok := s.Properties[k]; ok {
				walk(v[k], &ps, appendPath(path, k), out)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
				walk(v[k], s.AdditionalProperties.Structural, appendPath(path, k), out)
			}
		}
	case []any:
		for i, e := range v {
			if i >= 3 {
				break
			}
			walk(e, s.Items, appendPath(path, i), out)
		}
	}
}

func appendPath(p []any, e any) []any {
	q := make([]any, len(p), len(p)+1)
	copy(q, p)
	return append(q, e)
}

// at returns a deep copy of root and a setter/deleter for the value at path.
func edit(root map[string]any, path []any, f func(parent any, key any)) map[string]any {
	c := runtime.DeepCopyJSON(root)
	var parent any = c
	for _, e := range path[:len(path)-1] {
		switch e := e.(type) {
		case string:
			parent = parent.(map[string]any)[e]
		case int:
			parent = parent.([]any)[e]
		}
	}
	f(parent, path[len(path)-1])
	return c
}

func setAt(root map[string]any, path []any, v any) map[string]any {
	return edit(root, path, func(parent, key any) {
		switch k := key.(type) {
		case string:
			parent.(map[string]any)[k] = v
		case int:
			parent.([]any)[k] = v
		}
	})
}

func deleteAt(root map[string]any, path []any) map[string]any {
	return edit(root, path, func(parent, key any) {
		delete(parent.(map[string]any), key.(string))
	})
}

// numberFor renders n in the JSON type the apiserver's decoder would give a
// value of schema type typ.
func numberFor(typ string, n float64) any {
	if typ == "integer" {
		return int64(n)
	}
	return n
}

// mutations generates, for every schema node present in obj, each mutation
// kind that applies to it, plus ObjectMeta mutations.
func mutations(obj map[string]any, s *structuralschema.Structural) []mutation {
	var nodes []node
	walk(obj, s, nil, &nodes)
	var out []mutation
	add := func(kind string, path []any, o map[string]any) {
		out = append(out, mutation{Kind: kind, Path: pathString(path), Obj: o})
	}
	for _, n := range nodes {
		if len(n.path) == 0 {
			continue
		}
		s, v, p := n.schema, n.value, n.path
		vv := s.ValueValidation
		if vv == nil {
			vv = &structuralschema.ValueValidation{}
		}
		// wrong type
		switch {
		case s.XIntOrString:
			add("wrong-type", p, setAt(obj, p, true))
		case s.Type == "string":
			add("wrong-type", p, setAt(obj, p, int64(12345)))
		case s.Type == "integer" || s.Type == "number":
			add("wrong-type", p, setAt(obj, p, "12345"))
		case s.Type == "boolean":
			add("wrong-type", p, setAt(obj, p, "yes"))
		case s.Type == "object":
			add("wrong-type", p, setAt(obj, p, "x"))
		case s.Type == "array":
			add("wrong-type", p, setAt(obj, p, map[string]any{"a": "b"}))
		}
		add("null", p, setAt(obj, p, nil))
		if vv.Maximum != nil {
			add("maximum", p, setAt(obj, p, numberFor(s.Type, *vv.Maximum+1)))
		}
		if vv.Minimum != nil {
			add("minimum", p, setAt(obj, p, numberFor(s.Type, *vv.Minimum-1)))
		}
		if vv.MaxLength != nil {
			add("max-length", p, setAt(obj, p, strings.Repeat("a", int(*vv.MaxLength)+1)))
		}
		if vv.MinLength != nil && *vv.MinLength > 0 {
			add("min-length", p, setAt(obj, p, strings.Repeat("a", int(*vv.MinLength)-1)))
		}
		if l, ok := v.([]any); ok && len(l) > 0 {
			if vv.MaxItems != nil && *vv.MaxItems < 300 {
				nl := make([]any, 0, *vv.MaxItems+1)
				for i := int64(0); i <= *vv.MaxItems; i++ {
					nl = append(nl, runtime.DeepCopyJSONValue(l[int(i)%len(l)]))
				}
				add("max-items", p, setAt(obj, p, nl))
			}
			if vv.MinItems != nil && *vv.MinItems > 0 {
				add("min-items", p, setAt(obj, p, append([]any{}, l[:*vv.MinItems-1]...)))
			}
			if s.XListType != nil && (*s.XListType == "map" || *s.XListType == "set") {
				add("duplicate-key", p, setAt(obj, p, append(append([]any{}, l...), runtime.DeepCopyJSONValue(l[0]))))
			}
			add("empty", p, setAt(obj, p, []any{}))
		}
		if len(vv.Enum) > 0 {
			if s.Type == "string" {
				add("enum", p, setAt(obj, p, "NotInEnum"))
			} else {
				add("enum", p, setAt(obj, p, numberFor(s.Type, 999999)))
			}
			for _, e := range vv.Enum {
				if fmt.Sprint(e.Object) != fmt.Sprint(v) {
					add("other-enum", p, setAt(obj, p, e.Object))
					break
				}
			}
		}
		if vv.Format != "" && s.Type == "string" {
			add("format", p, setAt(obj, p, "not a "+vv.Format+" ~!"))
		}
		if vv.Pattern != "" {
			add("pattern", p, setAt(obj, p, "~!@ no match"))
		}
		switch v := v.(type) {
		case string:
			add("empty", p, setAt(obj, p, ""))
		case int64, float64:
			add("zero", p, setAt(obj, p, numberFor(s.Type, 0)))
			add("negative", p, setAt(obj, p, numberFor(s.Type, -1)))
		case map[string]any:
			for _, r := range vv.Required {
				if _, ok := v[r]; ok {
					add("missing-required", appendPath(p, r), deleteAt(obj, appendPath(p, r)))
				}
			}
			for _, k := range sortedKeys(v) {
				if _, ok := s.Properties[k]; ok && !contains(vv.Required, k) {
					add("drop-optional", appendPath(p, k), deleteAt(obj, appendPath(p, k)))
				}
			}
			if len(s.Properties) > 0 && !s.XPreserveUnknownFields {
				add("unknown-field", appendPath(p, "kdvUnknown"), setAt(obj, appendPath(p, "kdvUnknown"), "x"))
			}
			if len(v) > 0 {
				add("empty", p, setAt(obj, p, map[string]any{}))
			}
		}
	}
	// A status in the request: the apiserver drops it on create and keeps
	// the old one on update when the status subresource is enabled.
	if _, ok := s.Properties["status"]; ok {
		if _, has := obj["status"]; !has {
			add("status", []any{"status"}, setAt(obj, []any{"status"}, "x"))
		}
	}
	// ObjectMeta and TypeMeta.
	md := []any{"metadata"}
	if _, ok := obj["metadata"].(map[string]any); ok {
		for _, m := range []struct {
			kind string
			path []any
			v    any
		}{
			{"metadata-name", []any{"metadata", "name"}, "Invalid_Name"},
			{"metadata-name", []any{"metadata", "name"}, strings.Repeat("a", 254)},
			{"metadata-name", []any{"metadata", "name"}, ""},
			{"metadata-namespace", []any{"metadata", "namespace"}, "Bad_NS"},
			{"metadata-labels", []any{"metadata", "labels"}, map[string]any{"bad key!": "v", "k": "bad value!"}},
			{"metadata-annotations", []any{"metadata", "annotations"}, map[string]any{"/bad": "v"}},
			{"metadata-finalizers", []any{"metadata", "finalizers"}, []any{"a/b/c"}},
			{"metadata-generatename", []any{"metadata", "generateName"}, "Bad_Prefix-"},
			{"metadata-unknown", []any{"metadata", "kdvUnknown"}, "x"},
			{"metadata-malformed", []any{"metadata", "labels"}, "not-a-map"},
			{"metadata-malformed", []any{"metadata", "namespace"}, []any{}},
			{"metadata-null", []any{"metadata", "labels"}, nil},
			{"kind", []any{"kind"}, "Other"},
		} {
			add(m.kind, m.path, setAt(obj, m.path, m.v))
		}
		add("metadata-missing-name", append(md, "name"), deleteAt(obj, []any{"metadata", "name"}))
	}
	return out
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// sample keeps at most perKind mutations of each kind, chosen with a fixed
// seed, in their original order.
func sample(ms []mutation, perKind int, seed int64) []mutation {
	byKind := map[string][]int{}
	for i, m := range ms {
		byKind[m.Kind] = append(byKind[m.Kind], i)
	}
	r := rand.New(rand.NewSource(seed))
	var keep []int
	for _, k := range sortedKeys(byKind) {
		idx := byKind[k]
		if len(idx) > perKind {
			r := r
			if ownStream[k] {
				r = rand.New(rand.NewSource(seed + int64(len(k))))
			}
			r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
			idx = idx[:perKind]
		}
		keep = append(keep, idx...)
	}
	sort.Ints(keep)
	out := make([]mutation, len(keep))
	for i, k := range keep {
		out[i] = ms[k]
	}
	return out
}

// ownStream names the mutation kinds added after the old-release tests'
// lists of known false rejections were written: sample draws them from a
// stream of their own, so that adding a kind leaves the other kinds'
// samples as they were.
var ownStream = map[string]bool{"duplicate-key": true, "max-int": true, "reorder": true, "unicode": true}
