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
//
// At most MaxCheckErrors errors are built; the others are counted and
// reported by one final TooMany error.
func ValidateStructural(fldPath *field.Path, s *Structural) field.ErrorList {
	b := newErrBudget()
	errs := validateStructural(fldPath, s, b)
	b.droppedAt(fldPath)
	if e := b.notice(); e != nil {
		errs = append(errs, e)
	}
	return errs
}

// validateStructural is ValidateStructural under the budget b, without the
// final notice.
func validateStructural(fldPath *field.Path, s *Structural, b *errBudget) field.ErrorList {
	out := &errSink{b: b, errs: field.ErrorList{}}
	validateStructuralInvariants(out, s, rootLevel, fldPath)
	validateStructuralCompleteness(out, s, fldPath)
	return sortErrors(out.errs)
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

func validateStructuralInvariants(out *errSink, s *Structural, lvl level, fldPath *field.Path) {
	if s == nil {
		return
	}
	if s.Type == "array" && s.Items == nil {
		if out.ok() {
			out.add(field.Required(fldPath.Child("items"), "must be specified"))
		}
	}
	validateStructuralInvariants(out, s.Items, itemLevel, fldPath.Child("items"))
	for _, k := range sortedKeys(s.Properties) {
		v := s.Properties[k]
		validateStructuralInvariants(out, &v, fieldLevel, fldPath.Child("properties").Key(k))
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			if out.ok() {
				out.add(field.Forbidden(fldPath.Child("additionalProperties"), "must not be used at the root"))
			}
		}
		if s.AdditionalProperties.Structural != nil {
			validateStructuralInvariants(out, s.AdditionalProperties.Structural, fieldLevel, fldPath.Child("additionalProperties"))
		}
	}

	if s.XIntOrString && s.XPreserveUnknownFields {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), s.XPreserveUnknownFields, "must be false if x-kubernetes-int-or-string is true"))
		}
	}
	if s.XIntOrString && s.XEmbeddedResource {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("x-kubernetes-embedded-resource"), s.XEmbeddedResource, "must be false if x-kubernetes-int-or-string is true"))
		}
	}

	skipAnyOf := isIntOrStringAnyOfPattern(s)
	skipFirstAllOfAnyOf := isIntOrStringAllOfPattern(s)
	validateValueValidation(out, s.ValueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if s.XEmbeddedResource && s.Type != "object" {
		if len(s.Type) == 0 {
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
			}
		} else {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
			}
		}
	} else if len(s.Type) == 0 && !s.XIntOrString && !s.XPreserveUnknownFields {
		switch lvl {
		case rootLevel:
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must not be empty at the root"))
			}
		case itemLevel:
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must not be empty for specified array items"))
			}
		case fieldLevel:
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must not be empty for specified object fields"))
			}
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
		}
	}
	if lvl == rootLevel && len(s.Type) > 0 && s.Type != "object" {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("type"), s.Type, "must be object at the root"))
		}
	}
	if kind, found := s.Properties["kind"]; found && checkMetadata && kind.Type != "string" {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
		}
	}
	if apiVersion, found := s.Properties["apiVersion"]; found && checkMetadata && apiVersion.Type != "string" {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("properties").Key("apiVersion").Child("type"), apiVersion.Type, "must be string"))
		}
	}
	if metadata, found := s.Properties["metadata"]; found {
		validateStructuralMetadataInvariants(out, metadata, checkMetadata, lvl, fldPath.Child("properties").Key("metadata"))
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		if out.ok() {
			out.add(field.Required(fldPath.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
		}
	}
}

// validateStructuralMetadataInvariants restricts the root metadata schema to
// name and generateName (apiserver validateStructuralMetadataInvariants).
// s is a shallow copy and may be changed.
func validateStructuralMetadataInvariants(out *errSink, s Structural, checkMetadata bool, lvl level, fldPath *field.Path) {
	if checkMetadata && s.Type != "object" {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("type"), s.Type, "must be object"))
		}
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
			if out.ok() {
				out.add(field.Forbidden(fldPath, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
			}
		}
	}
}

