package idl

import "strings"

// valueKind is what a tag's value must be.
type valueKind int

const (
	vNone     valueKind = iota // no value
	vOptBool                   // no value or true/false
	vInt                       // integer
	vNumber                    // integer or decimal
	vString                    // any string
	vRaw                       // anything, kept verbatim (defaults, examples)
	vTag                       // a chained tag
	vOptional                  // any value or none
)

// argKind is what arguments a tag takes.
type argKind int

const (
	aNone     argKind = iota // no arguments
	aOne                     // exactly one positional argument
	aNamed                   // named arguments from spec.names
	aOptional                // any arguments or none
)

// tagSpec describes one canonical tag.
type tagSpec struct {
	value   valueKind
	args    argKind
	names   []string // allowed named arguments (aNamed)
	need    []string // required named arguments
	allowed []string // allowed values (vString)
}

// canonical lists every tag of the model by canonical name.
var canonical = map[string]tagSpec{
	// presence
	"optional": {}, "required": {}, "forbidden": {},
	"nullable": {value: vOptBool},
	// bounds
	"minimum": {value: vNumber}, "maximum": {value: vNumber}, "multipleOf": {value: vNumber},
	"exclusiveMinimum": {value: vOptional}, "exclusiveMaximum": {value: vOptional},
	"minLength": {value: vInt}, "maxLength": {value: vInt}, "maxBytes": {value: vInt},
	"minItems": {value: vInt}, "maxItems": {value: vInt},
	"minProperties": {value: vInt}, "maxProperties": {value: vInt},
	"uniqueItems": {value: vOptBool},
	// strings
	"format": {value: vString}, "pattern": {value: vString},
	"enum": {value: vNone, args: aOptional}, "type": {value: vString, allowed: []string{"object", "array", "string", "integer", "number", "boolean"}},
	// list and map semantics
	"listType":    {value: vString, allowed: []string{"atomic", "set", "map"}},
	"listMapKey":  {value: vString},
	"uniqueKey":   {value: vString},
	"defaultFrom": {value: vString}, "defaultExpression": {value: vString}, "skipUpdateValidation": {}, "skipUpdateValidationIfOldInvalid": {value: vString}, "skipValidation": {}, "noEnum": {}, "reportedAt": {value: vString}, "keepZero": {}, "ratcheting": {value: vOptBool},
	"mapType":    {value: vString, allowed: []string{"atomic", "granular"}},
	"structType": {value: vString, allowed: []string{"atomic", "granular"}},
	"unique":     {value: vString, allowed: []string{"set", "map"}},
	// CEL
	// (diff, diffKeep, diffFill, diffOnly, diffSince: kdv's x-kubernetes-diff of a
	// built-in rule, schema.RuleDiff)
	"validationRule": {args: aNamed, names: []string{"rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf", "diff", "diffKeep", "diffFill", "diffOnly", "diffSince"}, need: []string{"rule"}},
	// x-kubernetes-validation-errors: a keyword's message and reason
	"validationError": {args: aNamed, names: []string{"keyword", "message", "reason", "at"}, need: []string{"keyword"}},
	// transitions
	"immutable": {}, "monotonic": {},
	"update": {value: vString, allowed: []string{"NoSet", "NoUnset", "NoModify", "NoAddItem", "NoRemoveItem"}},
	// unions
	"unionMember": {args: aOptional}, "unionDiscriminator": {args: aOptional}, "zeroOrOneOfMember": {args: aOptional},
	"union": {}, "unionDeprecated": {}, "oneOf": {value: vString}, "zeroOrOneOf": {value: vString},
	"exactlyOneOf": {args: aOptional}, "atMostOneOf": {args: aOptional}, "atLeastOneOf": {args: aOptional},
	"modeDiscriminator": {args: aOptional},
	"ifMode":            {args: aOptional, value: vTag},
	// nested targets
	"eachVal": {value: vTag}, "eachKey": {value: vTag},
	"item":     {args: aOptional, value: vTag},
	"subfield": {args: aOne, value: vTag},
	// lifecycle
	"alpha": {args: aNamed, names: []string{"since"}, value: vTag}, "beta": {args: aNamed, names: []string{"since"}, value: vTag},
	"ifEnabled": {args: aOne, value: vTag}, "ifDisabled": {args: aOne, value: vTag},
	"featureGate": {value: vString},
	"lifecycle":   {args: aNamed, names: []string{"component", "minVersion", "status", "featureGate"}, need: []string{"component"}},
	// validation-gen, not publishable or structural only
	"customValidation": {}, "opaqueType": {}, "customUnique": {},
	"dependentRequired": {args: aOne}, "dependentForbidden": {args: aOne},
	"neq": {value: vOptional}, "enumExclude": {args: aOptional},
	// values
	"default": {value: vRaw}, "example": {value: vRaw}, "title": {value: vRaw},
	// structural extensions
	"preserveUnknownFields": {}, "embeddedResource": {}, "intOrString": {}, "schemaless": {},
	// patch strategy (published by the apiserver as x-kubernetes-patch-*)
	"patchStrategy": {value: vString}, "patchMergeKey": {value: vString},
	// kinds, resources and CRDs
	"genclient": {}, "nonNamespaced": {},
	"objectRoot":        {value: vOptBool},
	"resource":          {args: aNamed, names: []string{"path", "scope", "shortName", "categories", "singular"}},
	"subresourceStatus": {},
	"subresourceScale":  {args: aNamed, names: []string{"specpath", "statuspath", "selectorpath"}, need: []string{"specpath", "statuspath"}},
	"printColumn":       {args: aNamed, names: []string{"name", "type", "JSONPath", "description", "format", "priority"}, need: []string{"name", "type", "JSONPath"}},
	"storageVersion":    {}, "skipVersion": {}, "unservedVersion": {}, "skip": {},
	"deprecatedVersion": {args: aNamed, names: []string{"warning"}},
	"selectableField":   {args: aNamed, names: []string{"JSONPath"}, need: []string{"JSONPath"}},
	"metadata":          {args: aNamed, names: []string{"annotations", "labels"}},
	"externalDocs":      {args: aNamed, names: []string{"url", "description"}},
	"groupName":         {value: vString}, "versionName": {value: vString},
}

