package cel

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// The prover's comprehensions (all, exists, exists_one, map, filter) and
// its CEL value semantics: equality, ordering and regular expressions on
// the values it models (see prove.go).

func (c *proveCompiler) comprehension(e celast.Expr) prover {
	x := e.AsComprehension()
	if x.HasIterVar2() {
		return unknown
	}
	iterVar, accuVar := x.IterVar(), x.AccuVar()
	rng, init := c.expr(x.IterRange()), c.expr(x.AccuInit())
	// the loop sees both variables, the result only the accumulator; the
	// slots match the pushes below
	n0 := len(c.scope)
	c.scope = append(c.scope, accuVar, iterVar)
	if all, pred, ok := quantifier(x); ok {
		p := c.expr(pred)
		c.scope = c.scope[:n0]
		return c.quantified(rng, all, p, n0, accuVar, iterVar)
	}
	cond, step := c.expr(x.LoopCondition()), c.expr(x.LoopStep())
	c.scope = c.scope[:n0+1]
	result := c.expr(x.Result())
	c.scope = c.scope[:n0]
	return func(env *proveEnv) (any, bool) {
		r, ok := rng(env)
		if !ok {
			return nil, false
		}
		accu, ok := init(env)
		if !ok {
			return nil, false
		}
		n := len(env.vars)
		if n != n0 {
			return nil, false // not the nesting it was compiled for
		}
		env.vars = append(env.vars, proveVar{name: accuVar, val: accu}, proveVar{name: iterVar})
		// one iteration; false to stop (done) or give up (!ok)
		iter := func(it any) (more, ok bool) {
			if env.limited {
				if env.steps--; env.steps < 0 {
					return false, false
				}
			}
			env.vars[n].val = accu
			env.vars[n+1].val = it
			c, ok := cond(env)
			if !ok {
				return false, false
			}
			if b, isBool := c.(bool); !isBool {
				return false, false
			} else if !b {
				return false, true
			}
			if accu, ok = step(env); !ok {
				return false, false
			}
			return true, true
		}
		ok = true
		switch t := r.(type) {
		case []any:
			for _, it := range t {
				var more bool
				if more, ok = iter(it); !more {
					break
				}
			}
		case map[string]any:
			// all and exists (a bool accumulator) do not depend on the
			// order of a map's keys; map and filter take them in sorted
			// order, as kdv's CEL maps iterate (internal/values)
			if _, isBool := accu.(bool); isBool {
				for k := range t {
					var more bool
					if more, ok = iter(k); !more {
						break
					}
				}
				break
			}
			for _, k := range slices.Sorted(maps.Keys(t)) {
				var more bool
				if more, ok = iter(k); !more {
					break
				}
			}
		default:
			ok = false
		}
		if !ok {
			env.vars = env.vars[:n]
			return nil, false
		}
		env.vars = env.vars[:n+1]
		env.vars[n].val = accu
		v, ok := result(env)
		env.vars = env.vars[:n]
		return v, ok
	}
}

// quantifier recognizes the comprehensions of the all and exists macros
// (all: accumulator true, loop while it is not false, step accu && pred,
// result accu; exists: false, while !accu is not false, accu || pred) and
// returns which one and the predicate.
func quantifier(x celast.ComprehensionExpr) (all bool, pred celast.Expr, ok bool) {
	accu := x.AccuVar()
	isAccu := func(e celast.Expr) bool { return e.Kind() == celast.IdentKind && e.AsIdent() == accu }
	call := func(e celast.Expr, fn string, n int) []celast.Expr {
		if e.Kind() != celast.CallKind || e.AsCall().FunctionName() != fn || e.AsCall().IsMemberFunction() || len(e.AsCall().Args()) != n {
			return nil
		}
		return e.AsCall().Args()
	}
	init := x.AccuInit()
	if init.Kind() != celast.LiteralKind || !isAccu(x.Result()) {
		return false, nil, false
	}
	b, isBool := init.AsLiteral().(types.Bool)
	if !isBool {
		return false, nil, false
	}
	all = bool(b)
	cond := call(x.LoopCondition(), operators.NotStrictlyFalse, 1)
	if cond == nil {
		return false, nil, false
	}
	stepFn := operators.LogicalAnd
	if all {
		if !isAccu(cond[0]) {
			return false, nil, false
		}
	} else {
		not := call(cond[0], operators.LogicalNot, 1)
		if not == nil || !isAccu(not[0]) {
			return false, nil, false
		}
		stepFn = operators.LogicalOr
	}
	step := call(x.LoopStep(), stepFn, 2)
	if step == nil || !isAccu(step[0]) {
		return false, nil, false
	}
	return all, step[1], true
}

// quantified is the prover of an all (all true) or exists comprehension
// with predicate pred over the range rng: what the general loop computes
// with the macro's condition and step (the prover's && and || on a
// known accumulator), without evaluating them. An unknown predicate makes
// the result unknown, as the step would.
func (c *proveCompiler) quantified(rng prover, all bool, pred prover, n0 int, accuVar, iterVar string) prover {
	return func(env *proveEnv) (any, bool) {
		r, ok := rng(env)
		if !ok {
			return nil, false
		}
		n := len(env.vars)
		if n != n0 {
			return nil, false // not the nesting it was compiled for
		}
		// the accumulator's slot holds the initial value, as in the
		// general loop (the predicate cannot name it)
		env.vars = append(env.vars, proveVar{name: accuVar, val: all}, proveVar{name: iterVar})
		res, ok := all, true
		test := func(it any) bool {
			if env.limited {
				if env.steps--; env.steps < 0 {
					ok = false
					return false
				}
			}
			env.vars[n+1].val = it
			b, known := proveBool(pred, env)
			if !known {
				ok = false
				return false
			}
			if b != all {
				res = !all
				return false
			}
			return true
		}
		switch t := r.(type) {
		case []any:
			for _, it := range t {
				if !test(it) {
					break
				}
			}
		case map[string]any:
			for _, k := range env.mapKeys(t) {
				if !test(k) {
					break
				}
			}
		default:
			ok = false
		}
		env.vars = env.vars[:n]
		if !ok {
			return nil, false
		}
		return res, true
	}
}

