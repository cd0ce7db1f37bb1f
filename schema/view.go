package schema

import (
	"encoding/json"
	"fmt"
)

// DeepCopy returns an independent copy of p, including Extra.
func (p *Props) DeepCopy() *Props {
	if p == nil {
		return nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		// Props built from JSON always marshals; a Props built in Go with an
		// unmarshalable Extra value is a programming error.
		panic(fmt.Sprintf("schema: cannot copy Props: %v", err))
	}
	out := &Props{}
	if err := json.Unmarshal(b, out); err != nil {
		panic(fmt.Sprintf("schema: cannot copy Props: %v", err))
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
		s.XAPILifecycle, s.XUnions, s.XValidationErrors, s.XStripZero, s.Extra = nil, nil, nil, false, nil
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
