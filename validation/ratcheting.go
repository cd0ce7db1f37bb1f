package validation

import (
	"strconv"
	"strings"

	"kdv.dev/value"
)

// Ratcheting (KEP-4008, CRDValidationRatcheting, on by default) mirrors
// apiextensions-apiserver pkg/apiserver/validation/ratcheting.go and the
// correlation of k8s.io/apiserver pkg/cel/common/equality.go: old and new
// values are correlated through properties, additionalProperties keys and
// the keys of x-kubernetes-list-type=map lists (not through set or atomic
// list items). When a correlated value has errors and is unchanged, its
// errors become warnings.

// ratchetEqual is CorrelatedObject.CachedDeepEqual for a structural node:
// maps are equal when every new key correlates (it must have a schema) with
// an equal old value, map lists when every new item has an equal old item
// with the same key, other lists and scalars by deep equality.
func (s *state) ratchetEqual(n *node, old, cur value.Value) bool {
	ko, kn := old.Kind(), cur.Kind()
	if ko == value.KindNull && kn == value.KindNull {
		return true
	}
	if ko == value.KindNull || kn == value.KindNull {
		return false
	}
	if (ko == value.KindList) != (kn == value.KindList) || (ko == value.KindMap) != (kn == value.KindMap) {
		return false
	}
	switch kn {
	case value.KindList:
		if old.Len() != cur.Len() {
			return false
		}
		if n == nil || n.listType != "map" || n.plainEqual {
			return value.Equal(old, cur)
		}
		ml, hasML := s.correlateList(n, old)
		for i := 0; i < cur.Len(); i++ {
			item := cur.Index(i)
			if !hasML || n.items == nil {
				return false
			}
			o, ok := ml.get(n, item)
			if !ok || !s.ratchetEqual(n.items, o, item) {
				return false
			}
		}
		return true
	case value.KindMap:
		if old.Len() != cur.Len() {
			return false
		}
		eq := true
		cur.Range(func(k string, v value.Value) bool {
			o, ok := old.Get(k)
			if !ok || n == nil {
				eq = false
				return false
			}
			var cn *node
			if i, ok := n.propIdx[k]; ok {
				cn = n.props[i].n
			} else if n.additional != nil {
				cn = n.additional
			} else {
				eq = false
				return false
			}
			eq = s.ratchetEqual(cn, o, v)
			return eq
		})
		return eq
	}
	return value.Equal(old, cur)
}

// mapList finds, for an item of a new map list, the first old item with the
// same key (common.MakeMapList): keys must be present and scalar (bool,
// integer, number or string).
type mapList struct {
	old   value.Value
	keyed map[string]value.Value // nil for small lists, searched linearly
}

// smallMapList is the size up to which old items are searched linearly
// instead of being indexed.
const smallMapList = 16

// correlateList indexes the old items of a map list, or returns false when
// the list does not correlate items (not a map list, no keys, old not a
// non-empty list).
func (s *state) correlateList(n *node, old value.Value) (mapList, bool) {
	if n.listType != "map" || !n.isArray || len(n.mapKeys) == 0 || old.Kind() != value.KindList || old.Len() == 0 {
		return mapList{}, false
	}
	ml := mapList{old: old}
	if old.Len() <= smallMapList {
		return ml, true
	}
	ml.keyed = make(map[string]value.Value, old.Len())
	for i := 0; i < old.Len(); i++ {
		item := old.Index(i)
		if k, ok := listMapKey(n.mapKeys, item); ok {
			if _, dup := ml.keyed[k]; !dup {
				ml.keyed[k] = item
			}
		}
	}
	return ml, true
}

func (ml *mapList) get(n *node, item value.Value) (value.Value, bool) {
	if ml.keyed == nil {
		if !keyed(n.mapKeys, item) {
			return value.Value{}, false
		}
		for i := 0; i < ml.old.Len(); i++ {
			o := ml.old.Index(i)
			if keyed(n.mapKeys, o) && sameKeys(n.mapKeys, o, item) {
				return o, true
			}
		}
		return value.Value{}, false
	}
	k, ok := listMapKey(n.mapKeys, item)
	if !ok {
		return value.Value{}, false
	}
	o, ok := ml.keyed[k]
	return o, ok
}

// listMapKey renders the composite key of a map list item, tagged by type
// so that 1 and 1.0 differ, as in the apiserver.
func listMapKey(keys []string, item value.Value) (string, bool) {
	if item.Kind() != value.KindMap {
		return "", false
	}
	var b strings.Builder
	for _, key := range keys {
		v, ok := item.Get(key)
		if !ok {
			return "", false
		}
		b.WriteByte(0)
		switch v.Kind() {
		case value.KindBool:
			b.WriteString("b" + strconv.FormatBool(v.Bool()))
		case value.KindInt:
			b.WriteString("i" + strconv.FormatInt(v.Int(), 10))
		case value.KindFloat:
			b.WriteString("f" + strconv.FormatFloat(v.Float(), 'g', -1, 64))
		case value.KindString:
			b.WriteString("s" + v.Str())
		default:
			return "", false
		}
	}
	return b.String(), true
}

// keyed reports whether item is an object with every key present and
// scalar.
func keyed(keys []string, item value.Value) bool {
	if item.Kind() != value.KindMap {
		return false
	}
	for _, key := range keys {
		v, ok := item.Get(key)
		if !ok {
			return false
		}
		switch v.Kind() {
		case value.KindBool, value.KindInt, value.KindFloat, value.KindString:
		default:
			return false
		}
	}
	return true
}

// sameKeys compares the key fields of two keyed items by type and value.
func sameKeys(keys []string, a, b value.Value) bool {
	for _, key := range keys {
		x, _ := a.Get(key)
		y, _ := b.Get(key)
		if !value.Equal(x, y) {
			return false
		}
	}
	return true
}
