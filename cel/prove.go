package cel

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	celgo "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apiserver/pkg/cel/library"
)

// A prover evaluates a built-in rule directly on the unstructured object,
// without an activation or CEL values, for the common case: the rule
// holds. Most built-in rules are simple (presence tests, optional field
// reads with defaults, comparisons, string tests, all/exists over a list)
// and hold on almost every object, yet each CEL evaluation costs about a
// microsecond of setup and value conversion, which made a Pod's rules
// several times slower than the hand-written Go they mirror.
//
// Values are assumed to have their schema's types, as they do for built-in
// objects, which the apiserver (and kdv) decode into Go types before
// validating; reads of typed fields are checked anyway, but has() is not.
//
// The prover is deliberately one-sided: it reports only "the rule is
// true", and only when every step it took has exactly CEL's meaning on
// these values. Anything else (a missing field read without a guard, a
// type it does not model, a function it does not know, a value that
// could make CEL report an error) makes the step unknown, and an unknown
// result sends the rule to the CEL program as before, which then also
// produces the error and its message. So a prover can make validation
// faster but never change its outcome. Only unmetered (built-in) rules use
// it: CRD rules are charged their cost even when they pass.
type prover func(env *proveEnv) (any, bool)

// proveEnv holds self and the comprehension variables in scope; buf backs
// vars for the usual nesting depth, so that evaluating allocates nothing.
type proveEnv struct {
	self any
	// old is oldSelf when oldSet: the old value, or for a rule with
	// optionalOldSelf an optional of it (none on create)
	old    any
	oldSet bool
	// steps, when limited, is the number of comprehension iterations left:
	// running out leaves the expression undecided (Evaluator; built-in
	// rules are bounded by the object)
	limited bool
	steps   int
	vars    []proveVar
	buf     [8]proveVar
	// memo keeps the latest results of format validations: a label key
	// is checked by several rules (one per message), each a regular
	// expression match. Results depend only on the format and the string.
	memo     [16]formatResult
	memoNext int
	// scratch backs the lists a rule's evaluation builds (list literals
	// of non-constant elements, concatenations, splits), which no longer
	// matter once the rule has its result; the caller empties it between
	// rules (see list).
	scratch []any
	// keys caches the boxed keys of the latest maps that all() and
	// exists() walked: a container's resource requests are walked by a
	// dozen rules, each boxing every key again otherwise. It holds for
	// one object (the maps do not change while rules read them) and is
	// dropped with the environment (evaluation.release, Evaluator.Eval),
	// as a map's address may be reused after.
	keys     [4]mapKeys
	keysNext int
}

// mapKeys is the boxed keys of the map at m.
type mapKeys struct {
	m    unsafe.Pointer
	keys []any
}

// mapKeys returns the keys of t as values, in Go's order for t, from the
// cache when t was walked before in this environment.
func (env *proveEnv) mapKeys(t map[string]any) []any {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&t))
	for i := range env.keys {
		if c := &env.keys[i]; c.m == p && len(c.keys) == len(t) {
			return c.keys
		}
	}
	ks := make([]any, 0, len(t))
	for k := range t {
		ks = append(ks, k)
	}
	env.keys[env.keysNext] = mapKeys{m: p, keys: ks}
	env.keysNext = (env.keysNext + 1) % len(env.keys)
	return ks
}

// list returns a list of n values for the prover to fill, carved from
// env.scratch (its capacity is n, so that appending to it copies).
func (env *proveEnv) list(n int) []any {
	l := len(env.scratch)
	if l+n > cap(env.scratch) {
		// a new block: the lists carved before keep the old one
		env.scratch, l = make([]any, 0, max(2*cap(env.scratch), n, 64)), 0
	}
	env.scratch = env.scratch[:l+n]
	return env.scratch[l : l+n : l+n]
}

// maxScratch is the largest scratch an environment keeps between objects
// (values; 64 KiB).
const maxScratch = 4096

