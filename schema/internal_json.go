package schema

// internalProps mirrors the field order of the apiserver's internal
// apiextensions.JSONSchemaProps, which has no JSON tags: the apiserver's
// field errors render schema values as its JSON encoding, so kdv renders
// them the same way.
type internalProps struct {
	ID                     string
	Schema                 string
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *any
	Maximum                *float64
	ExclusiveMaximum       bool
	Minimum                *float64
	ExclusiveMinimum       bool
	MaxLength              *int64
	MinLength              *int64
	Pattern                string
	MaxItems               *int64
	MinItems               *int64
	UniqueItems            bool
	MultipleOf             *float64
	Enum                   []any
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *internalPropsOrArray
	AllOf                  []internalProps
	OneOf                  []internalProps
	AnyOf                  []internalProps
	Not                    *internalProps
	Properties             map[string]internalProps
	AdditionalProperties   *internalPropsOrBool
	PatternProperties      map[string]internalProps
	Dependencies           map[string]internalPropsOrStringArray
	AdditionalItems        *internalPropsOrBool
	Definitions            map[string]internalProps
	ExternalDocs           *internalExternalDocs
	Example                *any
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           []internalRule
}

type internalPropsOrArray struct {
	Schema      *internalProps
	JSONSchemas []internalProps
}

type internalPropsOrBool struct {
	Allows bool
	Schema *internalProps
}

type internalPropsOrStringArray struct {
	Schema   *internalProps
	Property []string
}

type internalExternalDocs struct {
	Description string
	URL         string
}

type internalRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

func toInternalList(l []Props) []internalProps {
	if l == nil {
		return nil
	}
	out := make([]internalProps, len(l))
	for i := range l {
		out[i] = *toInternal(&l[i])
	}
	return out
}

func toInternalMap(m map[string]Props) map[string]internalProps {
	if m == nil {
		return nil
	}
	out := make(map[string]internalProps, len(m))
	for k, v := range m {
		out[k] = *toInternal(&v)
	}
	return out
}

func toInternalOrBool(b *PropsOrBool) *internalPropsOrBool {
	if b == nil {
		return nil
	}
	return &internalPropsOrBool{Allows: b.Allows, Schema: toInternal(b.Schema)}
}

// toInternal converts p to the internal shape for rendering.
func toInternal(p *Props) *internalProps {
	if p == nil {
		return nil
	}
	q := &internalProps{
		ID: p.ID, Schema: p.Schema, Ref: p.Ref, Description: p.Description, Type: p.Type, Nullable: p.Nullable,
		Format: p.Format, Title: p.Title, Maximum: p.Maximum, ExclusiveMaximum: p.ExclusiveMaximum,
		Minimum: p.Minimum, ExclusiveMinimum: p.ExclusiveMinimum, MaxLength: p.MaxLength, MinLength: p.MinLength,
		Pattern: p.Pattern, MaxItems: p.MaxItems, MinItems: p.MinItems, UniqueItems: p.UniqueItems,
		MultipleOf: p.MultipleOf, MaxProperties: p.MaxProperties, MinProperties: p.MinProperties,
		Required: p.Required, AllOf: toInternalList(p.AllOf), OneOf: toInternalList(p.OneOf),
		AnyOf: toInternalList(p.AnyOf), Not: toInternal(p.Not), Properties: toInternalMap(p.Properties),
		AdditionalProperties: toInternalOrBool(p.AdditionalProperties), PatternProperties: toInternalMap(p.PatternProperties),
		AdditionalItems: toInternalOrBool(p.AdditionalItems), Definitions: toInternalMap(p.Definitions),
		XPreserveUnknownFields: p.XPreserveUnknownFields, XEmbeddedResource: p.XEmbeddedResource,
		XIntOrString: p.XIntOrString, XListMapKeys: p.XListMapKeys, XListType: p.XListType, XMapType: p.XMapType,
	}
	if p.Default != nil {
		v := p.Default.Object
		q.Default = &v
	}
	if p.Example != nil {
		v := p.Example.Object
		q.Example = &v
	}
	if p.Enum != nil {
		q.Enum = make([]any, len(p.Enum))
		for i := range p.Enum {
			q.Enum[i] = p.Enum[i].Object
		}
	}
	if p.Items != nil {
		q.Items = &internalPropsOrArray{Schema: toInternal(p.Items.Schema), JSONSchemas: toInternalList(p.Items.Schemas)}
	}
	if p.Dependencies != nil {
		q.Dependencies = map[string]internalPropsOrStringArray{}
		for k, v := range p.Dependencies {
			q.Dependencies[k] = internalPropsOrStringArray{Schema: toInternal(v.Schema), Property: v.Property}
		}
	}
	if p.ExternalDocs != nil {
		q.ExternalDocs = &internalExternalDocs{Description: p.ExternalDocs.Description, URL: p.ExternalDocs.URL}
	}
	for _, r := range p.XValidations {
		q.XValidations = append(q.XValidations, internalRule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, Reason: r.Reason, FieldPath: r.FieldPath, OptionalOldSelf: r.OptionalOldSelf})
	}
	return q
}
