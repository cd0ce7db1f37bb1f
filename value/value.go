// Package value is a read-only view over the two shapes kdv validates:
// unstructured JSON values (map[string]any, []any, string, bool, int64,
// float64, nil, as decoded by k8s.io/apimachinery/pkg/util/json) and typed Go
// values (structs with json tags, pointers, maps, slices), read through
// reflection without converting them to unstructured first.
//
// A Value is a small struct passed by value, with the two representations
// (unstructured and typed) behind one set of methods: a struct rather than
// an interface with two implementations, so that wrapping each visited
// value does not allocate; reading unstructured data through it allocates
// nothing. Typed values follow encoding/json's rules so
// that a typed object reads exactly like its JSON round trip would
// (see typed.go for the details and the well-known Kubernetes types).
//
// It plays the role of structured-merge-diff's value package for kdv.
package value

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Kind is the JSON kind of a Value.
type Kind uint8

// The JSON kinds. Integral numbers are KindInt (int64), others KindFloat
// (float64), following the apiserver's unstructured convention.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindMap
)

// String names the kind as JSON Schema does (null, boolean, integer, number,
// string, array, object).
func (k Kind) String() string {
	switch k {
	case KindBool:
		return "boolean"
	case KindInt:
		return "integer"
	case KindFloat:
		return "number"
	case KindString:
		return "string"
	case KindList:
		return "array"
	case KindMap:
		return "object"
	}
	return "null"
}

// Value is a read-only view of one JSON value, unstructured or typed. The
// zero Value is null.
type Value struct {
	u  any           // unstructured value, when rv is invalid
	rv reflect.Value // typed value (pointers and interfaces resolved), when valid
	ti *typeInfo     // cached type information for rv
	// js marks unstructured data held in a typed value (an interface
	// field): it reads as its JSON encoding would, integral floats as ints.
	js bool
}

// Of wraps x. Unstructured values (map[string]any, []any, string, bool,
// int64, float64, nil; int, int32, float32 and json.Number are tolerated,
// and *unstructured.Unstructured is read through its Object) are read
// directly; a Value is returned as is; anything else is read as a typed
// Go value through reflection.
func Of(x any) Value {
	switch t := x.(type) {
	case nil, map[string]any, []any, string, bool, int64, float64:
		return Value{u: x}
	case Value:
		return t
	case *Value:
		if t == nil {
			return Value{}
		}
		return *t
	case int, int32, int16, int8, uint8, uint16, uint32, uint, uint64, float32, json.Number:
		return Value{u: x}
	case *unstructured.Unstructured:
		if t == nil {
			return Value{}
		}
		return Value{u: t.Object}
	case unstructured.Unstructured:
		return Value{u: t.Object}
	}
	return typedOf(reflect.ValueOf(x))
}

// IsTyped reports whether the value is read through reflection.
func (v Value) IsTyped() bool { return v.rv.IsValid() }

// Kind returns the JSON kind of the value.
func (v Value) Kind() Kind {
	if v.rv.IsValid() {
		return v.typedKind()
	}
	switch t := v.u.(type) {
	case nil:
		return KindNull
	case map[string]any:
		return KindMap
	case []any:
		return KindList
	case string:
		return KindString
	case bool:
		return KindBool
	case int64, int, int32, int16, int8, uint8, uint16, uint32, uint:
		return KindInt
	case uint64:
		if t > math.MaxInt64 {
			return KindFloat
		}
		return KindInt
	case float64:
		if v.js {
			if _, ok := jsonInt(t); ok {
				return KindInt
			}
		}
		return KindFloat
	case float32:
		return KindFloat
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return KindInt
		}
		return KindFloat
	}
	return KindNull
}

// Bool returns the boolean value, false for other kinds.
func (v Value) Bool() bool {
	if v.rv.IsValid() {
		return v.typedBool()
	}
	b, _ := v.u.(bool)
	return b
}

// Int returns the integer value of a KindInt value (0 for other kinds).
func (v Value) Int() int64 {
	if v.rv.IsValid() {
		return v.typedInt()
	}
	switch t := v.u.(type) {
	case int64:
		return t
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case int16:
		return int64(t)
	case int8:
		return int64(t)
	case uint8:
		return int64(t)
	case uint16:
		return int64(t)
	case uint32:
		return int64(t)
	case uint:
		return int64(t)
	case uint64:
		return int64(t)
	case json.Number:
		i, _ := t.Int64()
		return i
	case float64:
		i, _ := jsonInt(t)
		return i
	}
	return 0
}

// Float returns the numeric value as float64 for KindInt and KindFloat.
func (v Value) Float() float64 {
	if v.rv.IsValid() {
		return v.typedFloat()
	}
	switch t := v.u.(type) {
	case float64:
		return t
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(t), 'g', -1, 32), 64)
		return f
	case uint64:
		return float64(t)
	case json.Number:
		f, _ := t.Float64()
		return f
	}
	return float64(v.Int())
}