// resetScratch empties env.scratch for the next rule; between objects
// (drop), it also lets go of the values, so that a pooled environment
// does not keep an object alive.
func (env *proveEnv) resetScratch(drop bool) {
	if drop {
		if cap(env.scratch) > maxScratch {
			env.scratch = nil
			return
		}
		clear(env.scratch[:cap(env.scratch)])
	}
	env.scratch = env.scratch[:0]
}

// formatResult is a memoized <format>.validate(s).
type formatResult struct {
	format, s string
	result    any
}

// newProveEnv returns an environment for evaluating a prover on self.
func newProveEnv(self any) *proveEnv {
	env := &proveEnv{self: self}
	env.vars = env.buf[:0]
	return env
}

type proveVar struct {
	name string
	val  any
}

// proveOptional is a CEL optional value.
type proveOptional struct {
	val any
	ok  bool
}

// proveQuantity is a value of the k8s quantity library (quantity(s)).
type proveQuantity struct {
	q *resource.Quantity
}

// proveBytes is a CEL bytes value (bytes(s)); only size() reads it.
type proveBytes string

// proveNone is the empty optional, boxed once.
var proveNone any = proveOptional{}

// proveFormat is a format of the k8s format library (format.dns1123Label()),
// with the function its validate calls (library.ConstantFormats).
type proveFormat struct {
	name     string
	validate func(string) []string
}

// proveType is a CEL type value (type(x), int, string, ...).
type proveType string

func unknown(*proveEnv) (any, bool) { return nil, false }

// newProver compiles a checked rule to a prover.
func newProver(ast *celgo.Ast) prover {
	c := &proveCompiler{ast: ast.NativeRep()}
	return c.expr(ast.NativeRep().Expr())
}

type proveCompiler struct {
	ast *celast.AST
	// funcs are global functions of the caller's, by name (Evaluator)
	funcs map[string]ProveFunc
	// native: self is converted by cel-go's own type adapter (Evaluator),
	// not the apiserver's unstructured values
	native bool
	// scope is the comprehension variables in scope while compiling, in
	// the order evaluation pushes them onto proveEnv.vars, so that a
	// variable's slot is known before evaluating.
	scope []string
}

// typed converts what a field read returns to the value CEL sees, from the
// checker's type of the expression: numbers in a `number` field are
// doubles; timestamps, durations and bytes (string formats CEL converts)
// are not modelled.
func (c *proveCompiler) typed(id int64, p prover) prover {
	t := c.ast.GetType(id)
	if t == nil {
		return unknown
	}
	switch t.Kind() {
	case types.TimestampKind, types.DurationKind, types.BytesKind, types.OpaqueKind:
		return unknown
	case types.DoubleKind:
		return func(env *proveEnv) (any, bool) {
			v, ok := p(env)
			switch x := v.(type) {
			case int64:
				return float64(x), ok
			case float64:
				return x, ok
			}
			return nil, false
		}
	}
	// a value of another type than the schema's makes CEL report an
	// error; one closure per type, as this wraps every field read
	switch t.Kind() {
	case types.BoolKind:
		return typedAs[bool](p)
	case types.IntKind:
		return typedAs[int64](p)
	case types.StringKind:
		return typedAs[string](p)
	case types.ListKind:
		return typedAs[[]any](p)
	case types.MapKind, types.StructKind:
		return typedAs[map[string]any](p)
	}
	return p
}

