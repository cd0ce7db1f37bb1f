package validation

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/formats"
	"kdv.dev/value"
)

// This file mirrors kube-openapi's validate.SchemaValidator as the
// apiserver runs it on custom resources (pkg/validation/validate: schema.go,
// type.go, schema_props.go, validator.go, slice_validator.go,
// object_validator.go) and converts each error the way
// kubeOpenAPIResultToFieldErrors does (apiextensions-apiserver
// pkg/apiserver/validation/validation.go). MatchCount is reproduced because
// anyOf and oneOf report the errors of the failing clause with the highest
// count.

// maxValueDepth bounds recursion into values; deeper values are not
// validated further (the apiserver's decoder rejects such documents).
const maxValueDepth = 10000

// visit validates data against a structural node. When corr is set, old is
// the correlated old value and errors of an unchanged value are ratcheted
// into warnings (ratcheting.go).
func (s *state) visit(n *node, data, old value.Value, corr bool) int {
	start := len(s.errs)
	mc := s.validate(n, data, old, corr)
	if corr && s.ratchetable(start) && s.ratchetEqual(n, old, data) {
		// errors of nodes that do not ratchet (fixed) stay errors
		kept := start
		for i := start; i < len(s.errs); i++ {
			if r := s.errs[i]; r.fixed {
				s.errs[kept] = r
				kept++
			} else {
				s.warns = append(s.warns, r)
			}
		}
		for i := kept; i < len(s.errs); i++ {
			s.errs[i] = rec{}
		}
		s.errs = s.errs[:kept]
	}
	return mc
}

// ratchetable reports whether an error from start on may ratchet (is not
// fixed).
func (s *state) ratchetable(start int) bool {
	for i := start; i < len(s.errs); i++ {
		if !s.errs[i].fixed {
			return true
		}
	}
	return false
}

// validate is SchemaValidator.Validate: it runs the type, junctor, string,
// format, number, slice, enum and object validators that apply to the
// value's kind, in that order, and returns kube-openapi's MatchCount.
func (s *state) validate(n *node, data, old value.Value, corr bool) int {
	if n == nil || n.skipAlways || n.skipOnUpdate && s.update {
		return 0
	}
	s.visits++
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxValueDepth {
		return 0
	}
	kind := data.Kind()
	mc := 0
	if kind == value.KindNull {
		if len(n.types) > 0 && !n.hasType("null") && !n.nullable {
			s.typeErr(n, n.typeStr, "null")
		} else {
			mc++
		}
		if len(n.enum) > 0 {
			s.enumErr(n, data)
		}
		return mc
	}
	if n.typeVal {
		if s.typeCheck(n, data, kind) {
			mc++
		}
		mc++
	}
	if n.junctors {
		mc += s.junctors(n, data)
	} else {
		mc++ // the junctor validator's own count
	}
	mc++
	switch kind {
	case value.KindString:
		s.stringCheck(n, data.Str())
		mc++
		if n.checker != nil {
			if str := data.Str(); !n.checker.Valid(str) {
				s.formatErr(n, str)
			}
			mc++
		}
	case value.KindInt, value.KindFloat:
		s.numberCheck(n, data, kind)
		mc += 2
	case value.KindList:
		mc += s.sliceCheck(n, data, old, corr) + 1
	}
	if len(n.enum) > 0 && !n.enumMatch(data) {
		s.enumErr(n, data)
	}
	mc++
	if kind == value.KindMap {
		mc += s.objectCheck(n, data, old, corr)
		mc++
	}
	return mc + 1
}

// formatErr reports a string failing the node's format: kube-openapi's
// InvalidType error for the apiserver's formats, the checker's own errors
// for the extended (validation-gen, KEP-4153) ones.
func (s *state) formatErr(n *node, str string) {
	if s.probing() {
		return
	}
	name := s.name()
	switch n.checker.Family() {
	case formats.OpenAPI, formats.KubernetesCRD:
		msg := formats.TypeDetail(name, n.format, str)
		s.add(n, "format", field.TypeInvalid(s.errPath(name), str, msg), msg)
	default:
		for _, e := range n.checker.Errors(s.errPath(name), str) {
			s.add(n, "format", e, e.Error())
		}
	}
}

