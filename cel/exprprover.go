package cel

import (
	"sync"

	celgo "github.com/google/cel-go/cel"
)

// ProveFunc is a global CEL function as the prover evaluates it: args are
// the prover's values (string, int64, float64, bool, nil, []any,
// map[string]any); ok false means the call is not decided (a value of an
// unexpected type, or what CEL would report as an error), which leaves the
// expression to CEL.
type ProveFunc func(args []any) (v any, ok bool)

// Evaluator evaluates a checked expression over an unstructured self the
// way built-in rules are pre-evaluated (prove.go): directly on the value,
// without CEL's activation and value conversion, for the expressions it
// models, and undecided for the others, which the caller then evaluates
// with CEL. kdv's default expressions (kdv.dev/defaulting) use it: a CEL
// evaluation per container (imagePullPolicy) or volume (emptyDir) cost
// several microseconds, about a tenth of validating a Pod. It is immutable
// and safe for concurrent use.
type Evaluator struct {
	p prover
}

// envPool recycles the Evaluator's environments (a proveEnv holds the
// format memo: a kilobyte).
var envPool = sync.Pool{New: func() any { return new(proveEnv) }}

// evaluatorSteps bounds the comprehension iterations of one Eval: kdv's
// default expressions take a few dozen; a mistaken one that walks a large
// object cubically is left to CEL, whose cost limit stops it.
const evaluatorSteps = 100_000

// NewEvaluator compiles ast (checked, with a variable self of dyn type,
// whose values cel-go's own type adapter converts) for Eval; funcs are the
// global functions of the expression's environment that the prover may
// call (the others make it undecided).
func NewEvaluator(ast *celgo.Ast, funcs map[string]ProveFunc) *Evaluator {
	c := &proveCompiler{ast: ast.NativeRep(), funcs: funcs, native: true}
	return &Evaluator{p: c.expr(ast.NativeRep().Expr())}
}

// Eval evaluates the expression with self bound to self. decided is false
// when the prover cannot say what CEL would return; otherwise the result
// is v, and for an expression of optional type set tells whether the
// optional has a value (v is that value). A result that is a map or list
// may be shared with later calls or be part of self: copy before
// modifying it.
func (ev *Evaluator) Eval(self any) (v any, set, decided bool) {
	env := envPool.Get().(*proveEnv)
	*env = proveEnv{self: self, limited: true, steps: evaluatorSteps}
	env.vars = env.buf[:0]
	r, ok := ev.p(env)
	*env = proveEnv{}
	envPool.Put(env)
	if !ok {
		return nil, false, false
	}
	if o, isOpt := r.(proveOptional); isOpt {
		return o.val, o.ok, true
	}
	return r, true, true
}