func (c *proveCompiler) expr(e celast.Expr) prover {
	switch e.Kind() {
	case celast.LiteralKind:
		var v any
		switch l := e.AsLiteral().(type) {
		case types.Bool:
			v = bool(l)
		case types.Int:
			v = int64(l)
		case types.Double:
			v = float64(l)
		case types.String:
			v = string(l)
		case types.Null:
			v = nil
		default:
			return unknown
		}
		return func(*proveEnv) (any, bool) { return v, true }
	case celast.IdentKind:
		return c.ident(e)
	case celast.ListKind:
		l := e.AsList()
		if len(l.OptionalIndices()) > 0 {
			return unknown
		}
		elems := make([]prover, len(l.Elements()))
		for i, x := range l.Elements() {
			elems[i] = c.expr(x)
		}
		if lit, ok := literalList(l.Elements()); ok {
			// a list of literals ('a' in ['a', 'b']) is built once: the
			// prover's values are never modified
			var v any = lit // boxed once: a slice in an interface is allocated
			return func(*proveEnv) (any, bool) { return v, true }
		}
		return func(env *proveEnv) (any, bool) {
			out := env.list(len(elems))
			for i, p := range elems {
				v, ok := p(env)
				if !ok {
					return nil, false
				}
				out[i] = v
			}
			return out, true
		}
	case celast.MapKind:
		if e.AsMap().Size() > 0 {
			return unknown
		}
		// the empty map of self.?m.orValue({}): built once, as literal
		// lists are (the prover's values are never modified)
		empty := map[string]any{}
		return func(*proveEnv) (any, bool) { return empty, true }
	case celast.SelectKind:
		s := e.AsSelect()
		name := s.FieldName()
		if strings.Contains(name, "__") {
			return unknown // an escaped property name
		}
		operand := c.expr(s.Operand())
		if s.IsTestOnly() {
			return func(env *proveEnv) (any, bool) {
				m, ok := operandMap(operand, env)
				if !ok {
					return nil, false
				}
				v, set := m[name]
				if set && v == nil {
					return nil, false
				}
				return set, true
			}
		}
		return c.selectTyped(e.ID(), operand, name)
	case celast.CallKind:
		return c.call(e)
	case celast.ComprehensionKind:
		return c.comprehension(e)
	}
	return unknown
}

// selectTyped is typed(id, <operand.name>) in one closure for the usual
// types: a field read is the prover's most frequent step, and a closure
// call per step (the read, then the type check) was a good part of it.
func (c *proveCompiler) selectTyped(id int64, operand prover, name string) prover {
	read := func(env *proveEnv) (any, bool) {
		m, ok := operandMap(operand, env)
		if !ok {
			return nil, false
		}
		v := m[name]
		return v, v != nil
	}
	t := c.ast.GetType(id)
	if t == nil {
		return unknown
	}
	switch t.Kind() {
	case types.BoolKind:
		return selectAs[bool](operand, name)
	case types.IntKind:
		return selectAs[int64](operand, name)
	case types.StringKind:
		return selectAs[string](operand, name)
	case types.ListKind:
		return selectAs[[]any](operand, name)
	case types.MapKind, types.StructKind:
		return selectAs[map[string]any](operand, name)
	}
	return c.typed(id, read)
}

// selectAs reads field name of operand's object, known when it holds a T.
func selectAs[T any](operand prover, name string) prover {
	return func(env *proveEnv) (any, bool) {
		m, ok := operandMap(operand, env)
		if !ok {
			return nil, false
		}
		v := m[name]
		_, typed := v.(T)
		return v, typed
	}
}

// typedAs is p, known when its value is a T.
func typedAs[T any](p prover) prover {
	return func(env *proveEnv) (any, bool) {
		v, ok := p(env)
		_, typed := v.(T)
		return v, ok && typed
	}
}

func operandMap(p prover, env *proveEnv) (map[string]any, bool) {
	v, ok := p(env)
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

var proveTypeNames = map[string]proveType{"int": "int", "uint": "uint", "double": "double", "string": "string", "bool": "bool", "list": "list", "map": "map", "null_type": "null_type"}

func (c *proveCompiler) ident(e celast.Expr) prover {
	name := e.AsIdent()
	if name == ScopedVarName {
		return c.typed(e.ID(), func(env *proveEnv) (any, bool) { return env.self, env.self != nil })
	}
	if t, ok := proveTypeNames[name]; ok {
		if ty := c.ast.GetType(e.ID()); ty != nil && ty.Kind() == types.TypeKind {
			return func(*proveEnv) (any, bool) { return t, true }
		}
	}
	if name == OldScopedVarName {
		if t := c.ast.GetType(e.ID()); t != nil && t.Kind() == types.OpaqueKind {
			// optionalOldSelf: an optional of the old value
			return func(env *proveEnv) (any, bool) {
				_, isOpt := env.old.(proveOptional)
				return env.old, env.oldSet && isOpt
			}
		}
		return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
			_, isOpt := env.old.(proveOptional)
			return env.old, env.oldSet && !isOpt
		})
	}
	// a comprehension variable, in the slot evaluation gives it
	slot := -1
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i] == name {
			slot = i
			break
		}
	}
	if slot < 0 {
		return unknown
	}
	return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
		if slot >= len(env.vars) {
			return nil, false
		}
		return env.vars[slot].val, true
	})
}

