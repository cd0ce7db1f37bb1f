package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	openapiV3Types            = []string{"array", "boolean", "integer", "number", "object", "string"}
	supportedValidationReason = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}
	metaFields                = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}
	// allowedFieldsAtRootSchema are the JSONSchemaProps fields allowed at the
	// root when the status subresource is enabled.
	allowedFieldsAtRootSchema = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}
	newlineMatcher            = regexp.MustCompile(`[\n\r]+`)
)

// kdvOnlyFields are Props fields the apiserver's JSONSchemaProps lacks.
var kdvOnlyFields = map[string]bool{"XAPILifecycle": true, "XUnions": true, "XValidationErrors": true, "XStripZero": true, "XListUnique": true, "XUniqueKey": true, "Extra": true}

// jsonValue renders v as the apiserver's field errors render non-scalar bad
// values (JSON).
type jsonValue struct{ v any }

// MarshalJSON renders the wrapped value.
func (j jsonValue) MarshalJSON() ([]byte, error) { return json.Marshal(j.v) }

// validateSchemaValidation checks one openAPIV3Schema (apiextensions
// validation validateCustomResourceDefinitionValidation). schema is the
// apiserver view. fldPath is the path of the "schema"/"validation" object.
func validateSchemaValidation(schema *Props, statusEnabled bool, requireStructural bool, opts CheckOptions, b *errBudget, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if schema == nil {
		return allErrs
	}
	if statusEnabled {
		v := reflect.ValueOf(schema).Elem()
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if kdvOnlyFields[name] {
				continue
			}
			if v.Field(i).IsZero() {
				continue
			}
			if name == "Type" {
				if schema.Type != "object" {
					allErrs = append(allErrs, field.Invalid(fldPath.Child("openAPIV3Schema.type"), schema.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`))
					break
				}
				continue
			}
			if !contains(allowedFieldsAtRootSchema, name) {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("openAPIV3Schema"), toInternal(schema), fmt.Sprintf(`only %v fields are allowed at the root of the schema if the status subresource is enabled`, allowedFieldsAtRootSchema)))
				break
			}
		}
	}
	if schema.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("openAPIV3Schema.nullable"), `nullable cannot be true at the root`))
	}

	schemaPath := fldPath.Child("openAPIV3Schema")
	dropped0 := b.dropped // errors dropped before this schema
	var structuralInitErrs field.ErrorList
	var ss *Structural
	structuralOK := false
	if requireStructural {
		s, err := NewStructural(schema)
		if err != nil {
			structuralInitErrs = append(structuralInitErrs, field.Invalid(schemaPath, "", err.Error()))
		} else if errs := validateStructural(schemaPath, s, b); len(errs) > 0 || b.dropped > dropped0 {
			allErrs = append(allErrs, errs...)
		} else if opts.ValidateDefaults != nil && b.spent() {
			// Defaults are validated only when there is room for their
			// errors: the count of errors not shown becomes a lower bound.
			b.partial = true
		} else if opts.ValidateDefaults != nil {
			if errs := opts.ValidateDefaults(s, schemaPath); len(errs) > 0 {
				allErrs = b.keep(allErrs, errs)
			} else {
				ss, structuralOK = s, true
			}
		} else {
			ss, structuralOK = s, true
		}
	}
	ssv := &standardValidator{allowDefaults: true}
	out := &errSink{b: b}
	validateOpenAPISchema(out, schema, schemaPath, ssv, true)
	schemaErrs := out.errs
	allErrs = append(allErrs, schemaErrs...)
	// CEL compilation runs only on structural schemas whose defaults
	// validate, and the apiserver skips a node's rules when that node or one
	// below it has schema errors: the hook compiles the whole tree, and the
	// errors of such nodes' rules are dropped. When errors were dropped,
	// schemaErrs is incomplete and cannot tell which rule errors the
	// apiserver drops: the rules are not compiled, and the count of errors
	// not shown becomes a lower bound.
	if structuralOK && opts.ValidateSchema != nil {
		if b.spent() {
			b.partial = true
		} else {
			for _, e := range opts.ValidateSchema(ss, schemaPath) {
				if !ruleNodeHasSchemaErrors(e.Field, schemaErrs) && b.take() {
					b.charge(e)
					allErrs = append(allErrs, e)
				}
			}
		}
	}
	if len(allErrs) == 0 && b.dropped == dropped0 && len(structuralInitErrs) > 0 {
		allErrs = append(allErrs, structuralInitErrs...)
	}
	b.droppedAt(schemaPath)
	return allErrs
}

// standardValidator carries the context-dependent restrictions of
// apiextensions validation specStandardValidatorV3.
type standardValidator struct {
	allowDefaults          bool
	disallowDefaultsReason string
	insideResourceMeta     bool
}

func (v *standardValidator) withForbiddenDefaults(reason string) *standardValidator {
	c := *v
	c.allowDefaults, c.disallowDefaultsReason = false, reason
	return &c
}

func (v *standardValidator) withInsideResourceMeta() *standardValidator {
	c := *v
	c.insideResourceMeta = true
	return &c
}

// validate is specStandardValidatorV3.validate: keywords CRD schemas forbid.
func (v *standardValidator) validate(out *errSink, schema *Props, fldPath *field.Path) {
	if len(schema.Type) > 0 && !contains(openapiV3Types, schema.Type) {
		if out.ok() {
			out.add(field.NotSupported(fldPath.Child("type"), schema.Type, openapiV3Types))
		}
	}
	if schema.Default != nil && !v.allowDefaults {
		detail := "must not be set"
		if len(v.disallowDefaultsReason) > 0 {
			detail += " " + v.disallowDefaultsReason
		}
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("default"), detail))
		}
	}
	if schema.ID != "" {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("id"), "id is not supported"))
		}
	}
	if schema.AdditionalItems != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("additionalItems"), "additionalItems is not supported"))
		}
	}
	if len(schema.PatternProperties) != 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("patternProperties"), "patternProperties is not supported"))
		}
	}
	if len(schema.Definitions) != 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("definitions"), "definitions is not supported"))
		}
	}
	if schema.Dependencies != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("dependencies"), "dependencies is not supported"))
		}
	}
	if schema.Ref != nil {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("$ref"), "$ref is not supported"))
		}
	}
	if schema.Type == "null" {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("type"), "type cannot be set to null, use nullable as an alternative"))
		}
	}
	if schema.Items != nil && len(schema.Items.Schemas) != 0 {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("items"), "items must be a schema object and not an array"))
		}
	}
	if v.insideResourceMeta && schema.XEmbeddedResource {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
		}
	}
}

// validateOpenAPISchema mirrors ValidateCustomResourceDefinitionOpenAPISchema
// without the CEL part (left to CheckOptions.ValidateSchema). Properties are
// visited in sorted order where the apiserver ranges over a map.
func validateOpenAPISchema(out *errSink, schema *Props, fldPath *field.Path, ssv *standardValidator, isRoot bool) {
	if schema == nil {
		return
	}
	ssv.validate(out, schema, fldPath)
	if schema.UniqueItems {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
		}
	}
	if schema.AdditionalProperties != nil {
		if len(schema.Properties) != 0 && (!schema.AdditionalProperties.Allows || schema.AdditionalProperties.Schema != nil) {
			if out.ok() {
				out.add(field.Forbidden(fldPath.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
			}
		}
		sub := ssv
		if ssv.insideResourceMeta {
			sub = ssv.withForbiddenDefaults("inside additionalProperties applying to object metadata")
		}
		validateOpenAPISchema(out, schema.AdditionalProperties.Schema, fldPath.Child("additionalProperties"), sub, false)
	}
	for _, property := range sortedKeys(schema.Properties) {
		sub := ssv
		if (isRoot || schema.XEmbeddedResource) && metaFields[property] {
			sub = sub.withInsideResourceMeta()
			if isRoot {
				sub = sub.withForbiddenDefaults(fmt.Sprintf("in top-level %s", property))
			}
		}
		p := schema.Properties[property]
		validateOpenAPISchema(out, &p, fldPath.Child("properties").Key(property), sub, false)
	}
	validateOpenAPISchema(out, schema.Not, fldPath.Child("not"), ssv, false)
	for i := range schema.AllOf {
		validateOpenAPISchema(out, &schema.AllOf[i], fldPath.Child("allOf").Index(i), ssv, false)
	}
	for i := range schema.OneOf {
		validateOpenAPISchema(out, &schema.OneOf[i], fldPath.Child("oneOf").Index(i), ssv, false)
	}
	for i := range schema.AnyOf {
		validateOpenAPISchema(out, &schema.AnyOf[i], fldPath.Child("anyOf").Index(i), ssv, false)
	}
	for _, k := range sortedKeys(schema.Definitions) {
		d := schema.Definitions[k]
		validateOpenAPISchema(out, &d, fldPath.Child("definitions").Key(k), ssv, false)
	}
	if schema.Items != nil {
		validateOpenAPISchema(out, schema.Items.Schema, fldPath.Child("items"), ssv, false)
		for i := range schema.Items.Schemas {
			validateOpenAPISchema(out, &schema.Items.Schemas[i], fldPath.Child("items").Index(i), ssv, false)
		}
	}
	for _, k := range sortedKeys(schema.Dependencies) {
		validateOpenAPISchema(out, schema.Dependencies[k].Schema, fldPath.Child("dependencies").Key(k), ssv, false)
	}
	if schema.XPreserveUnknownFields != nil && !*schema.XPreserveUnknownFields {
		if out.ok() {
			out.add(field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), *schema.XPreserveUnknownFields, "must be true or undefined"))
		}
	}
	validateListAndMapTypes(out, schema, fldPath)
	validateMapListKeysMapSet(out, schema, fldPath)
	validateXValidations(out, schema, fldPath)
}

// validateXValidations checks the x-kubernetes-validations entries without
// compiling them: empty rules, messages, reasons and fieldPaths.
func validateXValidations(out *errSink, schema *Props, fldPath *field.Path) {
	for i, rule := range schema.XValidations {
		p := fldPath.Child("x-kubernetes-validations").Index(i)
		trimmedRule := strings.TrimSpace(rule.Rule)
		trimmedMsg := strings.TrimSpace(rule.Message)
		trimmedMsgExpr := strings.TrimSpace(rule.MessageExpression)
		if len(trimmedRule) == 0 {
			if out.ok() {
				out.add(field.Required(p.Child("rule"), "rule is not specified"))
			}
		} else if len(rule.Message) > 0 && len(trimmedMsg) == 0 {
			if out.ok() {
				out.add(field.Invalid(p.Child("message"), rule.Message, "must be non-empty if specified"))
			}
		} else if newlineMatcher.MatchString(trimmedMsg) {
			if out.ok() {
				out.add(field.Invalid(p.Child("message"), rule.Message, "must not contain line breaks"))
			}
		} else if newlineMatcher.MatchString(trimmedRule) && len(trimmedMsg) == 0 {
			if out.ok() {
				out.add(field.Required(p.Child("message"), "message must be specified if rule contains line breaks"))
			}
		}
		if len(rule.MessageExpression) > 0 && len(trimmedMsgExpr) == 0 {
			if out.ok() {
				out.add(field.Required(p.Child("messageExpression"), "messageExpression must be non-empty if specified"))
			}
		}
		if rule.Reason != nil && !contains(supportedValidationReason, *rule.Reason) {
			if out.ok() {
				out.add(field.NotSupported(p.Child("reason"), *rule.Reason, supportedValidationReason))
			}
		}
		if len(rule.FieldPath) > 0 && len(strings.TrimSpace(rule.FieldPath)) == 0 {
			if out.ok() {
				out.add(field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must be non-empty if specified"))
			}
		}
		if newlineMatcher.MatchString(rule.FieldPath) {
			if out.ok() {
				out.add(field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must not contain line breaks"))
			}
		}
		if len(rule.FieldPath) > 0 && !pathValid(schema, rule.FieldPath) {
			if out.ok() {
				out.add(field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must be a valid path"))
			}
		}
	}
}

// pathValid mirrors apiextensions validation pathValid: a fieldPath must
// resolve in the schema it is declared on, when that schema converts.
func pathValid(schema *Props, path string) bool {
	ss, err := NewStructural(schema)
	if err != nil {
		return true
	}
	_, err = ValidFieldPath(path, ss)
	return err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ruleNodeHasSchemaErrors reports whether the schema node owning the rule
// at errField (the part before ".x-kubernetes-validations") has a schema
// error at or below it.
func ruleNodeHasSchemaErrors(errField string, schemaErrs field.ErrorList) bool {
	node, _, found := strings.Cut(errField, ".x-kubernetes-validations")
	if !found {
		return false
	}
	for _, e := range schemaErrs {
		if e.Field == node || strings.HasPrefix(e.Field, node+".") || strings.HasPrefix(e.Field, node+"[") {
			return true
		}
	}
	return false
}
