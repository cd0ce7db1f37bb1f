package schema

import "encoding/json"

// MarshalJSON encodes the schema object with its Extra keys, keys sorted.
// It builds one generic value for the whole tree and encodes it once, so
// that encoding is linear in the schema size (nested MarshalJSON methods
// would be re-compacted once per ancestor).
func (p Props) MarshalJSON() ([]byte, error) {
	return json.Marshal(p.toValue())
}

// toValue renders p as map[string]any with the omitempty rules of the
// struct tags.
func (p *Props) toValue() map[string]any {
	m := make(map[string]any, 8+len(p.Extra))
	for k, v := range p.Extra {
		if !propsKnownKeys[k] {
			m[k] = v
		}
	}
	setS := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	setB := func(k string, v bool) {
		if v {
			m[k] = true
		}
	}
	setS("id", p.ID)
	setS("$schema", p.Schema)
	if p.Ref != nil {
		m["$ref"] = *p.Ref
	}
	setS("description", p.Description)
	setS("type", p.Type)
	setS("format", p.Format)
	setS("title", p.Title)
	if p.Default != nil {
		m["default"] = p.Default.Object
	}
	for k, v := range map[string]*float64{"maximum": p.Maximum, "minimum": p.Minimum, "multipleOf": p.MultipleOf} {
		if v != nil {
			m[k] = *v
		}
	}
	for k, v := range map[string]*int64{"maxLength": p.MaxLength, "minLength": p.MinLength, "maxItems": p.MaxItems,
		"minItems": p.MinItems, "maxProperties": p.MaxProperties, "minProperties": p.MinProperties} {
		if v != nil {
			m[k] = *v
		}
	}
	setB("exclusiveMaximum", p.ExclusiveMaximum)
	setB("exclusiveMinimum", p.ExclusiveMinimum)
	setS("pattern", p.Pattern)
	setB("uniqueItems", p.UniqueItems)
	if len(p.Enum) > 0 {
		l := make([]any, len(p.Enum))
		for i := range p.Enum {
			l[i] = p.Enum[i].Object
		}
		m["enum"] = l
	}
	if len(p.Required) > 0 {
		m["required"] = p.Required
	}
	if p.Items != nil {
		if p.Items.Schemas != nil {
			m["items"] = propsListValue(p.Items.Schemas)
		} else if p.Items.Schema != nil {
			m["items"] = p.Items.Schema.toValue()
		} else {
			m["items"] = nil
		}
	}
	for k, l := range map[string][]Props{"allOf": p.AllOf, "oneOf": p.OneOf, "anyOf": p.AnyOf} {
		if len(l) > 0 {
			m[k] = propsListValue(l)
		}
	}
	if p.Not != nil {
		m["not"] = p.Not.toValue()
	}
	for k, d := range map[string]map[string]Props{"properties": p.Properties, "patternProperties": p.PatternProperties, "definitions": p.Definitions} {
		if len(d) > 0 {
			mm := make(map[string]any, len(d))
			for name, v := range d {
				mm[name] = v.toValue()
			}
			m[k] = mm
		}
	}
	for k, b := range map[string]*PropsOrBool{"additionalProperties": p.AdditionalProperties, "additionalItems": p.AdditionalItems} {
		if b != nil {
			if b.Schema != nil {
				m[k] = b.Schema.toValue()
			} else {
				m[k] = b.Allows
			}
		}
	}
	if len(p.Dependencies) > 0 {
		mm := make(map[string]any, len(p.Dependencies))
		for k, d := range p.Dependencies {
			if d.Schema != nil {
				mm[k] = d.Schema.toValue()
			} else {
				mm[k] = d.Property
			}
		}
		m["dependencies"] = mm
	}
	if p.ExternalDocs != nil {
		m["externalDocs"] = p.ExternalDocs
	}
	if p.Example != nil {
		m["example"] = p.Example.Object
	}
	setB("nullable", p.Nullable)
	if p.XPreserveUnknownFields != nil {
		m["x-kubernetes-preserve-unknown-fields"] = *p.XPreserveUnknownFields
	}
	setB("x-kubernetes-embedded-resource", p.XEmbeddedResource)
	setB("x-kubernetes-int-or-string", p.XIntOrString)
	if len(p.XListMapKeys) > 0 {
		m["x-kubernetes-list-map-keys"] = p.XListMapKeys
	}
	if p.XListType != nil {
		m["x-kubernetes-list-type"] = *p.XListType
	}
	if p.XMapType != nil {
		m["x-kubernetes-map-type"] = *p.XMapType
	}
	if len(p.XValidations) > 0 {
		m["x-kubernetes-validations"] = p.XValidations
	}
	if len(p.XAPILifecycle) > 0 {
		m["x-kubernetes-api-lifecycle"] = p.XAPILifecycle
	}
	if len(p.XUnions) > 0 {
		m["x-kubernetes-unions"] = p.XUnions
	}
	if len(p.XValidationErrors) > 0 {
		m["x-kubernetes-validation-errors"] = p.XValidationErrors
	}
	setB("x-kubernetes-strip-zero", p.XStripZero)
	if p.XListUnique != nil {
		m["x-kubernetes-list-unique"] = *p.XListUnique
	}
	if p.XUniqueKey != "" {
		m["x-kubernetes-unique-key"] = p.XUniqueKey
	}
	return m
}

func propsListValue(l []Props) []any {
	out := make([]any, len(l))
	for i := range l {
		out[i] = l[i].toValue()
	}
	return out
}
