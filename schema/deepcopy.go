package schema

// DeepCopy returns an independent copy of s.
func (s *Structural) DeepCopy() *Structural {
	if s == nil {
		return nil
	}
	out := &Structural{
		Items:                s.Items.DeepCopy(),
		Generic:              s.Generic.deepCopy(),
		Extensions:           s.Extensions.deepCopy(),
		ValidationExtensions: ValidationExtensions{XValidations: copyRules(s.XValidations)},
		ValueValidation:      s.ValueValidation.deepCopy(),
	}
	if s.Properties != nil {
		out.Properties = make(map[string]Structural, len(s.Properties))
		for k, v := range s.Properties {
			out.Properties[k] = *v.DeepCopy()
		}
	}
	if s.AdditionalProperties != nil {
		out.AdditionalProperties = &StructuralOrBool{Bool: s.AdditionalProperties.Bool, Structural: s.AdditionalProperties.Structural.DeepCopy()}
	}
	return out
}

func (g Generic) deepCopy() Generic {
	g.Default.Object = copyJSON(g.Default.Object)
	g.Example.Object = copyJSON(g.Example.Object)
	if g.ExternalDocs != nil {
		d := *g.ExternalDocs
		g.ExternalDocs = &d
	}
	return g
}

func (x Extensions) deepCopy() Extensions {
	x.XListMapKeys = copyStrings(x.XListMapKeys)
	x.XListType = copyStr(x.XListType)
	x.XMapType = copyStr(x.XMapType)
	if x.XAPILifecycle != nil {
		m := make(map[string]Lifecycle, len(x.XAPILifecycle))
		for k, v := range x.XAPILifecycle {
			m[k] = v
		}
		x.XAPILifecycle = m
	}
	if x.XUnions != nil {
		u := make([]Union, len(x.XUnions))
		for i, v := range x.XUnions {
			u[i] = v
			if v.Fields != nil {
				u[i].Fields = make(map[string]string, len(v.Fields))
				for k, f := range v.Fields {
					u[i].Fields[k] = f
				}
			}
		}
		x.XUnions = u
	}
	if x.XValidationErrors != nil {
		m := make(map[string]ValidationError, len(x.XValidationErrors))
		for k, v := range x.XValidationErrors {
			m[k] = v
		}
		x.XValidationErrors = m
	}
	if x.XOther != nil {
		x.XOther = copyJSON(x.XOther).(map[string]any)
	}
	return x
}

func (v *ValueValidation) deepCopy() *ValueValidation {
	if v == nil {
		return nil
	}
	out := *v
	out.Maximum, out.Minimum, out.MultipleOf = copyF(v.Maximum), copyF(v.Minimum), copyF(v.MultipleOf)
	out.MaxLength, out.MinLength, out.MaxItems = copyI(v.MaxLength), copyI(v.MinLength), copyI(v.MaxItems)
	out.MinItems, out.MaxProperties, out.MinProperties = copyI(v.MinItems), copyI(v.MaxProperties), copyI(v.MinProperties)
	out.Required = copyStrings(v.Required)
	if v.Enum != nil {
		out.Enum = make([]JSON, len(v.Enum))
		for i := range v.Enum {
			out.Enum[i] = JSON{Object: copyJSON(v.Enum[i].Object)}
		}
	}
	out.AllOf, out.AnyOf, out.OneOf = copyNestedList(v.AllOf), copyNestedList(v.AnyOf), copyNestedList(v.OneOf)
	out.Not = v.Not.DeepCopy()
	return &out
}

// DeepCopy returns an independent copy of n.
func (n *NestedValueValidation) DeepCopy() *NestedValueValidation {
	if n == nil {
		return nil
	}
	out := &NestedValueValidation{
		ValueValidation:      *n.ValueValidation.deepCopy(),
		ValidationExtensions: ValidationExtensions{XValidations: copyRules(n.XValidations)},
		Items:                n.Items.DeepCopy(),
		AdditionalProperties: n.AdditionalProperties.DeepCopy(),
		ForbiddenGenerics:    n.ForbiddenGenerics.deepCopy(),
		ForbiddenExtensions:  n.ForbiddenExtensions.deepCopy(),
	}
	if n.Properties != nil {
		out.Properties = make(map[string]NestedValueValidation, len(n.Properties))
		for k, v := range n.Properties {
			out.Properties[k] = *v.DeepCopy()
		}
	}
	return out
}

func copyNestedList(l []NestedValueValidation) []NestedValueValidation {
	if l == nil {
		return nil
	}
	out := make([]NestedValueValidation, len(l))
	for i := range l {
		out[i] = *l[i].DeepCopy()
	}
	return out
}

func copyRules(r []ValidationRule) []ValidationRule {
	if r == nil {
		return nil
	}
	out := make([]ValidationRule, len(r))
	for i, v := range r {
		out[i] = v
		out[i].Reason = copyStr(v.Reason)
		if v.OptionalOldSelf != nil {
			b := *v.OptionalOldSelf
			out[i].OptionalOldSelf = &b
		}
		if v.Diff != nil {
			out[i].Diff = &RuleDiff{Path: v.Diff.Path, Keep: copyStrings(v.Diff.Keep), Fill: copyStrings(v.Diff.Fill), Only: copyStrings(v.Diff.Only), Since: v.Diff.Since}
		}
	}
	return out
}

func copyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = copyJSON(x)
		}
		return l
	default:
		return v
	}
}

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string{}, s...)
}

func copyStr(s *string) *string {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

func copyF(f *float64) *float64 {
	if f == nil {
		return nil
	}
	c := *f
	return &c
}

func copyI(i *int64) *int64 {
	if i == nil {
		return nil
	}
	c := *i
	return &c
}
