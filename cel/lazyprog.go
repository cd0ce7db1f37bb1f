package cel

import (
	"context"
	"fmt"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/util/validation/field"
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
		c := compiled[i].resolved()
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

// CompileErrors compiles every rule of the validator now (and plans its
// program) and returns the rules that do not compile, as the error each
// would report when evaluated: "rule compile error: ..." at the schema
// path of its node. Validators compile rules on first use, so a rule that
// does not compile shows only on objects that reach it; tests of built-in
// schemas call this to find such rules up front. Nil when all compile.
func (v *Validator) CompileErrors() field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	var errs field.ErrorList
	var walk func(n *node, p *field.Path)
	walk = func(n *node, p *field.Path) {
		if n == nil {
			return
		}
		nr := n.compiledRules()
		if nr.err != nil {
			errs = append(errs, field.Invalid(p, n.rules, fmt.Sprintf("rule compiler initialization error: %v", nr.err)))
		}
		planLazyPrograms(nr.compiled)
		for i := range nr.compiled {
			c := nr.compiled[i].resolved()
			if c.err != nil {
				errs = append(errs, field.Invalid(p, n.rules[i].Rule, fmt.Sprintf("rule compile error: %v", c.err)))
			}
			if c.messageExpressionErr != nil {
				errs = append(errs, field.Invalid(p, n.rules[i].MessageExpression, fmt.Sprintf("messageExpression compile error: %v", c.messageExpressionErr)))
			}
		}
		walk(n.items, p.Index(0))
		walk(n.additionalProperties, p.Key("*"))
		for _, k := range n.propertyNames {
			walk(n.properties[k], p.Child(k))
		}
		for _, a := range n.allOf {
			walk(a, p)
		}
	}
	walk(v.root, nil)
	return errs
}
