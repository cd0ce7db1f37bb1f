package builtin

import (
	"encoding/json"
	"strings"

	"kdv.dev/builtin/internal/datafile"

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
	w, ok := walkSteps(minor, gvk, steps)
	if !ok {
		return ""
	}
	return w.def
}

// GoType returns the Go type that the apiserver's JSON decoder names in
// its errors for the value reached from the kind gvk by steps
// (reflect.Type.String with pointers removed: "int32", "v1.PullPolicy",
// "[]v1.Container", "v1.ResourceList"), and, when the last step is a
// property, the embedded structs (json:",inline") the property is promoted
// through, which the decoder writes into its field path ("VolumeSource" in
// "Volume.spec.volumes.VolumeSource.configMap"). ok is false where the data
// does not say (steps that lead nowhere, items of items). Like
// DefinitionAt it is meant for error paths.
func GoType(minor int, gvk schema.GroupVersionKind, steps []string) (typ string, embedded []string, ok bool) {
	w, ok := walkSteps(minor, gvk, steps)
	if !ok || w.structDef == "" {
		return "", nil, false
	}
	v, _ := get(minor)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.goFields == nil {
		v.goFields = map[string]map[string]datafile.GoField{}
		if len(v.goFieldsRaw) > 0 {
			if err := json.Unmarshal(v.goFieldsRaw, &v.goFields); err != nil {
				return "", nil, false
			}
		}
	}
	f, ok := v.goFields[w.structDef][w.prop]
	switch {
	case !ok:
		return "", nil, false
	case w.below == 0:
		return f.Type, f.Embedded, true
	case w.below == 1 && f.Elem != "":
		return f.Elem, nil, true
	}
	return "", nil, false
}

// walked is where steps lead: the definition of the node reached (def, ""
// for inline nodes), the struct definition and property of the last
// property step, and how many item or value steps follow it.
type walked struct {
	def, structDef, prop string
	below                int
}

func walkSteps(minor int, gvk schema.GroupVersionKind, steps []string) (walked, bool) {
	var w walked
	v, err := get(minor)
	if err != nil {
		return w, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	k, ok := v.byGVK[gvk]
	if !ok {
		return w, false
	}
	w.def = k.Definition
	node, err := v.defLocked(w.def)
	if err != nil {
		return w, false
	}
	structDef := w.def
	for _, st := range steps {
		if node == nil {
			return w, false
		}
		var next *schema.Props
		switch st {
		case Items:
			if node.Items != nil {
				next = node.Items.Schema
			}
			w.below++
		case Values:
			if node.AdditionalProperties != nil {
				next = node.AdditionalProperties.Schema
			}
			w.below++
		default:
			if p, ok := node.Properties[st]; ok {
				next = &p
			}
			w.structDef, w.prop, w.below = structDef, st, 0
		}
		if next == nil {
			return w, false
		}
		w.def = refOf(next)
		if w.def != "" {
			if next, err = v.defLocked(w.def); err != nil {
				return w, false
			}
			structDef = w.def
		} else {
			structDef = ""
		}
		node = next
	}
	return w, true
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
