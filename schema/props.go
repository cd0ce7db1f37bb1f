package schema

import (
	"bytes"
	"encoding/json"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Props is an OpenAPI v3 schema object exactly as written: the shape of
// apiextensions.k8s.io/v1 JSONSchemaProps (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1/types_jsonschema.go) plus the extensions kdv
// implements. It can hold non-structural schemas, so that Check can report
// what is wrong with them; NewStructural turns a valid Props into a
// Structural.
//
// Numbers in Default, Example and Enum are int64 when integral and float64
// otherwise, the apiserver's unstructured convention.
type Props struct {
	ID          string  `json:"id,omitempty"`
	Schema      string  `json:"$schema,omitempty"`
	Ref         *string `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Type        string  `json:"type,omitempty"`
	Format      string  `json:"format,omitempty"`
	Title       string  `json:"title,omitempty"`
	Default     *JSON   `json:"default,omitempty"`

	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"`
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	UniqueItems      bool     `json:"uniqueItems,omitempty"`
	MultipleOf       *float64 `json:"multipleOf,omitempty"`
	Enum             []JSON   `json:"enum,omitempty"`
	MaxProperties    *int64   `json:"maxProperties,omitempty"`
	MinProperties    *int64   `json:"minProperties,omitempty"`
	Required         []string `json:"required,omitempty"`

	Items                *PropsOrArray                `json:"items,omitempty"`
	AllOf                []Props                      `json:"allOf,omitempty"`
	OneOf                []Props                      `json:"oneOf,omitempty"`
	AnyOf                []Props                      `json:"anyOf,omitempty"`
	Not                  *Props                       `json:"not,omitempty"`
	Properties           map[string]Props             `json:"properties,omitempty"`
	AdditionalProperties *PropsOrBool                 `json:"additionalProperties,omitempty"`
	PatternProperties    map[string]Props             `json:"patternProperties,omitempty"`
	Dependencies         map[string]PropsOrStringList `json:"dependencies,omitempty"`
	AdditionalItems      *PropsOrBool                 `json:"additionalItems,omitempty"`
	Definitions          map[string]Props             `json:"definitions,omitempty"`
	ExternalDocs         *ExternalDocumentation       `json:"externalDocs,omitempty"`
	Example              *JSON                        `json:"example,omitempty"`
	Nullable             bool                         `json:"nullable,omitempty"`

	XPreserveUnknownFields *bool            `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool             `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool             `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string         `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string          `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string          `json:"x-kubernetes-map-type,omitempty"`
	XValidations           []ValidationRule `json:"x-kubernetes-validations,omitempty"`

	// XAPILifecycle is KEP-2558's x-kubernetes-api-lifecycle, keyed by component.
	XAPILifecycle map[string]Lifecycle `json:"x-kubernetes-api-lifecycle,omitempty"`
	// XUnions is x-kubernetes-unions (KEP-1027): union members and discriminators.
	XUnions []Union `json:"x-kubernetes-unions,omitempty"`
	// XValidationErrors overrides message and reason per value-validation keyword.
	XValidationErrors map[string]ValidationError `json:"x-kubernetes-validation-errors,omitempty"`
	// XStripZero marks a field whose zero value is dropped before validation.
	XStripZero bool `json:"x-kubernetes-strip-zero,omitempty"`
	// XListUnique is x-kubernetes-list-unique: false on a set or map list
	// says that its list type is merge metadata only and the apiserver
	// does not enforce unique items or keys (built-in types, where
	// uniqueness is checked by hand-written code or validation-gen rules
	// where at all); nil means enforced, as for custom resources.
	XListUnique *bool `json:"x-kubernetes-list-unique,omitempty"`
	// XUniqueKey is x-kubernetes-unique-key on a list of objects: the name
	// of an item property whose non-empty values must differ between items
	// (built-in types, where hand-written validation keeps a set of the
	// names seen, e.g. container port names, and reports each repeat at
	// list[i].<key> as Duplicate; x-kubernetes-validation-errors key
	// "uniqueKey" overrides the error). Items without the property, or
	// with an empty or zero value, are not compared. "a,b" names a tuple
	// of properties (every repeat reported at list[i], with the item),
	// "a+b" the property a qualified by b (a repeats only with an equal b,
	// reported as a single key is);
	// several keys are separated by ";" ("name;devicePath": each has its
	// own set of values seen, as ValidateVolumeDevices keeps for device
	// names and paths).
	XUniqueKey string `json:"x-kubernetes-unique-key,omitempty"`

	// Extra holds every other key (unknown x-kubernetes-* extensions such as
	// x-kubernetes-group-version-kind, and unknown keywords), kept so that
	// nothing is lost on a round trip and Check can report them.
	Extra map[string]any `json:"-"`
}

// JSON wraps an arbitrary JSON value (nil, bool, int64, float64, string,
// []any, map[string]any). A *JSON that is non-nil with a nil Object is an
// explicit JSON null, which matters for default: null.
type JSON struct {
	Object any
}

// MarshalJSON writes the wrapped value.
func (j JSON) MarshalJSON() ([]byte, error) { return json.Marshal(j.Object) }

// UnmarshalJSON reads any JSON value with integral numbers as int64.
func (j *JSON) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		j.Object = nil
		return nil
	}
	var v any
	if err := utiljson.Unmarshal(b, &v); err != nil {
		return err
	}
	j.Object = v
	return nil
}

// PropsOrArray is the value of items: one schema, or (JSON Schema tuple form,
// forbidden in structural schemas) an array of schemas.
type PropsOrArray struct {
	Schema  *Props
	Schemas []Props
}

// MarshalJSON writes the single schema or the array.
func (p PropsOrArray) MarshalJSON() ([]byte, error) {
	if p.Schemas != nil {
		return json.Marshal(p.Schemas)
	}
	return json.Marshal(p.Schema)
}

// UnmarshalJSON accepts an object or an array.
func (p *PropsOrArray) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		p.Schemas = []Props{}
		return json.Unmarshal(b, &p.Schemas)
	}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	p.Schema = &Props{}
	return json.Unmarshal(b, p.Schema)
}

// PropsOrBool is the value of additionalProperties and additionalItems: a
// boolean or a schema (a schema means Allows).
type PropsOrBool struct {
	Allows bool
	Schema *Props
}

// MarshalJSON writes the schema, or the boolean when there is none.
func (p PropsOrBool) MarshalJSON() ([]byte, error) {
	if p.Schema != nil {
		return json.Marshal(p.Schema)
	}
	return json.Marshal(p.Allows)
}

// UnmarshalJSON accepts a boolean or an object.
func (p *PropsOrBool) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("true")):
		*p = PropsOrBool{Allows: true}
	case bytes.Equal(b, []byte("false")), bytes.Equal(b, []byte("null")):
		*p = PropsOrBool{}
	default:
		p.Allows = true
		p.Schema = &Props{}
		return json.Unmarshal(b, p.Schema)
	}
	return nil
}

// PropsOrStringList is a value of dependencies: a schema or a list of
// property names.
type PropsOrStringList struct {
	Schema   *Props
	Property []string
}

// MarshalJSON writes the schema or the list.
func (p PropsOrStringList) MarshalJSON() ([]byte, error) {
	if p.Schema != nil {
		return json.Marshal(p.Schema)
	}
	return json.Marshal(p.Property)
}

// UnmarshalJSON accepts a list of strings or an object.
func (p *PropsOrStringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, &p.Property)
	}
	p.Schema = &Props{}
	return json.Unmarshal(b, p.Schema)
}

// ExternalDocumentation references external documentation of a schema.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// ValidationRule is one x-kubernetes-validations entry (apiextensions v1
// ValidationRule): a CEL expression over self (and oldSelf for transition
// rules).
type ValidationRule struct {
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	// Reason is FieldValueInvalid, FieldValueForbidden, FieldValueRequired
	// or FieldValueDuplicate; nil means FieldValueInvalid.
	Reason          *string `json:"reason,omitempty"`
	FieldPath       string  `json:"fieldPath,omitempty"`
	OptionalOldSelf *bool   `json:"optionalOldSelf,omitempty"`
	// Diff is kdv's x-kubernetes-diff of a built-in kind's rule (see
	// RuleDiff); never set in a CRD.
	Diff *RuleDiff `json:"x-kubernetes-diff,omitempty"`
}

// RuleDiff (x-kubernetes-diff on an x-kubernetes-validations entry of a
// built-in kind, kdv's extension) appends to the rule's message what
// k8s.io/apimachinery's diff.Diff(old, new) prints for the value the
// hand-written check compared: ValidatePodUpdate ends its "pod updates may
// not change fields other than ..." with the unified diff of the indented
// JSON of the old and the munged new internal PodSpec. The hand-written
// code first copies the fields an update may change from the old value
// into the new one (Keep), or fills the old value's empty fields from the
// new one (Fill), so that the diff shows only what was refused.
type RuleDiff struct {
	// Path is the value diffed, a field path below self (".spec").
	Path string `json:"path"`
	// Keep are sub-paths of that value (".containers[*].image": property
	// names, "[*]" for the items of a list, matched by index) that the
	// new value takes from the old one before the diff; "<path> if
	// <CEL expression over self and oldSelf>" only when it holds (a gated
	// pod's nodeSelector).
	Keep []string `json:"keep,omitempty"`
	// Fill are sub-paths that the old value takes from the new one when
	// the old one is absent or empty (a volumeName that may be set once),
	// with conditions as Keep's.
	Fill []string `json:"fill,omitempty"`
	// Only, when set, are the properties of the value printed (in the
	// internal struct's order), the others left out: the diff of a Go
	// struct embedded in the value's struct (PersistentVolumeSource in
	// PersistentVolumeSpec).
	Only []string `json:"only,omitempty"`
	// Since is the first Kubernetes release ("1.34") whose message ends
	// with this diff; the generator of the embedded data drops the diff
	// from earlier releases and clears Since (1.30 to 1.33 print go-cmp's
	// cmp.Diff, whose output go-cmp randomises on purpose).
	Since string `json:"since,omitempty"`
}

// Lifecycle is one component's entry of x-kubernetes-api-lifecycle
// (KEP-2558): since which version the field exists, at which maturity, and
// behind which feature gate.
type Lifecycle struct {
	MinVersion  string `json:"minVersion,omitempty"`
	Status      string `json:"status,omitempty"` // alpha, beta, stable, deprecated
	FeatureGate string `json:"featureGate,omitempty"`
}

// Union is one x-kubernetes-unions entry (KEP-1027): the member fields of a
// union and its optional discriminator.
type Union struct {
	// Discriminator names the property that says which member is set.
	Discriminator string `json:"discriminator,omitempty"`
	// Fields maps member property names to their discriminator values.
	Fields map[string]string `json:"fields-to-discriminateBy,omitempty"`
	// ZeroOrOneOf allows no member to be set (validation-gen zeroOrOneOf).
	ZeroOrOneOf bool `json:"zeroOrOneOf,omitempty"`
}

// ValidationError overrides the message and reason of the error one value
// validation keyword (x-kubernetes-validation-errors key, e.g. "pattern")
// produces.
type ValidationError struct {
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// At "list" reports the error of a list's item at the list (the path
	// without its last index), as hand-written validation that checks each
	// item but reports at the list (field.NotSupported(fldPath.Child(
	// "accessModes"), mode, ...)); "" at the value's own path.
	At string `json:"at,omitempty"`
}

// propsKnownKeys lists every key Props decodes into a field; any other key
// goes to Extra.
var propsKnownKeys = func() map[string]bool {
	m := map[string]bool{}
	t := jsonFieldNames(propsAlias{})
	for _, k := range t {
		m[k] = true
	}
	return m
}()

type propsAlias Props
