package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	sigsjson "sigs.k8s.io/json"
	"strconv"
)

// Props decoding works on one generic decode of the whole schema
// (json.Decoder with UseNumber), so that decoding is linear in the input:
// a per-node UnmarshalJSON would re-scan every subtree once per ancestor,
// which is quadratic on deeply nested schemas.

// decodeError is a decoding error at a JSON path inside a schema.
type decodeError struct {
	path string
	msg  string
}

// Error renders "path: message".
func (e *decodeError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeErr(path *jpath, v any, want string) error {
	return &decodeError{path: path.String(), msg: fmt.Sprintf("cannot decode %s into %s", kindOf(v), want)}
}

// decodeGeneric parses JSON into nil, bool, json.Number, string, []any and
// map[string]any.
func decodeGeneric(b []byte) (any, error) {
	if v, ok := decodeJSONFast(b); ok {
		return v, nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("invalid JSON: data after the top-level value")
	}
	return v, nil
}

// plainJSON converts json.Number to int64 (integral) or float64, the
// apiserver's unstructured convention (k8s.io/apimachinery/pkg/util/json).
func plainJSON(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = plainJSON(t[i])
		}
		return t
	case map[string]any:
		for k := range t {
			t[k] = plainJSON(t[k])
		}
		return t
	}
	return v
}

// UnmarshalJSON decodes a schema object, keeping unknown keys in Extra.
func (p *Props) UnmarshalJSON(b []byte) error {
	v, err := decodeGeneric(b)
	if err != nil {
		return err
	}
	q, err := propsFrom(v, nil)
	if err != nil {
		return err
	}
	if q == nil {
		q = &Props{}
	}
	*p = *q
	return nil
}

