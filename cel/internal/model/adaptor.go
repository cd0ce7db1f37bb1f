// Package model adapts kdv's schema.Structural to the common.Schema interface
// of k8s.io/apiserver/pkg/cel/common, so that the apiserver's own
// SchemaDeclType, UnstructuredToVal, MakeMapList and CorrelatedObject type
// and convert values exactly as for a CRD. It mirrors
// k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/model (adaptor.go,
// schemas.go).
package model

import (
	"sync/atomic"

	apimachineryvalidation "k8s.io/apimachinery/pkg/util/validation"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"

	"kdv.dev/schema"
)

var (
	_ common.Schema       = (*Structural)(nil)
	_ common.SchemaOrBool = (*StructuralOrBool)(nil)
)

// Structural wraps a *schema.Structural as a common.Schema. It caches the
// adaptors of its children, so a Structural kept across evaluations (as
// the validator keeps its roots) makes value conversion allocation-free for
// the schema side; the apiserver's adaptor rebuilds the property map on
// every field access.
type Structural struct {
	Structural *schema.Structural

	props atomic.Pointer[map[string]common.Schema]
	items atomic.Pointer[Structural]
	addl  atomic.Pointer[StructuralOrBool]
}

// StructuralOrBool wraps additionalProperties as a common.SchemaOrBool.
type StructuralOrBool struct {
	StructuralOrBool *schema.StructuralOrBool

	schema atomic.Pointer[Structural]
}

// Schema returns the additionalProperties schema or nil.
func (sb *StructuralOrBool) Schema() common.Schema {
	if sb.StructuralOrBool.Structural == nil {
		return nil
	}
	if s := sb.schema.Load(); s != nil {
		return s
	}
	s := &Structural{Structural: sb.StructuralOrBool.Structural}
	sb.schema.Store(s)
	return s
}

// Allows reports additionalProperties: true (or a schema).
func (sb *StructuralOrBool) Allows() bool { return sb.StructuralOrBool.Bool }

// Type returns the OpenAPI type.
func (s *Structural) Type() string { return s.Structural.Type }

// Format returns the string format.
func (s *Structural) Format() string {
	if s.Structural.ValueValidation == nil {
		return ""
	}
	return s.Structural.ValueValidation.Format
}

// Pattern returns the pattern.
func (s *Structural) Pattern() string {
	if s.Structural.ValueValidation == nil {
		return ""
	}
	return s.Structural.ValueValidation.Pattern
}

// Items returns the items schema or nil.
func (s *Structural) Items() common.Schema {
	if s.Structural.Items == nil {
		return nil
	}
	if it := s.items.Load(); it != nil {
		return it
	}
	it := &Structural{Structural: s.Structural.Items}
	s.items.Store(it)
	return it
}

// Properties returns the property schemas (copies, as the apiserver's
// adaptor does).
func (s *Structural) Properties() map[string]common.Schema {
	if s.Structural.Properties == nil {
		return nil
	}
	if p := s.props.Load(); p != nil {
		return *p
	}
	res := make(map[string]common.Schema, len(s.Structural.Properties))
	for n, prop := range s.Structural.Properties {
		p := prop
		res[n] = &Structural{Structural: &p}
	}
	s.props.Store(&res)
	return res
}

// AdditionalProperties returns additionalProperties or nil.
func (s *Structural) AdditionalProperties() common.SchemaOrBool {
	if s.Structural.AdditionalProperties == nil {
		return nil
	}
	if a := s.addl.Load(); a != nil {
		return a
	}
	a := &StructuralOrBool{StructuralOrBool: s.Structural.AdditionalProperties}
	s.addl.Store(a)
	return a
}

// Default returns the default value (nil when unset).
func (s *Structural) Default() any { return s.Structural.Default.Object }

func (s *Structural) vv() *schema.ValueValidation {
	if s.Structural.ValueValidation == nil {
		return &schema.ValueValidation{}
	}
	return s.Structural.ValueValidation
}

// Minimum returns minimum.
func (s *Structural) Minimum() *float64 { return s.vv().Minimum }

// IsExclusiveMinimum returns exclusiveMinimum.
func (s *Structural) IsExclusiveMinimum() bool { return s.vv().ExclusiveMinimum }

