package openapi

import "kdv.dev/schema"

// Well-known types whose JSON form is not their Go structure (they
// implement json.Unmarshaler and kube-openapi's OpenAPISchemaType /
// OpenAPIV3OneOfTypes). Their definitions are what the apiserver publishes
// in /openapi/v3.
const (
	metav1        = "k8s.io/apimachinery/pkg/apis/meta/v1."
	idTime        = metav1 + "Time"
	idMicroTime   = metav1 + "MicroTime"
	idDuration    = metav1 + "Duration"
	idFieldsV1    = metav1 + "FieldsV1"
	idQuantity    = "k8s.io/apimachinery/pkg/api/resource.Quantity"
	idIntOrString = "k8s.io/apimachinery/pkg/util/intstr.IntOrString"
	idRawExt      = "k8s.io/apimachinery/pkg/runtime.RawExtension"
	idUnknown     = "k8s.io/apimachinery/pkg/runtime.Unknown"
	idUnstruct    = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured"
	idGoTime      = "time.Time"
	idGoDuration  = "time.Duration"
)

// wellKnown returns the published schema of a well-known type (without
// description), or nil.
func wellKnown(id string) *schema.Props {
	switch id {
	case idTime, idMicroTime, idGoTime:
		return &schema.Props{Type: "string", Format: "date-time"}
	case idDuration:
		return &schema.Props{Type: "string"}
	case idQuantity:
		// resource.Quantity: OpenAPIV3OneOfTypes string, number.
		return &schema.Props{OneOf: []schema.Props{{Type: "string"}, {Type: "number"}}}
	case idIntOrString:
		// intstr.IntOrString: format int-or-string, OpenAPIV3OneOfTypes
		// integer, string.
		return &schema.Props{Format: "int-or-string", OneOf: []schema.Props{{Type: "integer"}, {Type: "string"}}}
	case idRawExt, idFieldsV1, idUnknown:
		return &schema.Props{Type: "object"}
	case idUnstruct:
		t := true
		return &schema.Props{Type: "object", XPreserveUnknownFields: &t}
	}
	return nil
}

// inlineWellKnown are well-known types that are not published as
// definitions but inlined (types outside any API package).
func inlineWellKnown(id string) bool { return id == idGoTime }

// customJSON lists types with their own JSON (un)marshalling: openapi-gen
// enforces no zero default for them (their zero value is null).
func customJSON(id string) bool {
	switch id {
	case idTime, idMicroTime, idDuration, idFieldsV1, idQuantity, idIntOrString, idRawExt, idUnknown, idUnstruct, idGoTime:
		return true
	}
	return false
}

// basicSchema maps a Go basic type to OpenAPI type and format
// (kube-openapi pkg/common schemaTypeFormatMap) and its JSON zero value.
func basicSchema(name string) (typ, format string, zero any, ok bool) {
	switch name {
	case "string":
		return "string", "", "", true
	case "bool":
		return "boolean", "", false, true
	case "int", "int16", "int32", "uint", "uint16":
		return "integer", "int32", int64(0), true
	case "int8", "uint8":
		return "integer", "byte", int64(0), true
	case "int64", "uint32", "uint64":
		return "integer", "int64", int64(0), true
	case "float64":
		return "number", "double", float64(0), true
	case "float32":
		return "number", "float", float64(0), true
	}
	return "", "", nil, false
}
