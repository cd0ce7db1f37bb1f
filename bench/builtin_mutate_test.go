package bench

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	kdvschema "kdv.dev/schema"
)

// bnode is a value of a built-in object with kdv's embedded schema for it.
// Mutations of built-in kinds are driven by kdv's schemas (the apiserver has
// none; its types are Go structs), so they reach every field kdv knows.
type bnode struct {
	path   []any
	value  any
	schema *kdvschema.Structural
}

// bwalk lists the object's values that have a schema, parents first, at
// most 2 elements of each list.
func bwalk(v any, s *kdvschema.Structural, path []any, out *[]bnode) {
	if s == nil {
		return
	}
	*out = append(*out, bnode{path: path, value: v, schema: s})
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if len(path) == 0 && (k == "metadata" || k == "apiVersion" || k == "kind") {
				continue
			}
			if ps, ok := s.Properties[k]; ok {
				bwalk(v[k], &ps, appendPath(path, k), out)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
				bwalk(v[k], s.AdditionalProperties.Structural, appendPath(path, k), out)
			}
		}
	case []any:
		for i, e := range v {
			if i >= 2 {
				break
			}
			bwalk(e, s.Items, appendPath(path, i), out)
		}
	}
}

// builtinMutations generates, for every schema node present in obj, each
// mutation kind that applies to it, plus ObjectMeta and cross-field
// mutations. Kinds name the class of input, which the tables group by.
func builtinMutations(obj map[string]any, s *kdvschema.Structural, namespaced bool) []mutation {
	var nodes []bnode
	bwalk(obj, s, nil, &nodes)
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
			vv = &kdvschema.ValueValidation{}
		}
		switch {
		case s.XIntOrString:
			add("wrong-type", p, setAt(obj, p, true))
			add("bad-int-or-string", p, setAt(obj, p, "1.5.5"))
		case s.Type == "string":
			add("wrong-type", p, setAt(obj, p, int64(12345)))
		case s.Type == "integer" || s.Type == "number":
			add("wrong-type", p, setAt(obj, p, "12345"))
			if s.Type == "integer" {
				add("fraction", p, setAt(obj, p, 1.5))
			}
		case s.Type == "boolean":
			add("wrong-type", p, setAt(obj, p, "yes"))
		case s.Type == "object":
			add("wrong-type", p, setAt(obj, p, "x"))
		case s.Type == "array":
			add("wrong-type", p, setAt(obj, p, map[string]any{"a": "b"}))
		}
		add("null", p, setAt(obj, p, nil))
		if s.Type == "integer" && vv.Format == "int32" {
			add("int32-overflow", p, setAt(obj, p, int64(4294967296)))
		}
		// The largest value the field's Go type holds: valid wherever
		// validation sets no maximum, and a rule's arithmetic on it
		// must not overflow into an error.
		if s.Type == "integer" {
			if vv.Format == "int32" {
				add("max-int", p, setAt(obj, p, int64(math.MaxInt32)))
			} else {
				add("max-int", p, setAt(obj, p, int64(math.MaxInt64)))
			}
		}
		if vv.Maximum != nil {
			add("maximum", p, setAt(obj, p, numberFor(s.Type, *vv.Maximum+1)))
		}
		if vv.Minimum != nil {
			add("minimum", p, setAt(obj, p, numberFor(s.Type, *vv.Minimum-1)))
		}
		if vv.MaxLength != nil && *vv.MaxLength < 100000 {
			add("max-length", p, setAt(obj, p, strings.Repeat("a", int(*vv.MaxLength)+1)))
		}
		if l, ok := v.([]any); ok && len(l) > 0 {
			if vv.MaxItems != nil && *vv.MaxItems < 300 {
				nl := make([]any, 0, *vv.MaxItems+1)
				for i := int64(0); i <= *vv.MaxItems; i++ {
					nl = append(nl, runtime.DeepCopyJSONValue(l[int(i)%len(l)]))
				}
				add("max-items", p, setAt(obj, p, nl))
			}
			// Every list, not only list-maps and sets: the apiserver
			// rejects duplicates only where its validation says so.
			add("duplicate-item", p, setAt(obj, p, append(append([]any{}, l...), runtime.DeepCopyJSONValue(l[0]))))
			// A list-map item whose keys repeat with another value (two
			// env entries of one name): accepted with a warning where
			// validation allows it, and, as an unchanged update, equal
			// to itself.
			if s.XListType != nil && *s.XListType == "map" {
				if dup, ok := withOtherValue(l[0], s.XListMapKeys); ok {
					add("duplicate-key", p, setAt(obj, p, append(append([]any{}, l...), dup)))
				}
			}
			add("empty", p, setAt(obj, p, []any{}))
			// The same items in reverse order: an update that reorders a
			// list is a change to Semantic.DeepEqual, whatever the list
			// type, and immutable lists of sets compare regardless of
			// order where the hand-written check says so.
			if len(l) > 1 {
				rev := slices.Clone(l)
				slices.Reverse(rev)
				add("reorder", p, setAt(obj, p, rev))
			}
		}
		if len(vv.Enum) > 0 {
			if s.Type == "string" {
				add("enum", p, setAt(obj, p, "NotInEnum"))
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
			add("zero-value", p, setAt(obj, p, ""))
			// Non-ASCII text: a rule that counts bytes where Go counts
			// runes, or the other way round, or matches ASCII only, tells.
			add("unicode", p, setAt(obj, p, v+"-é✓"))
			if strings.ToLower(v) != v {
				add("lowercase", p, setAt(obj, p, strings.ToLower(v)))
			}
		case int64, float64:
			add("zero-value", p, setAt(obj, p, numberFor(s.Type, 0)))
			add("negative", p, setAt(obj, p, numberFor(s.Type, -1)))
		case bool:
			add("zero-value", p, setAt(obj, p, false))
			add("flip-bool", p, setAt(obj, p, !v))
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
	out = append(out, crossFieldMutations(obj)...)
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
			{"metadata-null", []any{"metadata", "labels"}, nil},
			{"metadata-wrong-type", []any{"metadata", "generation"}, "1"},
		} {
			add(m.kind, m.path, setAt(obj, m.path, m.v))
		}
		if !namespaced {
			add("namespace-on-cluster-scoped", []any{"metadata", "namespace"}, setAt(obj, []any{"metadata", "namespace"}, "default"))
		}
	}
	return out
}

