package cel

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/google/cel-go/common/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// Per-item errors of built-in rules. The hand-written validation reports a
// check that relates list items to other fields at each offending item
// (spec.containers[0].volumeMounts[1].name: Not found: "data"), but a CEL
// rule sees its own node only, so a rule on the PodSpec that checks every
// mount against the volumes can only fail as a whole. A built-in rule may
// therefore name list wildcards in its fieldPath
// (".containers[*].volumeMounts[*].name"): the rule is then read as a
// conjunction over the elements of the starred lists, and when it fails it
// is evaluated again on self restricted, for each combination of elements,
// to that one element of each starred list; each restriction on which it
// fails is reported at the concrete path, with the value found there. The
// rule itself stays standard CEL; only the wildcard in fieldPath is kdv's.
// When no restriction fails (the rule failed on something else), the error
// is reported at the path before the first wildcard, as before. A rule
// using oldSelf sees the whole old object in each restriction.
//
// A list may also be named with [] (".matchExpressions[].operator"): its
// elements are bound as with [*], but the reported path leaves out their
// index, as some hand-written validation does
// (validateScopedResourceSelectorRequirement reports at
// scopeSelector.matchExpressions.operator).
//
// A map (an object with additionalProperties) may be named with [*] too
// (".requests[*] as .requests"): each key is bound in turn, in sorted
// order, the map restricted to that key, and reported at the key
// (requests[memory]) or, with a reported path, where that says; so a rule
// over a map's keys reports each bad key with its own value, as
// validateResourceRequirements reports each request above its limit.
// With [@] in place of [*], as the value path's last step
// (".matchLabels[@] as .matchLabels"), each key is bound the same way but
// the bad value is the key itself, as the hand-written checks of map keys
// report it (ValidateLabels: field.Invalid(fldPath, k, msg) for a bad
// label key; validateLimitRangeResourceName at max[k] with k).
//
// A list named with [#] (".ports[#].name") is bound as with [*], but in
// each restriction the list keeps its length, the bound element in every
// place: for rules that apply only to lists of several items
// (validateServicePort: a port's name is Required when a Service has more
// than one port; "size(self.ports) <= 1 || self.ports.all(p, has(p.name))"
// fails on the restriction to each unnamed port).

// Reported paths. The hand-written validation sometimes reports at a path
// that is not where the value is: each unsupported access mode at
// spec.accessModes (not spec.accessModes[i]), a missing storage request at
// spec.resources[storage] (a map key on a struct), a changed volume source
// at spec.persistentvolumesource (no such field). A built-in rule may
// therefore give its fieldPath as "<value path> as <reported path>": the
// value path (any fieldPath above, wildcards included) says where the bad
// value is and, with wildcards, which items are to blame; the reported
// path, a dot followed by the path as field.Path prints it, says where the
// error is reported (after the rule's own path), each "[*]" in it replaced
// by the index of the corresponding wildcard of the value path, in order.
// ".accessModes[*] as .accessModes" reports each bad mode at the list;
// ". as .localhostProfile" reports self, the whole object, at a field.
// "'' as .type" reports the literal "" as the bad value, as hand-written
// code that prints a constant instead of the value it checks
// (ValidateEventCreate: field.Invalid(field.NewPath("type"), "", ...)).

// cutReportedPath splits "<value path> as <reported path>"; report is the
// reported path without its leading dot. ok is false for a plain fieldPath.
func cutReportedPath(fp string) (value, report string, ok bool) {
	i := strings.LastIndex(fp, " as .")
	if i < 0 || strings.ContainsAny(fp[i:], "'\"") {
		return fp, "", false
	}
	value, report = strings.TrimSpace(fp[:i]), fp[i+len(" as ."):]
	if value == "" || report == "" {
		return fp, "", false
	}
	return value, report, true
}

// reportedAt is the reported path with its wildcards replaced by idx.
func reportedAt(report string, idx []string) string {
	var b strings.Builder
	for k := 0; ; k++ {
		before, after, found := strings.Cut(report, "[*]")
		b.WriteString(before)
		if !found {
			return b.String()
		}
		if k < len(idx) {
			b.WriteString(idx[k])
		} else {
			b.WriteString("[*]")
		}
		report = after
	}
}

