package openapi

import (
	"fmt"
	"regexp"
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
//     integer/string; Quantity, which the apiserver accepts as a string or
//     any JSON number such as 0.5 (OpenAPIV3OneOfTypes string, number), has
//     no structural type that says so: it becomes an untyped
//     x-kubernetes-preserve-unknown-fields node with the apiserver's
//     quantity pattern (checked on strings);
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
	return resolve(schemas, name, false)
}

func resolve(schemas map[string]*schema.Props, name string, crd bool) (*schema.Props, error) {
	r := &resolver{schemas: schemas, onPath: map[string]int{}, crd: crd}
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

// quantityPattern is the regular expression resource.ParseQuantity
// requires of strings ("quantities must match the regular expression ...",
// k8s.io/apimachinery/pkg/api/resource splitREString).
const quantityPattern = `^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`

// crdQuantityPattern is the pattern controller-gen writes for
// resource.Quantity in CRDs.
const crdQuantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

// MaxRecursion is how many times a definition may appear on one path of
// a resolved schema.
const MaxRecursion = 4

type resolver struct {
	schemas map[string]*schema.Props
	onPath  map[string]int
	// crd selects controller-gen's form of Quantity for CRDs.
	crd bool
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
	case strings.HasSuffix(name, ".api.resource.Quantity") && r.crd:
		// controller-gen's Quantity schema
		return &schema.Props{Description: d.Description, XIntOrString: true, Pattern: crdQuantityPattern,
			AnyOf: []schema.Props{{Type: "integer"}, {Type: "string"}}}, nil
	case strings.HasSuffix(name, ".api.resource.Quantity"):
		t := true
		return &schema.Props{Description: d.Description, XPreserveUnknownFields: &t, Pattern: quantityPattern}, nil
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
		d, err := r.def(strings.TrimPrefix(ref, RefPrefix))
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
	dropUntypedRefs(p)
	return nil
}

// dropUntypedRefs removes the rules of an object that name a property
// without a type (a Quantity in the built-in form): CEL declares no field
// for untyped nodes (apiserver cel/common.SchemaDeclType), so such a rule
// could not compile. Only k8s.io/api alpha rules are affected.
func dropUntypedRefs(p *schema.Props) {
	if len(p.XValidations) == 0 {
		return
	}
	var untyped []string
	for k, v := range p.Properties {
		if v.Type == "" && !v.XIntOrString && v.XPreserveUnknownFields != nil && *v.XPreserveUnknownFields {
			untyped = append(untyped, regexp.QuoteMeta(k))
		}
	}
	if len(untyped) == 0 {
		return
	}
	re := regexp.MustCompile(`self\.(` + strings.Join(untyped, "|") + `)\b`)
	var kept []schema.ValidationRule
	for _, r := range p.XValidations {
		if !re.MatchString(r.Rule) && !re.MatchString(r.MessageExpression) {
			kept = append(kept, r)
		}
	}
	p.XValidations = kept
	if len(kept) == 0 {
		p.XValidations = nil
	}
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
