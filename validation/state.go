package validation

import (
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// segKind tells how a path segment joins kube-openapi's dotted error name.
type segKind uint8

const (
	segProp  segKind = iota // a property: "name" at the root, else ".name"
	segKey                  // an additionalProperties key: always ".key"
	segIndex                // a list index: "[i]"
)

type seg struct {
	kind segKind
	name string
	idx  int
}

// rec is one reported error with the kube-openapi message it came from,
// which kube-openapi uses to deduplicate errors.
type rec struct {
	err *field.Error
	key string
	// fixed: not ratcheted on update (node.fixed)
	fixed bool
}

// state is the scratch space of one validation call. It is pooled so that
// validating valid input allocates nothing once the pool is warm.
type state struct {
	v     *Validator
	segs  []seg
	errs  []rec
	warns []rec
	depth int
	// probe > 0 while a not clause is evaluated only to learn whether it
	// validates: errors are then counted, not built.
	probe int
	lp    lpath // the list-type pass's path
	// visits counts validate calls, one per schema node and value it
	// validates: tests check with it that each junctor clause is
	// validated once.
	visits int
	// keySegs and tmp are objectCheck's scratch space for putting the
	// errors of additionalProperties keys in sorted order.
	keySegs []keySeg
	tmp     []rec
	// update: validating an update (nodes with skipOnUpdate are skipped).
	update bool
}

var statePool = sync.Pool{New: func() any { return &state{} }}

func (v *Validator) getState() *state {
	s := statePool.Get().(*state)
	s.v = v
	return s
}

func putState(s *state) {
	s.v = nil
	s.segs = s.segs[:0]
	s.lp.segs, s.lp.root = s.lp.segs[:0], nil
	for i := range s.errs {
		s.errs[i] = rec{}
	}
	for i := range s.warns {
		s.warns[i] = rec{}
	}
	s.errs, s.warns = s.errs[:0], s.warns[:0]
	s.depth, s.probe, s.visits, s.update = 0, 0, 0, false
	s.lp.update, s.lp.fixedOnly = false, false
	if cap(s.errs) > 1024 || cap(s.segs) > 1024 || cap(s.tmp) > 1024 {
		return
	}
	statePool.Put(s)
}

func (s *state) push(k segKind, name string, idx int) {
	s.segs = append(s.segs, seg{kind: k, name: name, idx: idx})
}

func (s *state) pop() { s.segs = s.segs[:len(s.segs)-1] }

// name renders kube-openapi's dotted path of the current value: properties
// join with "." except at the root, additionalProperties keys always join
// with "." (so a root key reads ".key"), indices as "[i]".
func (s *state) name() string {
	var b strings.Builder
	for _, g := range s.segs {
		switch g.kind {
		case segProp:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(g.name)
		case segKey:
			b.WriteByte('.')
			b.WriteString(g.name)
		case segIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(g.idx))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// errPath is the field path the apiserver derives from a kube-openapi error
// name (kubeOpenAPIResultToFieldErrors): the root path, or a child of it
// named by the dotted name without its leading ".".
func (s *state) errPath(name string) *field.Path {
	root := s.v.opts.FieldPath
	if name == "" || name == "." {
		return root
	}
	return root.Child(strings.TrimPrefix(name, "."))
}

// add records an error produced by keyword at node n, applying the node's
// x-kubernetes-validation-errors override.
func (s *state) add(n *node, keyword string, e *field.Error, msg string) {
	if s.probing() {
		return
	}
	s.fill(s.reserve(), n, keyword, e, msg)
}

// reserve appends a placeholder for an error whose message is known only
// after the errors that follow it (anyOf, oneOf), and returns its index.
// The caller fills it or truncates it away.
func (s *state) reserve() int {
	s.errs = append(s.errs, rec{})
	return len(s.errs) - 1
}

// fill sets the placeholder at i to an error produced by keyword at node n,
// as add would have appended it.
func (s *state) fill(i int, n *node, keyword string, e *field.Error, msg string) {
	if n != nil && n.xerr != nil {
		if o, ok := n.xerr[keyword]; ok {
			applyOverride(e, o)
		}
	}
	s.errs[i] = rec{err: e, key: msg, fixed: n != nil && n.fixed}
}

// keepLast moves the errors from start on down to dst, dropping those
// between: an anyOf or oneOf clause that failed better than the previous
// best replaces its errors.
func (s *state) keepLast(dst, start int) {
	if dst == start {
		return
	}
	n := copy(s.errs[dst:], s.errs[start:])
	for i := dst + n; i < len(s.errs); i++ {
		s.errs[i] = rec{}
	}
	s.errs = s.errs[:dst+n]
}

// probing records a placeholder error and reports true in probe mode, so
// that error sites skip building messages and paths.
func (s *state) probing() bool {
	if s.probe == 0 {
		return false
	}
	s.errs = append(s.errs, rec{})
	return true
}

// applyOverride replaces the message and reason of an error as
// x-kubernetes-validation-errors asks (a kdv extension): the message
// replaces the detail, and a reason naming a field.ErrorType
// (FieldValueInvalid, FieldValueRequired, ...) replaces the type.
func applyOverride(e *field.Error, o schema.ValidationError) {
	if o.Message != "" {
		e.Detail = o.Message
	}
	if o.At == "list" && strings.HasSuffix(e.Field, "]") {
		// only a list index: a map key (labels[a]) stays
		if i := strings.LastIndexByte(e.Field, '['); i > 0 {
			if _, err := strconv.Atoi(e.Field[i+1 : len(e.Field)-1]); err == nil {
				e.Field = e.Field[:i]
			}
		}
	}
	switch t := field.ErrorType(o.Reason); t {
	case field.ErrorTypeInvalid, field.ErrorTypeRequired, field.ErrorTypeForbidden,
		field.ErrorTypeDuplicate, field.ErrorTypeNotSupported, field.ErrorTypeTooLong,
		field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid, field.ErrorTypeNotFound:
		e.Type = t
	}
}

// dedup returns the records' errors, dropping later errors whose message
// equals an earlier one (kube-openapi Result.AddErrors).
func dedup(rs []rec) field.ErrorList {
	if len(rs) == 0 {
		return nil
	}
	out := make(field.ErrorList, 0, len(rs))
	var seen map[string]bool
	if len(rs) > 1 {
		seen = make(map[string]bool, len(rs))
	}
	for _, r := range rs {
		if seen != nil {
			if seen[r.key] {
				continue
			}
			seen[r.key] = true
		}
		out = append(out, r.err)
	}
	return out
}