// crossFieldMutations are changes that break (or keep) a relation between
// two fields, which per-field mutations cannot reach: a selector that no
// longer matches the template, minimums above maximums.
func crossFieldMutations(obj map[string]any) []mutation {
	var out []mutation
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	if sel, ok := spec["selector"].(map[string]any); ok {
		if _, ok := sel["matchLabels"]; ok {
			p := []any{"spec", "selector", "matchLabels"}
			out = append(out, mutation{Kind: "cross-selector", Path: pathString(p), Obj: setAt(obj, p, map[string]any{"kdv": "other"})})
		}
	}
	if tmd, ok := nested(spec, "template", "metadata").(map[string]any); ok && tmd["labels"] != nil {
		p := []any{"spec", "template", "metadata", "labels"}
		out = append(out, mutation{Kind: "cross-selector", Path: pathString(p), Obj: setAt(obj, p, map[string]any{"kdv": "other"})})
	}
	for _, mm := range [][2]string{{"minReplicas", "maxReplicas"}, {"minAvailable", "maxUnavailable"}} {
		lo, hi := spec[mm[0]], spec[mm[1]]
		if lo != nil && hi != nil {
			o := setAt(obj, []any{"spec", mm[0]}, hi)
			o = setAt(o, []any{"spec", mm[1]}, lo)
			out = append(out, mutation{Kind: "cross-swap", Path: "spec." + mm[0], Obj: o})
		} else if lo != nil {
			out = append(out, mutation{Kind: "cross-both", Path: "spec." + mm[1], Obj: setAt(obj, []any{"spec", mm[1]}, lo)})
		}
	}
	for _, list := range []string{"containers", "initContainers"} {
		cp := containerPath(obj, list)
		cs, _ := lookupPath(obj, cp).([]any)
		if len(cs) == 0 {
			continue
		}
		c, _ := cs[0].(map[string]any)
		if ports, ok := c["ports"].([]any); ok && len(ports) > 0 {
			// the same containerPort and protocol twice: allowed (a
			// warning), though the schema's list-map keys say otherwise
			p := append(appendPath(cp, 0), "ports")
			out = append(out, mutation{Kind: "cross-dup-port", Path: pathString(p), Obj: setAt(obj, p, append(append([]any{}, ports...), runtime.DeepCopyJSONValue(ports[0])))})
		}
	}
	return out
}

func containerPath(obj map[string]any, list string) []any {
	if nested(obj, "spec", "template", "spec") != nil {
		return []any{"spec", "template", "spec", list}
	}
	if nested(obj, "spec", "jobTemplate", "spec", "template", "spec") != nil {
		return []any{"spec", "jobTemplate", "spec", "template", "spec", list}
	}
	return []any{"spec", list}
}

// lookupPath returns the value at path, nil when absent (getAt panics).
func lookupPath(v any, path []any) any {
	for _, e := range path {
		switch e := e.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[e]
		case int:
			l, ok := v.([]any)
			if !ok || e >= len(l) {
				return nil
			}
			v = l[e]
		}
	}
	return v
}

func nested(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// withOtherValue returns a copy of a list-map item with its first string
// field that is not a key (in sorted order) given another value; false when
// it has none.
func withOtherValue(item any, keys []string) (any, bool) {
	m, ok := item.(map[string]any)
	if !ok {
		return nil, false
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if str, isString := m[k].(string); isString && !slices.Contains(keys, k) {
			dup := runtime.DeepCopyJSONValue(m).(map[string]any)
			dup[k] = str + "-other"
			return dup, true
		}
	}
	return nil, false
}
