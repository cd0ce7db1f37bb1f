package cel

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// handwrittenError is the error a failed rule of a built-in kind reports
// (Options.BuiltIn). A rule with a reason declares a check of
// k8s.io/kubernetes's hand-written validation (kdv's rule overlay always
// gives one) and reports what field.Invalid, field.Required, ... report
// there: value is the value at the rule's fieldPath (nil when absent,
// printed "null" as field.Error prints a nil map). A rule without a reason
// is one kdv generated from validation-gen tags, whose errors
// (validate.Immutable, validate.Update, validate.Union) carry no value
// (field.Invalid(fldPath, nil, ...), printed "null"). A detail equal to the
// error type's wording is dropped: the rule's message must not be empty
// (the CRD rules), but most hand-written errors carry no detail.
//
// A struct value (or list or map of them) at a node of a built-in kind
// prints as encoding/json prints the internal Go struct (schema.GoValue):
// node is the schema node of value.
func handwrittenError(fldPath *field.Path, value any, detail string, reason *string, node *schema.Structural) *field.Error {
	t := reasonType(reason, true)
	if reason == nil {
		value = nil
	}
	if detail == t.String() {
		detail = ""
	}
	switch t {
	case field.ErrorTypeRequired, field.ErrorTypeForbidden, field.ErrorTypeTooLong:
		// no value in the message (field.Required, field.Forbidden,
		// field.TooLong with -1)
		value = nil
	case field.ErrorTypeDuplicate:
		// field.Duplicate has no detail
		detail = ""
	case field.ErrorTypeTooMany:
		// field.TooMany reports the number of items
		if l, ok := value.([]any); ok {
			value = len(l)
		}
	}
	value = schema.GoValue(node, value)
	return &field.Error{Type: t, Field: fldPath.String(), BadValue: value, Detail: detail}
}

// absentValue is the value hand-written validation sees, and prints, at
// the end of steps (property names, map keys, "*" for list items) of s
// when the field is missing (each.go's "-" steps too): the zero value of a scalar marked
// x-kubernetes-strip-zero, a Go field that is neither a pointer nor
// required (field.Invalid(fldPath.Child("action"), event.Action, ...)
// prints "" for a missing action, not null); nil (printed null) for every
// other node, as for a nil pointer, slice or map. Structs are left alone:
// their Go zero value prints with Go field names, which the schema does not
// keep.
func absentValue(s *schema.Structural, steps []string) any {
	s = nodeAt(s, steps)
	if s == nil || !s.XStripZero {
		return nil
	}
	switch s.Type {
	case "string":
		return ""
	case "integer":
		return int64(0)
	case "number":
		return float64(0)
	case "boolean":
		return false
	}
	return nil
}

// nodeAt is the schema node reached from s by steps (property names, map
// keys, "*", "-" and "#" for list items, "@" for a map's values), nil when they lead nowhere or to a map's key ("@k").
func nodeAt(s *schema.Structural, steps []string) *schema.Structural {
	for _, st := range steps {
		switch {
		case s == nil:
			return nil
		case st == "*" || st == "-" || st == "#":
			s = s.Items
		case st == "@k":
			// a map's key (each.go's [@]): a string, no schema node
			return nil
		case st == "@":
			if s.AdditionalProperties == nil {
				return nil
			}
			s = s.AdditionalProperties.Structural
		default:
			if p, ok := s.Properties[st]; ok {
				s = &p
			} else if s.AdditionalProperties != nil {
				s = s.AdditionalProperties.Structural
			} else {
				return nil
			}
		}
	}
	return s
}

// valueAt returns the value reached from obj by the property names and map
// keys of steps, nil when one is missing.
func valueAt(obj any, steps []string) any {
	for _, s := range steps {
		m, ok := obj.(map[string]any)
		if !ok {
			return nil
		}
		obj = m[s]
	}
	return obj
}

// reasonType is the error type a rule's reason selects: Invalid without
// one; FieldValueForbidden, FieldValueRequired, FieldValueDuplicate (the
// reasons a CRD's rules may give); with handWritten also FieldValueNotFound,
// FieldValueNotSupported, FieldValueTooLong and FieldValueTooMany. Others
// are Invalid.
func reasonType(reason *string, handWritten bool) field.ErrorType {
	if reason == nil {
		return field.ErrorTypeInvalid
	}
	switch t := field.ErrorType(*reason); t {
	case field.ErrorTypeForbidden, field.ErrorTypeRequired, field.ErrorTypeDuplicate:
		return t
	case field.ErrorTypeNotFound, field.ErrorTypeNotSupported, field.ErrorTypeTooLong, field.ErrorTypeTooMany:
		if handWritten {
			return t
		}
	}
	return field.ErrorTypeInvalid
}
