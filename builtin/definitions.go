package builtin

import (
	"strings"

	"kdv.dev/schema"
	"kdv.dev/schema/refs"
)

// Items and Values are the steps of DefinitionAt into an array's items and
// a map's values; every other step is a property name.
const (
	Items  = "[]"
	Values = "{}"
)

// DefinitionAt returns the name of the definition (components.schemas key,
// such as "io.k8s.api.apps.v1.DeploymentSpec") that the schema node reached
// from the kind gvk by steps was published as: a struct or a well-known
// type the generator writes as a $ref. It returns "" for a node written
// inline (strings, numbers, lists and maps) and for steps that lead
// nowhere. Typed decoding of built-in kinds names Go types with it, as the
// apiserver's JSON decoder does in its errors ("Go struct field
// DeploymentSpec.spec.replicas"). It walks the unresolved definitions and
// is meant for error paths, not hot ones.
func DefinitionAt(minor int, gvk schema.GroupVersionKind, steps []string) string {
	v, err := get(minor)
	if err != nil {
		return ""
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	k, ok := v.byGVK[gvk]
	if !ok {
		return ""
	}
	def := k.Definition
	defs, err := v.closureLocked(def)
	if err != nil {
		return ""
	}
	node := defs[def]
	for _, st := range steps {
		if node == nil {
			return ""
		}
		var next *schema.Props
		switch st {
		case Items:
			if node.Items != nil {
				next = node.Items.Schema
			}
		case Values:
			if node.AdditionalProperties != nil {
				next = node.AdditionalProperties.Schema
			}
		default:
			if p, ok := node.Properties[st]; ok {
				next = &p
			}
		}
		if next == nil {
			return ""
		}
		def = refOf(next)
		if def != "" {
			next = defs[def]
		}
		node = next
	}
	return def
}

// refOf returns the definition a use site refers to: {$ref} or
// allOf: [{$ref}] with sibling keywords, as the generator writes them.
func refOf(p *schema.Props) string {
	switch {
	case p.Ref != nil:
		return strings.TrimPrefix(*p.Ref, refs.RefPrefix)
	case len(p.AllOf) == 1 && p.AllOf[0].Ref != nil:
		return strings.TrimPrefix(*p.AllOf[0].Ref, refs.RefPrefix)
	}
	return ""
}