// Maximum returns maximum.
func (s *Structural) Maximum() *float64 { return s.vv().Maximum }

// IsExclusiveMaximum returns exclusiveMaximum.
func (s *Structural) IsExclusiveMaximum() bool { return s.vv().ExclusiveMaximum }

// MultipleOf returns multipleOf.
func (s *Structural) MultipleOf() *float64 { return s.vv().MultipleOf }

// MinItems returns minItems.
func (s *Structural) MinItems() *int64 { return s.vv().MinItems }

// MaxItems returns maxItems.
func (s *Structural) MaxItems() *int64 { return s.vv().MaxItems }

// MinLength returns minLength.
func (s *Structural) MinLength() *int64 { return s.vv().MinLength }

// MaxLength returns maxLength.
func (s *Structural) MaxLength() *int64 { return s.vv().MaxLength }

// MinProperties returns minProperties.
func (s *Structural) MinProperties() *int64 { return s.vv().MinProperties }

// MaxProperties returns maxProperties.
func (s *Structural) MaxProperties() *int64 { return s.vv().MaxProperties }

// Required returns required.
func (s *Structural) Required() []string { return s.vv().Required }

// UniqueItems is always false: it is forbidden in structural schemas (the
// apiserver's adaptor does the same).
func (s *Structural) UniqueItems() bool { return false }

// Enum returns the enum values.
func (s *Structural) Enum() []any {
	if s.Structural.ValueValidation == nil {
		return nil
	}
	ret := make([]any, 0, len(s.Structural.ValueValidation.Enum))
	for _, e := range s.Structural.ValueValidation.Enum {
		ret = append(ret, e.Object)
	}
	return ret
}

// Nullable returns nullable.
func (s *Structural) Nullable() bool { return s.Structural.Nullable }

// IsXIntOrString returns x-kubernetes-int-or-string.
func (s *Structural) IsXIntOrString() bool { return s.Structural.XIntOrString }

// IsXEmbeddedResource returns x-kubernetes-embedded-resource.
func (s *Structural) IsXEmbeddedResource() bool { return s.Structural.XEmbeddedResource }

// IsXPreserveUnknownFields returns x-kubernetes-preserve-unknown-fields.
func (s *Structural) IsXPreserveUnknownFields() bool { return s.Structural.XPreserveUnknownFields }

// XListType returns x-kubernetes-list-type or "".
func (s *Structural) XListType() string {
	if s.Structural.XListType == nil {
		return ""
	}
	return *s.Structural.XListType
}

// XMapType returns x-kubernetes-map-type or "".
func (s *Structural) XMapType() string {
	if s.Structural.XMapType == nil {
		return ""
	}
	return *s.Structural.XMapType
}

// XListMapKeys returns x-kubernetes-list-map-keys.
func (s *Structural) XListMapKeys() []string { return s.Structural.XListMapKeys }

// AllOf returns the allOf branches as schemas.
func (s *Structural) AllOf() []common.Schema { return nestedList(s.vv().AllOf) }

// AnyOf returns the anyOf branches as schemas.
func (s *Structural) AnyOf() []common.Schema { return nestedList(s.vv().AnyOf) }

// OneOf returns the oneOf branches as schemas.
func (s *Structural) OneOf() []common.Schema { return nestedList(s.vv().OneOf) }

// Not returns the not schema or nil.
func (s *Structural) Not() common.Schema {
	if s.vv().Not == nil {
		return nil
	}
	return &Structural{Structural: NestedToStructural(s.vv().Not)}
}

func nestedList(l []schema.NestedValueValidation) []common.Schema {
	var res []common.Schema
	for i := range l {
		res = append(res, &Structural{Structural: NestedToStructural(&l[i])})
	}
	return res
}