// optionalChain compiles e when it is a chain of optional field reads
// (x.?a.?b, x[?'a'] with a constant key) on a value that is not itself
// optional, to a function giving the value at its end and whether it is
// set, without boxing an optional at each step (the common
// x.?a.?b.orValue(d) of built-in rules); nil for other expressions.
func (c *proveCompiler) optionalChain(e celast.Expr) func(*proveEnv) (any, bool, bool) {
	var names []string
	for e.Kind() == celast.CallKind && (e.AsCall().FunctionName() == operators.OptSelect || e.AsCall().FunctionName() == operators.OptIndex) && len(e.AsCall().Args()) == 2 {
		key := e.AsCall().Args()[1]
		if key.Kind() != celast.LiteralKind {
			return nil
		}
		name, ok := key.AsLiteral().Value().(string)
		if !ok || strings.Contains(name, "__") {
			return nil
		}
		names = append(names, name)
		e = e.AsCall().Args()[0]
	}
	if len(names) == 0 {
		return nil
	}
	slices.Reverse(names)
	base := c.expr(e)
	return func(env *proveEnv) (any, bool, bool) {
		v, ok := base(env)
		if !ok {
			return nil, false, false
		}
		if _, isOpt := v.(proveOptional); isOpt {
			return nil, false, false // an optional base: left to the general form
		}
		for _, name := range names {
			m, isMap := v.(map[string]any)
			if !isMap {
				return nil, false, false
			}
			next, set := m[name]
			if !set {
				return nil, false, true
			}
			if next == nil {
				return nil, false, false // null: CEL's optional select differs
			}
			v = next
		}
		return v, true, true
	}
}

// literalList returns the values of a list of literals (strings, ints,
// bools, doubles), or false when some element is not one.
func literalList(elems []celast.Expr) ([]any, bool) {
	out := make([]any, len(elems))
	for i, x := range elems {
		if x.Kind() != celast.LiteralKind {
			return nil, false
		}
		switch l := x.AsLiteral().(type) {
		case types.Bool:
			out[i] = bool(l)
		case types.Int:
			out[i] = int64(l)
		case types.Double:
			out[i] = float64(l)
		case types.String:
			out[i] = string(l)
		default:
			return nil, false
		}
	}
	return out, true
}

func proveBool(p prover, env *proveEnv) (bool, bool) {
	v, ok := p(env)
	b, isBool := v.(bool)
	return b, ok && isBool
}

func proveString(p prover, env *proveEnv) (string, bool) {
	v, ok := p(env)
	s, isStr := v.(string)
	return s, ok && isStr
}

// proveEqual is CEL's equality on the values the prover models: scalars,
// with numbers compared across int and double as CEL's heterogeneous
// equality does, and values of different types unequal. Lists, maps and
// optionals are not modelled (set and map lists compare specially).
func proveEqual(a, b any) (bool, bool) {
	switch x := a.(type) {
	case nil:
		switch b.(type) {
		case nil:
			return true, true
		case []any, map[string]any, proveOptional, proveQuantity, proveBytes:
			return false, false
		}
		return false, true
	case bool, string, proveType:
		switch b.(type) {
		case []any, map[string]any, proveOptional, proveQuantity, proveBytes:
			return false, false
		}
		return a == b, true
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y, true
		case float64:
			return float64(x) == y && y == y, true
		case []any, map[string]any, proveOptional:
			return false, false
		}
		return false, true
	case float64:
		switch y := b.(type) {
		case int64:
			return x == float64(y), true
		case float64:
			return x == y, true
		case []any, map[string]any, proveOptional:
			return false, false
		}
		return false, true
	case []any:
		// lists: the prover runs built-in rules (and cel-go's own values,
		// Evaluator), whose lists compare in order whatever their list
		// type (values.list.Equal), so
		// equal element by element is equal; an empty and a non-empty
		// list differ; other unequal pairs are left to CEL
		y, isList := b.([]any)
		if !isList {
			return false, false
		}
		if (len(x) == 0) != (len(y) == 0) {
			return false, true
		}
		if len(x) != len(y) {
			return false, false
		}
		for i := range x {
			if eq, known := proveEqual(x[i], y[i]); !known || !eq {
				return false, false
			}
		}
		return true, true
	}
	return false, false
}

// proveCompare orders two ints, two doubles, an int and a double, or two
// strings, as CEL does; NaN and other types are not modelled.
func proveCompare(a, b any) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), true
		case float64:
			if y != y {
				return 0, false
			}
			return cmpOrdered(float64(x), y), true
		}
	case float64:
		if x != x {
			return 0, false
		}
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, float64(y)), true
		case float64:
			if y != y {
				return 0, false
			}
			return cmpOrdered(x, y), true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	}
	return 0, false
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

var proveRegexps sync.Map // pattern → *regexp.Regexp or nil

// proveRegexp compiles a pattern as CEL's matches does (RE2, which Go's
// regexp implements); false for a pattern that does not compile, which
// CEL reports as an error.
func proveRegexp(pat string) (*regexp.Regexp, bool) {
	if v, ok := proveRegexps.Load(pat); ok {
		re, _ := v.(*regexp.Regexp)
		return re, re != nil
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		proveRegexps.Store(pat, (*regexp.Regexp)(nil))
		return nil, false
	}
	proveRegexps.Store(pat, re)
	return re, true
}
