package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// level is where a structural node sits, for the "type must not be empty"
// messages (apiserver schema.level).
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// ValidateStructural reports why s is not a structural schema: types inside
// junctors, missing types, the int-or-string and embedded-resource rules,
// metadata restrictions at the root, additionalProperties at the root,
// invalid patterns, and value validations without a structural counterpart.
// Errors are sorted by their Error() text, as the apiserver sorts them.
//
// It mirrors ValidateStructural in k8s.io/apiextensions-apiserver
// pkg/apiserver/schema/validation.go and complete.go, with the CRD options
// (no nested additionalProperties, no nested x-kubernetes-validations).
// kdv's own extensions and XOther are ignored: the apiserver does not know them.
func ValidateStructural(fldPath *field.Path, s *Structural) field.ErrorList {
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateStructuralInvariants(s, rootLevel, fldPath)...)
	allErrs = append(allErrs, validateStructuralCompleteness(s, fldPath)...)
	return sortErrors(allErrs)
}

// sortErrors sorts errors by their Error() text, computing each text once.
func sortErrors(errs field.ErrorList) field.ErrorList {
	keys := make([]string, len(errs))
	idx := make([]int, len(errs))
	for i, e := range errs {
		keys[i], idx[i] = e.Error(), i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := make(field.ErrorList, len(errs))
	for i, j := range idx {
		out[i] = errs[j]
	}
	return out
}

func validateStructuralInvariants(s *Structural, lvl level, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	allErrs := field.ErrorList{}
	if s.Type == "array" && s.Items == nil {
		allErrs = append(allErrs, field.Required(fldPath.Child("items"), "must be specified"))
	}
	allErrs = append(allErrs, validateStructuralInvariants(s.Items, itemLevel, fldPath.Child("items"))...)
	for _, k := range sortedKeys(s.Properties) {
		v := s.Properties[k]
		allErrs = append(allErrs, validateStructuralInvariants(&v, fieldLevel, fldPath.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Structural != nil {
			allErrs = append(allErrs, validateStructuralInvariants(s.AdditionalProperties.Structural, fieldLevel, fldPath.Child("additionalProperties"))...)
		}
	}

	if s.XIntOrString && s.XPreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), s.XPreserveUnknownFields, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-embedded-resource"), s.XEmbeddedResource, "must be false if x-kubernetes-int-or-string is true"))
	}

	skipAnyOf := isIntOrStringAnyOfPattern(s)
	skipFirstAllOfAnyOf := isIntOrStringAllOfPattern(s)
	allErrs = append(allErrs, validateValueValidation(s.ValueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if s.XEmbeddedResource && s.Type != "object" {
		if len(s.Type) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	} else if len(s.Type) == 0 && !s.XIntOrString && !s.XPreserveUnknownFields {
		switch lvl {
		case rootLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty at the root"))
		case itemLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && len(s.Type) > 0 && s.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object at the root"))
	}
	if kind, found := s.Properties["kind"]; found && checkMetadata && kind.Type != "string" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
	}
	if apiVersion, found := s.Properties["apiVersion"]; found && checkMetadata && apiVersion.Type != "string" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("apiVersion").Child("type"), apiVersion.Type, "must be string"))
	}
	if metadata, found := s.Properties["metadata"]; found {
		allErrs = append(allErrs, validateStructuralMetadataInvariants(metadata, checkMetadata, lvl, fldPath.Child("properties").Key("metadata"))...)
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return allErrs
}

// validateStructuralMetadataInvariants restricts the root metadata schema to
// name and generateName (apiserver validateStructuralMetadataInvariants).
// s is a shallow copy and may be changed.
func validateStructuralMetadataInvariants(s Structural, checkMetadata bool, lvl level, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if checkMetadata && s.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object"))
	}
	if lvl == rootLevel {
		_, foundName := s.Properties["name"]
		_, foundGenerateName := s.Properties["generateName"]
		if foundName && foundGenerateName && len(s.Properties) == 2 {
			s.Properties = nil
		} else if (foundName || foundGenerateName) && len(s.Properties) == 1 {
			s.Properties = nil
		}
		s.Type = ""
		s.Default.Object = nil // checked by the CRD validation (default forbidden in top-level metadata)
		s.Extensions = apiserverExtensions(s.Extensions)
		if s.ValueValidation == nil {
			s.ValueValidation = &ValueValidation{}
		}
		if !reflect.DeepEqual(s, Structural{ValueValidation: &ValueValidation{}}) {
			allErrs = append(allErrs, field.Forbidden(fldPath, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	return allErrs
}

// apiserverExtensions drops the extensions the apiserver does not know.
func apiserverExtensions(x Extensions) Extensions {
	x.XAPILifecycle, x.XUnions, x.XValidationErrors, x.XStripZero, x.XListUnique, x.XOther = nil, nil, nil, false, nil, nil
	return x
}

// isPlainType reports whether n is exactly {type: typ} as far as the
// apiserver sees it.
func isPlainType(n *NestedValueValidation, typ string) bool {
	m := *n
	m.ForbiddenExtensions = apiserverExtensions(m.ForbiddenExtensions)
	return reflect.DeepEqual(m, NestedValueValidation{ForbiddenGenerics: Generic{Type: typ}})
}

func isIntOrStringAnyOf(anyOf []NestedValueValidation) bool {
	return len(anyOf) == 2 && isPlainType(&anyOf[0], "integer") && isPlainType(&anyOf[1], "string")
}

// isIntOrStringAnyOfPattern detects anyOf: [{type: integer}, {type: string}].
func isIntOrStringAnyOfPattern(s *Structural) bool {
	return s != nil && s.ValueValidation != nil && isIntOrStringAnyOf(s.ValueValidation.AnyOf)
}

// isIntOrStringAllOfPattern detects allOf: [{anyOf: [{type: integer}, {type: string}]}, ...].
func isIntOrStringAllOfPattern(s *Structural) bool {
	return s != nil && s.ValueValidation != nil && len(s.ValueValidation.AllOf) >= 1 && isIntOrStringAnyOf(s.ValueValidation.AllOf[0].AnyOf)
}

// validateValueValidation checks junctors and patterns (CRD options: no
// nested additionalProperties or x-kubernetes-validations).
func validateValueValidation(v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	allErrs := field.ErrorList{}
	if !skipAnyOf {
		for i := range v.AnyOf {
			allErrs = append(allErrs, validateNestedValueValidation(&v.AnyOf[i], false, false, lvl, fldPath.Child("anyOf").Index(i))...)
		}
	}
	for i := range v.AllOf {
		allErrs = append(allErrs, validateNestedValueValidation(&v.AllOf[i], skipFirstAllOfAnyOf && i == 0, false, lvl, fldPath.Child("allOf").Index(i))...)
	}
	for i := range v.OneOf {
		allErrs = append(allErrs, validateNestedValueValidation(&v.OneOf[i], false, false, lvl, fldPath.Child("oneOf").Index(i))...)
	}
	allErrs = append(allErrs, validateNestedValueValidation(v.Not, false, false, lvl, fldPath.Child("not"))...)
	if len(v.Pattern) > 0 {
		if _, err := regexp.Compile(v.Pattern); err != nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("pattern"), v.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return allErrs
}

// validateNestedValueValidation checks a schema below a junctor: it must not
// carry types, defaults, descriptions or structural extensions.
func validateNestedValueValidation(v *NestedValueValidation, skipAnyOf, skipAllOfAnyOf bool, lvl level, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateValueValidation(&v.ValueValidation, skipAnyOf, skipAllOfAnyOf, lvl, fldPath)...)
	allErrs = append(allErrs, validateNestedValueValidation(v.Items, false, false, lvl, fldPath.Child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		fld := v.Properties[k]
		allErrs = append(allErrs, validateNestedValueValidation(&fld, false, false, fieldLevel, fldPath.Child("properties").Key(k))...)
	}
	g, x := &v.ForbiddenGenerics, &v.ForbiddenExtensions
	if len(g.Type) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("type"), "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if g.Default.Object != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("default"), "must be undefined to be structural"))
	}
	if len(g.Title) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("title"), "must be empty to be structural"))
	}
	if len(g.Description) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("description"), "must be empty to be structural"))
	}
	if g.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("nullable"), "must be false to be structural"))
	}
	if x.XPreserveUnknownFields {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if x.XEmbeddedResource {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if x.XIntOrString {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(x.XListMapKeys) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if x.XListType != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if x.XMapType != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if len(v.XValidations) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, found := v.Properties["metadata"]; found {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return allErrs
}

// validateStructuralCompleteness requires every property and items schema
// named in a value validation to exist in the structural part too
// (apiserver complete.go).
func validateStructuralCompleteness(s *Structural, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	return validateValueValidationCompleteness(s.ValueValidation, s, fldPath, fldPath)
}

func validateValueValidationCompleteness(v *ValueValidation, s *Structural, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateNestedValueValidationCompleteness(v.Not, s, sPath, vPath.Child("not"))...)
	for i := range v.AllOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i))...)
	}
	for i := range v.AnyOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i))...)
	}
	for i := range v.OneOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i))...)
	}
	return allErrs
}

func validateNestedValueValidationCompleteness(v *NestedValueValidation, s *Structural, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateValueValidationCompleteness(&v.ValueValidation, s, sPath, vPath)...)
	allErrs = append(allErrs, validateNestedValueValidationCompleteness(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		vFld := v.Properties[k]
		if sFld, ok := s.Properties[k]; !ok {
			allErrs = append(allErrs, field.Required(sPath.Child("properties").Key(k), fmt.Sprintf("because it is defined in %s", vPath.Child("properties").Key(k))))
		} else {
			allErrs = append(allErrs, validateNestedValueValidationCompleteness(&vFld, &sFld, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))...)
		}
	}
	return allErrs
}

// sortedKeys returns the keys of m in order, so that kdv reports errors
// deterministically where the apiserver iterates a Go map.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
