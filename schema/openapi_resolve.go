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
// Results without a recursion stub are cached per name, so resolving is
// linear in the document size; MaxResolvedNodes bounds the expanded size.

func (d *Document) resolveName(name string, stack []string, path string) (resolved, bool, error) {
	if r, ok := d.cache[name]; ok {
		return r, false, nil
	}
	r, cut, err := d.resolve(d.schemas[name], append(stack, name), path)
	if err != nil {
		return resolved{}, false, err
	}
	if !cut {
		d.cache[name] = r
	}
	return r, cut, nil
}

func inStack(stack []string, name string) bool {
	for _, s := range stack {
		if s == name {
			return true
		}
	}
	return false
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

func (d *Document) resolve(p *Props, stack []string, path string) (resolved, bool, error) {
	if p == nil {
		return resolved{}, false, nil
	}
	if len(p.AllOf) == 1 && onlyRef(&p.AllOf[0]) && p.Ref == nil {
		q := *p
		q.Ref, q.AllOf = p.AllOf[0].Ref, nil
		return d.resolveRef(&q, stack, path+".allOf[0]")
	}
	if p.Ref != nil {
		return d.resolveRef(p, stack, path)
	}
	q := *p
	size, cut := 1, false
	var firstErr error
	sub := func(s *Props, at string) *Props {
		if s == nil || firstErr != nil {
			return s
		}
		r, c, err := d.resolve(s, stack, at)
		if err != nil {
			firstErr = err
			return s
		}
		size += r.size
		cut = cut || c
		return r.p
	}
	list := func(l []Props, at string) []Props {
		if l == nil {
			return nil
		}
		out := make([]Props, len(l))
		for i := range l {
			if r := sub(&l[i], fmt.Sprintf("%s[%d]", at, i)); r != nil {
				out[i] = *r
			}
		}
		return out
	}
	dict := func(m map[string]Props, at string) map[string]Props {
		if m == nil {
			return nil
		}
		out := make(map[string]Props, len(m))
		for _, k := range sortedKeys(m) {
			v := m[k]
			if r := sub(&v, fmt.Sprintf("%s[%s]", at, k)); r != nil {
				out[k] = *r
			}
		}
		return out
	}
	if p.Items != nil {
		q.Items = &PropsOrArray{Schema: sub(p.Items.Schema, path+".items"), Schemas: list(p.Items.Schemas, path+".items")}
	}
	q.AllOf, q.OneOf, q.AnyOf = list(p.AllOf, path+".allOf"), list(p.OneOf, path+".oneOf"), list(p.AnyOf, path+".anyOf")
	q.Not = sub(p.Not, path+".not")
	q.Properties = dict(p.Properties, path+".properties")
	q.PatternProperties = dict(p.PatternProperties, path+".patternProperties")
	q.Definitions = dict(p.Definitions, path+".definitions")
	if p.AdditionalProperties != nil {
		q.AdditionalProperties = &PropsOrBool{Allows: p.AdditionalProperties.Allows, Schema: sub(p.AdditionalProperties.Schema, path+".additionalProperties")}
	}
	if p.AdditionalItems != nil {
		q.AdditionalItems = &PropsOrBool{Allows: p.AdditionalItems.Allows, Schema: sub(p.AdditionalItems.Schema, path+".additionalItems")}
	}
	if p.Dependencies != nil {
		q.Dependencies = make(map[string]PropsOrStringList, len(p.Dependencies))
		for _, k := range sortedKeys(p.Dependencies) {
			dep := p.Dependencies[k]
			q.Dependencies[k] = PropsOrStringList{Schema: sub(dep.Schema, fmt.Sprintf("%s.dependencies[%s]", path, k)), Property: dep.Property}
		}
	}
	if firstErr != nil {
		return resolved{}, false, firstErr
	}
	if size > MaxResolvedNodes {
		return resolved{}, false, fmt.Errorf("%s: %s: more than %d schema nodes after resolving references", d.name, path, MaxResolvedNodes)
	}
	intOrString(&q)
	return resolved{p: &q, size: size}, cut, nil
}

// resolveRef resolves a node with a $ref and overlays its other keys.
func (d *Document) resolveRef(p *Props, stack []string, path string) (resolved, bool, error) {
	ref := *p.Ref
	target, ok := strings.CutPrefix(ref, d.prefix)
	if !ok {
		return resolved{}, false, fmt.Errorf("%s: %s.$ref: unsupported reference %q (only %s... within the document)", d.name, path, ref, d.prefix)
	}
	t, ok := d.schemas[target]
	if !ok {
		return resolved{}, false, fmt.Errorf("%s: %s.$ref: reference %q not found", d.name, path, ref)
	}
	siblings := *p
	siblings.Ref = nil
	sib, sibCut, err := d.resolve(&siblings, stack, path)
	if err != nil {
		return resolved{}, false, err
	}
	var base resolved
	cut := sibCut
	if inStack(stack, target) {
		stub := &Props{Description: t.Description, XPreserveUnknownFields: boolPtr(true)}
		if t.Type == "object" || len(t.Properties) > 0 {
			stub.Type = "object"
		}
		base, cut = resolved{p: stub, size: 1}, true
	} else {
		var c bool
		base, c, err = d.resolveName(target, stack, d.schemaPath(target))
		if err != nil {
			return resolved{}, false, err
		}
		cut = cut || c
	}
	out := overlay(base.p, sib.p)
	size := base.size + sib.size
	if size > MaxResolvedNodes {
		return resolved{}, false, fmt.Errorf("%s: %s: more than %d schema nodes after resolving references", d.name, path, MaxResolvedNodes)
	}
	return resolved{p: out, size: size}, cut, nil
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
