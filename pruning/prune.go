// Package pruning removes fields a structural schema does not specify, the
// way the kube-apiserver does when it decodes a custom resource: generic
// pruning (x-kubernetes-preserve-unknown-fields, embedded resources,
// additionalProperties), ObjectMeta/TypeMeta coercion, and removal of nulls
// on non-nullable fields without default. Every step reports the paths it
// removed in the apiserver's format (`spec.list[0].m`), which is what strict
// field validation prints as `unknown field "spec.list[0].m"`.
//
// It mirrors k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning,
// pkg/apiserver/schema/objectmeta/{coerce.go,algorithm.go},
// pkg/apiserver/schema/defaulting/prunenulls.go and unstructuredSchemaCoercer
// in pkg/apiserver/customresource_handler.go.
package pruning

import (
	"sort"
	"strconv"

	"kdv.dev/schema"
)

// Options controls Prune.
type Options struct {
	// IsResourceRoot treats obj as a resource root: apiVersion, kind and
	// metadata at the top level are kept (metadata is left to ObjectMeta
	// coercion), as if the root schema had x-kubernetes-embedded-resource.
	IsResourceRoot bool
	// DiscardPaths skips recording removed paths (Prune then returns nil),
	// like the apiserver's pruning with TrackUnknownFieldPaths=false. It
	// saves the path allocations when only the pruned value matters.
	DiscardPaths bool
}

// isMetaField tells the TypeMeta and ObjectMeta fields an embedded resource
// keeps regardless of its properties.
func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

// Prune removes, in place, every object field of obj (unstructured JSON:
// map[string]any, []any and scalars) that s does not specify, and returns
// the removed fields' paths sorted as strings ("a.b", "list[0].c", map keys
// joined with a dot: "labels.foo"). A nil s prunes every field of every
// object in obj. Fields below x-kubernetes-preserve-unknown-fields are kept
// until properties or additionalProperties specify a subtree again.
// apiVersion, kind and metadata of embedded resources (and of the root with
// opts.IsResourceRoot) are kept untouched; metadata is CoerceMeta's job.
// Without IsResourceRoot, top-level apiVersion, kind and metadata are
// removed without being reported, as the apiserver does.
//
// It mirrors pruning.PruneWithOptions of k8s.io/apiextensions-apiserver.
func Prune(obj any, s *schema.Structural, opts Options) []string {
	// The root copy stays on the stack, unlike asEmbedded's.
	var root schema.Structural
	if opts.IsResourceRoot {
		if s == nil {
			s = &root
		}
		if !s.XEmbeddedResource {
			root = *s
			root.XEmbeddedResource = true
			s = &root
		}
	}
	p := pruner{track: !opts.DiscardPaths}
	if p.track {
		p.buf = make([]byte, 0, 128)
	}
	p.prune(obj, s)
	sort.Strings(p.paths)
	return p.paths
}

// asEmbedded returns s, or a shallow copy of it, with XEmbeddedResource set;
// a nil s becomes an empty schema, as the apiserver does for resource roots.
func asEmbedded(s *schema.Structural) *schema.Structural {
	if s == nil {
		s = &schema.Structural{}
	}
	if !s.XEmbeddedResource {
		c := *s
		c.XEmbeddedResource = true
		s = &c
	}
	return s
}

// pruner walks a value, building the current path in buf. nested tells
// whether any segment was appended (an empty key counts, as in the
// apiserver's []string path, so `{"": {"x": 1}}` reports ".x").
type pruner struct {
	track  bool
	nested bool
	buf    []byte
	paths  []string
}

// mark is a path position to restore after descending.
type mark struct {
	n      int
	nested bool
}

func (p *pruner) restore(m mark) { p.buf, p.nested = p.buf[:m.n], m.nested }

// key appends ".k" (or "k" at the top) to the path.
func (p *pruner) key(k string) mark {
	m := mark{len(p.buf), p.nested}
	if p.track {
		if p.nested {
			p.buf = append(p.buf, '.')
		}
		p.buf = append(p.buf, k...)
		p.nested = true
	}
	return m
}

// index appends "[i]" to the path.
func (p *pruner) index(i int) mark {
	m := mark{len(p.buf), p.nested}
	if p.track {
		p.buf = append(p.buf, '[')
		p.buf = strconv.AppendInt(p.buf, int64(i), 10)
		p.buf = append(p.buf, ']')
		p.nested = true
	}
	return m
}

// record notes the removal of field k below the current path.
func (p *pruner) record(k string) {
	if !p.track {
		return
	}
	m := p.key(k)
	p.paths = append(p.paths, string(p.buf))
	p.restore(m)
}

func (p *pruner) prune(x any, s *schema.Structural) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range x {
				p.record(k)
				delete(x, k)
			}
			return
		}
		// One schema copy per frame: a fresh one per field would be
		// moved to the heap.
		var prop schema.Structural
		for k, v := range x {
			if s.XEmbeddedResource && isMetaField(k) {
				continue
			}
			if ps, ok := s.Properties[k]; ok {
				prop = ps
				n := p.key(k)
				p.prune(v, &prop)
				p.restore(n)
			} else if s.AdditionalProperties != nil {
				n := p.key(k)
				p.prune(v, s.AdditionalProperties.Structural)
				p.restore(n)
			} else {
				// Top-level apiVersion/kind/metadata of a non-root value
				// are dropped without being reported, as the apiserver does.
				if !isMetaField(k) || p.nested {
					p.record(k)
				}
				delete(x, k)
			}
		}
	case []any:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			n := p.index(i)
			p.prune(v, items)
			p.restore(n)
		}
	}
}

// skipPrune walks a value below x-kubernetes-preserve-unknown-fields: unknown
// fields stay, specified ones are pruned by their own schemas again.
func (p *pruner) skipPrune(x any, s *schema.Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		// One schema copy per frame: a fresh one per field would be
		// moved to the heap.
		var prop schema.Structural
		for k, v := range x {
			if s.XEmbeddedResource && isMetaField(k) {
				continue
			}
			if ps, ok := s.Properties[k]; ok {
				prop = ps
				n := p.key(k)
				p.prune(v, &prop)
				p.restore(n)
			} else if s.AdditionalProperties != nil {
				n := p.key(k)
				p.prune(v, s.AdditionalProperties.Structural)
				p.restore(n)
			}
		}
	case []any:
		for i, v := range x {
			n := p.index(i)
			p.skipPrune(v, s.Items)
			p.restore(n)
		}
	}
}