// k8sNames maps validation-gen tag names (after "+k8s:") to canonical names.
var k8sNames = map[string]string{
	"optional": "optional", "required": "required", "forbidden": "forbidden",
	"minimum": "minimum", "maximum": "maximum", "minLength": "minLength", "maxLength": "maxLength",
	"maxBytes": "maxBytes", "minItems": "minItems", "maxItems": "maxItems",
	"minProperties": "minProperties", "maxProperties": "maxProperties",
	"format": "format", "enum": "enum", "listType": "listType", "listMapKey": "listMapKey",
	"unique": "unique", "immutable": "immutable", "update": "update", "monotonic": "monotonic",
	"unionMember": "unionMember", "unionDiscriminator": "unionDiscriminator",
	"zeroOrOneOfMember": "zeroOrOneOfMember", "eachVal": "eachVal", "eachKey": "eachKey",
	"item": "item", "subfield": "subfield", "alpha": "alpha", "beta": "beta",
	"ifEnabled": "ifEnabled", "ifDisabled": "ifDisabled", "ifMode": "ifMode",
	"modeDiscriminator": "modeDiscriminator", "customValidation": "customValidation",
	"opaqueType": "opaqueType", "customUnique": "customUnique",
	"dependentRequired": "dependentRequired", "dependentForbidden": "dependentForbidden",
	"neq": "neq", "enumExclude": "enumExclude",
	// kdv's x-kubernetes-validation-errors in validation-gen's syntax, so
	// that it can be chained: +k8s:eachVal=+validationError(keyword: "enum",
	// message: "...") words the items' keyword.
	"validationError": "validationError",
	// Kubernetes 1.36's validation-gen names of modeDiscriminator / ifMode.
	"discriminator": "modeDiscriminator", "member": "ifMode",
}

// k8sIgnored are "+k8s:" tags of other code generators (deepcopy, conversion,
// protobuf, client, lifecycle generation): known, with no schema meaning.
var k8sIgnored = []string{
	"deepcopy-gen", "prerelease-lifecycle-gen", "conversion-gen", "defaulter-gen",
	"openapi-gen", "validation-gen", "supportsSubresource", "isSubresource",
	"deprecated", "register-gen", "openapi-model-package", "protobuf",
	"validateFalse", "validateTrue", "validateError",
}