func (c *proveCompiler) call(e celast.Expr) prover {
	call := e.AsCall()
	fn := call.FunctionName()
	args := make([]prover, len(call.Args()))
	for i, a := range call.Args() {
		args[i] = c.expr(a)
	}
	var target prover
	if call.IsMemberFunction() {
		target = c.expr(call.Target())
	}
	switch {
	case fn == operators.LogicalAnd && len(args) == 2:
		return func(env *proveEnv) (any, bool) {
			a, aok := proveBool(args[0], env)
			if aok && !a {
				return false, true
			}
			b, bok := proveBool(args[1], env)
			if bok && !b {
				return false, true
			}
			return true, aok && bok
		}
	case fn == operators.LogicalOr && len(args) == 2:
		return func(env *proveEnv) (any, bool) {
			a, aok := proveBool(args[0], env)
			if aok && a {
				return true, true
			}
			b, bok := proveBool(args[1], env)
			if bok && b {
				return true, true
			}
			return false, aok && bok
		}
	case fn == operators.LogicalNot && len(args) == 1:
		return func(env *proveEnv) (any, bool) {
			a, ok := proveBool(args[0], env)
			return !a, ok
		}
	case fn == operators.NotStrictlyFalse && len(args) == 1:
		// true unless false; an error (unknown here) is true in CEL, but
		// an unknown may also be a false CEL would see
		return func(env *proveEnv) (any, bool) { return proveBool(args[0], env) }
	case fn == operators.Conditional && len(args) == 3:
		return func(env *proveEnv) (any, bool) {
			cnd, ok := proveBool(args[0], env)
			if !ok {
				return nil, false
			}
			if cnd {
				return args[1](env)
			}
			return args[2](env)
		}
	case (fn == operators.Equals || fn == operators.NotEquals) && len(args) == 2:
		neg := fn == operators.NotEquals
		return func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			b, bok := args[1](env)
			if !aok || !bok {
				return nil, false
			}
			eq, ok := proveEqual(a, b)
			if !ok && c.native && (a == nil) != (b == nil) {
				// cel-go's own maps and lists are unequal to null (the
				// apiserver's unstructured values may report an error)
				switch x := a; {
				case x == nil:
					x = b
					fallthrough
				default:
					switch x.(type) {
					case map[string]any, []any:
						eq, ok = false, true
					}
				}
			}
			return eq != neg, ok
		}
	case (fn == operators.Less || fn == operators.LessEquals || fn == operators.Greater || fn == operators.GreaterEquals) && len(args) == 2:
		return func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			b, bok := args[1](env)
			if !aok || !bok {
				return nil, false
			}
			cmp, ok := proveCompare(a, b)
			if !ok {
				return nil, false
			}
			switch fn {
			case operators.Less:
				return cmp < 0, true
			case operators.LessEquals:
				return cmp <= 0, true
			case operators.Greater:
				return cmp > 0, true
			}
			return cmp >= 0, true
		}
	case fn == operators.Add && len(args) == 2:
		return func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			b, bok := args[1](env)
			if !aok || !bok {
				return nil, false
			}
			switch x := a.(type) {
			case int64:
				y, ok := b.(int64)
				if !ok || (y > 0 && x > (1<<63-1)-y) || (y < 0 && x < (-1<<63)-y) {
					return nil, false
				}
				return x + y, true
			case string:
				y, ok := b.(string)
				return x + y, ok
			case []any:
				y, ok := b.([]any)
				if !ok {
					return nil, false
				}
				out := env.list(len(x) + len(y))
				copy(out[copy(out, x):], y)
				return out, true
			}
			return nil, false
		}
	case fn == operators.Subtract && len(args) == 2:
		// integers only (size(l) - 1): CEL's int subtraction, an error on
		// overflow
		return func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			b, bok := args[1](env)
			if !aok || !bok {
				return nil, false
			}
			x, xok := a.(int64)
			y, yok := b.(int64)
			if !xok || !yok || (y < 0 && x > (1<<63-1)+y) || (y > 0 && x < (-1<<63)+y) {
				return nil, false
			}
			return x - y, true
		}
	case fn == operators.In && len(args) == 2:
		return func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			b, bok := args[1](env)
			if !aok || !bok {
				return nil, false
			}
			switch t := b.(type) {
			case []any:
				for _, x := range t {
					eq, ok := proveEqual(a, x)
					if !ok {
						return nil, false
					}
					if eq {
						return true, true
					}
				}
				return false, true
			case map[string]any:
				k, ok := a.(string)
				if !ok {
					return nil, false
				}
				_, set := t[k]
				return set, true
			}
			return nil, false
		}
	case (fn == operators.OptSelect || fn == operators.OptIndex) && len(args) == 2:
		// x.?f on an object, m[?'k'] on a map (a present null is an
		// optional of null in CEL, left unknown here); an escaped
		// property name is not modelled
		index := fn == operators.OptIndex
		return func(env *proveEnv) (any, bool) {
			o, ok := args[0](env)
			if !ok {
				return nil, false
			}
			if opt, isOpt := o.(proveOptional); isOpt {
				// optional chaining: none stays none
				if !opt.ok {
					return proveNone, true
				}
				o = opt.val
			}
			m, isMap := o.(map[string]any)
			k, kok := args[1](env)
			key, isStr := k.(string)
			if !isMap || !kok || !isStr || (!index && strings.Contains(key, "__")) {
				return nil, false
			}
			v, set := m[key]
			if set && v == nil {
				return nil, false
			}
			if !set {
				return proveNone, true
			}
			return proveOptional{val: v, ok: true}, true
		}
	case fn == "sum" && target != nil && len(args) == 0:
		// the lists library's sum of a list of ints (an error on
		// overflow) or doubles; the empty list's is its element type's zero
		var zero any
		if t := c.ast.GetType(e.ID()); t != nil {
			switch t.Kind() {
			case types.IntKind:
				zero = int64(0)
			case types.DoubleKind:
				zero = float64(0)
			}
		}
		return func(env *proveEnv) (any, bool) {
			v, ok := target(env)
			l, isList := v.([]any)
			if !ok || !isList || zero == nil {
				return nil, false
			}
			switch zero.(type) {
			case int64:
				var sum int64
				for _, x := range l {
					y, isInt := x.(int64)
					if !isInt || (y > 0 && sum > (1<<63-1)-y) || (y < 0 && sum < (-1<<63)-y) {
						return nil, false
					}
					sum += y
				}
				return sum, true
			default:
				var sum float64
				for _, x := range l {
					y, isDouble := x.(float64)
					if !isDouble {
						return nil, false
					}
					sum += y
				}
				return sum, true
			}
		}
	case fn == operators.Index && len(args) == 2:
		return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
			a, aok := args[0](env)
			k, kok := args[1](env)
			if !aok || !kok {
				return nil, false
			}
			switch t := a.(type) {
			case map[string]any:
				s, ok := k.(string)
				if !ok {
					return nil, false
				}
				v := t[s]
				return v, v != nil
			case []any:
				i, ok := k.(int64)
				if !ok || i < 0 || i >= int64(len(t)) {
					return nil, false
				}
				return t[i], t[i] != nil
			}
			return nil, false
		})
	case fn == "orValue" && target != nil && len(args) == 1:
		if chain := c.optionalChain(call.Target()); chain != nil {
			return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
				v, set, ok := chain(env)
				if !ok {
					return nil, false
				}
				if set {
					return v, true
				}
				return args[0](env)
			})
		}
		return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
			o, ok := target(env)
			opt, isOpt := o.(proveOptional)
			if !ok || !isOpt {
				return nil, false
			}
			if opt.ok {
				return opt.val, true
			}
			return args[0](env)
		})
	case fn == "value" && target != nil && len(args) == 0:
		// optional.value(): an error on none
		return c.typed(e.ID(), func(env *proveEnv) (any, bool) {
			o, ok := target(env)
			opt, isOpt := o.(proveOptional)
			return opt.val, ok && isOpt && opt.ok
		})
	case fn == "hasValue" && target != nil && len(args) == 0:
		if chain := c.optionalChain(call.Target()); chain != nil {
			return func(env *proveEnv) (any, bool) {
				_, set, ok := chain(env)
				return set, ok
			}
		}
		return func(env *proveEnv) (any, bool) {
			o, ok := target(env)
			opt, isOpt := o.(proveOptional)
			return opt.ok, ok && isOpt
		}
	case fn == overloads.Size && (len(args) == 1 && target == nil || len(args) == 0 && target != nil):
		arg := target
		if arg == nil {
			arg = args[0]
		}
		return func(env *proveEnv) (any, bool) {
			v, ok := arg(env)
			if !ok {
				return nil, false
			}
			switch t := v.(type) {
			case string:
				return int64(utf8.RuneCountInString(t)), true
			case proveBytes:
				return int64(len(t)), true
			case []any:
				return int64(len(t)), true
			case map[string]any:
				return int64(len(t)), true
			}
			return nil, false
		}
	case fn == overloads.TypeConvertType && len(args) == 1 && target == nil:
		return func(env *proveEnv) (any, bool) {
			v, ok := args[0](env)
			if !ok {
				return nil, false
			}
			switch v.(type) {
			case int64:
				return proveType("int"), true
			case float64:
				return proveType("double"), true
			case string:
				return proveType("string"), true
			case bool:
				return proveType("bool"), true
			}
			return nil, false
		}
	case (fn == overloads.StartsWith || fn == overloads.EndsWith || fn == overloads.Contains) && target != nil && len(args) == 1:
		return func(env *proveEnv) (any, bool) {
			s, sok := proveString(target, env)
			a, aok := proveString(args[0], env)
			if !sok || !aok {
				return nil, false
			}
			switch fn {
			case overloads.StartsWith:
				return strings.HasPrefix(s, a), true
			case overloads.EndsWith:
				return strings.HasSuffix(s, a), true
			}
			return strings.Contains(s, a), true
		}
	case fn == overloads.Matches && target != nil && len(args) == 1:
		return func(env *proveEnv) (any, bool) {
			s, sok := proveString(target, env)
			pat, pok := proveString(args[0], env)
			if !sok || !pok {
				return nil, false
			}
			re, ok := proveRegexp(pat)
			if !ok {
				return nil, false
			}
			return re.MatchString(s), true
		}
	case fn == "trim" && target != nil && len(args) == 0:
		// ext strings: strings.TrimSpace
		return func(env *proveEnv) (any, bool) {
			s, ok := proveString(target, env)
			if !ok {
				return nil, false
			}
			return strings.TrimSpace(s), true
		}
	case fn == "lowerAscii" && target != nil && len(args) == 0:
		// ext strings: ASCII letters lowered, over runes (so valid UTF-8 only)
		return func(env *proveEnv) (any, bool) {
			s, ok := proveString(target, env)
			if !ok || !utf8.ValidString(s) {
				return nil, false
			}
			return strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + ('a' - 'A')
				}
				return r
			}, s), true
		}
	case fn == "split" && target != nil && len(args) == 1:
		// ext strings: strings.Split
		return func(env *proveEnv) (any, bool) {
			s, sok := proveString(target, env)
			sep, pok := proveString(args[0], env)
			if !sok || !pok {
				return nil, false
			}
			parts := strings.Split(s, sep)
			out := env.list(len(parts))
			for i, p := range parts {
				out[i] = p
			}
			return out, true
		}
	case (fn == "isQuantity" || fn == "quantity") && target == nil && len(args) == 1:
		// k8s quantity library: resource.ParseQuantity; quantity() of an
		// invalid string is an error (unknown here)
		isTest := fn == "isQuantity"
		return func(env *proveEnv) (any, bool) {
			s, ok := proveString(args[0], env)
			if !ok {
				return nil, false
			}
			q, err := resource.ParseQuantity(s)
			if isTest {
				return err == nil, true
			}
			if err != nil {
				return nil, false
			}
			return proveQuantity{q: &q}, true
		}
	case (fn == "isLessThan" || fn == "isGreaterThan" || fn == "compareTo") && target != nil && len(args) == 1:
		return func(env *proveEnv) (any, bool) {
			a, aok := target(env)
			b, bok := args[0](env)
			qa, isA := a.(proveQuantity)
			qb, isB := b.(proveQuantity)
			if !aok || !bok || !isA || !isB {
				return nil, false
			}
			cmp := qa.q.Cmp(*qb.q)
			switch fn {
			case "isLessThan":
				return cmp == -1, true
			case "isGreaterThan":
				return cmp == 1, true
			}
			return int64(cmp), true
		}
	case fn == overloads.TypeConvertBytes && target == nil && len(args) == 1:
		// bytes(s): only its size is modelled
		return func(env *proveEnv) (any, bool) {
			s, ok := proveString(args[0], env)
			return proveBytes(s), ok
		}
	case strings.HasPrefix(fn, "format.") && target == nil && len(args) == 0:
		// format.dns1123Label(), ...: the k8s format library's constants
		name := strings.TrimPrefix(fn, "format.")
		if f, ok := library.ConstantFormats[name]; ok {
			var v any = proveFormat{name: name, validate: f.ValidateFunc}
			return func(*proveEnv) (any, bool) { return v, true }
		}
	case fn == "validate" && target != nil && len(args) == 1:
		// <format>.validate(s): none when valid, else the messages
		return func(env *proveEnv) (any, bool) {
			f, ok := target(env)
			pf, isFormat := f.(proveFormat)
			s, sok := proveString(args[0], env)
			if !ok || !isFormat || !sok {
				return nil, false
			}
			for i := range env.memo {
				if m := &env.memo[i]; m.result != nil && m.format == pf.name && m.s == s {
					return m.result, true
				}
			}
			var res any = proveNone
			if msgs := pf.validate(s); len(msgs) > 0 {
				l := make([]any, len(msgs))
				for i, m := range msgs {
					l[i] = m
				}
				res = proveOptional{val: l, ok: true}
			}
			env.memo[env.memoNext] = formatResult{format: pf.name, s: s, result: res}
			env.memoNext = (env.memoNext + 1) % len(env.memo)
			return res, true
		}
	}
	if fn == "optional.of" && target == nil && len(args) == 1 {
		return func(env *proveEnv) (any, bool) {
			v, ok := args[0](env)
			if _, nested := v.(proveOptional); nested || v == nil {
				return nil, false // optionals of optionals and of null: not modelled
			}
			return proveOptional{val: v, ok: true}, ok
		}
	}
	if fn == "optional.none" && target == nil && len(args) == 0 {
		return func(*proveEnv) (any, bool) { return proveNone, true }
	}
	if f, ok := c.funcs[fn]; ok && target == nil {
		// a global function of the caller's (ProveFunc)
		return func(env *proveEnv) (any, bool) {
			vals := make([]any, len(args))
			for i, a := range args {
				v, ok := a(env)
				if !ok {
					return nil, false
				}
				vals[i] = v
			}
			return f(vals)
		}
	}
	// a function the prover does not model: this subexpression is unknown,
	// though a disjunction around it may still be proven
	return unknown
}
