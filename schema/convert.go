package schema

import (
	"errors"
	"fmt"
	"strings"
)

// NewStructural converts a schema object into the structural model. It fails
// on keywords a structural schema cannot hold (id, $schema, $ref,
// patternProperties, dependencies, additionalItems, definitions, tuple
// items, x-kubernetes-preserve-unknown-fields: false), with the apiserver's
// messages. Everything else converts, including non-structural shapes such
// as types inside junctors; Check reports those. It mirrors the apiserver's
// schema.NewStructural (pkg/apiserver/schema/convert.go).
func NewStructural(s *Props) (*Structural, error) {
	if s == nil {
		return nil, nil
	}
	if err := unsupported(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	ss := &Structural{
		Generic:              newGeneric(s),
		Extensions:           *x,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
		ValueValidation:      vv,
	}
	if s.Items != nil {
		if len(s.Items.Schemas) > 0 {
			return nil, errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if ss.Items, err = NewStructural(s.Items.Schema); err != nil {
			return nil, err
		}
	}
	if len(s.Properties) > 0 {
		ss.Properties = make(map[string]Structural, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			fld, err := NewStructural(&p)
			if err != nil {
				return nil, err
			}
			ss.Properties[k] = *fld
		}
	}
	if s.AdditionalProperties != nil {
		if s.AdditionalProperties.Schema != nil {
			ap, err := NewStructural(s.AdditionalProperties.Schema)
			if err != nil {
				return nil, err
			}
			ss.AdditionalProperties = &StructuralOrBool{Structural: ap, Bool: true}
		} else {
			ss.AdditionalProperties = &StructuralOrBool{Bool: s.AdditionalProperties.Allows}
		}
	}
	return ss, nil
}

func newGeneric(s *Props) Generic {
	g := Generic{Type: s.Type, Description: s.Description, Title: s.Title, Nullable: s.Nullable}
	if s.Default != nil {
		g.Default = *s.Default
	}
	if s.ExternalDocs != nil {
		d := *s.ExternalDocs
		g.ExternalDocs = &d
	}
	if s.Example != nil {
		g.Example = *s.Example
	}
	return g
}

func newValueValidation(s *Props) (*ValueValidation, error) {
	not, err := newNested(s.Not)
	if err != nil {
		return nil, err
	}
	v := &ValueValidation{
		Format: s.Format, Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum,
		Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength: s.MaxLength, MinLength: s.MinLength, Pattern: s.Pattern,
		MaxItems: s.MaxItems, MinItems: s.MinItems, UniqueItems: s.UniqueItems,
		MultipleOf: s.MultipleOf, Enum: s.Enum, MaxProperties: s.MaxProperties,
		MinProperties: s.MinProperties, Required: s.Required, Not: not,
	}
	for _, junctor := range []struct {
		in  []Props
		out *[]NestedValueValidation
	}{{s.AllOf, &v.AllOf}, {s.AnyOf, &v.AnyOf}, {s.OneOf, &v.OneOf}} {
		for i := range junctor.in {
			clause, err := newNested(&junctor.in[i])
			if err != nil {
				return nil, err
			}
			*junctor.out = append(*junctor.out, *clause)
		}
	}
	return v, nil
}

func newNested(s *Props) (*NestedValueValidation, error) {
	if s == nil {
		return nil, nil
	}
	if err := unsupported(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	v := &NestedValueValidation{
		ValueValidation:      *vv,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
		ForbiddenGenerics:    newGeneric(s),
		ForbiddenExtensions:  *x,
	}
	if s.Items != nil {
		if len(s.Items.Schemas) > 0 {
			return nil, errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if v.Items, err = newNested(s.Items.Schema); err != nil {
			return nil, err
		}
	}
	if s.Properties != nil {
		v.Properties = make(map[string]NestedValueValidation, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			n, err := newNested(&p)
			if err != nil {
				return nil, err
			}
			v.Properties[k] = *n
		}
	}
	if s.AdditionalProperties != nil {
		if s.AdditionalProperties.Schema != nil {
			if v.AdditionalProperties, err = newNested(s.AdditionalProperties.Schema); err != nil {
				return nil, err
			}
		} else if s.AdditionalProperties.Allows {
			v.AdditionalProperties = &NestedValueValidation{}
		}
	}
	return v, nil
}

func newExtensions(s *Props) (*Extensions, error) {
	x := &Extensions{
		XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString:      s.XIntOrString,
		XListMapKeys:      s.XListMapKeys,
		XListType:         s.XListType,
		XMapType:          s.XMapType,
		XAPILifecycle:     s.XAPILifecycle,
		XUnions:           s.XUnions,
		XValidationErrors: s.XValidationErrors,
		XStripZero:        s.XStripZero,
		XListUnique:       s.XListUnique,
		XUniqueKey:        s.XUniqueKey,
	}
	if s.XPreserveUnknownFields != nil {
		if !*s.XPreserveUnknownFields {
			return nil, errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
		}
		x.XPreserveUnknownFields = true
	}
	for k, v := range s.Extra {
		if strings.HasPrefix(k, "x-") {
			if x.XOther == nil {
				x.XOther = map[string]any{}
			}
			x.XOther[k] = v
		}
	}
	return x, nil
}

func unsupported(s *Props) error {
	switch {
	case s.ID != "":
		return errors.New("OpenAPIV3Schema 'id' is not supported")
	case s.Schema != "":
		return errors.New("OpenAPIV3Schema 'schema' is not supported")
	case s.Ref != nil && *s.Ref != "":
		return errors.New("OpenAPIV3Schema '$ref' is not supported")
	case len(s.PatternProperties) > 0:
		return errors.New("OpenAPIV3Schema 'patternProperties' is not supported")
	case len(s.Dependencies) > 0:
		return errors.New("OpenAPIV3Schema 'dependencies' is not supported")
	case s.AdditionalItems != nil:
		return errors.New("OpenAPIV3Schema 'additionalItems' is not supported")
	case len(s.Definitions) > 0:
		return errors.New("OpenAPIV3Schema 'definitions' is not supported")
	}
	return nil
}

// ToProps converts a structural schema back into a schema object, the
// inverse of NewStructural, for publishing and round trips.
func (s *Structural) ToProps() *Props {
	if s == nil {
		return nil
	}
	p := &Props{}
	setGeneric(p, &s.Generic)
	setExtensions(p, &s.Extensions)
	p.XValidations = s.XValidations
	if s.ValueValidation != nil {
		setValueValidation(p, s.ValueValidation)
	}
	if s.Items != nil {
		p.Items = &PropsOrArray{Schema: s.Items.ToProps()}
	}
	if s.Properties != nil {
		p.Properties = make(map[string]Props, len(s.Properties))
		for k, v := range s.Properties {
			p.Properties[k] = *v.ToProps()
		}
	}
	if s.AdditionalProperties != nil {
		p.AdditionalProperties = &PropsOrBool{Allows: s.AdditionalProperties.Bool, Schema: s.AdditionalProperties.Structural.ToProps()}
	}
	return p
}

// ToProps converts a nested value validation back into a schema object.
func (n *NestedValueValidation) ToProps() *Props {
	if n == nil {
		return nil
	}
	p := &Props{}
	setGeneric(p, &n.ForbiddenGenerics)
	setExtensions(p, &n.ForbiddenExtensions)
	p.XValidations = n.XValidations
	setValueValidation(p, &n.ValueValidation)
	if n.Items != nil {
		p.Items = &PropsOrArray{Schema: n.Items.ToProps()}
	}
	if n.Properties != nil {
		p.Properties = make(map[string]Props, len(n.Properties))
		for k, v := range n.Properties {
			p.Properties[k] = *v.ToProps()
		}
	}
	if n.AdditionalProperties != nil {
		p.AdditionalProperties = &PropsOrBool{Allows: true, Schema: n.AdditionalProperties.ToProps()}
	}
	return p
}

func setGeneric(p *Props, g *Generic) {
	p.Type, p.Description, p.Title, p.Nullable = g.Type, g.Description, g.Title, g.Nullable
	p.ExternalDocs = g.ExternalDocs
	if g.Default.Object != nil {
		d := g.Default
		p.Default = &d
	}
	if g.Example.Object != nil {
		e := g.Example
		p.Example = &e
	}
}

func setExtensions(p *Props, x *Extensions) {
	if x.XPreserveUnknownFields {
		t := true
		p.XPreserveUnknownFields = &t
	}
	p.XEmbeddedResource, p.XIntOrString = x.XEmbeddedResource, x.XIntOrString
	p.XListMapKeys, p.XListType, p.XMapType = x.XListMapKeys, x.XListType, x.XMapType
	p.XAPILifecycle, p.XUnions, p.XValidationErrors, p.XStripZero = x.XAPILifecycle, x.XUnions, x.XValidationErrors, x.XStripZero
	p.XListUnique, p.XUniqueKey = x.XListUnique, x.XUniqueKey
	if len(x.XOther) > 0 {
		p.Extra = make(map[string]any, len(x.XOther))
		for k, v := range x.XOther {
			p.Extra[k] = v
		}
	}
}

func setValueValidation(p *Props, v *ValueValidation) {
	p.Format, p.Maximum, p.ExclusiveMaximum = v.Format, v.Maximum, v.ExclusiveMaximum
	p.Minimum, p.ExclusiveMinimum = v.Minimum, v.ExclusiveMinimum
	p.MaxLength, p.MinLength, p.Pattern = v.MaxLength, v.MinLength, v.Pattern
	p.MaxItems, p.MinItems, p.UniqueItems = v.MaxItems, v.MinItems, v.UniqueItems
	p.MultipleOf, p.Enum, p.MaxProperties, p.MinProperties = v.MultipleOf, v.Enum, v.MaxProperties, v.MinProperties
	p.Required = v.Required
	for _, j := range []struct {
		in  []NestedValueValidation
		out *[]Props
	}{{v.AllOf, &p.AllOf}, {v.AnyOf, &p.AnyOf}, {v.OneOf, &p.OneOf}} {
		for i := range j.in {
			*j.out = append(*j.out, *j.in[i].ToProps())
		}
	}
	p.Not = v.Not.ToProps()
}

// String describes a structural node briefly, for error messages.
func (s *Structural) String() string {
	if s == nil {
		return "<nil>"
	}
	return fmt.Sprintf("structural(type=%q)", s.Type)
}
