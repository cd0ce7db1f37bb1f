package schema

import (
	"fmt"
	"reflect"
	"strings"
)

// Reference resolution rules (Document.Props):
//
//   - {$ref: X} is replaced by the resolved schema X; keys next to the $ref
//     (description, default, x-kubernetes-* ...) override X's.
//   - {allOf: [{$ref: X}], ...siblings} — how Kubernetes attaches a
//     description or default to a referenced type — is the same as
//     {$ref: X, ...siblings}.
//   - A reference to a schema that is being resolved (a cycle, e.g.
//     JSONSchemaProps.properties or Trie-like types) becomes a recursion stub:
//     {x-kubernetes-preserve-unknown-fields: true} with the target's
//     description and, for objects, type: object. Values below that point are
//     kept but not validated: the same choice kubectl-validate makes when it
//     converts kube-openapi schemas, and the only finite structural one.
//   - {format: int-or-string} without a type (apimachinery IntOrString, which
//     is published as oneOf integer/string) becomes the CRD form
//     x-kubernetes-int-or-string: true with anyOf [{type: integer}, {type: string}].
//
// # Cost
//
// The resolved schema of a name N depends only on which names are being
// resolved around it (the stack) and, of those, only on the ones N can reach
// again: a name M on the stack reaches N, so if N also reaches M, both are
// in the same strongly connected component of the reference graph. The
// result is therefore memoized per N and the names of SCC(N) on the stack
// (see memoKey): for a name outside any cycle that is just N, and a
// definition referenced many times inside a cycle (definitions A..T, each
// referring to the next several times and T back to A) is built once per
// distinct sequence of its cycle's names on the stack instead of once per
// path. Results share subtrees; their expanded
// (tree) size and height are kept with them, so that the bounds below are
// checked without expanding anything:
//
//   - MaxResolvedNodes bounds both the nodes visited while building and the
//     expanded size of every resolved schema: each is checked before
//     descending further, so a document whose references fan out
//     exponentially fails after at most MaxResolvedNodes steps.
//   - MaxSchemaDepth bounds the nesting of the expanded schema (a chain of
//     references can nest deeper than any JSON document the apiserver
//     decodes).

// resolved is a resolved schema with the size and height of its expansion.
type resolved struct {
	p      *Props
	size   int // nodes of the expanded tree
	height int // nesting levels of the expanded tree (a leaf is 1)
}

// resolver is the state of one Document.Props call; the memo (Document.cache)
// outlives it.
type resolver struct {
	d       *Document
	top     string         // the name Props was called with, for errors
	onStack map[string]int // names being resolved
	seq     map[int]int    // per reference cycle, the memoKey.seq of its names on the stack
	visits  int            // schema nodes visited by this call
	depth   int            // nesting level of the node being built (root 1)
}

// limitError reports a resolution bound with the file, the requested
// definition, the limit and where it was reached.
func (r *resolver) limitError(at *jpath, depth bool) error {
	what := fmt.Sprintf("more than %d schema nodes after resolving references (schema.MaxResolvedNodes)", MaxResolvedNodes)
	if depth {
		what = fmt.Sprintf("schema nodes nested more than %d levels deep after resolving references (schema.MaxSchemaDepth)", MaxSchemaDepth)
	}
	return fmt.Errorf("%s: %s: %s, at %s", r.d.name, r.d.schemaPath(r.top), what, at)
}

// memoKey names a resolution result: the name and the sequence of the
// names of its reference cycle that are on the stack, in push order. The
// result depends only on the set of those names; keying by the sequence is
// as sound and finds the set in O(1) per reference, where building a set
// key would cost the cycle's length (quadratic on a long cycle).
type memoKey struct {
	name string
	seq  int // 0: no name of the cycle on the stack; else a Document.seqs value
}

// seqStep is a sequence (by id) extended by one name.
type seqStep struct {
	seq  int
	name string
}

func (r *resolver) resolveName(name string, path *jpath) (resolved, error) {
	scc := r.d.scc[name]
	cur := r.seq[scc]
	key := memoKey{name, cur}
	if res, ok := r.d.cache[key]; ok {
		return res, nil
	}
	next, ok := r.d.seqs[seqStep{cur, name}]
	if !ok {
		next = len(r.d.seqs) + 1
		r.d.seqs[seqStep{cur, name}] = next
	}
	r.onStack[name]++
	r.seq[scc] = next
	res, err := r.resolve(r.d.schemas[name], path)
	r.seq[scc] = cur
	r.onStack[name]--
	if err != nil {
		return resolved{}, err
	}
	r.d.cache[key] = res
	return res, nil
}

// onlyRef reports whether p is nothing but a $ref.
func onlyRef(p *Props) bool {
	if p.Ref == nil {
		return false
	}
	q := *p
	q.Ref = nil
	return reflect.ValueOf(q).IsZero()
}