// NestedToStructural converts a junctor branch to a Structural carrying its
// value validations, rules and (forbidden) generic fields and extensions, as
// the apiserver's nestedToStructural in schema/cel/validation.go.
func NestedToStructural(nested *schema.NestedValueValidation) *schema.Structural {
	if nested == nil {
		return nil
	}
	vv := nested.ValueValidation
	out := &schema.Structural{
		ValueValidation:      &vv,
		ValidationExtensions: nested.ValidationExtensions,
		Generic:              nested.ForbiddenGenerics,
		Extensions:           nested.ForbiddenExtensions,
		Items:                NestedToStructural(nested.Items),
	}
	if len(nested.Properties) > 0 {
		out.Properties = make(map[string]schema.Structural, len(nested.Properties))
		for k, v := range nested.Properties {
			out.Properties[k] = *NestedToStructural(&v)
		}
	}
	if nested.AdditionalProperties != nil {
		out.AdditionalProperties = &schema.StructuralOrBool{Structural: NestedToStructural(nested.AdditionalProperties)}
	}
	return out
}

type validationRule struct {
	rule, message, messageExpression, fieldPath string
}

func (r *validationRule) Rule() string              { return r.rule }
func (r *validationRule) Message() string           { return r.message }
func (r *validationRule) FieldPath() string         { return r.fieldPath }
func (r *validationRule) MessageExpression() string { return r.messageExpression }

// XValidations returns the x-kubernetes-validations rules.
func (s *Structural) XValidations() []common.ValidationRule {
	if len(s.Structural.XValidations) == 0 {
		return nil
	}
	result := make([]common.ValidationRule, len(s.Structural.XValidations))
	for i, v := range s.Structural.XValidations {
		result[i] = &validationRule{rule: v.Rule, message: v.Message, messageExpression: v.MessageExpression, fieldPath: v.FieldPath}
	}
	return result
}

// WithTypeAndObjectMeta returns the schema with apiVersion, kind,
// metadata.name and metadata.generateName ensured.
func (s *Structural) WithTypeAndObjectMeta() common.Schema {
	return &Structural{Structural: WithTypeAndObjectMeta(s.Structural)}
}

// SchemaDeclType is common.SchemaDeclType over a kdv schema: the CEL type of
// self for s, or nil when s is not exposed to CEL.
func SchemaDeclType(s *schema.Structural, isResourceRoot bool) *apiservercel.DeclType {
	return common.SchemaDeclType(&Structural{Structural: s}, isResourceRoot)
}

// WithTypeAndObjectMeta ensures the kind, apiVersion and metadata.name and
// metadata.generateName properties are specified, making a shallow copy of
// the schema when needed (apiserver model.WithTypeAndObjectMeta).
func WithTypeAndObjectMeta(s *schema.Structural) *schema.Structural {
	if s.Properties != nil &&
		s.Properties["kind"].Type == "string" &&
		s.Properties["apiVersion"].Type == "string" &&
		s.Properties["metadata"].Type == "object" &&
		s.Properties["metadata"].Properties != nil &&
		s.Properties["metadata"].Properties["name"].Type == "string" &&
		s.Properties["metadata"].Properties["generateName"].Type == "string" {
		return s
	}
	result := &schema.Structural{
		AdditionalProperties: s.AdditionalProperties,
		Generic:              s.Generic,
		Extensions:           s.Extensions,
		ValueValidation:      s.ValueValidation,
		ValidationExtensions: s.ValidationExtensions,
	}
	props := make(map[string]schema.Structural, len(s.Properties))
	for k, prop := range s.Properties {
		props[k] = prop
	}
	stringType := schema.Structural{Generic: schema.Generic{Type: "string"}}
	props["kind"] = stringType
	props["apiVersion"] = stringType
	metadataProps := s.Properties["metadata"].Properties
	props["metadata"] = schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"name":         cappedLengthStringType(metadataProps["name"], nameMaxLength),
			"generateName": cappedLengthStringType(metadataProps["generateName"], nameMaxLength-1), // the generated suffix is at least 1 byte
		},
	}
	result.Properties = props
	return result
}

const nameMaxLength = int64(apimachineryvalidation.DNS1123SubdomainMaxLength)

func cappedLengthStringType(existing schema.Structural, maxLength int64) schema.Structural {
	if existing.ValueValidation != nil && existing.ValueValidation.MaxLength != nil && *existing.ValueValidation.MaxLength < maxLength {
		maxLength = *existing.ValueValidation.MaxLength
	}
	return schema.Structural{
		Generic:         schema.Generic{Type: "string"},
		ValueValidation: &schema.ValueValidation{MaxLength: &maxLength},
	}
}