func (s *state) typeErr(n *node, typeName, got string) {
	if !s.probing() {
		name := s.name()
		msg := fmt.Sprintf("%s in body must be of type %s: %q", name, typeName, got)
		s.add(n, "type", field.TypeInvalid(s.errPath(name), got, msg), msg)
	}
}

func (s *state) enumErr(n *node, data value.Value) {
	if !s.probing() {
		name := s.name()
		msg := fmt.Sprintf("%s in body should be one of %s", name, n.enumStr)
		s.add(n, "enum", field.NotSupported(s.errPath(name), data.Unstructured(), n.enumValues()), msg)
	}
}

// typeCheck is kube-openapi's typeValidator for non-null data.
func (s *state) typeCheck(n *node, data value.Value, kind value.Kind) bool {
	schType, format := "", ""
	switch kind {
	case value.KindBool:
		schType = "boolean"
	case value.KindString:
		schType = "string"
	case value.KindInt:
		schType, format = "integer", "int64"
	case value.KindFloat:
		schType, format = "number", "float64"
	case value.KindList:
		schType = "array"
	case value.KindMap:
		schType = "object"
	}
	isFloatInt := kind == value.KindFloat && isFloat64AJSONInteger(data.Float()) && n.hasType("integer")
	isIntFloat := kind == value.KindInt && n.hasType("number")
	if kind != value.KindString && kind != value.KindList && n.format != "" &&
		!(n.hasType(schType) || format == n.format || isFloatInt || isIntFloat) {
		s.typeErr(n, n.format, format)
		return false
	}
	if !(n.hasType("number") || n.hasType("integer")) && n.format != "" && (kind == value.KindString || kind == value.KindList) {
		return true
	}
	if !(n.hasType(schType) || isFloatInt || isIntFloat) {
		s.typeErr(n, n.typeStr, schType)
		return false
	}
	return true
}

// stringCheck is kube-openapi's stringValidator: maxLength, minLength (in
// runes) and pattern, stopping at the first failure.
func (s *state) stringCheck(n *node, str string) {
	if n.maxLength == nil && n.minLength == nil && n.pattern == "" {
		return
	}
	if n.maxLength != nil || n.minLength != nil {
		l := int64(utf8.RuneCountInString(str))
		if n.maxLength != nil && l > *n.maxLength {
			if !s.probing() {
				name := s.name()
				msg := fmt.Sprintf("%s in body should be at most %d chars long", name, *n.maxLength)
				s.add(n, "maxLength", field.TooLong(s.errPath(name), "", int(*n.maxLength)), msg)
			}
			return
		}
		if n.minLength != nil && l < *n.minLength {
			if !s.probing() {
				name := s.name()
				msg := fmt.Sprintf("%s in body should be at least %d chars long", name, *n.minLength)
				s.add(n, "minLength", field.Invalid(s.errPath(name), str, msg), msg)
			}
			return
		}
	}
	if n.pattern != "" {
		if n.reErr != nil {
			if !s.probing() {
				name := s.name()
				msg := fmt.Sprintf("%s in body should match '%s'", name, n.pattern+", but pattern is invalid: "+n.reErr.Error())
				s.add(n, "pattern", field.Invalid(s.errPath(name), str, msg), msg)
			}
		} else if !n.re.MatchString(str) {
			if !s.probing() {
				name := s.name()
				msg := fmt.Sprintf("%s in body should match '%s'", name, n.pattern)
				s.add(n, "pattern", field.Invalid(s.errPath(name), str, msg), msg)
			}
		}
	}
}

