package schema

// DeepCopy returns an independent copy of p, including Extra.
func (p *Props) DeepCopy() *Props {
	if p == nil {
		return nil
	}
	q := *p
	q.Ref = copyStr(p.Ref)
	if p.Default != nil {
		q.Default = &JSON{Object: copyJSON(p.Default.Object)}
	}
	if p.Example != nil {
		q.Example = &JSON{Object: copyJSON(p.Example.Object)}
	}
	q.Maximum, q.Minimum, q.MultipleOf = copyF(p.Maximum), copyF(p.Minimum), copyF(p.MultipleOf)
	q.MaxLength, q.MinLength, q.MaxItems = copyI(p.MaxLength), copyI(p.MinLength), copyI(p.MaxItems)
	q.MinItems, q.MaxProperties, q.MinProperties = copyI(p.MinItems), copyI(p.MaxProperties), copyI(p.MinProperties)
	if p.Enum != nil {
		q.Enum = make([]JSON, len(p.Enum))
		for i := range p.Enum {
			q.Enum[i] = JSON{Object: copyJSON(p.Enum[i].Object)}
		}
	}
	q.Required = copyStrings(p.Required)
	if p.Items != nil {
		q.Items = &PropsOrArray{Schema: p.Items.Schema.DeepCopy(), Schemas: copyPropsList(p.Items.Schemas)}
	}
	q.AllOf, q.OneOf, q.AnyOf = copyPropsList(p.AllOf), copyPropsList(p.OneOf), copyPropsList(p.AnyOf)
	q.Not = p.Not.DeepCopy()
	q.Properties, q.PatternProperties, q.Definitions = copyPropsMap(p.Properties), copyPropsMap(p.PatternProperties), copyPropsMap(p.Definitions)
	if p.AdditionalProperties != nil {
		q.AdditionalProperties = &PropsOrBool{Allows: p.AdditionalProperties.Allows, Schema: p.AdditionalProperties.Schema.DeepCopy()}
	}
	if p.AdditionalItems != nil {
		q.AdditionalItems = &PropsOrBool{Allows: p.AdditionalItems.Allows, Schema: p.AdditionalItems.Schema.DeepCopy()}
	}
	if p.Dependencies != nil {
		q.Dependencies = make(map[string]PropsOrStringList, len(p.Dependencies))
		for k, d := range p.Dependencies {
			q.Dependencies[k] = PropsOrStringList{Schema: d.Schema.DeepCopy(), Property: copyStrings(d.Property)}
		}
	}
	if p.ExternalDocs != nil {
		d := *p.ExternalDocs
		q.ExternalDocs = &d
	}
	if p.XPreserveUnknownFields != nil {
		b := *p.XPreserveUnknownFields
		q.XPreserveUnknownFields = &b
	}
	q.XListMapKeys, q.XListType, q.XMapType = copyStrings(p.XListMapKeys), copyStr(p.XListType), copyStr(p.XMapType)
	q.XValidations = copyRules(p.XValidations)
	x := Extensions{XAPILifecycle: p.XAPILifecycle, XUnions: p.XUnions, XValidationErrors: p.XValidationErrors}.deepCopy()
	q.XAPILifecycle, q.XUnions, q.XValidationErrors = x.XAPILifecycle, x.XUnions, x.XValidationErrors
	if p.Extra != nil {
		q.Extra = copyJSON(p.Extra).(map[string]any)
	}
	return &q
}

func copyPropsList(l []Props) []Props {
	if l == nil {
		return nil
	}
	out := make([]Props, len(l))
	for i := range l {
		out[i] = *l[i].DeepCopy()
	}
	return out
}

func copyPropsMap(m map[string]Props) map[string]Props {
	if m == nil {
		return nil
	}
	out := make(map[string]Props, len(m))
	for k, v := range m {
		out[k] = *v.DeepCopy()
	}
	return out
}

// apiserverView returns a copy of p as the apiserver decodes it: without the
// keys apiextensions.k8s.io/v1 JSONSchemaProps does not have (kdv's own
// extensions and everything in Extra), which its decoder drops.
func apiserverView(p *Props) *Props {
	if p == nil {
		return nil
	}
	c := p.DeepCopy()
	walkProps(c, func(s *Props) {
		s.XAPILifecycle, s.XUnions, s.XValidationErrors, s.XStripZero, s.XListUnique, s.XUniqueKey, s.Extra = nil, nil, nil, false, nil, "", nil
		for i := range s.XValidations {
			s.XValidations[i].Diff = nil // a copy (DeepCopy)
		}
	})
	return c
}

// walkProps calls f on p and every schema below it, in every keyword that
// holds schemas, in the order of the apiserver's SchemaHas (map keys sorted).
func walkProps(p *Props, f func(*Props)) {
	if p == nil {
		return
	}
	f(p)
	if p.Items != nil {
		walkProps(p.Items.Schema, f)
		for i := range p.Items.Schemas {
			walkProps(&p.Items.Schemas[i], f)
		}
	}
	for _, list := range [][]Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range list {
			walkProps(&list[i], f)
		}
	}
	walkProps(p.Not, f)
	walkMap := func(m map[string]Props) {
		for _, k := range sortedKeys(m) {
			v := m[k]
			walkProps(&v, f)
			m[k] = v
		}
	}
	walkMap(p.Properties)
	if p.AdditionalProperties != nil {
		walkProps(p.AdditionalProperties.Schema, f)
	}
	walkMap(p.PatternProperties)
	if p.AdditionalItems != nil {
		walkProps(p.AdditionalItems.Schema, f)
	}
	walkMap(p.Definitions)
	for _, k := range sortedKeys(p.Dependencies) {
		walkProps(p.Dependencies[k].Schema, f)
	}
}

// schemaHas reports whether pred holds for p or any schema below it
// (apiextensions validation SchemaHas).
func schemaHas(p *Props, pred func(*Props) bool) bool {
	found := false
	walkProps(p, func(s *Props) {
		if !found && pred(s) {
			found = true
		}
	})
	return found
}
