package validation

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// junctors is kube-openapi's schemaPropsValidator: anyOf, oneOf, allOf and
// not, with their composite messages. Clauses are validated without
// ratcheting, as the apiserver does. It returns the validator's MatchCount.
//
// Each clause is validated once, its errors built in place: the errors of
// a failing clause that kube-openapi reports are the ones already in
// s.errs, and the others are dropped. Validating a failing clause a second
// time to build its messages would double the work at every level of
// nesting, exponential in the nesting depth. The composite message that
// precedes a clause's errors goes into a slot reserved before the clauses
// run, so kept errors move only when a later anyOf/oneOf clause fails with
// a higher MatchCount than the best so far (kube-openapi copies them at
// every level, with Result.Merge).
func (s *state) junctors(n *node, data value.Value) int {
	mc := 0
	if len(n.anyOf) > 0 {
		// kube-openapi reports the anyOf message, then the errors of the
		// failing clause with the highest MatchCount (the first among
		// equals), unless a clause validates.
		slot := s.reserve()
		bestMC, haveBest := 0, false
		for _, c := range n.anyOf {
			start := len(s.errs)
			cmc := s.validate(c, data, value.Value{}, false)
			if len(s.errs) == start {
				s.truncate(slot, len(s.warns))
				slot, mc = -1, mc+cmc
				break
			}
			if !haveBest || cmc > bestMC {
				s.keepLast(slot+1, start)
				bestMC, haveBest = cmc, true
			} else {
				s.truncate(start, len(s.warns))
			}
		}
		if slot >= 0 {
			mc += bestMC
			// In probe mode the reserved placeholder is the error.
			if s.probe == 0 {
				name := s.name()
				msg := fmt.Sprintf("%q must validate at least one schema (anyOf)", name)
				s.fill(slot, n, "anyOf", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			}
		}
	}
	if len(n.oneOf) > 0 {
		// The oneOf message when none or several clauses validate; with
		// none, the errors of the best failing clause as for anyOf.
		slot := s.reserve()
		bestMC, haveBest, firstMC, validated := 0, false, 0, 0
		for _, c := range n.oneOf {
			start := len(s.errs)
			cmc := s.validate(c, data, value.Value{}, false)
			if len(s.errs) == start {
				validated++
				if validated == 1 {
					firstMC = cmc
					s.truncate(slot+1, len(s.warns))
					haveBest = false
				}
				continue
			}
			if validated == 0 && (!haveBest || cmc > bestMC) {
				s.keepLast(slot+1, start)
				bestMC, haveBest = cmc, true
			} else {
				s.truncate(start, len(s.warns))
			}
		}
		if validated != 1 {
			if haveBest {
				mc += bestMC
			}
			// In probe mode the reserved placeholder is the error.
			if s.probe == 0 {
				extra := "Found none valid"
				if validated > 1 {
					extra = fmt.Sprintf("Found %d valid alternatives", validated)
				}
				name := s.name()
				msg := fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", name, extra)
				s.fill(slot, n, "oneOf", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			}
		} else {
			s.truncate(slot, len(s.warns))
			mc += firstMC
		}
	}
	if len(n.allOf) > 0 {
		// Failing clauses contribute their errors, in order, then the
		// allOf message.
		validated := 0
		for _, c := range n.allOf {
			start := len(s.errs)
			mc += s.validate(c, data, value.Value{}, false)
			if len(s.errs) == start {
				validated++
			}
		}
		if validated != len(n.allOf) {
			if !s.probing() {
				extra := ""
				if validated == 0 {
					extra = ". None validated"
				}
				name := s.name()
				msg := fmt.Sprintf("%q must validate all the schemas (allOf)%s", name, extra)
				s.add(n, "allOf", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			}
		}
	}
	if n.not != nil {
		// Only whether the clause validates matters: its errors are never
		// reported, so they are counted, not built.
		start := len(s.errs)
		s.probe++
		s.validate(n.not, data, value.Value{}, false)
		s.probe--
		ok := len(s.errs) == start
		s.truncate(start, len(s.warns))
		if ok && !s.probing() {
			name := s.name()
			msg := fmt.Sprintf("%q must not validate the schema (not)", name)
			s.add(n, "not", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
		}
	}
	return mc + 1
}
