package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// qualifiedKeyDuplicates checks an x-kubernetes-unique-key naming a
// property qualified by others ("nodePort+protocol"), as hand-written
// validation keeps a set of (key, qualifiers) pairs seen and skips items
// whose key is empty or zero (validateService's node ports: a node port
// may repeat under another protocol, and 0 is "allocate one"): it reports
// every item whose key and qualifiers are already in it at list[i].<key>
// with the key's value, as a single key is reported. A missing, null or
// zero qualifier compares as its zero value (the Go struct's). Items with
// a compound value there are not compared.
func qualifiedKeyDuplicates(w *lpath, n *node, x value.Value, key string, quals []string) field.ErrorList {
	size := x.Len()
	var seen map[string]bool
	var errs field.ErrorList
	var b strings.Builder
	for i := 0; i < size; i++ {
		item, k, sk, ok := itemKey(x, i, key)
		if !ok {
			continue
		}
		b.Reset()
		writeScalarKey(&b, sk)
		for _, q := range quals {
			v, present := item.Get(q)
			if !present || zeroScalar(v) {
				b.WriteString("\x00z")
				continue
			}
			qk, scalar := keyOf(v)
			if !scalar {
				ok = false
				break
			}
			writeScalarKey(&b, qk)
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
		errs = append(errs, uniqueKeyError(n, field.Duplicate(w.path().Index(i).Child(key), k.Unstructured())))
	}
	return errs
}

// itemKey returns item i of list x, its value at property key and that
// value's scalar key; false when the item is not an object, or the value
// is missing, zero (unique-key checks skip them, as the hand-written sets
// skip empty names) or not a scalar.
func itemKey(x value.Value, i int, key string) (item, k value.Value, sk scalarKey, ok bool) {
	item = x.Index(i)
	if item.Kind() != value.KindMap {
		return item, k, sk, false
	}
	k, ok = item.Get(key)
	if !ok || zeroScalar(k) {
		return item, k, sk, false
	}
	sk, ok = keyOf(k)
	return item, k, sk, ok
}

// writeScalarKey writes a scalar's key, distinct for distinct scalars.
func writeScalarKey(b *strings.Builder, sk scalarKey) {
	fmt.Fprintf(b, "\x00%d:%v:%d:%g:%q", sk.kind, sk.b, sk.i, sk.f, sk.s)
}

// uniqueKeyError is e, a repeat of a unique key, as the list's
// x-kubernetes-validation-errors "uniqueKey" words it (e.g. Invalid "must
// be unique"), or as it is when there is no override.
func uniqueKeyError(n *node, e *field.Error) *field.Error {
	if o, ok := n.xerr["uniqueKey"]; ok {
		applyOverride(e, o)
	}
	return e
}
