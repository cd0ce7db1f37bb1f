package validation

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// lists mirrors apiextensions-apiserver pkg/apiserver/schema/listtype
// (ValidateListSetsAndMaps): items of x-kubernetes-list-type=set lists must
// be unique, and so must the keys of x-kubernetes-list-type=map items. Each
// repeated item is reported once, at its second occurrence, as Duplicate.
// Only subtrees holding such lists are visited.
func (v *Validator) lists(s *state, obj value.Value) field.ErrorList {
	if obj.Kind() != value.KindMap {
		return nil
	}
	w := &s.lp
	w.root, w.segs = v.opts.FieldPath, w.segs[:0]
	return w.object(v.root, obj)
}

// lpath is the path of the list walk, built into a field.Path only when an
// error is reported.
type lpath struct {
	root *field.Path
	segs []seg
	// update: nodes with skipOnUpdate are not visited.
	update bool
	// fixedOnly: only the lists of nodes that do not ratchet (node.fixed)
	// are checked.
	fixedOnly bool
}

func (w *lpath) push(k segKind, name string, idx int) {
	w.segs = append(w.segs, seg{kind: k, name: name, idx: idx})
}

func (w *lpath) pop() { w.segs = w.segs[:len(w.segs)-1] }

func (w *lpath) path() *field.Path {
	p := w.root
	for _, g := range w.segs {
		switch g.kind {
		case segProp:
			p = p.Child(g.name)
		case segKey:
			p = p.Key(g.name)
		case segIndex:
			p = p.Index(g.idx)
		}
	}
	return p
}

func (w *lpath) object(n *node, obj value.Value) field.ErrorList {
	if len(w.segs) > maxValueDepth {
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
			w.push(segKey, k, 0)
			errs = append(errs, w.value(n.additional, x)...)
			w.pop()
		}
	}
	for i := range n.props {
		pr := &n.props[i]
		if !pr.n.listBelow {
			continue
		}
		if x, ok := obj.Get(pr.name); ok {
			w.push(segProp, pr.name, 0)
			errs = append(errs, w.value(pr.n, x)...)
			w.pop()
		}
	}
	return errs
}

func (w *lpath) value(n *node, x value.Value) field.ErrorList {
	if n.skipAlways || n.skipOnUpdate && w.update {
		return nil
	}
	switch x.Kind() {
	case value.KindList:
		return w.array(n, x)
	case value.KindMap:
		return w.object(n, x)
	}
	return nil
}

func (w *lpath) array(n *node, x value.Value) field.ErrorList {
	var errs field.ErrorList
	switch {
	case n.notUnique, w.fixedOnly && !n.fixed:
		// merge metadata only (x-kubernetes-list-unique: false)
	case n.listType == "set":
		// A custom resource's set reports the second occurrence of a value
		// (apiextensions-apiserver's listtype validation); a built-in
		// kind's set every repeat, as the hand-written sets of values seen
		// and validation-gen's validate.Unique do.
		nonUniq := nonUnique
		if n.everyRepeat {
			nonUniq = repeats
		}
		if dup := nonUniq(x.Len(), func(i int) value.Value { return x.Index(i) }); len(dup) > 0 {
			p := w.path()
			for _, i := range dup {
				errs = append(errs, field.Duplicate(p.Index(i), x.Index(i).Unstructured()))
			}
		}
	case n.listType == "map":
		errs = append(errs, listMapDuplicates(w, n, x)...)
	}
	for _, k := range n.uniqueKeys {
		if w.fixedOnly && !n.fixed {
			break
		}
		errs = append(errs, uniqueKeyDuplicates(w, n, x, k)...)
	}
	if n.items != nil && n.items.listBelow {
		for i := 0; i < x.Len(); i++ {
			w.push(segIndex, "", i)
			errs = append(errs, w.value(n.items, x.Index(i))...)
			w.pop()
		}
	}
	return errs
}

