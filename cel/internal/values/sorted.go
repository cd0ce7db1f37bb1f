package values

import (
	"slices"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apiserver/pkg/cel/common"
)

// The apiserver's maps iterate over their keys in Go's random map order,
// so a rule whose result or message depends on that order (a map or filter
// over a map's keys, the key a messageExpression names) may differ between
// two runs on the same object. Every order is the apiserver's; kdv's maps
// iterate in sorted key order, so that the same input always gives the same
// report. Only the order changes: the keys, and everything else about the
// map, are the apiserver's.

// sortedMap is the apiserver's value of a map without properties (an
// object with additionalProperties) with sorted iteration. For built-in
// rules (ToValBuiltIn) value and items are set, and the map's values are
// converted with ToValBuiltIn too: the apiserver's conversion decodes a
// map of format "byte" strings (a Secret's data, a ConfigMap's
// binaryData) as URL-safe base64 and fails on the '+' and '/' of standard
// base64, which Go's decoding of the []byte values accepts.
type sortedMap struct {
	traits.Mapper
	value map[string]any
	items common.Schema
}

// Find mirrors unstructuredMap.Find for a map: a present key, null values
// included.
func (m sortedMap) Find(key ref.Val) (ref.Val, bool) {
	if m.items == nil {
		return m.Mapper.Find(key)
	}
	k, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	v, ok := m.value[string(k)]
	if !ok {
		return nil, false
	}
	return toVal(v, m.items, true), true
}

// Get mirrors unstructuredMap.Get.
func (m sortedMap) Get(key ref.Val) ref.Val {
	if v, found := m.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

// Contains mirrors unstructuredMap.Contains.
func (m sortedMap) Contains(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

// Iterator yields the apiserver's keys in sorted order.
func (m sortedMap) Iterator() traits.Iterator { return sortedIterator(m.Mapper.Iterator()) }

// Equal is the apiserver's.
func (m sortedMap) Equal(other ref.Val) ref.Val { return m.Mapper.Equal(unwrap(other)) }

// ConvertToType returns m for map, else the apiserver's conversion.
func (m sortedMap) ConvertToType(t ref.Type) ref.Val {
	if t == types.MapType {
		return m
	}
	return m.Mapper.ConvertToType(t)
}

// sortedIterator drains it and yields its values with the string keys in
// ascending order; other values (the apiserver yields none) keep their
// places after them.
func sortedIterator(it traits.Iterator) traits.Iterator {
	var keys []ref.Val
	for it.HasNext() == types.True {
		keys = append(keys, it.Next())
	}
	slices.SortStableFunc(keys, func(a, b ref.Val) int {
		as, aok := a.(types.String)
		bs, bok := b.(types.String)
		switch {
		case aok && bok:
			return strings.Compare(string(as), string(bs))
		case aok:
			return -1
		case bok:
			return 1
		}
		return 0
	})
	return &keyIterator{Iterator: it, keys: keys}
}

// keyIterator yields keys; its other methods (those of ref.Val) are the
// drained iterator's.
type keyIterator struct {
	traits.Iterator
	keys []ref.Val
	i    int
}

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }

func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return types.NewErr("iterator exhausted")
	}
	k := it.keys[it.i]
	it.i++
	return k
}
