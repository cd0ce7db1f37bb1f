package schema

import (
	"bufio"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateListAndMapTypes checks x-kubernetes-map-type, x-kubernetes-list-type
// and x-kubernetes-list-map-keys on one schema node, as
// ValidateCustomResourceDefinitionOpenAPISchema does on create
// (requireAtomicSetType is true on create).
func validateListAndMapTypes(out *errSink, schema *Props, fldPath *field.Path) {
	if schema.XMapType != nil && schema.Type != "object" {
		if len(schema.Type) == 0 {
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must be object if x-kubernetes-map-type is specified"))
			}
		} else {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("type"), schema.Type, "must be object if x-kubernetes-map-type is specified"))
			}
		}
	}
	if schema.XMapType != nil && *schema.XMapType != "atomic" && *schema.XMapType != "granular" {
		if out.ok() {
			out.add(field.NotSupported(fldPath.Child("x-kubernetes-map-type"), *schema.XMapType, []string{"atomic", "granular"}))
		}
	}
	if schema.XListType != nil && schema.Type != "array" {
		if len(schema.Type) == 0 {
			if out.ok() {
				out.add(field.Required(fldPath.Child("type"), "must be array if x-kubernetes-list-type is specified"))
			}
		} else {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("type"), schema.Type, "must be array if x-kubernetes-list-type is specified"))
			}
		}
	} else if schema.XListType != nil && *schema.XListType == "set" && schema.Items != nil && schema.Items.Schema != nil {
		is := schema.Items.Schema
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				if out.ok() {
					out.add(field.Invalid(fldPath.Child("items").Child("x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
				}
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				// The apiserver reports the items' list type here, not the map type.
				if out.ok() {
					out.add(field.Invalid(fldPath.Child("items").Child("x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
				}
			}
		}
	}
	if schema.XListType != nil && *schema.XListType != "atomic" && *schema.XListType != "set" && *schema.XListType != "map" {
		if out.ok() {
			out.add(field.NotSupported(fldPath.Child("x-kubernetes-list-type"), *schema.XListType, []string{"atomic", "set", "map"}))
		}
	}
	if len(schema.XListMapKeys) > 0 {
		if schema.XListType == nil {
			if out.ok() {
				out.add(field.Required(fldPath.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
			}
		} else if *schema.XListType != "map" {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("x-kubernetes-list-type"), *schema.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
			}
		}
	}
	if schema.XListType != nil && *schema.XListType == "map" {
		if len(schema.XListMapKeys) == 0 {
			if out.ok() {
				out.add(field.Required(fldPath.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
			}
		}
		if schema.Items == nil {
			if out.ok() {
				out.add(field.Required(fldPath.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
			}
		}
		if schema.Items != nil && schema.Items.Schema == nil {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("items"), toInternal(schema).Items, "must only have a single schema if x-kubernetes-list-type is map"))
			}
		}
		if schema.Items != nil && schema.Items.Schema != nil && schema.Items.Schema.Type != "object" {
			if out.ok() {
				out.add(field.Invalid(fldPath.Child("items").Child("type"), schema.Items.Schema.Type, "must be object if parent array's x-kubernetes-list-type is map"))
			}
		}
		if schema.Items != nil && schema.Items.Schema != nil && schema.Items.Schema.Type == "object" {
			keys := map[string]bool{}
			for _, k := range schema.XListMapKeys {
				if s, ok := schema.Items.Schema.Properties[k]; ok {
					if s.Type == "array" || s.Type == "object" {
						// The apiserver reports the items' type as the bad value.
						if out.ok() {
							out.add(field.Invalid(fldPath.Child("items").Child("properties").Key(k).Child("type"), schema.Items.Schema.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
						}
					}
				} else {
					if out.ok() {
						out.add(field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), schema.XListMapKeys, "entries must all be names of item properties"))
					}
				}
				if keys[k] {
					if out.ok() {
						out.add(field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), schema.XListMapKeys, "must not contain duplicate entries"))
					}
				}
				keys[k] = true
			}
		}
	}
}

// validateMapListKeysMapSet mirrors apiextensions validation
// validateMapListKeysMapSet: set and map items are not nullable, map keys are
// required or defaulted and not nullable.
func validateMapListKeysMapSet(out *errSink, schema *Props, fldPath *field.Path) {
	if schema.Items == nil || schema.Items.Schema == nil || schema.XListType == nil {
		return
	}
	if *schema.XListType != "set" && *schema.XListType != "map" {
		return
	}
	items := schema.Items.Schema
	if items.Nullable {
		if out.ok() {
			out.add(field.Forbidden(fldPath.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*schema.XListType))
		}
	}
	if *schema.XListType == "map" {
		isRequired := map[string]bool{}
		for _, r := range items.Required {
			isRequired[r] = true
		}
		for _, k := range schema.XListMapKeys {
			obj, ok := items.Properties[k]
			if !ok {
				continue
			}
			if !isRequired[k] && obj.Default == nil {
				if out.ok() {
					out.add(field.Required(fldPath.Child("items").Child("properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
			}
			if obj.Nullable {
				if out.ok() {
					out.add(field.Forbidden(fldPath.Child("items").Child("properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
				}
			}
		}
	}
}

var unescapeMatcher = regexp.MustCompile(`\\.`)

// ValidFieldPath resolves a x-kubernetes-validations fieldPath such as
// `.spec.ports['name']` against s and returns the schema it names. It
// mirrors ValidFieldPath in apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go (array notation allowed).
func ValidFieldPath(jsonPath string, s *Structural) (*Structural, error) {
	_, found, err := ResolveFieldPath(jsonPath, s, true)
	return found, err
}

// ResolveFieldPath is ValidFieldPath that also returns the field path the
// JSON path names (as the apiserver reports rule errors at it), and can
// forbid array notation (selectableFields). Errors are the apiserver's
// ("does not refer to a valid field", "expected [ or . but got: x", ...).
func ResolveFieldPath(jsonPath string, s *Structural, allowArrayNotation bool) (*field.Path, *Structural, error) {
	path, found, _, err := ResolveFieldPathSteps(jsonPath, s, allowArrayNotation)
	return path, found, err
}

// ResolveFieldPathSteps is ResolveFieldPath that also returns the property
// names and map keys the path steps through, in order (to read the value
// it names from an object).
func ResolveFieldPathSteps(jsonPath string, s *Structural, allowArrayNotation bool) (*field.Path, *Structural, []string, error) {
	var path *field.Path
	var steps []string
	scanner := bufio.NewScanner(strings.NewReader(jsonPath))
	scanner.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) > 0 {
			for i := 0; i < len(data); i++ {
				if data[0] == '\'' {
					if i > 0 && data[i] == '\'' && data[i-1] != '\\' {
						return i + 1, data[:i+1], nil
					}
					continue
				}
				switch data[i] {
				case '.', '[', ']':
					if i == 0 {
						return 1, data[:1], nil
					}
					return i, data[:i], nil
				}
			}
			if atEOF {
				return len(data), data, nil
			}
		}
		return 0, nil, nil
	})
	step := func(name string) error {
		switch {
		case s == nil:
			return errors.New("does not refer to a valid field")
		case s.Properties != nil:
			v, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			s = &v
			path = path.Child(name)
		case s.AdditionalProperties != nil:
			s = s.AdditionalProperties.Structural
			path = path.Key(name)
		default:
			return errors.New("does not refer to a valid field")
		}
		steps = append(steps, name)
		return nil
	}
	for scanner.Scan() {
		switch tok := scanner.Text(); tok {
		case "[":
			if !allowArrayNotation {
				return nil, nil, nil, errors.New("array notation is not allowed")
			}
			if !scanner.Scan() {
				return nil, nil, nil, errors.New("unexpected end of JSON path")
			}
			tok = scanner.Text()
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, nil, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			var err error
			name := unescapeMatcher.ReplaceAllStringFunc(tok[1:len(tok)-1], func(m string) string {
				if r, ok := map[byte]string{'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v", '\'': "'", '\\': "\\"}[m[1]]; ok {
					return r
				}
				err = fmt.Errorf("invalid escape char %s", m)
				return ""
			})
			if err != nil {
				return nil, nil, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := step(name); err != nil {
				return nil, nil, nil, err
			}
			if !scanner.Scan() {
				return nil, nil, nil, errors.New("unexpected end of JSON path")
			}
			if tok = scanner.Text(); tok != "]" {
				return nil, nil, nil, fmt.Errorf("expected ] but got %s", tok)
			}
		case ".":
			if !scanner.Scan() {
				return nil, nil, nil, errors.New("unexpected end of JSON path")
			}
			if err := step(scanner.Text()); err != nil {
				return nil, nil, nil, err
			}
		default:
			return nil, nil, nil, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
	return path, s, steps, nil
}
