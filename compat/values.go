package compat

import (
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	celgo "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"

	"kdv.dev/schema"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// values compares the value validations of a node.
func (w *walker) values(path string, o, n *schema.Structural) {
	ov, nv := o.ValueValidation, n.ValueValidation
	if ov == nil {
		ov = &schema.ValueValidation{}
	}
	if nv == nil {
		nv = &schema.ValueValidation{}
	}
	start := len(w.changes)
	w.float(path, "maximum", ov.Maximum, ov.ExclusiveMaximum, nv.Maximum, nv.ExclusiveMaximum, true)
	w.float(path, "minimum", ov.Minimum, ov.ExclusiveMinimum, nv.Minimum, nv.ExclusiveMinimum, false)
	w.count(path, "maxLength", ov.MaxLength, nv.MaxLength, true)
	w.count(path, "minLength", ov.MinLength, nv.MinLength, false)
	w.count(path, "maxItems", ov.MaxItems, nv.MaxItems, true)
	w.count(path, "minItems", ov.MinItems, nv.MinItems, false)
	w.count(path, "maxProperties", ov.MaxProperties, nv.MaxProperties, true)
	w.count(path, "minProperties", ov.MinProperties, nv.MinProperties, false)
	w.multipleOf(path, ov.MultipleOf, nv.MultipleOf)
	switch {
	case !ov.UniqueItems && nv.UniqueItems:
		w.add(path, "unique-items-added", BreaksObjects, ruleValidValues, false, true, "uniqueItems added: lists with duplicate items become invalid")
	case ov.UniqueItems && !nv.UniqueItems:
		w.add(path, "unique-items-removed", Safe, ruleLoosened, true, false, "uniqueItems removed")
	}
	switch {
	case ov.Pattern == nv.Pattern:
	case ov.Pattern == "":
		w.add(path, "pattern-changed", BreaksObjects, ruleValidValues, nil, nv.Pattern, "pattern %q added", nv.Pattern)
	case nv.Pattern == "":
		w.add(path, "pattern-changed", Safe, ruleLoosened, ov.Pattern, nil, "pattern %q removed", ov.Pattern)
	default:
		w.add(path, "pattern-changed", BreaksObjects, ruleValidValues, ov.Pattern, nv.Pattern, "pattern changed from %q to %q", ov.Pattern, nv.Pattern)
	}
	switch {
	case ov.Format == nv.Format:
	case ov.Format == "":
		w.add(path, "format-changed", BreaksObjects, ruleValidValues, nil, nv.Format, "format %q added", nv.Format)
	case nv.Format == "":
		w.add(path, "format-changed", Safe, ruleLoosened, ov.Format, nil, "format %q removed", ov.Format)
	default:
		w.add(path, "format-changed", BreaksObjects, ruleValidValues, ov.Format, nv.Format, "format changed from %q to %q", ov.Format, nv.Format)
	}
	w.spareEnum(start, ov, nv)
	w.enum(path, ov.Enum, nv.Enum, o.Description, n.Description)
	for _, j := range []struct {
		name     string
		old, new any
	}{{"allOf", ov.AllOf, nv.AllOf}, {"anyOf", ov.AnyOf, nv.AnyOf}, {"oneOf", ov.OneOf, nv.OneOf}, {"not", ov.Not, nv.Not}} {
		if !reflect.DeepEqual(j.old, j.new) {
			w.add(path, "junctor-changed", BreaksObjects, ruleUnanalysed, j.old, j.new, "%s changed", j.name)
		}
	}
}

// spareEnum downgrades the tightened bounds, patterns and formats reported
// since start when the old schema had an enum and every value of it passes
// the new schema's bounds and pattern: no valid value became invalid (a
// closed set of strings turned into an open pattern, say).
func (w *walker) spareEnum(start int, ov, nv *schema.ValueValidation) {
	if len(ov.Enum) == 0 {
		return
	}
	for _, e := range ov.Enum {
		if !passes(e.Object, nv) {
			return
		}
	}
	for i := start; i < len(w.changes); i++ {
		c := &w.changes[i]
		switch c.Kind {
		case "max-tightened", "min-tightened", "pattern-changed":
			if c.Severity == BreaksObjects {
				c.Severity, c.Rule = Safe, ruleLoosened
				c.Message += "; every value of the old enum passes it"
			}
		}
	}
}

// passes reports whether v satisfies the bounds and pattern of vv, as
// kube-openapi's validators check them (lengths in runes, RE2 patterns).
func passes(v any, vv *schema.ValueValidation) bool {
	switch x := normalize(v).(type) {
	case string:
		n := int64(utf8.RuneCountInString(x))
		if vv.MaxLength != nil && n > *vv.MaxLength || vv.MinLength != nil && n < *vv.MinLength {
			return false
		}
		if vv.Pattern != "" {
			re, err := regexp.Compile(vv.Pattern)
			if err != nil || !re.MatchString(x) {
				return false
			}
		}
		return vv.Maximum == nil && vv.Minimum == nil
	case float64:
		if m := vv.Maximum; m != nil && (x > *m || vv.ExclusiveMaximum && x == *m) {
			return false
		}
		if m := vv.Minimum; m != nil && (x < *m || vv.ExclusiveMinimum && x == *m) {
			return false
		}
		return vv.Pattern == "" && vv.MaxLength == nil && vv.MinLength == nil
	}
	return false
}

// float compares maximum or minimum with their exclusive flags. upper says
// the keyword is an upper bound (maximum).
func (w *walker) float(path, keyword string, o *float64, oExcl bool, n *float64, nExcl bool, upper bool) {
	kind := "max"
	if !upper {
		kind = "min"
	}
	desc := func(v *float64, excl bool) string {
		if v == nil {
			return "none"
		}
		if excl {
			return render(*v) + " (exclusive)"
		}
		return render(*v)
	}
	switch {
	case o == nil && n == nil:
		return
	case o == nil:
		w.add(path, kind+"-tightened", BreaksObjects, ruleValidValues, nil, *n, "%s %s added", keyword, desc(n, nExcl))
		return
	case n == nil:
		w.add(path, kind+"-loosened", Safe, ruleLoosened, *o, nil, "%s %s removed", keyword, desc(o, oExcl))
		return
	}
	// Compare as (value, exclusive): for an upper bound, a smaller value or
	// the same value made exclusive is tighter.
	ov, nv := *o, *n
	if !upper {
		ov, nv = -ov, -nv
	}
	var tighter, looser bool
	switch {
	case nv < ov:
		tighter = true
	case nv > ov:
		looser = true
	case nExcl && !oExcl:
		tighter = true
	case !nExcl && oExcl:
		looser = true
	}
	switch {
	case tighter:
		w.add(path, kind+"-tightened", BreaksObjects, ruleValidValues, *o, *n, "%s tightened from %s to %s", keyword, desc(o, oExcl), desc(n, nExcl))
	case looser:
		w.add(path, kind+"-loosened", Safe, ruleLoosened, *o, *n, "%s loosened from %s to %s", keyword, desc(o, oExcl), desc(n, nExcl))
	}
}

// count compares maxLength, minLength, maxItems, ... upper says the keyword
// is an upper bound.
func (w *walker) count(path, keyword string, o, n *int64, upper bool) {
	kind := "max"
	if !upper {
		kind = "min"
		// A lower bound of 0 on a length or count bounds nothing.
		if o == nil && n != nil && *n == 0 || n == nil && o != nil && *o == 0 {
			return
		}
	}
	switch {
	case o == nil && n == nil:
	case o == nil:
		w.add(path, kind+"-tightened", BreaksObjects, ruleValidValues, nil, *n, "%s %d added", keyword, *n)
	case n == nil:
		w.add(path, kind+"-loosened", Safe, ruleLoosened, *o, nil, "%s %d removed", keyword, *o)
	case *o == *n:
	case (*n < *o) == upper:
		w.add(path, kind+"-tightened", BreaksObjects, ruleValidValues, *o, *n, "%s tightened from %d to %d", keyword, *o, *n)
	default:
		w.add(path, kind+"-loosened", Safe, ruleLoosened, *o, *n, "%s loosened from %d to %d", keyword, *o, *n)
	}
}

// multipleOf: a new factor that divides the old one accepts every value
// the old accepted.
func (w *walker) multipleOf(path string, o, n *float64) {
	switch {
	case o == nil && n == nil:
	case o == nil:
		w.add(path, "multiple-of-changed", BreaksObjects, ruleValidValues, nil, *n, "multipleOf %s added", render(*n))
	case n == nil:
		w.add(path, "multiple-of-changed", Safe, ruleLoosened, *o, nil, "multipleOf %s removed", render(*o))
	case *o == *n:
	default:
		if q := *o / *n; q == math.Trunc(q) {
			w.add(path, "multiple-of-changed", Safe, ruleLoosened, *o, *n, "multipleOf loosened from %s to %s", render(*o), render(*n))
		} else {
			w.add(path, "multiple-of-changed", BreaksObjects, ruleValidValues, *o, *n, "multipleOf changed from %s to %s", render(*o), render(*n))
		}
	}
}

// enumOpen matches descriptions that tell clients to expect new enum
// values, as the API-change guide asks ("Additional policies may be defined
// in the future. Clients should expect to handle additional values"; Gateway
// API: "Note that values may be added to this enum").
var enumOpen = regexp.MustCompile(`(?i)(values|types|policies|reasons|modes|kinds) may be (added|defined|introduced)|may be added (to this enum|in (a )?future)|(handle|treat|expect)[^.]*\b(unknown|unrecognized|additional|new) values|(unknown|unrecognized) values (will|must|should|are)`)

// enum compares enum values. A new value is safe only when the old
// description already told clients to expect new values: the guide asks
// for it "in the first release the field is made available", and clients
// built against OLD read OLD's description.
func (w *walker) enum(path string, o, n []schema.JSON, oldDescription, newDescription string) {
	switch {
	case len(o) == 0 && len(n) == 0:
		return
	case len(o) == 0:
		w.add(path, "enum-added", BreaksObjects, ruleValidValues, nil, enumValues(n), "restricted to the values %s", render(enumValues(n)))
		return
	case len(n) == 0:
		w.add(path, "enum-dropped", Safe, ruleLoosened, enumValues(o), nil, "no longer restricted to the values %s", render(enumValues(o)))
		return
	}
	for _, v := range enumDiff(o, n) {
		w.add(path, "enum-value-removed", BreaksObjects, ruleEnumRemoved, v, nil, "enum value %s removed", render(v))
	}
	for _, v := range enumDiff(n, o) {
		if enumOpen.MatchString(oldDescription) {
			w.add(path, "enum-value-added", Safe, ruleEnumOpen, nil, v, "enum value %s added; the description says clients must expect new values", render(v))
			continue
		}
		w.add(path, "enum-value-added", BreaksClients, ruleEnumAdded, nil, v, "enum value %s added", render(v))
		c := &w.changes[len(w.changes)-1]
		c.Hint = `clients that handle every known value may fail on it; if new values are expected, say so in the field's description ("values may be added to this enum") in the release that adds the field`
		if enumOpen.MatchString(newDescription) {
			c.Hint = "the new description says values may be added, but clients built against the old one were not told"
		}
	}
}

func enumValues(l []schema.JSON) []any {
	out := make([]any, len(l))
	for i := range l {
		out[i] = l[i].Object
	}
	return out
}

// enumDiff returns the values of a that b lacks, in a's order.
func enumDiff(a, b []schema.JSON) []any {
	var out []any
	for _, x := range a {
		found := false
		for _, y := range b {
			if reflect.DeepEqual(normalize(x.Object), normalize(y.Object)) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, x.Object)
		}
	}
	return out
}

