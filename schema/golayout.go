package schema

import (
	"bytes"
	"encoding/json"
	"sort"
)

// GoStruct is the layout of the apiserver's internal Go struct behind a
// node of a built-in kind's schema (set by package builtin; nil for CRDs
// and for nodes that are not structs). Hand-written validation reports a
// struct-valued bad value (field.Invalid(path, spec.Template, ...),
// field.Duplicate(path, port)) and field.Error prints it with
// encoding/json: internal types have no json tags, so the keys are the Go
// field names, in Go order, every field present (zero values included)
// and embedded structs flattened; apimachinery types (ObjectMeta,
// LabelSelector, Quantity, Time) keep their own JSON.
type GoStruct struct {
	Fields []GoStructField
}

// GoStructField is one field of a GoStruct.
type GoStructField struct {
	// Key is the name printed.
	Key string
	// JSON is the versioned object's property holding the value; "" for a
	// field the versioned type lacks (always its zero value).
	JSON string
	// Zero is the JSON of the field's zero value, printed when the
	// property is absent; "" is null (or Struct's zero struct with Value).
	Zero string
	// Struct is the layout of a struct or pointer-to-struct field, Elem
	// that of the items of a slice or the values of a map of structs.
	Struct, Elem *GoStruct
	// Value: Struct is held by value, so an absent field prints its zero
	// struct rather than null.
	Value bool
	// Splice: an embedded struct the versioned object keeps under JSON
	// (ObjectMeta under "metadata"), whose fields print at this level.
	Splice bool
	// OmitEmpty: json's omitempty/omitzero; an empty value is not printed.
	OmitEmpty bool
}

// GoValue returns v as field.Error prints the apiserver's internal Go
// value of the node s: a json.RawMessage with the struct layout when s (or
// the items or values of s) has a GoStruct and v is an object (or a list
// or map of them), v unchanged otherwise.
func GoValue(s *Structural, v any) any {
	if s == nil || v == nil {
		return v
	}
	var b bytes.Buffer
	switch x := v.(type) {
	case map[string]any:
		switch {
		case s.Go != nil:
			s.Go.write(&b, x)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil && s.AdditionalProperties.Structural.Go != nil:
			writeMap(&b, s.AdditionalProperties.Structural.Go, x)
		default:
			return v
		}
	case []any:
		if s.Items == nil || s.Items.Go == nil {
			return v
		}
		writeList(&b, s.Items.Go, x)
	default:
		return v
	}
	return json.RawMessage(b.Bytes())
}

// Print returns obj, a versioned object of g's type, as field.Error
// prints the internal Go struct (encoding/json).
func (g *GoStruct) Print(obj map[string]any) json.RawMessage {
	var b bytes.Buffer
	g.write(&b, obj)
	return json.RawMessage(b.Bytes())
}

func (g *GoStruct) write(b *bytes.Buffer, obj map[string]any) {
	b.WriteByte('{')
	first := true
	g.fields(b, obj, &first)
	b.WriteByte('}')
}

// fields writes g's fields of obj (nil: all absent) into an open object.
func (g *GoStruct) fields(b *bytes.Buffer, obj map[string]any, first *bool) {
	for i := range g.Fields {
		f := &g.Fields[i]
		if f.Splice {
			if f.Struct != nil {
				sub, _ := obj[f.JSON].(map[string]any)
				f.Struct.fields(b, sub, first)
			}
			continue
		}
		var val any
		if f.JSON != "" {
			val = obj[f.JSON]
		}
		if f.OmitEmpty && EmptyValue(val) {
			continue
		}
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		writeString(b, f.Key)
		b.WriteByte(':')
		f.value(b, val)
	}
}

func (f *GoStructField) value(b *bytes.Buffer, val any) {
	switch x := val.(type) {
	case nil:
		switch {
		case f.Value && f.Struct != nil:
			f.Struct.write(b, nil)
		case f.Zero != "":
			b.WriteString(f.Zero)
		default:
			b.WriteString("null")
		}
		return
	case map[string]any:
		switch {
		case f.Struct != nil:
			f.Struct.write(b, x)
			return
		case f.Elem != nil:
			writeMap(b, f.Elem, x)
			return
		}
	case []any:
		if f.Elem != nil {
			writeList(b, f.Elem, x)
			return
		}
	}
	writeJSON(b, val)
}

func writeList(b *bytes.Buffer, g *GoStruct, l []any) {
	b.WriteByte('[')
	for i, it := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		if m, ok := it.(map[string]any); ok {
			g.write(b, m)
		} else {
			writeJSON(b, it)
		}
	}
	b.WriteByte(']')
}

// writeMap writes a Go map of structs: encoding/json sorts its keys.
func writeMap(b *bytes.Buffer, g *GoStruct, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, k)
		b.WriteByte(':')
		if o, ok := m[k].(map[string]any); ok {
			g.write(b, o)
		} else {
			writeJSON(b, m[k])
		}
	}
	b.WriteByte('}')
}

func writeString(b *bytes.Buffer, s string) {
	j, _ := json.Marshal(s)
	b.Write(j)
}

func writeJSON(b *bytes.Buffer, v any) {
	j, err := json.Marshal(v)
	if err != nil {
		b.WriteString("null")
		return
	}
	b.Write(j)
}

// EmptyValue is encoding/json's omitempty test on a decoded JSON value:
// nil, "", false, zero numbers and empty lists and maps. It is also what
// hand-written Go code means by a field it tests with len(...) == 0 or
// against its zero value.
func EmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	case int:
		return x == 0
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}