// plainNames maps unprefixed tags (openapi-gen, KEP-4153, controller-tools'
// short markers) to canonical names.
var plainNames = map[string]string{
	"optional": "optional", "required": "required", "nullable": "nullable",
	"default": "default", "enum": "enum", "listType": "listType", "listMapKey": "listMapKey",
	"mapType": "mapType", "structType": "structType",
	"union": "union", "unionDiscriminator": "unionDiscriminator", "unionDeprecated": "unionDeprecated",
	"discriminator": "unionDiscriminator",
	"oneOf":         "oneOf", "zeroOrOneOf": "zeroOrOneOf", "featureGate": "featureGate",
	"minimum": "minimum", "maximum": "maximum", "exclusiveMinimum": "exclusiveMinimum",
	"exclusiveMaximum": "exclusiveMaximum", "multipleOf": "multipleOf",
	"minLength": "minLength", "maxLength": "maxLength", "minItems": "minItems", "maxItems": "maxItems",
	"minProperties": "minProperties", "maxProperties": "maxProperties", "uniqueItems": "uniqueItems",
	"pattern": "pattern", "format": "format", "nameFormat": "format",
	"validationRule": "validationRule", "validationError": "validationError", "immutable": "immutable",
	"uniqueKey": "uniqueKey", "defaultFrom": "defaultFrom", "defaultExpression": "defaultExpression", "skipUpdateValidation": "skipUpdateValidation", "skipUpdateValidationIfOldInvalid": "skipUpdateValidationIfOldInvalid", "skipValidation": "skipValidation", "noEnum": "noEnum", "reportedAt": "reportedAt", "keepZero": "keepZero", "ratcheting": "ratcheting",
	"groupName": "groupName", "versionName": "versionName",
	"patchStrategy": "patchStrategy", "patchMergeKey": "patchMergeKey",
	"genclient": "genclient", "genclient:nonNamespaced": "nonNamespaced",
	"title": "title", "example": "example",
}

// plainIgnored are unprefixed tags of other generators.
var plainIgnored = []string{"build", "protobuf", "genclient:", "groupGoName", "deprecated", "listMapKeys", "k8s"}

// kubebuilderNames maps marker names after "+kubebuilder:" to canonical
// names (controller-tools pkg/crd/markers).
var kubebuilderNames = map[string]string{
	"default": "default", "example": "example", "title": "title",
	"pruning:PreserveUnknownFields": "preserveUnknownFields",
	"object:root":                   "objectRoot", "resource": "resource",
	"subresource:status": "subresourceStatus", "subresource:scale": "subresourceScale",
	"printcolumn": "printColumn", "storageversion": "storageVersion",
	"deprecatedversion": "deprecatedVersion", "skipversion": "skipVersion",
	"unservedversion": "unservedVersion", "selectablefield": "selectableField",
	"metadata": "metadata", "skip": "skip", "externalDocs": "externalDocs",
	"validation:Required": "required", "validation:Optional": "optional",
	"validation:Schemaless": "schemaless", "validation:EmbeddedResource": "embeddedResource",
	"validation:ExactlyOneOf": "exactlyOneOf", "validation:AtMostOneOf": "atMostOneOf",
	"validation:AtLeastOneOf": "atLeastOneOf",
}

// kubebuilderValidation maps the validation markers that also exist with
// the "validation:items:" prefix.
var kubebuilderValidation = map[string]string{
	"Maximum": "maximum", "Minimum": "minimum", "ExclusiveMaximum": "exclusiveMaximum",
	"ExclusiveMinimum": "exclusiveMinimum", "MultipleOf": "multipleOf",
	"MinProperties": "minProperties", "MaxProperties": "maxProperties",
	"MaxLength": "maxLength", "MinLength": "minLength", "Pattern": "pattern",
	"MaxItems": "maxItems", "MinItems": "minItems", "UniqueItems": "uniqueItems",
	"Enum": "enum", "Format": "format", "Type": "type",
	"XPreserveUnknownFields": "preserveUnknownFields", "XEmbeddedResource": "embeddedResource",
	"XIntOrString": "intOrString", "XValidation": "validationRule", "Nullable": "nullable",
}

// kubebuilderIgnored are markers of other controller-tools generators.
var kubebuilderIgnored = []string{"object:generate", "ac:", "rbac:", "webhook:", "skipclient", "subresource:"}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if s == p || strings.HasPrefix(s, p) && (strings.HasSuffix(p, ":") || strings.ContainsAny(s[len(p):len(p)+1], ":.=(-")) {
			return true
		}
	}
	return false
}