// normalize makes 1 and 1.0 compare equal.
func normalize(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	return v
}

// rules compares x-kubernetes-validations: rules are matched by their
// expression; an unmatched old and new rule with the same message are one
// changed rule.
func (w *walker) rules(path string, o, n *schema.Structural) {
	oldRules := map[string]bool{}
	for _, r := range o.XValidations {
		oldRules[strings.TrimSpace(r.Rule)] = true
	}
	newRules := map[string]bool{}
	for _, r := range n.XValidations {
		newRules[strings.TrimSpace(r.Rule)] = true
	}
	var removed []schema.ValidationRule
	for _, r := range o.XValidations {
		if !newRules[strings.TrimSpace(r.Rule)] {
			removed = append(removed, r)
		}
	}
	usedRemoved := make([]bool, len(removed))
	for _, r := range n.XValidations {
		if oldRules[strings.TrimSpace(r.Rule)] {
			continue
		}
		// A changed rule: an old one that went away with the same message.
		var prev *schema.ValidationRule
		for i := range removed {
			if !usedRemoved[i] && removed[i].Message != "" && removed[i].Message == r.Message {
				usedRemoved[i], prev = true, &removed[i]
				break
			}
		}
		transition := usesOldSelf(r.Rule)
		sev, rule := Ratcheted, ruleRatcheted
		if transition {
			sev, rule = BreaksObjects, ruleTransition
		}
		what := "rule"
		if transition {
			what = "transition rule"
		}
		switch {
		case sev > Safe && namesDeclaredProperty(r.Rule, n):
			sev, rule = Safe, ruleDeclared
		case sev > Safe && namesOnlyNewProperties(r.Rule, o, n):
			sev, rule = Safe, ruleNewFieldsRule
		}
		if prev != nil {
			w.add(path, "rule-changed", sev, rule, prev.Rule, r.Rule, "%s changed from %q to %q", what, prev.Rule, r.Rule)
		} else {
			w.add(path, "rule-added", sev, rule, nil, r.Rule, "%s %q added", what, r.Rule)
		}
	}
	for i, r := range removed {
		if !usedRemoved[i] {
			w.add(path, "rule-removed", Safe, ruleLoosened, r.Rule, nil, "rule %q removed", r.Rule)
		}
	}
}