// nonUnique returns the indices where an item repeats for the first time
// (validateListSet): compounds compare by their JSON form, scalars by type
// and value. Small lists are compared pairwise, larger ones index their
// scalars.
func nonUnique(n int, at func(int) value.Value) []int {
	if n <= 1 {
		return nil
	}
	var out []int
	var seen map[scalarKey]int
	// buckets groups the compounds of a large list by their JSON encoding,
	// which equal compounds share (setEqual compares encodings): comparing
	// each with every earlier one cost the square of the list's length (a
	// Service with thousands of ports took seconds)
	var buckets map[string][]int
	if n > 16 {
		seen = make(map[scalarKey]int, n)
		buckets = map[string][]int{}
	}
	for i := 0; i < n; i++ {
		it := at(i)
		if k, ok := keyOf(it); ok && seen != nil {
			if seen[k]++; seen[k] == 2 {
				out = append(out, i)
			}
			continue
		}
		earlier := func(yield func(int) bool) {
			for j := 0; j < i; j++ {
				if !yield(j) {
					return
				}
			}
		}
		if buckets != nil {
			if b, err := json.Marshal(it.Unstructured()); err == nil {
				enc := string(b)
				same := buckets[enc]
				buckets[enc] = append(same, i)
				earlier = func(yield func(int) bool) {
					for _, j := range same {
						if !yield(j) {
							return
						}
					}
				}
			}
		}
		times := 0
		for j := range earlier {
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

// repeats returns the index of every item equal to an earlier one: each
// repeat, where nonUnique returns only the second occurrence of a value.
func repeats(n int, at func(int) value.Value) []int {
	var out []int
	var seen map[scalarKey]bool
	for i := 0; i < n; i++ {
		it := at(i)
		if k, ok := keyOf(it); ok {
			if seen == nil {
				seen = make(map[scalarKey]bool, n)
			}
			if seen[k] {
				out = append(out, i)
			}
			seen[k] = true
			continue
		}
		for j := 0; j < i; j++ {
			if setEqual(it, at(j)) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// scalarKey identifies a scalar by type and value, as a Go map key of
// interface type does in the apiserver.
type scalarKey struct {
	kind value.Kind
	s    string
	i    int64
	f    float64
	b    bool
}

func keyOf(v value.Value) (scalarKey, bool) {
	switch k := v.Kind(); k {
	case value.KindNull:
		return scalarKey{kind: k}, true
	case value.KindBool:
		return scalarKey{kind: k, b: v.Bool()}, true
	case value.KindInt:
		return scalarKey{kind: k, i: v.Int()}, true
	case value.KindFloat:
		f := v.Float()
		if f != f { // NaN never equals itself
			return scalarKey{}, false
		}
		return scalarKey{kind: k, f: f}, true
	case value.KindString:
		return scalarKey{kind: k, s: v.Str()}, true
	}
	return scalarKey{}, false
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
func listMapDuplicates(w *lpath, n *node, x value.Value) field.ErrorList {
	size := x.Len()
	for i := 0; i < size; i++ {
		if k := x.Index(i).Kind(); k != value.KindMap && k != value.KindNull {
			return field.ErrorList{field.Invalid(w.path().Index(i), x.Index(i).Unstructured(), "must be an object for an array of list-type map")}
		}
	}
	if size <= 1 {
		return nil
	}
	if len(n.mapKeys) == 1 {
		key := n.mapKeys[0]
		keyAt := func(i int) (value.Value, bool) { return x.Index(i).Get(key) }
		var seen []int
		for i := 0; i < size; i++ {
			ki, pi := keyAt(i)
			times := 0
			for j := 0; j < i; j++ {
				kj, pj := keyAt(j)
				if pj == pi && (!pi || setEqual(ki, kj)) {
					times++
				}
			}
			if times == 1 {
				seen = append(seen, i)
			}
		}
		if len(seen) == 0 {
			return nil
		}
		p := w.path()
		var errs field.ErrorList
		for _, i := range seen {
			k, present := keyAt(i)
			if !present {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]any{key: k.Unstructured()}))
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
		var bad any = keyMaps[i]
		if n.itemGo != nil {
			bad = n.itemGo.Print(keyMaps[i])
		}
		errs = append(errs, field.Duplicate(w.path().Index(i), bad))
	}
	return errs
}

// uniqueKeyDuplicates checks one key of x-kubernetes-unique-key as
// k8s.io/kubernetes's hand-written validation checks names in a list
// (validateContainerPorts, validateServicePort, ValidateVolumeMounts, ...):
// it keeps the set of non-empty values seen and reports every item whose
// value is already in it, at list[i].<key>, as field.Duplicate (or as
// x-kubernetes-validation-errors "uniqueKey" says, e.g. Invalid "must be
// unique"). Empty and zero values, which the hand-written code reports as
// Required or skips, are not compared. A list with several keys (device
// names and device paths) keeps one set per key. A key is a property, a
// tuple ("key,effect", uniqueTupleDuplicates) or a property qualified by
// others ("nodePort+protocol", qualifiedKeyDuplicates).
func uniqueKeyDuplicates(w *lpath, n *node, x value.Value, key string) field.ErrorList {
	size := x.Len()
	if size <= 1 {
		return nil
	}
	if strings.Contains(key, "+") {
		f := strings.Split(key, "+")
		return qualifiedKeyDuplicates(w, n, x, f[0], f[1:])
	}
	if strings.Contains(key, ",") {
		if n.maxItems != nil && int64(size) > *n.maxItems {
			// validation-gen's maxItems short-circuits its uniqueness
			// check (MarkShortCircuit); hand-written tuples have no
			// maxItems.
			return nil
		}
		var keys []string
		for _, k := range strings.Split(key, ",") {
			if k != "" {
				keys = append(keys, k)
			}
		}
		return uniqueTupleDuplicates(w, n, x, keys)
	}
	var seen map[scalarKey]bool
	var errs field.ErrorList
	for i := 0; i < size; i++ {
		_, k, sk, ok := itemKey(x, i, key)
		if !ok {
			continue
		}
		if seen == nil {
			seen = make(map[scalarKey]bool, size)
		}
		if !seen[sk] {
			seen[sk] = true
			continue
		}
		errs = append(errs, uniqueKeyError(n, field.Duplicate(w.path().Index(i).Child(key), k.Unstructured())))
	}
	return errs
}

// uniqueTupleDuplicates checks an x-kubernetes-unique-key naming a tuple of
// properties ("key,effect"; "name," is a tuple of one), as hand-written
// validation keeps a set of tuples seen (validateNodeTaints: "taints must
// be unique by key and effect pair") and validation-gen's ValSliceUnique
// compares list-map keys: it reports every item whose tuple is already in
// it at list[i], with the whole item as the value (printed as the internal
// Go struct where its layout is known). Both compare Go values, in which a
// missing field is its zero value: missing, null and zero compare equal.
// Items with a compound value there are not compared.
func uniqueTupleDuplicates(w *lpath, n *node, x value.Value, keys []string) field.ErrorList {
	size := x.Len()
	var seen map[string]bool
	var errs field.ErrorList
	var b strings.Builder
	for i := 0; i < size; i++ {
		item := x.Index(i)
		if item.Kind() != value.KindMap {
			continue
		}
		b.Reset()
		ok := true
		for _, key := range keys {
			k, present := item.Get(key)
			if !present || zeroScalar(k) {
				b.WriteString("\x00z")
				continue
			}
			sk, scalar := keyOf(k)
			if !scalar {
				ok = false
				break
			}
			fmt.Fprintf(&b, "\x00%d:%v:%d:%g:%q", sk.kind, sk.b, sk.i, sk.f, sk.s)
		}
		if !ok {
			continue
		}
		t := b.String()
		if seen == nil {
			seen = make(map[string]bool, size)
		}
		if !seen[t] {
			seen[t] = true
			continue
		}
		var bad any = item.Unstructured()
		if n.itemGo != nil {
			if m, isMap := bad.(map[string]any); isMap {
				bad = n.itemGo.Print(m)
			}
		}
		errs = append(errs, uniqueKeyError(n, field.Duplicate(w.path().Index(i), bad)))
	}
	return errs
}

// zeroScalar reports whether v is null or a zero scalar ("", 0, false).
func zeroScalar(v value.Value) bool {
	switch v.Kind() {
	case value.KindNull:
		return true
	case value.KindString:
		return v.Str() == ""
	case value.KindInt:
		return v.Int() == 0
	case value.KindFloat:
		return v.Float() == 0
	case value.KindBool:
		return !v.Bool()
	}
	return false
}