// eachPath is a fieldPath with list wildcards: property names, "*", "-"
// (a list bound through without its index in the path), "#" (bound
// keeping the list's length), "@" (each key of a map) and "@k" (each key
// of a map, the key being the value; last).
type eachPath struct {
	// report is the reported path ("" for the value's own).
	report string
	steps  []string
	// prefix is the path before the first wildcard, and its steps.
	prefix      string
	prefixSteps []string
}

// parseEachPath reads a fieldPath of dot-separated property names, each
// optionally followed by [*], against s; ok is false when it has no
// wildcard or does not fit the schema.
func parseEachPath(fp string, s *schema.Structural) (eachPath, bool) {
	var p eachPath
	if !strings.Contains(fp, "[*]") && !strings.Contains(fp, "[]") && !strings.Contains(fp, "[#]") && !strings.Contains(fp, "[@]") || !strings.HasPrefix(fp, ".") {
		return p, false
	}
	var prefix *field.Path
	wild := false
	segs := strings.Split(fp[1:], ".")
	for i, seg := range segs {
		name, keyed := strings.CutSuffix(seg, "[@]")
		if keyed {
			// each key of a map, the key as the value: nothing can follow
			if i != len(segs)-1 || name == "" || strings.ContainsAny(name, "[]'") || s == nil || s.Properties == nil {
				return p, false
			}
			c, ok := s.Properties[name]
			if !ok || c.Type != "object" || c.Properties != nil || c.AdditionalProperties == nil || c.AdditionalProperties.Structural == nil {
				return p, false
			}
			p.steps = append(p.steps, name, "@k")
			if !wild {
				prefix = prefix.Child(name)
				p.prefixSteps = append(p.prefixSteps, name)
			}
			break
		}
		name, star := strings.CutSuffix(seg, "[*]")
		flat, sized := false, false
		if !star {
			name, flat = strings.CutSuffix(seg, "[]")
		}
		if !star && !flat {
			name, sized = strings.CutSuffix(seg, "[#]")
		}
		if name == "" || strings.ContainsAny(name, "[]'") {
			return p, false
		}
		if s == nil || s.Properties == nil {
			return p, false
		}
		c, ok := s.Properties[name]
		if !ok {
			return p, false
		}
		s = &c
		p.steps = append(p.steps, name)
		if !wild {
			prefix = prefix.Child(name)
			p.prefixSteps = append(p.prefixSteps, name)
		}
		if star && s.Type == "object" && s.Properties == nil && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			// a map: each key
			s = s.AdditionalProperties.Structural
			p.steps = append(p.steps, "@")
			wild = true
			continue
		}
		if star || flat || sized {
			if s.Type != "array" || s.Items == nil {
				return p, false
			}
			s = s.Items
			switch {
			case star:
				p.steps = append(p.steps, "*")
			case sized:
				p.steps = append(p.steps, "#")
			default:
				p.steps = append(p.steps, "-")
			}
			wild = true
		}
	}
	p.prefix = prefix.String()
	return p, true
}

// eachBinding is one combination of starred elements: the concrete path,
// self restricted to those elements, and the value at the path's end.
type eachBinding struct {
	path  *field.Path
	idx   []string // the subscript of each starred element ("[2]", "[key]")
	self  any
	value any
}

