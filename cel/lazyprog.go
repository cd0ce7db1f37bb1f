package cel

import (
	"context"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// lazyProgram is the untracked program of a built-in (unmetered) rule,
// planned on its first evaluation. Most built-in rules are shown to hold
// without CEL (vacuous.go, prove.go), so most never need a program, and
// planning one is about a quarter of compiling a rule: a start-up cost
// kdv pays only for the rules it evaluates.
type lazyProgram struct {
	env  *celgo.Env
	ast  *celgo.Ast
	once sync.Once
	prog celgo.Program
	err  error
}

var _ celgo.Program = (*lazyProgram)(nil)

func newLazyProgram(env *celgo.Env, ast *celgo.Ast) *lazyProgram {
	return &lazyProgram{env: env, ast: ast}
}

func (p *lazyProgram) get() (celgo.Program, error) {
	p.once.Do(func() {
		p.prog, p.err = p.env.Program(p.ast, celgo.InterruptCheckFrequency(celconfig.CheckFrequency), withoutCostTracking())
		p.env, p.ast = nil, nil
	})
	return p.prog, p.err
}

// Eval evaluates the rule, planning it first if needed; a planning failure
// is the evaluation's error.
func (p *lazyProgram) Eval(vars any) (ref.Val, *celgo.EvalDetails, error) {
	prog, err := p.get()
	if err != nil {
		return types.NewErr("program instantiation failed: %v", err), nil, err
	}
	return prog.Eval(vars)
}

// ContextEval is Eval with a context.
func (p *lazyProgram) ContextEval(ctx context.Context, vars any) (ref.Val, *celgo.EvalDetails, error) {
	prog, err := p.get()
	if err != nil {
		return types.NewErr("program instantiation failed: %v", err), nil, err
	}
	return prog.ContextEval(ctx, vars)
}

// planLazyPrograms plans the lazy programs of compiled rules, turning a
// planning failure into the rule's compile error, as compiling eagerly
// would report it.
func planLazyPrograms(compiled []compilationResult) {
	for i := range compiled {
		c := &compiled[i]
		if lp, ok := c.program.(*lazyProgram); ok {
			if _, err := lp.get(); err != nil {
				c.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "program instantiation failed: " + err.Error()}
				c.program = nil
			}
		}
		if lp, ok := c.messageExpression.(*lazyProgram); ok {
			if _, err := lp.get(); err != nil {
				c.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression instantiation failed: " + err.Error()}
				c.messageExpression = nil
			}
		}
	}
}