// usesOldSelf reports whether a CEL expression refers to oldSelf, as the
// apiserver decides whether a rule is a transition rule. It parses the
// expression (no type checking: it need not compile against the schema);
// an expression that does not parse is checked by name.
func usesOldSelf(expr string) bool {
	env, err := celgo.NewEnv()
	if err != nil {
		return strings.Contains(expr, "oldSelf")
	}
	ast, iss := env.Parse(expr)
	if iss != nil && iss.Err() != nil {
		return strings.Contains(expr, "oldSelf")
	}
	found := false
	celast.PreOrderVisit(ast.NativeRep().Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() == celast.IdentKind && e.AsIdent() == "oldSelf" {
			found = true
		}
	}))
	return found
}

// sortChanges orders changes by object, version and position of discovery
// (stable), so that CRDs and versions read in any order report alike.
func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Object != cs[j].Object {
			return cs[i].Object < cs[j].Object
		}
		return cs[i].Version < cs[j].Version
	})
}

// namesDeclaredProperty reports whether a rule of n is about one of n's
// declared properties only (`has(self.uid) == has(oldSelf.uid)`, which
// validation-gen's +k8s:immutable on uid writes on the parent).
func namesDeclaredProperty(rule string, n *schema.Structural) bool {
	found := false
	for name := range n.Properties {
		if !strings.Contains(rule, "self."+name) {
			continue
		}
		p := n.Properties[name]
		if !declared(&p) {
			return false
		}
		found = true
	}
	return found
}

// ruleNewFieldsRule is the rule of a new rule about fields NEW adds.
const ruleNewFieldsRule = `a rule about fields NEW adds: existing objects do not have them, so it cannot reject them`

// namesOnlyNewProperties reports whether every property of n a rule names
// (self.<name>) is new in n (absent from o), and it names at least one, or
// the rule holds whenever a new property is absent (`!has(self.new) ||
// ...`, the form of validation-gen's dependentForbidden and unions).
func namesOnlyNewProperties(rule string, o, n *schema.Structural) bool {
	if m := guardedByRE.FindStringSubmatch(rule); m != nil {
		if _, inNew := n.Properties[m[1]]; inNew {
			if _, inOld := o.Properties[m[1]]; !inOld {
				return true
			}
		}
	}
	found := false
	for name := range n.Properties {
		if !strings.Contains(rule, "self."+name) {
			continue
		}
		if _, inOld := o.Properties[name]; inOld {
			return false
		}
		found = true
	}
	return found
}

// guardedByRE matches a rule that holds when a property is absent.
var guardedByRE = regexp.MustCompile(`^\s*!has\(self\.([A-Za-z_][A-Za-z0-9_]*)\)\s*\|\|`)