// sliceCheck is kube-openapi's schemaSliceValidator: items, then minItems,
// maxItems and uniqueItems. It returns the items' match counts.
func (s *state) sliceCheck(n *node, data, old value.Value, corr bool) int {
	size := data.Len()
	mc := 0
	if n.items != nil {
		var ml mapList
		hasML := false
		if corr {
			ml, hasML = s.correlateList(n, old)
		}
		for i := 0; i < size; i++ {
			item := data.Index(i)
			s.push(segIndex, "", i)
			if hasML {
				if o, ok := ml.get(n, item); ok {
					mc += s.visit(n.items, item, o, true)
					s.pop()
					continue
				}
			}
			mc += s.validate(n.items, item, value.Value{}, false)
			s.pop()
		}
	}
	if n.minItems != nil && int64(size) < *n.minItems {
		if !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%s in body should have at least %d items", name, *n.minItems)
			s.add(n, "minItems", field.Invalid(s.errPath(name), int64(size), msg), msg)
		}
	}
	if n.maxItems != nil && int64(size) > *n.maxItems {
		if !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%s in body should have at most %d items", name, *n.maxItems)
			s.add(n, "maxItems", field.TooMany(s.errPath(name), size, int(*n.maxItems)), msg)
		}
	}
	if n.uniqueItems && hasDuplicates(data) {
		if !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%s in body shouldn't contain duplicates", name)
			s.add(n, "uniqueItems", field.Invalid(s.errPath(name), "", msg), msg)
		}
	}
	return mc
}

func hasDuplicates(data value.Value) bool {
	size := data.Len()
	if size < 2 {
		return false
	}
	if !data.IsTyped() {
		// Fast path for lists of strings, the common case.
		allStrings := true
		for i := 0; i < size && allStrings; i++ {
			allStrings = data.Index(i).Kind() == value.KindString
		}
		if allStrings && size > 8 {
			seen := make(map[string]struct{}, size)
			for i := 0; i < size; i++ {
				str := data.Index(i).Str()
				if _, ok := seen[str]; ok {
					return true
				}
				seen[str] = struct{}{}
			}
			return false
		}
	}
	for i := 1; i < size; i++ {
		a := data.Index(i)
		for j := 0; j < i; j++ {
			if value.Equal(a, data.Index(j)) {
				return true
			}
		}
	}
	return false
}