// Str returns the string value of a KindString value ("" otherwise).
func (v Value) Str() string {
	if v.rv.IsValid() {
		return v.typedStr()
	}
	s, _ := v.u.(string)
	return s
}

// Len returns the number of items of a list or entries of a map, 0 otherwise.
func (v Value) Len() int {
	if v.rv.IsValid() {
		return v.typedLen()
	}
	switch t := v.u.(type) {
	case map[string]any:
		return len(t)
	case []any:
		return len(t)
	}
	return 0
}

// Index returns item i of a list. It panics when i is out of range.
func (v Value) Index(i int) Value {
	if v.rv.IsValid() {
		return v.typedIndex(i)
	}
	l, _ := v.u.([]any)
	return Value{u: l[i], js: v.js}.normalized()
}

// Get returns the map entry for key and whether it is present.
func (v Value) Get(key string) (Value, bool) {
	if v.rv.IsValid() {
		return v.typedGet(key)
	}
	m, ok := v.u.(map[string]any)
	if !ok {
		return Value{}, false
	}
	x, ok := m[key]
	if !ok {
		return Value{}, false
	}
	return Value{u: x, js: v.js}.normalized(), true
}

// Has reports whether the map has an entry for key.
func (v Value) Has(key string) bool {
	_, ok := v.Get(key)
	return ok
}

// Range calls fn for every map entry, in no particular order, until fn
// returns false.
func (v Value) Range(fn func(key string, val Value) bool) {
	if v.rv.IsValid() {
		v.typedRange(fn)
		return
	}
	m, _ := v.u.(map[string]any)
	for k, x := range m {
		if !fn(k, Value{u: x, js: v.js}.normalized()) {
			return
		}
	}
}

// normalized turns unstructured values that are not of the tolerated shapes
// (for example []string or a struct inside a map[string]any) into typed
// values.
func (v Value) normalized() Value {
	switch v.u.(type) {
	case nil, map[string]any, []any, string, bool, int64, float64:
		return v
	}
	return Of(v.u)
}

// Unstructured returns the value in unstructured form: the underlying value
// for unstructured input (no copy), a converted copy for typed input.
func (v Value) Unstructured() any {
	if !v.rv.IsValid() && !v.js {
		switch t := v.u.(type) {
		case nil, map[string]any, []any, string, bool, int64, float64:
			return v.u
		case float32:
			return v.Float()
		case json.Number:
			if i, err := t.Int64(); err == nil {
				return i
			}
			return v.Float()
		}
		if v.Kind() == KindInt {
			return v.Int()
		}
		return v.Float()
	}
	switch v.Kind() {
	case KindNull:
		return nil
	case KindBool:
		return v.Bool()
	case KindInt:
		return v.Int()
	case KindFloat:
		return v.Float()
	case KindString:
		return v.Str()
	case KindList:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = v.Index(i).Unstructured()
		}
		return out
	default:
		out := make(map[string]any, v.Len())
		v.Range(func(k string, x Value) bool {
			out[k] = x.Unstructured()
			return true
		})
		return out
	}
}

// Equal reports whether a and b are deeply equal JSON values. Integers and
// floats never compare equal, matching reflect.DeepEqual on unstructured
// values (int64(1) != float64(1)), which is what the apiserver uses.
func Equal(a, b Value) bool {
	ka, kb := a.Kind(), b.Kind()
	if ka != kb {
		return false
	}
	switch ka {
	case KindNull:
		return true
	case KindBool:
		return a.Bool() == b.Bool()
	case KindInt:
		return a.Int() == b.Int()
	case KindFloat:
		fa, fb := a.Float(), b.Float()
		return fa == fb
	case KindString:
		return a.Str() == b.Str()
	case KindList:
		n := a.Len()
		if n != b.Len() {
			return false
		}
		for i := 0; i < n; i++ {
			if !Equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	default:
		if a.Len() != b.Len() {
			return false
		}
		eq := true
		a.Range(func(k string, x Value) bool {
			y, ok := b.Get(k)
			if !ok || !Equal(x, y) {
				eq = false
			}
			return eq
		})
		return eq
	}
}

// jsonInt reports whether encoding/json writes f as an integer literal that
// the apiserver's decoder reads as an int64, and that int64 (for large
// values, the shortest decimal form, zero-padded, is what is read).
func jsonInt(f float64) (int64, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return 0, false
	}
	if math.Abs(f) < 1<<53 {
		return int64(f), true
	}
	if math.Abs(f) >= 1e21 { // written in exponent form
		return 0, false
	}
	i, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', -1, 64), 10, 64)
	return i, err == nil
}
