// Package values converts unstructured values to CEL values as the
// apiserver's common.UnstructuredToVal (k8s.io/apiserver/pkg/cel/common,
// valuesunstructured.go) does, with a faster field access for the values
// CEL rules touch most: objects with properties and lists.
//
// The apiserver's object Find runs cel.Unescape, a regular expression, on
// every field access. Unescaping changes only names that contain "__" (the
// escape sequences all start with it), so Find here unescapes only those.
// Everything else (equality, concatenation of set and map lists, type
// conversion, iteration order of keys, errors) is delegated to the
// apiserver's own value for the same data, so the semantics are the
// apiserver's by construction; children of objects and lists are converted
// with ToVal again, so the fast access holds all the way down.
package values

import (
	"encoding/base64"
	"reflect"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// ToVal converts an unstructured value (map[string]any, []any, string,
// int64, float64, bool, nil) with schema s to a CEL value. It returns what
// common.UnstructuredToVal returns, except that objects with properties
// (not embedded resources) and arrays with items and a known list type
// are wrapped so that field and index access convert lazily and skip
// needless unescaping.
func ToVal(v any, s common.Schema) ref.Val {
	return toVal(v, s, false)
}

// ToValBuiltIn is ToVal for the rules of built-in kinds, which stand for
// hand-written validation of Go values: a string of format "byte" is
// decoded with base64.StdEncoding, as encoding/json decodes a []byte field,
// where the apiserver's CRD conversion (kube-openapi strfmt.Base64) uses
// base64.URLEncoding and fails on any '+' or '/'. Values the typed
// decoding accepted thus always convert.
func ToValBuiltIn(v any, s common.Schema) ref.Val {
	return toVal(v, s, true)
}

// toVal is ToVal, or ToValBuiltIn with stdBytes.
func toVal(v any, s common.Schema, stdBytes bool) ref.Val {
	if v == nil || s.IsXIntOrString() {
		return common.UnstructuredToVal(v, s)
	}
	switch s.Type() {
	case "object":
		if stdBytes && rawJSON(s) {
			// a RawExtension of a built-in object (type object, as
			// upstream publishes it) decodes any JSON value; a stored
			// one may be a string, which rules compare as it is (an
			// object with a string: false, not an error)
			return types.DefaultTypeAdapter.NativeToValue(v)
		}
		if m, ok := v.(map[string]any); ok && !s.IsXEmbeddedResource() {
			if props := s.Properties(); props != nil {
				return &object{value: m, schema: s, props: props, stdBytes: stdBytes}
			}
			if len(m) > 1 || stdBytes {
				if mv, ok := common.UnstructuredToVal(v, s).(traits.Mapper); ok {
					sm := sortedMap{Mapper: mv}
					if ap := s.AdditionalProperties(); stdBytes && ap != nil && ap.Schema() != nil {
						sm.value, sm.items = m, ap.Schema()
					}
					return sm
				}
			}
		}
	case "array":
		if l, ok := v.([]any); ok && s.Items() != nil {
			switch s.XListType() {
			case "", "atomic", "set", "map":
				return &list{elements: l, schema: s, items: s.Items(), stdBytes: stdBytes}
			}
		}
	case "string":
		if str, ok := v.(string); ok && stdBytes && s.Format() == "byte" {
			b, err := base64.StdEncoding.DecodeString(str)
			if err != nil {
				// the apiserver's wording (valuesunstructured.go)
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
	}
	return common.UnstructuredToVal(v, s)
}

// rawJSON reports a node that holds any JSON value in a built-in object:
// an object that preserves unknown fields and declares none (RawExtension).
func rawJSON(s common.Schema) bool {
	return s.IsXPreserveUnknownFields() && s.Properties() == nil && s.AdditionalProperties() == nil && !s.IsXEmbeddedResource()
}

// unwrap returns the apiserver's value for v when v is one of ours, so that
// the apiserver's Equal, Add and Contains see only their own types.
func unwrap(v ref.Val) ref.Val {
	switch t := v.(type) {
	case *object:
		return t.apiserver()
	case *list:
		return t.apiserver()
	case sortedMap:
		return t.Mapper
	}
	return v
}

// object is an object with properties: the apiserver's unstructuredMap
// with a property schema per field.
type object struct {
	value  map[string]any
	schema common.Schema
	props  map[string]common.Schema
	inner  ref.Val // the apiserver's value, made on first need
	// stdBytes: converted by ToValBuiltIn. Only field access, index
	// access and iteration convert children that way; what is delegated
	// to the apiserver's value (equality, map iteration) is its own.
	stdBytes bool
}

var _ traits.Mapper = (*object)(nil)

func (o *object) apiserver() ref.Val {
	if o.inner == nil {
		o.inner = common.UnstructuredToVal(o.value, o.schema)
	}
	return o.inner
}

func (o *object) mapper() traits.Mapper { return o.apiserver().(traits.Mapper) }

// ConvertToNative is the apiserver's (the map itself for map types).
func (o *object) ConvertToNative(t reflect.Type) (any, error) {
	return o.apiserver().ConvertToNative(t)
}

// ConvertToType returns o for map, the map type for type, else the
// apiserver's error.
func (o *object) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return o
	case types.TypeType:
		return types.MapType
	}
	return o.apiserver().ConvertToType(t)
}

// Equal is the apiserver's object equality.
func (o *object) Equal(other ref.Val) ref.Val {
	if !o.stdBytes {
		return o.apiserver().Equal(unwrap(other))
	}
	// A built-in object's byte fields hold standard base64, which the
	// apiserver's value, decoding them as strfmt does (URL-safe), may
	// refuse ("Invalid byte formatted string"): compared here field by
	// field, as its unstructuredMap.Equal does, each converted as Find
	// converts it.
	oo, ok := other.(*object)
	if !ok {
		return o.apiserver().Equal(unwrap(other))
	}
	mine := o.present()
	if len(mine) != len(oo.present()) {
		return types.False
	}
	for _, k := range mine {
		theirs, found := oo.value[k]
		if !found || theirs == nil || oo.props[k] == nil {
			return types.False
		}
		if eq := toVal(o.value[k], o.props[k], true).Equal(toVal(theirs, oo.props[k], oo.stdBytes)); eq != types.True {
			return eq
		}
	}
	return types.True
}

// present is the names of the fields Find finds: set, not null, with a
// property schema.
func (o *object) present() []string {
	var names []string
	for k, v := range o.value {
		if v != nil && o.props[k] != nil {
			names = append(names, k)
		}
	}
	return names
}

// Type is map, as for the apiserver's objects.
func (o *object) Type() ref.Type { return types.MapType }

// Value is the unstructured map.
func (o *object) Value() any { return o.value }

// Contains mirrors unstructuredMap.Contains.
func (o *object) Contains(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

// Get mirrors unstructuredMap.Get.
func (o *object) Get(key ref.Val) ref.Val {
	if v, found := o.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

// Iterator yields the apiserver's keys (the escaped names of the fields
// that have a property schema) in sorted order (sortedIterator).
func (o *object) Iterator() traits.Iterator { return sortedIterator(o.mapper().Iterator()) }

// Size is the number of fields, as the apiserver's.
func (o *object) Size() ref.Val { return types.Int(len(o.value)) }

// Find mirrors unstructuredMap.Find for an object with properties: the key
// is an escaped property name; a null field is absent.
func (o *object) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	if strings.Contains(k, "__") {
		if k, ok = apiservercel.Unescape(k); !ok {
			return nil, false
		}
	}
	v, ok := o.value[k]
	if !ok || v == nil {
		return nil, false
	}
	ps, ok := o.props[k]
	if !ok {
		return nil, false
	}
	return toVal(v, ps, o.stdBytes), true
}

// list is an array with an items schema: the apiserver's unstructuredList,
// unstructuredSetList or unstructuredMapList, by list type.
type list struct {
	elements []any
	schema   common.Schema
	items    common.Schema
	inner    ref.Val
	stdBytes bool // converted by ToValBuiltIn
}

var _ traits.Lister = (*list)(nil)

func (l *list) apiserver() ref.Val {
	if l.inner == nil {
		l.inner = common.UnstructuredToVal(l.elements, l.schema)
	}
	return l.inner
}

func (l *list) lister() traits.Lister { return l.apiserver().(traits.Lister) }

// ConvertToNative is the apiserver's (the elements, or []string for lists
// of strings).
func (l *list) ConvertToNative(t reflect.Type) (any, error) {
	return l.apiserver().ConvertToNative(t)
}

// ConvertToType returns l for list, the list type for type, else the
// apiserver's error.
func (l *list) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return l.apiserver().ConvertToType(t)
}

// Equal is the apiserver's for custom resources: in order for atomic
// lists, regardless of order for sets and map lists (a map list finds the
// other's items by key, so one with two items of a key is unequal even to
// itself). A list of a built-in object is compared in order, element by
// element with its own conversion, whatever its list type: built-in rules
// mirror hand-written validation, which compares with Semantic.DeepEqual
// (k8s.io/apimachinery pkg/api/equality), in order, and accepts lists
// whose map keys repeat (two env entries of one name): such a pod's
// unchanged update was refused as changing its spec.
func (l *list) Equal(other ref.Val) ref.Val {
	if !l.stdBytes {
		return l.apiserver().Equal(unwrap(other))
	}
	// in order, each element converted as Get converts it (see
	// object.Equal)
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.False
	}
	if ol.Size() != l.Size() {
		return types.False
	}
	for i := range l.elements {
		if eq := l.Get(types.Int(i)).Equal(ol.Get(types.Int(i))); eq != types.True {
			return eq
		}
	}
	return types.True
}

// Type is list.
func (l *list) Type() ref.Type { return types.ListType }

// Value is the unstructured slice.
func (l *list) Value() any { return l.elements }

// Add is the apiserver's concatenation (union for sets, merge for map
// lists).
func (l *list) Add(other ref.Val) ref.Val { return l.lister().Add(unwrap(other)) }

// Contains is the apiserver's.
func (l *list) Contains(v ref.Val) ref.Val { return l.lister().Contains(unwrap(v)) }

// Get mirrors unstructuredList.Get.
func (l *list) Get(idx ref.Val) ref.Val {
	iv, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	i := int(iv)
	if i < 0 || i >= len(l.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return toVal(l.elements[i], l.items, l.stdBytes)
}

// Iterator yields the elements in order, each converted with ToVal.
func (l *list) Iterator() traits.Iterator { return &iterator{list: l} }

// Size is the number of elements.
func (l *list) Size() ref.Val { return types.Int(len(l.elements)) }

type iterator struct {
	*list
	i int
}

func (it *iterator) HasNext() ref.Val { return types.Bool(it.i < len(it.elements)) }

func (it *iterator) Next() ref.Val {
	v := toVal(it.elements[it.i], it.items, it.stdBytes)
	it.i++
	return v
}