// apiserverExtensions drops the extensions the apiserver does not know.
func apiserverExtensions(x Extensions) Extensions {
	x.XAPILifecycle, x.XUnions, x.XValidationErrors, x.XStripZero, x.XListUnique, x.XUniqueKey, x.XOther = nil, nil, nil, false, nil, "", nil
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
func validateValueValidation(out *errSink, v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, fldPath *field.Path) {
	if v == nil {
		return
	}
	if !skipAnyOf {
		for i := range v.AnyOf {
			validateNestedValueValidation(out, &v.AnyOf[i], false, false, lvl, fldPath.Child("anyOf").Index(i))
		}
	}
	for i := range v.AllOf {
		validateNestedValueValidation(out, &v.AllOf[i], skipFirstAllOfAnyOf && i == 0, false, lvl, fldPath.Child("allOf").Index(i))
	}
	for i := range v.OneOf {
		validateNestedValueValidation(out, &v.OneOf[i], false, false, lvl, fldPath.Child("oneOf").Index(i))
	}
	validateNestedValueValidation(out, v.Not, false, false, lvl, fldPath.Child("not"))
	if len(v.Pattern) > 0 {
		if _, err := regexp.Compile(v.Pattern); err != nil {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("pattern"), v.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
			}
		}
	}
}

// validateNestedValueValidation checks a schema below a junctor: it must not
// carry types, defaults, descriptions or structural extensions.
func validateNestedValueValidation(out *errSink, v *NestedValueValidation, skipAnyOf, skipAllOfAnyOf bool, lvl level, fldPath *field.Path) {
	if v == nil {
		return
	}
	validateValueValidation(out, &v.ValueValidation, skipAnyOf, skipAllOfAnyOf, lvl, fldPath)
	validateNestedValueValidation(out, v.Items, false, false, lvl, fldPath.Child("items"))
	for _, k := range sortedKeys(v.Properties) {
		fld := v.Properties[k]
		validateNestedValueValidation(out, &fld, false, false, fieldLevel, fldPath.Child("properties").Key(k))
	}
	g, x := &v.ForbiddenGenerics, &v.ForbiddenExtensions
	if len(g.Type) > 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("type"), "must be empty to be structural"))
		}
	}
	if v.AdditionalProperties != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("additionalProperties"), "must be undefined to be structural"))
		}
	}
	if g.Default.Object != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("default"), "must be undefined to be structural"))
		}
	}
	if len(g.Title) > 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("title"), "must be empty to be structural"))
		}
	}
	if len(g.Description) > 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("description"), "must be empty to be structural"))
		}
	}
	if g.Nullable {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("nullable"), "must be false to be structural"))
		}
	}
	if x.XPreserveUnknownFields {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
		}
	}
	if x.XEmbeddedResource {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
		}
	}
	if x.XIntOrString {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
		}
	}
	if len(x.XListMapKeys) > 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
		}
	}
	if x.XListType != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
		}
	}
	if x.XMapType != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
		}
	}
	if len(v.XValidations) > 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-validations"), "must be empty to be structural"))
		}
	}
	if _, found := v.Properties["metadata"]; found {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("properties").Key("metadata"), "must not be specified in a nested context"))
		}
	}
}

// validateStructuralCompleteness requires every property and items schema
// named in a value validation to exist in the structural part too
// (apiserver complete.go).
func validateStructuralCompleteness(out *errSink, s *Structural, fldPath *field.Path) {
	if s == nil {
		return
	}
	validateValueValidationCompleteness(out, s.ValueValidation, s, fldPath, fldPath)
}

func validateValueValidationCompleteness(out *errSink, v *ValueValidation, s *Structural, sPath, vPath *field.Path) {
	if v == nil {
		return
	}
	if s == nil {
		if out.ok() {
			out.add(field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String())))
		}
		return
	}
	validateNestedValueValidationCompleteness(out, v.Not, s, sPath, vPath.Child("not"))
	for i := range v.AllOf {
		validateNestedValueValidationCompleteness(out, &v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i))
	}
	for i := range v.AnyOf {
		validateNestedValueValidationCompleteness(out, &v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i))
	}
	for i := range v.OneOf {
		validateNestedValueValidationCompleteness(out, &v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i))
	}
}

func validateNestedValueValidationCompleteness(out *errSink, v *NestedValueValidation, s *Structural, sPath, vPath *field.Path) {
	if v == nil {
		return
	}
	if s == nil {
		if out.ok() {
			out.add(field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String())))
		}
		return
	}
	validateValueValidationCompleteness(out, &v.ValueValidation, s, sPath, vPath)
	validateNestedValueValidationCompleteness(out, v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))
	for _, k := range sortedKeys(v.Properties) {
		vFld := v.Properties[k]
		if sFld, ok := s.Properties[k]; !ok {
			if out.ok() {
				out.add(field.Required(sPath.Child("properties").Key(k), fmt.Sprintf("because it is defined in %s", vPath.Child("properties").Key(k))))
			}
		} else {
			validateNestedValueValidationCompleteness(out, &vFld, &sFld, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))
		}
	}
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