func (r *resolver) resolve(p *Props, path *jpath) (resolved, error) {
	if p == nil {
		return resolved{}, nil
	}
	if r.visits++; r.visits > MaxResolvedNodes {
		return resolved{}, r.limitError(path, false)
	}
	if len(p.AllOf) == 1 && onlyRef(&p.AllOf[0]) && p.Ref == nil {
		q := *p
		q.Ref, q.AllOf = p.AllOf[0].Ref, nil
		return r.resolveRef(&q, path.key("allOf").idx(0))
	}
	if p.Ref != nil {
		return r.resolveRef(p, path)
	}
	if r.depth >= MaxSchemaDepth {
		return resolved{}, r.limitError(path, true)
	}
	r.depth++
	defer func() { r.depth-- }()
	q := *p
	size, height := 1, 1
	var firstErr error
	sub := func(s *Props, at *jpath) *Props {
		if s == nil || firstErr != nil {
			return s
		}
		c, err := r.resolve(s, at)
		if err == nil {
			size += c.size
			height = max(height, 1+c.height)
			switch {
			case size > MaxResolvedNodes:
				err = r.limitError(at, false)
			case r.depth-1+height > MaxSchemaDepth:
				err = r.limitError(at, true)
			}
		}
		if err != nil {
			firstErr = err
			return s
		}
		return c.p
	}
	list := func(l []Props, at *jpath) []Props {
		if l == nil {
			return nil
		}
		out := make([]Props, len(l))
		for i := range l {
			if c := sub(&l[i], at.idx(i)); c != nil {
				out[i] = *c
			}
		}
		return out
	}
	dict := func(m map[string]Props, at *jpath) map[string]Props {
		if m == nil {
			return nil
		}
		out := make(map[string]Props, len(m))
		for _, k := range sortedKeys(m) {
			v := m[k]
			if c := sub(&v, at.bracket(k)); c != nil {
				out[k] = *c
			}
		}
		return out
	}
	if p.Items != nil {
		at := path.key("items")
		q.Items = &PropsOrArray{Schema: sub(p.Items.Schema, at), Schemas: list(p.Items.Schemas, at)}
	}
	q.AllOf, q.OneOf, q.AnyOf = list(p.AllOf, path.key("allOf")), list(p.OneOf, path.key("oneOf")), list(p.AnyOf, path.key("anyOf"))
	q.Not = sub(p.Not, path.key("not"))
	q.Properties = dict(p.Properties, path.key("properties"))
	q.PatternProperties = dict(p.PatternProperties, path.key("patternProperties"))
	q.Definitions = dict(p.Definitions, path.key("definitions"))
	if p.AdditionalProperties != nil {
		q.AdditionalProperties = &PropsOrBool{Allows: p.AdditionalProperties.Allows, Schema: sub(p.AdditionalProperties.Schema, path.key("additionalProperties"))}
	}
	if p.AdditionalItems != nil {
		q.AdditionalItems = &PropsOrBool{Allows: p.AdditionalItems.Allows, Schema: sub(p.AdditionalItems.Schema, path.key("additionalItems"))}
	}
	if p.Dependencies != nil {
		q.Dependencies = make(map[string]PropsOrStringList, len(p.Dependencies))
		for _, k := range sortedKeys(p.Dependencies) {
			dep := p.Dependencies[k]
			q.Dependencies[k] = PropsOrStringList{Schema: sub(dep.Schema, path.key("dependencies").bracket(k)), Property: dep.Property}
		}
	}
	if firstErr != nil {
		return resolved{}, firstErr
	}
	intOrString(&q)
	return resolved{p: &q, size: size, height: height}, nil
}

// resolveRef resolves a node with a $ref and overlays its other keys.
func (r *resolver) resolveRef(p *Props, path *jpath) (resolved, error) {
	ref := *p.Ref
	target, ok := strings.CutPrefix(ref, r.d.prefix)
	if !ok {
		return resolved{}, fmt.Errorf("%s: %s.$ref: unsupported reference %q (only %s... within the document)", r.d.name, path, ref, r.d.prefix)
	}
	t, ok := r.d.schemas[target]
	if !ok {
		return resolved{}, fmt.Errorf("%s: %s.$ref: reference %q not found", r.d.name, path, ref)
	}
	siblings := *p
	siblings.Ref = nil
	sib, err := r.resolve(&siblings, path)
	if err != nil {
		return resolved{}, err
	}
	var base resolved
	if r.onStack[target] > 0 {
		stub := &Props{Description: t.Description, XPreserveUnknownFields: boolPtr(true)}
		if t.Type == "object" || len(t.Properties) > 0 {
			stub.Type = "object"
		}
		base = resolved{p: stub, size: 1, height: 1}
	} else {
		base, err = r.resolveName(target, rawPath(r.d.schemaPath(target)))
		if err != nil {
			return resolved{}, err
		}
	}
	out := resolved{p: overlay(base.p, sib.p), size: base.size + sib.size, height: max(base.height, sib.height)}
	switch {
	case out.size > MaxResolvedNodes:
		return resolved{}, r.limitError(path, false)
	case r.depth+out.height > MaxSchemaDepth:
		return resolved{}, r.limitError(path, true)
	}
	return out, nil
}

func boolPtr(b bool) *bool { return &b }

// overlay returns a shallow copy of base with every non-zero field of top
// set over it; Extra keys are merged.
func overlay(base, top *Props) *Props {
	out := *base
	if top == nil {
		return &out
	}
	ov, tv := reflect.ValueOf(&out).Elem(), reflect.ValueOf(top).Elem()
	for i := 0; i < tv.NumField(); i++ {
		if ov.Type().Field(i).Name == "Extra" {
			continue
		}
		if f := tv.Field(i); !f.IsZero() {
			ov.Field(i).Set(f)
		}
	}
	if len(top.Extra) > 0 {
		m := make(map[string]any, len(base.Extra)+len(top.Extra))
		for k, v := range base.Extra {
			m[k] = v
		}
		for k, v := range top.Extra {
			m[k] = v
		}
		out.Extra = m
	}
	return &out
}

// intOrString rewrites apimachinery's published IntOrString
// ({format: int-or-string, oneOf: [integer, string]}) into the structural
// CRD form.
func intOrString(p *Props) {
	if p.Format != "int-or-string" || p.Type != "" {
		return
	}
	if len(p.OneOf) != 0 && !(len(p.OneOf) == 2 && p.OneOf[0].Type == "integer" && p.OneOf[1].Type == "string") {
		return
	}
	p.Format, p.OneOf, p.XIntOrString = "", nil, true
	p.AnyOf = []Props{{Type: "integer"}, {Type: "string"}}
}
