package cel

import (
	"sync"

	celgo "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// vacuity lets a built-in rule be skipped where it cannot fail. Most of the
// rule overlay's rules guard optional fields ("!has(self.livenessProbe) ||
// ...") and most objects leave most of those fields out, yet each
// evaluation costs an activation and a walk of the program. A rule that
// reads self only through constant field selections (self.f, has(self.f),
// self.?f, self["f"]) sees an object in which none of those fields is set
// exactly as it sees an empty object; so the rule's result on {} (computed
// once, on first need) is its result on every such object. When that
// result is true, the rule is skipped for them. Rules that read oldSelf,
// use self any other way (size(self), iteration, self as an argument) or
// shadow self in a comprehension are always evaluated.
//
// Only unmetered (built-in) rules use it: CRD rules are charged their cost
// against the per-object budget even when they pass, which skipping would
// change.
type vacuity struct {
	// fields are the field names the rule selects from self; nil when the
	// rule is not analyzable.
	fields []string
	// guards are fields f for which the rule is `!has(self.f) || ...`
	// (an operand of its top-level disjunction): true when f is unset.
	guards []string

	once sync.Once
	// trueWhenUnset: the rule holds on an object without any of fields.
	trueWhenUnset bool
}

// newVacuity analyzes a checked rule; nil when it reads self other than by
// constant field selections, or reads oldSelf.
func newVacuity(ast *celgo.Ast) *vacuity {
	root := ast.NativeRep().Expr()
	idents := 0
	selected := 0
	shadowed := false
	seen := map[string]bool{}
	var fields []string
	add := func(f string) {
		selected++
		if !seen[f] {
			seen[f] = true
			fields = append(fields, f)
		}
	}
	isSelf := func(e celast.Expr) bool {
		return e.Kind() == celast.IdentKind && e.AsIdent() == ScopedVarName
	}
	celast.PreOrderVisit(root, celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.IdentKind:
			switch e.AsIdent() {
			case ScopedVarName:
				idents++
			case OldScopedVarName:
				shadowed = true
			}
		case celast.SelectKind:
			if s := e.AsSelect(); isSelf(s.Operand()) {
				add(s.FieldName())
			}
		case celast.CallKind:
			c := e.AsCall()
			if (c.FunctionName() == operators.OptSelect || c.FunctionName() == operators.Index) && !c.IsMemberFunction() && len(c.Args()) == 2 && isSelf(c.Args()[0]) {
				if a := c.Args()[1]; a.Kind() == celast.LiteralKind {
					if s, ok := a.AsLiteral().(types.String); ok {
						add(string(s))
					}
				}
			}
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			for _, v := range []string{c.IterVar(), c.IterVar2(), c.AccuVar()} {
				if v == ScopedVarName || v == OldScopedVarName {
					shadowed = true
				}
			}
		}
	}))
	guards := guardFields(root, nil)
	if shadowed || idents == 0 || idents != selected {
		if len(guards) == 0 {
			return nil
		}
		fields = nil
	}
	return &vacuity{fields: fields, guards: guards}
}

// guardFields collects f of each operand `!has(self.f)` of e's top-level
// disjunction (e itself or nested `_||_` calls).
func guardFields(e celast.Expr, acc []string) []string {
	if e.Kind() != celast.CallKind {
		return acc
	}
	c := e.AsCall()
	switch {
	case c.FunctionName() == operators.LogicalOr:
		for _, a := range c.Args() {
			acc = guardFields(a, acc)
		}
	case c.FunctionName() == operators.LogicalNot && len(c.Args()) == 1:
		if a := c.Args()[0]; a.Kind() == celast.SelectKind {
			s := a.AsSelect()
			if s.IsTestOnly() && s.Operand().Kind() == celast.IdentKind && s.Operand().AsIdent() == ScopedVarName {
				acc = append(acc, s.FieldName())
			}
		}
	}
	return acc
}

// skip reports whether the rule holds on obj without evaluating it: a
// guard field is unset, or obj is an object in which none of the rule's
// fields is set and the rule holds on an empty object. eval evaluates the rule on a value (called once).
func (v *vacuity) skip(obj any, eval func(empty map[string]any) bool) bool {
	if v == nil {
		return false
	}
	m, ok := obj.(map[string]any)
	if !ok {
		return false
	}
	for _, f := range v.guards {
		if _, set := m[f]; !set {
			return true
		}
	}
	if v.fields == nil {
		return false
	}
	for _, f := range v.fields {
		if _, set := m[f]; set {
			return false
		}
	}
	v.once.Do(func() { v.trueWhenUnset = eval(map[string]any{}) })
	return v.trueWhenUnset
}

// vacuityIndex lets the rules of one schema node share the presence tests
// of their fields: a PodSpec has about a hundred rules, which would
// otherwise look up their guards and fields in the object one rule at a
// time (several map lookups each, on every object). names are the fields
// any rule's vacuity names (at most 64); masks[i] gives rule i's guards
// and fields as bits of names (zero for rules without a vacuity).
type vacuityIndex struct {
	names []string
	bit   map[string]uint64 // names[i] -> 1<<i
	masks []vacuityMask
}

// vacuityMask is one rule's vacuity as bits of vacuityIndex.names.
type vacuityMask struct {
	guards, fields uint64
}

// newVacuityIndex indexes the vacuities of a node's compiled rules; nil
// when none has one or they name more than 64 fields (each rule then
// tests its own, as vacuity.skip does).
func newVacuityIndex(compiled []compilationResult) *vacuityIndex {
	bit := map[string]uint64{}
	idx := &vacuityIndex{masks: make([]vacuityMask, len(compiled)), bit: bit}
	mask := func(fields []string) (uint64, bool) {
		var m uint64
		for _, f := range fields {
			b, ok := bit[f]
			if !ok {
				if len(idx.names) == 64 {
					return 0, false
				}
				b = 1 << len(idx.names)
				bit[f] = b
				idx.names = append(idx.names, f)
			}
			m |= b
		}
		return m, true
	}
	found := false
	for i := range compiled {
		v := compiled[i].vacuity
		if v == nil {
			continue
		}
		found = true
		g, ok1 := mask(v.guards)
		f, ok2 := mask(v.fields)
		if !ok1 || !ok2 {
			return nil
		}
		idx.masks[i] = vacuityMask{guards: g, fields: f}
	}
	if !found {
		return nil
	}
	return idx
}

// present returns the bits of the index's fields set in m.
func (idx *vacuityIndex) present(m map[string]any) uint64 {
	var p uint64
	if 2*len(m)+4 < len(idx.names) {
		// an object sets few of the fields its rules name (a container,
		// a pod spec): look its keys up instead
		for k := range m {
			p |= idx.bit[k]
		}
		return p
	}
	for i, f := range idx.names {
		if _, set := m[f]; set {
			p |= 1 << i
		}
	}
	return p
}

// skipPresent is skip on an object whose set fields among the node's
// index are present (mask: this rule's bits).
func (v *vacuity) skipPresent(present uint64, mask vacuityMask, empty func(map[string]any) bool) bool {
	if present&mask.guards != mask.guards {
		return true // a guard field is unset
	}
	if v.fields == nil || present&mask.fields != 0 {
		return false
	}
	v.once.Do(func() { v.trueWhenUnset = empty(map[string]any{}) })
	return v.trueWhenUnset
}
