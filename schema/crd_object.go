package schema

import (
	"encoding/json"
	"maps"
	"strconv"
	"unicode/utf8"
)

// parseCRDObjectDirect is ParseCRDObject without the JSON round trip of
// the versions' openAPIV3Schema, most of a CRD's bytes: the rest of the CRD
// is decoded through JSON as before, and each schema is built from the
// unstructured value by the same propsFrom that Props.UnmarshalJSON uses,
// on a copy whose numbers are the json.Number texts encoding/json would
// have written. ok is false whenever the result could differ from the JSON
// path (a value JSON would change, such as invalid UTF-8, or any decoding
// error, whose message the JSON path gives); the caller then takes that
// path.
func parseCRDObjectDirect(obj map[string]any) (*CRD, bool) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return nil, false
	}
	versions, ok := spec["versions"].([]any)
	if !ok {
		return nil, false
	}
	schemas := make([]any, len(versions))
	has := make([]bool, len(versions))
	stripped := make([]any, len(versions))
	for i, v := range versions {
		vm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		stripped[i] = vm
		sch, ok := vm["schema"].(map[string]any)
		if !ok {
			continue
		}
		oas, present := sch["openAPIV3Schema"]
		if !present {
			continue
		}
		schemas[i], has[i] = oas, true
		sc := maps.Clone(sch)
		delete(sc, "openAPIV3Schema")
		vc := maps.Clone(vm)
		vc["schema"] = sc
		stripped[i] = vc
	}
	sp := maps.Clone(spec)
	sp["versions"] = stripped
	o := maps.Clone(obj)
	o["spec"] = sp
	j, err := json.Marshal(o)
	if err != nil {
		return nil, false
	}
	c, err := parseCRDJSON(j)
	if err != nil || len(c.Spec.Versions) != len(versions) {
		return nil, false
	}
	for i := range versions {
		if !has[i] {
			continue
		}
		g, ok := jsonNumbers(schemas[i])
		if !ok {
			return nil, false
		}
		p, err := propsFrom(g, nil)
		if err != nil {
			return nil, false
		}
		if c.Spec.Versions[i].Schema == nil {
			return nil, false // cannot happen: schema was an object
		}
		c.Spec.Versions[i].Schema.OpenAPIV3Schema = p
	}
	c.unknown, c.parsed = unknownCRDFields(obj), true
	return c, true
}

// jsonNumbers deep-copies an unstructured value as decodeGeneric would
// decode its JSON encoding: numbers become the json.Number text
// encoding/json writes for them. It fails for what the encoding would
// change or reject (invalid UTF-8, other Go types, NaN).
func jsonNumbers(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool:
		return t, true
	case string:
		return t, utf8.ValidString(t)
	case int64:
		return json.Number(strconv.FormatInt(t, 10)), true
	case float64:
		b, err := json.Marshal(t)
		if err != nil {
			return nil, false
		}
		return json.Number(b), true
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			var ok bool
			if out[i], ok = jsonNumbers(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if !utf8.ValidString(k) {
				return nil, false
			}
			c, ok := jsonNumbers(e)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	}
	return nil, false
}