// objectCheck is kube-openapi's objectValidator: min/maxProperties,
// additionalProperties, properties, then required. Map keys are visited in
// the map's order; when that produced several errors, they are put in
// sorted key order so that the result is deterministic (the apiserver's
// order is random there).
func (s *state) objectCheck(n *node, data, old value.Value, corr bool) int {
	numKeys := int64(data.Len())
	if n.minProps != nil && numKeys < *n.minProps {
		if !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%s in body should have at least %d properties", name, *n.minProps)
			s.add(n, "minProperties", field.Invalid(s.errPath(name), numKeys, msg), msg)
		}
	}
	if n.maxProps != nil && numKeys > *n.maxProps {
		if !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%s in body should have at most %d properties", name, *n.maxProps)
			s.add(n, "maxProperties", field.TooMany(s.errPath(name), int(numKeys), int(*n.maxProps)), msg)
		}
	}
	mc := 0
	if n.additionalFalse {
		var bad []string
		data.Range(func(k string, _ value.Value) bool {
			if _, ok := n.propIdx[k]; !ok {
				bad = append(bad, k)
			}
			return true
		})
		sort.Strings(bad)
		for _, k := range bad {
			if !s.probing() {
				name := s.name()
				msg := fmt.Sprintf("%s.%s in body is a forbidden property", name, k)
				s.add(n, "additionalProperties", field.Invalid(s.errPath(name), k, msg), msg)
			}
		}
	} else if n.additional != nil {
		start, warnStart, base := len(s.errs), len(s.warns), len(s.keySegs)
		data.Range(func(k string, v value.Value) bool {
			if _, ok := n.propIdx[k]; !ok {
				e0, w0 := len(s.errs), len(s.warns)
				mc += s.child(n.additional, segKey, k, v, old, corr)
				s.keySegs = append(s.keySegs, keySeg{k, e0, len(s.errs), w0, len(s.warns)})
			}
			return true
		})
		if len(s.errs) > start+1 || len(s.warns) > warnStart+1 {
			s.sortByKey(base, start, warnStart)
		}
		clear(s.keySegs[base:])
		s.keySegs = s.keySegs[:base]
	}
	if len(n.props) > 4*data.Len() && len(n.props) <= 256 {
		// Few of many properties are set: find them from the data's keys,
		// then visit them in schema order.
		var present [4]uint64
		data.Range(func(k string, _ value.Value) bool {
			if i, ok := n.propIdx[k]; ok {
				present[i>>6] |= 1 << (i & 63)
			}
			return true
		})
		for i := range n.props {
			if present[i>>6]&(1<<(i&63)) == 0 {
				continue
			}
			p := &n.props[i]
			v, _ := data.Get(p.name)
			mc += s.child(p.n, segProp, p.name, v, old, corr)
		}
	} else {
		for i := range n.props {
			p := &n.props[i]
			if v, ok := data.Get(p.name); ok {
				mc += s.child(p.n, segProp, p.name, v, old, corr)
			}
		}
	}
	for _, k := range n.required {
		if !data.Has(k) {
			if !s.probing() {
				name := s.name() + "." + k
				msg := fmt.Sprintf("%s in body is required", name)
				s.add(n, "required", field.Required(s.errPath(name), ""), msg)
			}
		}
	}
	return mc
}

// keySeg is the errors and warnings one additionalProperties key added:
// s.errs[e0:e1] and s.warns[w0:w1].
type keySeg struct {
	key            string
	e0, e1, w0, w1 int
}

// sortByKey reorders the errors and warnings from errStart and warnStart on
// into sorted key order, by the segments s.keySegs[base:] recorded in map
// order. Moving them rather than validating the keys again in sorted order
// keeps nested maps linear: a second pass at each level would double the
// work per level of nesting.
func (s *state) sortByKey(base, errStart, warnStart int) {
	segs := s.keySegs[base:]
	slices.SortFunc(segs, func(a, b keySeg) int { return strings.Compare(a.key, b.key) })
	s.tmp = append(s.tmp[:0], s.errs[errStart:]...)
	at := errStart
	for _, g := range segs {
		at += copy(s.errs[at:], s.tmp[g.e0-errStart:g.e1-errStart])
	}
	s.tmp = append(s.tmp[:0], s.warns[warnStart:]...)
	at = warnStart
	for _, g := range segs {
		at += copy(s.warns[at:], s.tmp[g.w0-warnStart:g.w1-warnStart])
	}
	clear(s.tmp)
	s.tmp = s.tmp[:0]
}

func (s *state) truncate(errs, warns int) {
	for i := errs; i < len(s.errs); i++ {
		s.errs[i] = rec{}
	}
	s.errs = s.errs[:errs]
	for i := warns; i < len(s.warns); i++ {
		s.warns[i] = rec{}
	}
	s.warns = s.warns[:warns]
}

// child validates a property or additionalProperties value, correlated with
// the old object's value of the same key when ratcheting
// (ratchetingValueValidator.SubPropertyValidator): both must have the key,
// and the root's apiVersion and kind are never correlated.
func (s *state) child(n *node, k segKind, key string, v, old value.Value, corr bool) int {
	if corr && !(len(s.segs) == 0 && (key == "kind" || key == "apiVersion")) {
		if o, ok := old.Get(key); ok {
			s.push(k, key, 0)
			mc := s.visit(n, v, o, true)
			s.pop()
			return mc
		}
	}
	s.push(k, key, 0)
	mc := s.validate(n, v, value.Value{}, false)
	s.pop()
	return mc
}
