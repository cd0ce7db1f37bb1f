package openapi

import (
	"fmt"
	"strings"

	"kdv.dev/schema"
)

// Resolve returns definition name from schemas with every $ref inlined, as
// one structural schema (the form a CRD validator needs):
//
//   - {$ref} is replaced by the definition; allOf: [{$ref}] with sibling
//     keywords is merged: the definition, then the siblings on top
//     (description and default of the use site win, rules are appended,
//     sibling properties overlay the definition's);
//   - IntOrString becomes x-kubernetes-int-or-string with anyOf
//     integer/string; Quantity becomes x-kubernetes-int-or-string without
//     anyOf, because the apiserver also accepts JSON numbers such as 0.5 for
//     quantities (OpenAPIV3OneOfTypes string, number) and a structural
//     schema cannot say "string or number";
//   - RawExtension, FieldsV1 and runtime.Unknown (published as a bare
//     object) preserve unknown fields;
//   - a recursive definition (k8s.io/api 1.37 has one: scheduling
//     v1alpha3 CompositePodGroupTemplate) is unrolled MaxRecursion levels
//     deep; below that it becomes an object that preserves unknown fields,
//     and a list of such objects loses its map keys and rules (they would
//     name fields the cut-off schema no longer declares).
//
// x-kubernetes-group-version-kind is kept only at the root.
func Resolve(schemas map[string]*schema.Props, name string) (*schema.Props, error) {
	r := &resolver{schemas: schemas, onPath: map[string]int{}}
	p, err := r.def(name)
	if err != nil {
		return nil, err
	}
	if gvk, ok := schemas[name].Extra["x-kubernetes-group-version-kind"]; ok {
		if p.Extra == nil {
			p.Extra = map[string]any{}
		}
		p.Extra["x-kubernetes-group-version-kind"] = gvk
	}
	return p, nil
}

// MaxRecursion is how many times a definition may appear on one path of
// a resolved schema.
const MaxRecursion = 4

type resolver struct {
	schemas map[string]*schema.Props
	onPath  map[string]int
}

func (r *resolver) def(name string) (*schema.Props, error) {
	d, ok := r.schemas[name]
	if !ok {
		return nil, fmt.Errorf("definition %q not found", name)
	}
	if r.onPath[name] >= MaxRecursion {
		t := true
		return &schema.Props{Type: "object", XPreserveUnknownFields: &t, Description: d.Description}, nil
	}
	switch {
	case strings.HasSuffix(name, ".util.intstr.IntOrString"):
		return &schema.Props{Description: d.Description, XIntOrString: true, AnyOf: []schema.Props{{Type: "integer"}, {Type: "string"}}}, nil
	case strings.HasSuffix(name, ".api.resource.Quantity"):
		return &schema.Props{Description: d.Description, XIntOrString: true}, nil
	case strings.HasSuffix(name, ".pkg.runtime.RawExtension"), strings.HasSuffix(name, ".apis.meta.v1.FieldsV1"), strings.HasSuffix(name, ".pkg.runtime.Unknown"):
		t := true
		return &schema.Props{Description: d.Description, Type: "object", XPreserveUnknownFields: &t}, nil
	}
	r.onPath[name]++
	defer func() { r.onPath[name]-- }()
	p := deepCopy(d)
	delete(p.Extra, "x-kubernetes-group-version-kind")
	if len(p.Extra) == 0 {
		p.Extra = nil
	}
	if err := r.walk(p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// walk resolves references inside p in place.
func (r *resolver) walk(p *schema.Props) error {
	if p.Ref != nil {
		ref := *p.Ref
		d, err := r.def(strings.TrimPrefix(ref, refPrefix))
		if err != nil {
			return err
		}
		siblings := *p
		siblings.Ref = nil
		*p = *d
		merge(p, &siblings)
		return nil // the definition is resolved already
	}
	if len(p.AllOf) == 1 && p.AllOf[0].Ref != nil {
		base := p.AllOf[0]
		if err := r.walk(&base); err != nil {
			return err
		}
		siblings := *p
		siblings.AllOf = nil
		*p = base
		merge(p, &siblings)
		return nil
	}
	if p.Items != nil && p.Items.Schema != nil {
		if err := r.walk(p.Items.Schema); err != nil {
			return err
		}
		if it := p.Items.Schema; it.Type == "object" && it.XPreserveUnknownFields != nil && len(it.Properties) == 0 && len(p.XListMapKeys) > 0 {
			p.XListMapKeys, p.XListType, p.XValidations = nil, nil, nil
		}
	}
	if p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil {
		if err := r.walk(p.AdditionalProperties.Schema); err != nil {
			return err
		}
	}
	for k, v := range p.Properties {
		if err := r.walk(&v); err != nil {
			return fmt.Errorf("properties[%s]: %w", k, err)
		}
		p.Properties[k] = v
	}
	return nil
}

// merge lays the keywords of a use site (over) on a resolved definition.
func merge(p, over *schema.Props) {
	if over.Description != "" {
		p.Description = over.Description
	}
	if over.Default != nil {
		p.Default = over.Default
	}
	if over.Type != "" {
		p.Type = over.Type
	}
	if over.Format != "" {
		p.Format = over.Format
	}
	if over.Pattern != "" {
		p.Pattern = over.Pattern
	}
	for _, x := range []struct{ dst, src **float64 }{{&p.Minimum, &over.Minimum}, {&p.Maximum, &over.Maximum}, {&p.MultipleOf, &over.MultipleOf}} {
		if *x.src != nil {
			*x.dst = *x.src
		}
	}
	for _, x := range []struct{ dst, src **int64 }{{&p.MinLength, &over.MinLength}, {&p.MaxLength, &over.MaxLength}, {&p.MinItems, &over.MinItems}, {&p.MaxItems, &over.MaxItems}, {&p.MinProperties, &over.MinProperties}, {&p.MaxProperties, &over.MaxProperties}} {
		if *x.src != nil {
			*x.dst = *x.src
		}
	}
	p.ExclusiveMinimum = p.ExclusiveMinimum || over.ExclusiveMinimum
	p.ExclusiveMaximum = p.ExclusiveMaximum || over.ExclusiveMaximum
	p.Nullable = p.Nullable || over.Nullable
	if len(over.Enum) > 0 {
		p.Enum = over.Enum
	}
	p.XValidations = append(p.XValidations, over.XValidations...)
	if over.XListType != nil {
		p.XListType = over.XListType
	}
	if len(over.XListMapKeys) > 0 {
		p.XListMapKeys = over.XListMapKeys
	}
	if over.XMapType != nil {
		p.XMapType = over.XMapType
	}
	if over.XPreserveUnknownFields != nil {
		p.XPreserveUnknownFields = over.XPreserveUnknownFields
	}
	p.XEmbeddedResource = p.XEmbeddedResource || over.XEmbeddedResource
	for k, v := range over.XAPILifecycle {
		if p.XAPILifecycle == nil {
			p.XAPILifecycle = map[string]schema.Lifecycle{}
		}
		p.XAPILifecycle[k] = v
	}
	for k, v := range over.Extra {
		if p.Extra == nil {
			p.Extra = map[string]any{}
		}
		p.Extra[k] = v
	}
	for k, v := range over.Properties {
		if p.Properties == nil {
			p.Properties = map[string]schema.Props{}
		}
		base, ok := p.Properties[k]
		if !ok {
			p.Properties[k] = v
			continue
		}
		merge(&base, &v)
		p.Properties[k] = base
	}
}
