package schema

import "sort"

// visit calls f on s and every Structural node below it (items, properties,
// additionalProperties), parents first; it does not enter junctors. It
// mirrors the apiserver's schema.Visitor with only a Structural callback.
func visit(s *Structural, f func(*Structural)) {
	if s == nil {
		return
	}
	f(s)
	visit(s.Items, f)
	for k, v := range s.Properties {
		visit(&v, f)
		s.Properties[k] = v
	}
	if s.AdditionalProperties != nil {
		visit(s.AdditionalProperties.Structural, f)
	}
}

// Skeleton returns the structural skeleton of s (the pruning KEP's skel):
// a copy without value validations and junctors, where properties, items and
// additionalProperties that only appear inside junctors are merged into the
// spine (for a schema that passes ValidateStructural nothing needs merging,
// as completeness forbids such properties). Types, extensions and
// x-kubernetes-validations stay. It extends the apiserver's
// Structural.StripValueValidations (pkg/apiserver/schema/skeleton.go).
func Skeleton(s *Structural) *Structural {
	s = s.DeepCopy()
	visit(s, func(n *Structural) {
		if n.ValueValidation != nil {
			mergeJunctors(n, n.ValueValidation)
			n.ValueValidation = nil
		}
	})
	return s
}

// mergeJunctors adds to n the properties, items and additionalProperties
// named inside the junctors of v that n lacks.
func mergeJunctors(n *Structural, v *ValueValidation) {
	var all []*NestedValueValidation
	for i := range v.AllOf {
		all = append(all, &v.AllOf[i])
	}
	for i := range v.AnyOf {
		all = append(all, &v.AnyOf[i])
	}
	for i := range v.OneOf {
		all = append(all, &v.OneOf[i])
	}
	if v.Not != nil {
		all = append(all, v.Not)
	}
	for _, j := range all {
		mergeNested(n, j)
	}
}

func mergeNested(n *Structural, j *NestedValueValidation) {
	for _, k := range sortedKeys(j.Properties) {
		jp := j.Properties[k]
		p, ok := n.Properties[k]
		if !ok {
			p = Structural{Generic: Generic{Type: jp.ForbiddenGenerics.Type}}
		}
		mergeNested(&p, &jp)
		if n.Properties == nil {
			n.Properties = map[string]Structural{}
		}
		n.Properties[k] = p
	}
	if j.Items != nil {
		if n.Items == nil {
			n.Items = &Structural{Generic: Generic{Type: j.Items.ForbiddenGenerics.Type}}
		}
		mergeNested(n.Items, j.Items)
	}
	if j.AdditionalProperties != nil && n.AdditionalProperties == nil {
		ap := &Structural{Generic: Generic{Type: j.AdditionalProperties.ForbiddenGenerics.Type}}
		mergeNested(ap, j.AdditionalProperties)
		n.AdditionalProperties = &StructuralOrBool{Bool: true, Structural: ap}
	}
	// Junctors nested in junctors contribute too.
	mergeJunctors(n, &j.ValueValidation)
}

