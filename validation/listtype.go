package validation

import (
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// lists mirrors apiextensions-apiserver pkg/apiserver/schema/listtype
// (ValidateListSetsAndMaps): items of x-kubernetes-list-type=set lists must
// be unique, and so must the keys of x-kubernetes-list-type=map items. Each
// repeated item is reported once, at its second occurrence, as Duplicate.
// Only subtrees holding such lists are visited.
func (v *Validator) lists(obj value.Value) field.ErrorList {
	if obj.Kind() != value.KindMap {
		return nil
	}
	return listsObject(v.opts.FieldPath, v.root, obj, 0)
}

func listsObject(p *field.Path, n *node, obj value.Value, depth int) field.ErrorList {
	if depth > maxValueDepth {
		return nil
	}
	var errs field.ErrorList
	if n.additional != nil && n.additional.listBelow {
		keys := make([]string, 0, obj.Len())
		obj.Range(func(k string, _ value.Value) bool {
			keys = append(keys, k)
			return true
		})
		sort.Strings(keys)
		for _, k := range keys {
			x, _ := obj.Get(k)
			errs = append(errs, listsValue(p.Key(k), n.additional, x, depth+1)...)
		}
	}
	for i := range n.props {
		pr := &n.props[i]
		if !pr.n.listBelow {
			continue
		}
		if x, ok := obj.Get(pr.name); ok {
			errs = append(errs, listsValue(p.Child(pr.name), pr.n, x, depth+1)...)
		}
	}
	return errs
}

func listsValue(p *field.Path, n *node, x value.Value, depth int) field.ErrorList {
	switch x.Kind() {
	case value.KindList:
		return listsArray(p, n, x, depth)
	case value.KindMap:
		return listsObject(p, n, x, depth)
	}
	return nil
}

func listsArray(p *field.Path, n *node, x value.Value, depth int) field.ErrorList {
	var errs field.ErrorList
	switch n.listType {
	case "set":
		for _, i := range nonUnique(x.Len(), func(i int) value.Value { return x.Index(i) }) {
			errs = append(errs, field.Duplicate(p.Index(i), x.Index(i).Unstructured()))
		}
	case "map":
		errs = append(errs, listMapDuplicates(p, n, x)...)
	}
	if n.items != nil && n.items.listBelow {
		for i := 0; i < x.Len(); i++ {
			errs = append(errs, listsValue(p.Index(i), n.items, x.Index(i), depth+1)...)
		}
	}
	return errs
}

// nonUnique returns the indices where an item repeats for the first time
// (validateListSet): compounds compare by their JSON form, scalars by type
// and value.
func nonUnique(n int, at func(int) value.Value) []int {
	if n <= 1 {
		return nil
	}
	var out []int
	strs := make(map[string]int, n)
	for i := 0; i < n; i++ {
		it := at(i)
		if it.Kind() == value.KindString {
			if strs[it.Str()]++; strs[it.Str()] == 2 {
				out = append(out, i)
			}
			continue
		}
		times := 0
		for j := 0; j < i; j++ {
			if setEqual(it, at(j)) {
				times++
			}
		}
		if times == 1 {
			out = append(out, i)
		}
	}
	return out
}

// setEqual compares like validateListSet: scalars by Go type and value,
// compounds by their JSON encoding, where 1 and 1.0 are both "1".
func setEqual(a, b value.Value) bool {
	ka, kb := a.Kind(), b.Kind()
	compound := func(k value.Kind) bool { return k == value.KindList || k == value.KindMap }
	if !compound(ka) || !compound(kb) {
		return ka == kb && value.Equal(a, b)
	}
	return jsonEqual(a, b)
}

func jsonEqual(a, b value.Value) bool {
	ka, kb := a.Kind(), b.Kind()
	num := func(k value.Kind) bool { return k == value.KindInt || k == value.KindFloat }
	if num(ka) && num(kb) {
		if ka == value.KindInt && kb == value.KindInt {
			return a.Int() == b.Int()
		}
		return a.Float() == b.Float()
	}
	if ka != kb {
		return false
	}
	switch ka {
	case value.KindList:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !jsonEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case value.KindMap:
		if a.Len() != b.Len() {
			return false
		}
		eq := true
		a.Range(func(k string, x value.Value) bool {
			y, ok := b.Get(k)
			eq = ok && jsonEqual(x, y)
			return eq
		})
		return eq
	}
	return value.Equal(a, b)
}

// listMapDuplicates is validateListMap: items must be objects (or null),
// and items whose key fields are equal (absent keys included) repeat.
func listMapDuplicates(p *field.Path, n *node, x value.Value) field.ErrorList {
	size := x.Len()
	for i := 0; i < size; i++ {
		if k := x.Index(i).Kind(); k != value.KindMap && k != value.KindNull {
			return field.ErrorList{field.Invalid(p.Index(i), x.Index(i).Unstructured(), "must be an object for an array of list-type map")}
		}
	}
	if size <= 1 {
		return nil
	}
	if len(n.mapKeys) == 1 {
		key := n.mapKeys[0]
		type kv struct {
			v       value.Value
			present bool
		}
		keys := make([]kv, size)
		for i := 0; i < size; i++ {
			if v, ok := x.Index(i).Get(key); ok {
				keys[i] = kv{v, true}
			}
		}
		var errs field.ErrorList
		seen := make([]int, 0, 2)
		for i := 0; i < size; i++ {
			times := 0
			for j := 0; j < i; j++ {
				if keys[j].present == keys[i].present && (!keys[i].present || setEqual(keys[i].v, keys[j].v)) {
					times++
				}
			}
			if times == 1 {
				seen = append(seen, i)
			}
		}
		for _, i := range seen {
			if !keys[i].present {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]any{key: keys[i].v.Unstructured()}))
			}
		}
		return errs
	}
	keyMaps := make([]map[string]any, size)
	for i := 0; i < size; i++ {
		m := map[string]any{}
		item := x.Index(i)
		for _, k := range n.mapKeys {
			if v, ok := item.Get(k); ok {
				m[k] = v.Unstructured()
			}
		}
		keyMaps[i] = m
	}
	var errs field.ErrorList
	for _, i := range nonUnique(size, func(i int) value.Value { return value.Of(keyMaps[i]) }) {
		errs = append(errs, field.Duplicate(p.Index(i), keyMaps[i]))
	}
	return errs
}