// bindings lists the combinations of elements of the starred lists of obj,
// in order.
func (p eachPath) bindings(obj any, budget int) ([]eachBinding, bool) {
	var out []eachBinding
	// each binding costs the size of self, which the rule is evaluated on
	size := countNodes(obj, budget+1)
	var walk func(cur any, i int, path *field.Path, idx []string, rebuild func(any) any)
	walk = func(cur any, i int, path *field.Path, idx []string, rebuild func(any) any) {
		if budget < 0 {
			return
		}
		if i == len(p.steps) {
			if budget -= size + 1; budget < 0 {
				return
			}
			out = append(out, eachBinding{path: path, idx: idx, self: rebuild(cur), value: cur})
			return
		}
		if st := p.steps[i]; st == "*" || st == "-" || st == "#" {
			l, _ := cur.([]any)
			for j, el := range l {
				elPath := path
				if st != "-" {
					elPath = path.Index(j)
				}
				restrict := func(x any) any { return rebuild([]any{x}) }
				if st == "#" {
					// the list keeps its length in each restriction
					budget -= len(l)
					restrict = func(x any) any {
						r := make([]any, len(l))
						for k := range r {
							r[k] = x
						}
						return rebuild(r)
					}
				}
				walk(el, i+1, elPath, append(idx[:len(idx):len(idx)], fmt.Sprintf("[%d]", j)), restrict)
			}
			return
		}
		if st := p.steps[i]; st == "@" || st == "@k" {
			// each key of a map, in sorted order, the map restricted to it
			m, _ := cur.(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				restrict := func(x any) any { return rebuild(map[string]any{k: x}) }
				kidx := append(idx[:len(idx):len(idx)], "["+k+"]")
				if st == "@k" {
					// the last step: the key is the bad value
					out = append(out, eachBinding{path: path.Key(k), idx: kidx, self: restrict(m[k]), value: k})
					continue
				}
				walk(m[k], i+1, path.Key(k), kidx, restrict)
			}
			return
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return
		}
		name := p.steps[i]
		child, set := m[name]
		if !set && i+1 < len(p.steps) {
			return
		}
		walk(child, i+1, path.Child(name), idx, func(x any) any {
			c := make(map[string]any, len(m))
			for k, v := range m {
				c[k] = v
			}
			if x != nil || set {
				c[name] = x
			}
			return rebuild(c)
		})
	}
	walk(obj, 0, nil, nil, func(x any) any { return x })
	return out, budget >= 0
}

// eachBudget bounds the work of re-evaluating one failed wildcard rule
// per item: the number of restrictions times the size of self (and, for
// [#], the length of each restricted list). Beyond it (a hostile list of
// thousands of items, whose restrictions would cost their square) the
// error is reported at the path before the first wildcard, as when no
// item is to blame.
const eachBudget = 1 << 22

// countNodes counts the values in v (maps, lists and scalars), up to
// limit.
func countNodes(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n >= limit {
			return
		}
		n++
		switch t := v.(type) {
		case map[string]any:
			for _, c := range t {
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	return n
}

// eachErrors re-evaluates a failed rule with a wildcard fieldPath on each
// restriction of obj (see above) and returns the errors at the items it
// fails on; nil when it fails on none. A rule using oldSelf sees the whole
// old object (only self is restricted), as optional when the rule has
// optionalOldSelf: a rule like "(oldSelf.hasValue() && <old allows it>) ||
// <check of each item>" fails on the same items as without oldSelf.
func (e *evaluation) eachErrors(n *node, compiled *compilationResult, fldPath *field.Path, obj, oldObj any, optionalOldSelf bool, detail, messageExpression string, reason *string) field.ErrorList {
	var errs field.ErrorList
	bs, ok := compiled.each.bindings(obj, eachBudget)
	if !ok {
		return nil
	}
	for _, b := range bs {
		act, optAct := n.activations(b.self, oldObj, e.toVal)
		if optionalOldSelf {
			act = optAct
		}
		v, _, err := compiled.fast.prog.Eval(act)
		if err != nil || v != types.False {
			continue
		}
		d := detail
		if compiled.messageExpression != nil {
			// the message of this item: the expression sees the same
			// restriction ("found new scheduling gate 'b'" at
			// schedulingGates[1].name); built-in rules are unmetered
			m := messageEval{ctx: e.ctx, src: messageExpression, act: act, remaining: math.MaxInt64, tracked: compiled.messageExpression}
			if plan := compiled.fast.get(); plan != nil && plan.msgOK {
				m.untracked, m.cost = plan.msgProg, plan.msgCost
			}
			if msg, _, merr := m.eval(); merr == nil {
				d = msg
			}
		}
		p := b.path
		if compiled.each.report != "" {
			p = field.NewPath(reportedAt(compiled.each.report, b.idx))
		}
		if fldPath != nil {
			// as the rule's normalized fieldPath is appended
			p = fldPath.Child(p.String())
		}
		value := b.value
		if value == nil {
			value = compiled.absent
		}
		errs = append(errs, handwrittenError(p, value, d, reason, compiled.target))
	}
	return errs
}