// propsFrom builds Props from a generic value; nil for JSON null.
func propsFrom(v any, path *jpath) (*Props, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeErr(path, v, "a schema object")
	}
	p := &Props{}
	for k, x := range m {
		if err := p.setKey(k, x, path.key(k)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func decStr(x any, path *jpath, out *string) error {
	if x == nil {
		return nil
	}
	s, ok := x.(string)
	if !ok {
		return typeErr(path, x, "string")
	}
	*out = s
	return nil
}

func boolean(x any, path *jpath, out *bool) error {
	if x == nil {
		return nil
	}
	b, ok := x.(bool)
	if !ok {
		return typeErr(path, x, "boolean")
	}
	*out = b
	return nil
}

func float(x any, path *jpath, out **float64) error {
	if x == nil {
		return nil
	}
	n, ok := x.(json.Number)
	if !ok {
		return typeErr(path, x, "number")
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return &decodeError{path: path.String(), msg: fmt.Sprintf("invalid number %s", n)}
	}
	*out = &f
	return nil
}

func integer(x any, path *jpath, out **int64) error {
	if x == nil {
		return nil
	}
	n, ok := x.(json.Number)
	if !ok {
		return typeErr(path, x, "integer")
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return &decodeError{path: path.String(), msg: fmt.Sprintf("cannot decode number %s into int64", n)}
	}
	*out = &i
	return nil
}

func strPtr(x any, path *jpath, out **string) error {
	if x == nil {
		return nil
	}
	var s string
	if err := decStr(x, path, &s); err != nil {
		return err
	}
	*out = &s
	return nil
}

func strList(x any, path *jpath, out *[]string) error {
	if x == nil {
		return nil
	}
	l, ok := x.([]any)
	if !ok {
		return typeErr(path, x, "array of strings")
	}
	r := make([]string, len(l))
	for i, e := range l {
		if err := decStr(e, path.idx(i), &r[i]); err != nil {
			return err
		}
	}
	*out = r
	return nil
}

func propsList(x any, path *jpath, out *[]Props) error {
	if x == nil {
		return nil
	}
	l, ok := x.([]any)
	if !ok {
		return typeErr(path, x, "array of schemas")
	}
	r := make([]Props, len(l))
	for i, e := range l {
		q, err := propsFrom(e, path.idx(i))
		if err != nil {
			return err
		}
		if q != nil {
			r[i] = *q
		}
	}
	*out = r
	return nil
}

func propsMap(x any, path *jpath, out *map[string]Props) error {
	if x == nil {
		return nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		return typeErr(path, x, "object of schemas")
	}
	r := make(map[string]Props, len(m))
	for k, e := range m {
		q, err := propsFrom(e, path.key(k))
		if err != nil {
			return err
		}
		if q == nil {
			q = &Props{}
		}
		r[k] = *q
	}
	*out = r
	return nil
}

func propsOrBool(x any, path *jpath, out **PropsOrBool) error {
	switch t := x.(type) {
	case nil:
		return nil
	case bool:
		*out = &PropsOrBool{Allows: t}
		return nil
	}
	q, err := propsFrom(x, path)
	if err != nil {
		return err
	}
	*out = &PropsOrBool{Allows: true, Schema: q}
	return nil
}

// viaJSON decodes small leaf values (validation rules, lifecycle, unions,
// external docs) with encoding/json.
func viaJSON(x any, path *jpath, out any) error {
	if x == nil {
		return nil
	}
	b, err := json.Marshal(x)
	if err != nil {
		return &decodeError{path: path.String(), msg: err.Error()}
	}
	// Field names match case-sensitively, as in the apiserver's decoder
	// (encoding/json would take "messAge" for "message").
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(b, out); err != nil {
		// encoding/json's error types say which field failed; on this
		// error path, ask it for the description.
		if jerr := json.Unmarshal(b, out); jerr != nil {
			err = jerr
		}
		return &decodeError{path: path.String(), msg: describeDecodeError(err).Error()}
	}
	return nil
}

func jsonPtr(x any, out **JSON) {
	if x == nil {
		return // like encoding/json: null leaves the pointer nil
	}
	*out = &JSON{Object: plainJSON(x)}
}

// setKey decodes one key of a schema object.
func (p *Props) setKey(k string, x any, path *jpath) error {
	switch k {
	case "id":
		return decStr(x, path, &p.ID)
	case "$schema":
		return decStr(x, path, &p.Schema)
	case "$ref":
		return strPtr(x, path, &p.Ref)
	case "description":
		return decStr(x, path, &p.Description)
	case "type":
		return decStr(x, path, &p.Type)
	case "format":
		return decStr(x, path, &p.Format)
	case "title":
		return decStr(x, path, &p.Title)
	case "default":
		jsonPtr(x, &p.Default)
	case "maximum":
		return float(x, path, &p.Maximum)
	case "exclusiveMaximum":
		return boolean(x, path, &p.ExclusiveMaximum)
	case "minimum":
		return float(x, path, &p.Minimum)
	case "exclusiveMinimum":
		return boolean(x, path, &p.ExclusiveMinimum)
	case "maxLength":
		return integer(x, path, &p.MaxLength)
	case "minLength":
		return integer(x, path, &p.MinLength)
	case "pattern":
		return decStr(x, path, &p.Pattern)
	case "maxItems":
		return integer(x, path, &p.MaxItems)
	case "minItems":
		return integer(x, path, &p.MinItems)
	case "uniqueItems":
		return boolean(x, path, &p.UniqueItems)
	case "multipleOf":
		return float(x, path, &p.MultipleOf)
	case "enum":
		if x == nil {
			return nil
		}
		l, ok := x.([]any)
		if !ok {
			return typeErr(path, x, "array")
		}
		p.Enum = make([]JSON, len(l))
		for i, e := range l {
			p.Enum[i] = JSON{Object: plainJSON(e)}
		}
	case "maxProperties":
		return integer(x, path, &p.MaxProperties)
	case "minProperties":
		return integer(x, path, &p.MinProperties)
	case "required":
		return strList(x, path, &p.Required)
	case "items":
		switch t := x.(type) {
		case nil:
		case []any:
			p.Items = &PropsOrArray{}
			return propsList(t, path, &p.Items.Schemas)
		default:
			q, err := propsFrom(x, path)
			if err != nil {
				return err
			}
			p.Items = &PropsOrArray{Schema: q}
		}
	case "allOf":
		return propsList(x, path, &p.AllOf)
	case "oneOf":
		return propsList(x, path, &p.OneOf)
	case "anyOf":
		return propsList(x, path, &p.AnyOf)
	case "not":
		q, err := propsFrom(x, path)
		p.Not = q
		return err
	case "properties":
		return propsMap(x, path, &p.Properties)
	case "additionalProperties":
		return propsOrBool(x, path, &p.AdditionalProperties)
	case "patternProperties":
		return propsMap(x, path, &p.PatternProperties)
	case "dependencies":
		if x == nil {
			return nil
		}
		m, ok := x.(map[string]any)
		if !ok {
			return typeErr(path, x, "object")
		}
		p.Dependencies = make(map[string]PropsOrStringList, len(m))
		for dk, dv := range m {
			var d PropsOrStringList
			if _, isList := dv.([]any); isList {
				if err := strList(dv, path.key(dk), &d.Property); err != nil {
					return err
				}
			} else {
				q, err := propsFrom(dv, path.key(dk))
				if err != nil {
					return err
				}
				d.Schema = q
			}
			p.Dependencies[dk] = d
		}
	case "additionalItems":
		return propsOrBool(x, path, &p.AdditionalItems)
	case "definitions":
		return propsMap(x, path, &p.Definitions)
	case "externalDocs":
		if x != nil {
			p.ExternalDocs = &ExternalDocumentation{}
			return viaJSON(x, path, p.ExternalDocs)
		}
	case "example":
		jsonPtr(x, &p.Example)
	case "nullable":
		return boolean(x, path, &p.Nullable)
	case "x-kubernetes-preserve-unknown-fields":
		if x == nil {
			return nil
		}
		var b bool
		if err := boolean(x, path, &b); err != nil {
			return err
		}
		p.XPreserveUnknownFields = &b
	case "x-kubernetes-embedded-resource":
		return boolean(x, path, &p.XEmbeddedResource)
	case "x-kubernetes-int-or-string":
		return boolean(x, path, &p.XIntOrString)
	case "x-kubernetes-list-map-keys":
		return strList(x, path, &p.XListMapKeys)
	case "x-kubernetes-list-type":
		return strPtr(x, path, &p.XListType)
	case "x-kubernetes-map-type":
		return strPtr(x, path, &p.XMapType)
	case "x-kubernetes-validations":
		if fastValidations(x, &p.XValidations) {
			return nil
		}
		return viaJSON(x, path, &p.XValidations)
	case "x-kubernetes-api-lifecycle":
		if fastLifecycle(x, &p.XAPILifecycle) {
			return nil
		}
		return viaJSON(x, path, &p.XAPILifecycle)
	case "x-kubernetes-unions":
		return viaJSON(x, path, &p.XUnions)
	case "x-kubernetes-validation-errors":
		return viaJSON(x, path, &p.XValidationErrors)
	case "x-kubernetes-strip-zero":
		return boolean(x, path, &p.XStripZero)
	case "x-kubernetes-list-unique":
		var b bool
		if err := boolean(x, path, &b); err != nil {
			return err
		}
		p.XListUnique = &b
	case "x-kubernetes-unique-key":
		return viaJSON(x, path, &p.XUniqueKey)
	default:
		if p.Extra == nil {
			p.Extra = map[string]any{}
		}
		p.Extra[k] = plainJSON(x)
	}
	return nil
}
