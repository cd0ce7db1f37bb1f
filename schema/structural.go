// Package schema is kdv's model of Kubernetes structural schemas: the subset
// of OpenAPI v3 that the apiserver accepts for CustomResourceDefinitions,
// plus the x-kubernetes-* extensions kdv publishes. It loads CRDs and OpenAPI
// v3 documents, checks schemas as the apiserver does on CRD create, and
// derives skeletons and published forms.
//
//   - Props is a schema as written (apiextensions.k8s.io/v1 JSONSchemaProps
//     plus Extra); NewStructural/ToProps convert to and from Structural.
//   - ParseCRD, Check and CheckDocument mirror ValidateCustomResourceDefinition
//     (pkg/apis/apiextensions/validation): exact paths, messages and order.
//     Like the apiserver, which validates the internal object a v1 create
//     converts to, errors in schemas that are identical in every version are
//     reported under spec.validation.openAPIV3Schema, and per version
//     (spec.versions[i].schema.openAPIV3Schema) otherwise. ValidateStructural
//     is the structural-schema check alone.
//   - LoadSchema reads one schema; LoadOpenAPIDocument reads OpenAPI v3 (and
//     Swagger 2.0) documents and resolves $ref, with cycles cut into
//     x-kubernetes-preserve-unknown-fields stubs (see openapi_resolve.go).
//   - Skeleton, Unfold and ToV2 derive the pruning skeleton, the published
//     form and the OpenAPI v2 form (pkg/apiserver/schema, pkg/controller/openapi).
//
// It mirrors k8s.io/apiextensions-apiserver pkg/apiserver/schema and
// pkg/apis/apiextensions/validation.
package schema

import (
	"reflect"
	"strings"
)

// Structural is a structural schema: every node specifies its type (or is
// int-or-string or preserves unknown fields), and value validations live
// apart from the structure. It mirrors the apiserver's schema.Structural.
type Structural struct {
	Items                *Structural
	Properties           map[string]Structural
	AdditionalProperties *StructuralOrBool

	Generic
	Extensions
	ValidationExtensions

	ValueValidation *ValueValidation

	// Go is the layout of the internal Go struct of a built-in kind's
	// node (see GoStruct); set by package builtin, nil elsewhere. It only
	// shapes how error messages print values.
	Go *GoStruct
}

// StructuralOrBool is additionalProperties in a structural schema: a schema
// (Bool is then true) or a boolean.
type StructuralOrBool struct {
	Structural *Structural
	Bool       bool
}

// Generic holds the schema fields that describe a node but are not allowed
// inside value validations (junctors).
type Generic struct {
	Description string
	// Type is object, array, number, integer, boolean or string; empty only
	// with x-kubernetes-preserve-unknown-fields or x-kubernetes-int-or-string.
	Type         string
	Title        string
	Default      JSON
	Nullable     bool
	ExternalDocs *ExternalDocumentation
	Example      JSON
}

// Extensions holds the structural x-kubernetes-* extensions and the
// extensions of the proposals kdv implements.
type Extensions struct {
	// XPreserveUnknownFields stops pruning below this node until nested
	// properties or additionalProperties are specified again.
	XPreserveUnknownFields bool
	// XEmbeddedResource marks an embedded runtime.Object with apiVersion,
	// kind and metadata, validated like a resource root.
	XEmbeddedResource bool
	// XIntOrString allows an integer or a string.
	XIntOrString bool
	// XListMapKeys are the keys of a list with XListType "map".
	XListMapKeys []string
	// XListType is atomic, set or map; nil when unset.
	XListType *string
	// XMapType is granular or atomic; nil when unset.
	XMapType *string

	// XAPILifecycle is KEP-2558's x-kubernetes-api-lifecycle by component.
	XAPILifecycle map[string]Lifecycle
	// XUnions is x-kubernetes-unions.
	XUnions []Union
	// XValidationErrors overrides messages and reasons per keyword.
	XValidationErrors map[string]ValidationError
	// XStripZero is x-kubernetes-strip-zero.
	XStripZero bool
	// XListUnique is x-kubernetes-list-unique (see Props.XListUnique).
	XListUnique *bool
	// XUniqueKey is x-kubernetes-unique-key (see Props.XUniqueKey).
	XUniqueKey string
	// XOther keeps every other x-kubernetes-* (and x-*) extension by key,
	// e.g. x-kubernetes-group-version-kind, so publishing loses nothing.
	XOther map[string]any
}

// ValidationExtensions holds extensions used for validation rather than
// structure.
type ValidationExtensions struct {
	XValidations []ValidationRule
}

// ValueValidation holds the schema keywords that constrain values without
// contributing to structure, with the junctors allOf/anyOf/oneOf/not.
type ValueValidation struct {
	Format           string
	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	Enum             []JSON
	MaxProperties    *int64
	MinProperties    *int64
	Required         []string
	AllOf            []NestedValueValidation
	OneOf            []NestedValueValidation
	AnyOf            []NestedValueValidation
	Not              *NestedValueValidation
}

// NestedValueValidation is a schema below a junctor: value validations,
// items and properties, and the generic fields and extensions that are
// forbidden there (kept so Check can report them).
type NestedValueValidation struct {
	ValueValidation
	ValidationExtensions

	Items                *NestedValueValidation
	Properties           map[string]NestedValueValidation
	AdditionalProperties *NestedValueValidation

	// ForbiddenGenerics and ForbiddenExtensions make the schema
	// non-structural when set, except for the two int-or-string patterns.
	ForbiddenGenerics   Generic
	ForbiddenExtensions Extensions
}

// jsonFieldNames returns the JSON names of a struct's fields.
func jsonFieldNames(v any) []string {
	t := reflect.TypeOf(v)
	var names []string
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