// Descriptions the apiserver gives the properties it adds to embedded
// resources (apiextensions-apiserver controller/openapi/builder
// addEmbeddedProperties and metav1beta1.PartialObjectMetadata).
const (
	embeddedAPIVersionDescription = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDescription       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	embeddedMetadataDescription   = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// Unfold returns a copy of s with its extensions expanded into plain
// OpenAPI, for publishing:
//
//   - x-kubernetes-int-or-string gets anyOf [{type: integer}, {type: string}]
//     (or that anyOf prepended to allOf when anyOf is taken), unless one of
//     the two int-or-string patterns is already there — the apiserver's
//     Structural.Unfold (pkg/apiserver/schema/unfold.go);
//   - x-kubernetes-embedded-resource gets apiVersion, kind (strings) and
//     metadata (object) properties, with apiVersion and kind required — the
//     published form of addEmbeddedProperties (controller/openapi/builder),
//     with metadata as type: object where the apiserver writes a $ref to
//     ObjectMeta, which a structural schema cannot hold;
//   - x-kubernetes-unions (KEP-1027) get, per union, an allOf entry with a
//     oneOf of one branch per member ({required: [member]}, with the
//     discriminator's value when there is a discriminator; plus a branch
//     requiring no member for zeroOrOneOf), and the discriminator property
//     gets the enum of the discriminator values when it has none.
func Unfold(s *Structural) *Structural {
	s = s.DeepCopy()
	visit(s, func(n *Structural) {
		if n.XIntOrString && !isIntOrStringAnyOfPattern(n) && !isIntOrStringAllOfPattern(n) {
			if n.ValueValidation == nil {
				n.ValueValidation = &ValueValidation{}
			}
			intOrStr := []NestedValueValidation{{ForbiddenGenerics: Generic{Type: "integer"}}, {ForbiddenGenerics: Generic{Type: "string"}}}
			if n.ValueValidation.AnyOf == nil {
				n.ValueValidation.AnyOf = intOrStr
			} else {
				n.ValueValidation.AllOf = append([]NestedValueValidation{{ValueValidation: ValueValidation{AnyOf: intOrStr}}}, n.ValueValidation.AllOf...)
			}
		}
		if n.XEmbeddedResource {
			if n.Properties == nil {
				n.Properties = map[string]Structural{}
			}
			n.Properties["apiVersion"] = Structural{Generic: Generic{Type: "string", Description: embeddedAPIVersionDescription}}
			n.Properties["kind"] = Structural{Generic: Generic{Type: "string", Description: embeddedKindDescription}}
			n.Properties["metadata"] = Structural{Generic: Generic{Type: "object", Description: embeddedMetadataDescription}}
			if n.ValueValidation == nil {
				n.ValueValidation = &ValueValidation{}
			}
			for _, r := range []string{"kind", "apiVersion"} {
				if !contains(n.ValueValidation.Required, r) {
					n.ValueValidation.Required = append(n.ValueValidation.Required, r)
				}
			}
		}
		for _, u := range n.XUnions {
			unfoldUnion(n, u)
		}
	})
	return s
}

func unfoldUnion(n *Structural, u Union) {
	if len(u.Fields) == 0 {
		return
	}
	if n.ValueValidation == nil {
		n.ValueValidation = &ValueValidation{}
	}
	members := sortedKeys(u.Fields)
	var branches []NestedValueValidation
	var values []string
	for _, m := range members {
		b := NestedValueValidation{ValueValidation: ValueValidation{Required: []string{m}}}
		if u.Discriminator != "" {
			v := u.Fields[m]
			values = append(values, v)
			b.Properties = map[string]NestedValueValidation{u.Discriminator: {ValueValidation: ValueValidation{Enum: []JSON{{Object: v}}}}}
		}
		branches = append(branches, b)
	}
	if u.ZeroOrOneOf {
		var anyOf []NestedValueValidation
		for _, m := range members {
			anyOf = append(anyOf, NestedValueValidation{ValueValidation: ValueValidation{Required: []string{m}}})
		}
		branches = append(branches, NestedValueValidation{ValueValidation: ValueValidation{Not: &NestedValueValidation{ValueValidation: ValueValidation{AnyOf: anyOf}}}})
	}
	n.ValueValidation.AllOf = append(n.ValueValidation.AllOf, NestedValueValidation{ValueValidation: ValueValidation{OneOf: branches}})
	if d, ok := n.Properties[u.Discriminator]; ok && u.Discriminator != "" {
		if d.ValueValidation == nil {
			d.ValueValidation = &ValueValidation{}
		}
		if len(d.ValueValidation.Enum) == 0 {
			sort.Strings(values)
			for i, v := range values {
				if i == 0 || v != values[i-1] {
					d.ValueValidation.Enum = append(d.ValueValidation.Enum, JSON{Object: v})
				}
			}
		}
		n.Properties[u.Discriminator] = d
	}
}

// ToV2 returns a copy of s filtered for OpenAPI v2 publishing, as the
// apiserver's ToStructuralOpenAPIV2 (pkg/controller/openapi/v2/conversion.go)
// does for kubectl: junctors dropped; nullable nodes lose type, items and
// properties; x-kubernetes-preserve-unknown-fields nodes lose items and
// properties (and type object); arrays without items lose their type;
// nullable properties are no longer required, and nullable
// additionalProperties clear required.
func ToV2(s *Structural) *Structural {
	s = s.DeepCopy()
	visit(s, func(n *Structural) {
		if v := n.ValueValidation; v != nil {
			v.AllOf, v.OneOf, v.AnyOf, v.Not = nil, nil, nil, nil
		}
		if n.Nullable {
			n.Type, n.Nullable, n.Items, n.Properties = "", false, nil, nil
		}
		if n.XPreserveUnknownFields {
			n.Items, n.Properties = nil, nil
		}
		if n.Items == nil && n.Type == "array" {
			n.Type = ""
		}
		if n.XPreserveUnknownFields && n.Type == "object" {
			n.Type = ""
		}
		if n.ValueValidation != nil {
			for f, fs := range n.Properties {
				if fs.Nullable {
					n.ValueValidation.Required = filterOut(n.ValueValidation.Required, f)
				}
			}
			if n.AdditionalProperties != nil && n.AdditionalProperties.Structural != nil && n.AdditionalProperties.Structural.Nullable {
				n.ValueValidation.Required = nil
			}
		}
	})
	return s
}

func filterOut(ss []string, x string) []string {
	var out []string
	changed := false
	for _, s := range ss {
		if s == x {
			changed = true
			continue
		}
		out = append(out, s)
	}
	if !changed {
		return ss
	}
	return out
}
