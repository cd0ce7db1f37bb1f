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
// No clause with junctors of its own is validated twice: validating a
// failing clause again to build its messages doubled the work at every
// level of nesting, exponential in the nesting depth. Such clauses run
// once, building their errors in place, and the errors kube-openapi does
// not report are dropped; the composite message that precedes a clause's
// errors goes into a slot reserved before the clauses run. Clauses without
// junctors below are probed (errors counted, not built), so that valid
// values allocate nothing (an int-or-string's anyOf [integer, string]
// fails its first clause for every string); the best failing one, whose
// errors anyOf and oneOf report, is validated again, which costs at most
// its own size. allOf reports every failing clause, so it validates each
// once with errors; not reports none of them, so it probes.
func (s *state) junctors(n *node, data value.Value) int {
	mc := 0
	if len(n.anyOf) > 0 {
		// kube-openapi reports the anyOf message, then the errors of the
		// failing clause with the highest MatchCount (the first among
		// equals), unless a clause validates.
		slot := s.reserve()
		b := best{slot: slot, i: -1}
		for i, c := range n.anyOf {
			start := len(s.errs)
			cmc, probed := s.clause(c, data)
			if len(s.errs) == start {
				s.truncate(slot, len(s.warns))
				slot, mc = -1, mc+cmc
				break
			}
			b.offer(s, i, start, cmc, probed)
		}
		if slot >= 0 {
			mc += b.mc
			// In probe mode the reserved placeholder is the error.
			if s.probe == 0 {
				name := s.name()
				msg := fmt.Sprintf("%q must validate at least one schema (anyOf)", name)
				s.fill(slot, n, "anyOf", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
				b.report(s, n.anyOf, data)
			}
		}
	}
	if len(n.oneOf) > 0 {
		// The oneOf message when none or several clauses validate; with
		// none, the errors of the best failing clause as for anyOf.
		slot := s.reserve()
		b := best{slot: slot, i: -1}
		firstMC, validated := 0, 0
		for i, c := range n.oneOf {
			start := len(s.errs)
			cmc, probed := s.clause(c, data)
			if len(s.errs) == start {
				validated++
				if validated == 1 {
					firstMC = cmc
					s.truncate(slot+1, len(s.warns))
					b.i = -1
				}
				continue
			}
			if validated == 0 {
				b.offer(s, i, start, cmc, probed)
			} else {
				s.truncate(start, len(s.warns))
			}
		}
		if validated != 1 {
			if b.i >= 0 {
				mc += b.mc
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
				b.report(s, n.oneOf, data)
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

// clause validates an anyOf or oneOf clause: probed when it has no
// junctors below, else with its errors. It returns the MatchCount and
// whether it probed.
func (s *state) clause(c *node, data value.Value) (int, bool) {
	if c.junctorsBelow {
		return s.validate(c, data, value.Value{}, false), false
	}
	s.probe++
	mc := s.validate(c, data, value.Value{}, false)
	s.probe--
	return mc, true
}

// best tracks the failing anyOf or oneOf clause with the highest
// MatchCount (the first among equals), whose errors kube-openapi reports:
// s.errs after slot holds them, or nothing when it was probed.
type best struct {
	slot, i, mc int
	probed      bool
}

// offer considers failing clause i, whose errors (or probe placeholders)
// start at start, and keeps them if it is the best so far.
func (b *best) offer(s *state, i, start, mc int, probed bool) {
	if b.i >= 0 && mc <= b.mc {
		s.truncate(start, len(s.warns))
		return
	}
	if probed {
		s.truncate(b.slot+1, len(s.warns))
	} else {
		s.keepLast(b.slot+1, start)
	}
	b.i, b.mc, b.probed = i, mc, probed
}

// report adds the best clause's errors after the composite message: they
// are there unless it was probed, in which case it is validated again.
func (b *best) report(s *state, clauses []*node, data value.Value) {
	if b.i >= 0 && b.probed {
		s.validate(clauses[b.i], data, value.Value{}, false)
	}
}
