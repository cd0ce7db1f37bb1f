package cel

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/warning"

	"kdv.dev/cel/internal/values"
)

// HasRules reports whether the schema has any x-kubernetes-validations rule
// (outside junctors); Validate is a no-op otherwise.
func (v *Validator) HasRules() bool { return v != nil && v.root != nil }

// Validate evaluates all rules against obj (unstructured: map[string]any,
// []any, string, int64, float64, bool, nil) and returns the errors and the
// remaining budget. oldObj is the previous object on update (nil on create):
// transition rules (using oldSelf) are evaluated only where an old value
// correlates (same property, same map key, same list-map key), unless the
// rule sets optionalOldSelf; on update, errors of rules without oldSelf on
// values equal to their correlated old value are ratcheted (dropped here;
// use ValidateWithWarnings to get them). When the budget runs out,
// evaluation stops, an error says so and the remaining budget is negative.
// fldPath is the path of obj (nil for a resource root). It mirrors the
// apiserver's cel.Validator.Validate with CRDValidationRatcheting (GA).
//
// Every rule is evaluated with runtime cost tracking, as the remaining
// budget is the sum of actual costs; callers that do not need it should use
// ValidateObject, which is faster and otherwise identical.
func (v *Validator) Validate(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (field.ErrorList, int64) {
	errs, _, rem := v.ValidateWithWarnings(ctx, fldPath, obj, oldObj, costBudget)
	return errs, rem
}

// ValidateWithWarnings is Validate that also returns the ratcheted errors as
// warnings (the apiserver sends them as HTTP warnings, formatted with
// field.Error.Error(), and so does this method to a warning recorder in
// ctx, k8s.io/apiserver/pkg/warning). Like Validate, it tracks runtime costs
// to return the exact remaining budget.
func (v *Validator) ValidateWithWarnings(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (errs field.ErrorList, warnings []string, remainingBudget int64) {
	if v == nil || v.root == nil {
		return nil, nil, costBudget
	}
	if ctx == nil {
		ctx = context.Background()
	}
	e := v.newEvaluation(ctx, false)
	defer e.release()
	e.update = oldObj != nil && !isNilValue(oldObj)
	errs, remainingBudget = e.validate(v.root, fldPath, obj, oldObj, v.ratchet(obj, oldObj), costBudget)
	e.emitWarnings()
	return errs, e.warnings, remainingBudget
}

// ValidateObject is ValidateWithWarnings without the remaining budget: the
// same errors, in the same order, and the same warnings (also sent to a
// warning recorder in ctx, once). Not having to return the budget lets it
// skip cel-go's runtime cost tracking for rules whose cost is bounded (see
// fast.go): it first evaluates the rules untracked, charging each its
// static cost bound, which is never less than its actual cost, to the
// budget; if the bound cannot prove that the tracked evaluation stays
// within the per-call limit and the budget at every point, it discards that
// attempt and evaluates again with tracking (ValidateWithWarnings). Both
// give the same result because evaluation is deterministic and every limit
// test has the same outcome under the bound as under the actual cost.
// ValidateAfter uses it; so should any object-validation path that drops
// the remaining budget.
func (v *Validator) ValidateObject(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (field.ErrorList, []string) {
	if v == nil || v.root == nil {
		return nil, nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if errs, warnings, ok := v.validateFast(ctx, fldPath, obj, oldObj, costBudget); ok {
		return errs, warnings
	}
	errs, warnings, _ := v.ValidateWithWarnings(ctx, fldPath, obj, oldObj, costBudget)
	return errs, warnings
}

// validateFast is the untracked attempt of ValidateObject; ok is false when
// it was abandoned (nothing was emitted to ctx then).
func (v *Validator) validateFast(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (errs field.ErrorList, warnings []string, ok bool) {
	e := v.newEvaluation(ctx, true)
	defer e.release()
	if v.guard != nil && !v.builtIn && !e.fits(v.guard.get(), obj, oldObj) {
		return nil, nil, false
	}
	e.update = oldObj != nil && !isNilValue(oldObj)
	errs, _ = e.validate(v.root, fldPath, obj, oldObj, v.ratchet(obj, oldObj), costBudget)
	if e.abandoned {
		return nil, nil, false
	}
	e.emitWarnings()
	return errs, e.warnings, true
}

// ValidateAfter composes CEL with the value validation errors prior the way
// the apiserver's custom resource strategy does: when prior contains a
// blocking error (see BlockingError) the rules are skipped and the note
// error is returned; otherwise the rules' errors are returned, evaluated with
// RuntimeCELCostBudget (by ValidateObject).
func (v *Validator) ValidateAfter(ctx context.Context, obj, oldObj any, prior field.ErrorList) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	if e := BlockingError(prior); e != nil {
		return field.ErrorList{e}
	}
	errs, _ := v.ValidateObject(ctx, nil, obj, oldObj, RuntimeCELCostBudget)
	return errs
}

// newEvaluation returns an evaluation from evaluations; release returns
// it. An evaluation is about a kilobyte (the prover's environment), once
// per validated object: a tenth of what validating 10,000 small objects
// allocates.
func (v *Validator) newEvaluation(ctx context.Context, fast bool) *evaluation {
	conv := v.toVal
	if conv == nil {
		conv = values.ToVal
		if v.builtIn {
			conv = values.ToValBuiltIn
		}
	}
	e := evaluations.Get().(*evaluation)
	e.ctx, e.ratcheting, e.fast, e.toVal, e.builtIn = ctx, v.ratcheting, fast, conv, v.builtIn
	return e
}

var evaluations = sync.Pool{New: func() any { return new(evaluation) }}

// release resets e, keeping only the prover's memo of format results
// (which depend only on the format and the string), and returns it to
// evaluations. e's warnings belong to the caller.
func (e *evaluation) release() {
	e.penv.resetScratch(true)
	memo, next, scratch := e.penv.memo, e.penv.memoNext, e.penv.scratch
	*e = evaluation{}
	e.penv.memo, e.penv.memoNext, e.penv.scratch = memo, next, scratch
	evaluations.Put(e)
}

func (v *Validator) ratchet(obj, oldObj any) ratchet {
	var r ratchet
	if v.ratcheting && oldObj != nil && !isNilValue(oldObj) {
		r.current = common.NewCorrelatedObject(obj, oldObj, v.schema)
	}
	return r
}

// evaluation is the state of one Validate call.
type evaluation struct {
	ctx        context.Context
	ratcheting bool
	// warnings are emitted to ctx by emitWarnings, once the evaluation is
	// known to be the one whose result is returned.
	warnings []string
	// fast: evaluate untracked where a cost bound allows, and charge the
	// bound (see fast.go); abandoned: a fast evaluation could not decide a
	// limit test and stopped (its result is meaningless).
	fast, abandoned bool
	// toVal converts values for the activations.
	toVal toVal
	// observe, when set (tests), gets the actual cost of every tracked
	// evaluation of a rule (message false) or messageExpression.
	observe func(plan *fastPlan, actual uint64, message bool)
	// builtIn renders errors in the hand-written form (Options.BuiltIn).
	builtIn bool
	// update: validating an update (nodes with skipOnUpdate are skipped).
	update bool
	// penv is the provers' environment, reused from node to node.
	penv proveEnv
}

// builtInProveSteps bounds the comprehension iterations of one built-in
// rule's prover evaluation: about a tenth of a second. Built-in rules are
// unmetered (their lists have no maxItems), so without it a quadratic
// check on a list of tens of thousands of items took minutes.
const builtInProveSteps = 10_000_000

// abandon stops a fast evaluation.
func (e *evaluation) abandon() (field.ErrorList, int64) {
	e.abandoned = true
	return nil, -1
}

// fits checks values against the sizes the fast path's bounds assume.
func (e *evaluation) fits(g *guard, obj, oldObj any) bool {
	return g.fits(obj) && g.fits(oldObj)
}

func (e *evaluation) emitWarnings() {
	for _, w := range e.warnings {
		// to a recorder in ctx, as the apiserver does
		warning.AddWarning(e.ctx, "", w)
	}
}

const budgetExhausted = "validation failed due to running out of cost budget, no further validation rules will be run"

func (e *evaluation) validateExpressions(n *node, fldPath *field.Path, obj, oldObj any, r ratchet, budget int64) (errs field.ErrorList, remaining int64) {
	sts := n.schema
	if oldObj != nil && isNilValue(oldObj) {
		oldObj = nil
	}
	remaining = budget
	if obj == nil {
		// only non-null values are validated
		return nil, remaining
	}
	nr := n.compiledRules()
	if nr.err != nil {
		return field.ErrorList{field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compiler initialization error: %v", nr.err))}, remaining
	}
	if len(nr.compiled) == 0 {
		return nil, remaining
	}
	if remaining <= 0 {
		if e.fast {
			// the actual remaining budget may be positive
			return e.abandon()
		}
		return field.ErrorList{field.Invalid(fldPath, sts.Type, budgetExhausted)}, -1
	}
	var act, optAct interpreter.Activation
	// the fields the rules' vacuities test, looked up once per object
	var present uint64
	presentKnown := false
	for i := range nr.compiled {
		compiled := &nr.compiled[i]
		rule := n.rules[i]
		if compiled.err != nil {
			errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compile error: %v", compiled.err)))
			continue
		}
		if compiled.program == nil && compiled.deferred == nil {
			continue // empty rule
		}
		optionalOldSelf := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if compiled.usesOldSelf && oldObj == nil && (!optionalOldSelf || !e.ratcheting) {
			// transition rules need a correlated old value, unless
			// optionalOldSelf (which needs CRDValidationRatcheting)
			continue
		}
		if e.builtIn && compiled.vacuity != nil {
			empty := func(empty map[string]any) bool {
				c := compiled.resolved()
				if c.prover != nil {
					// the prover decides most rules without planning a
					// CEL program (which costs more than the rule's
					// evaluations in a short run)
					env := newProveEnv(empty)
					env.limited, env.steps = true, builtInProveSteps
					if v, ok := c.prover(env); ok && v == true {
						return true
					}
				}
				a, _ := n.activations(empty, nil, e.toVal)
				if c.fast == nil {
					return false
				}
				v, _, err := c.fast.prog.Eval(a)
				return err == nil && v == types.True
			}
			var skip bool
			if m, isMap := obj.(map[string]any); isMap && nr.vacuities != nil {
				if !presentKnown {
					present, presentKnown = nr.vacuities.present(m), true
				}
				skip = compiled.vacuity.skipPresent(present, nr.vacuities.masks[i], empty)
			} else {
				skip = compiled.vacuity.skip(obj, empty)
			}
			if skip {
				continue
			}
		}
		if compiled.deferred != nil {
			// a rule from the compile cache, compiled on first need
			compiled = compiled.deferred.get()
			if compiled.err != nil {
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compile error: %v", compiled.err)))
				continue
			}
			if compiled.program == nil {
				continue
			}
		}
		if e.builtIn && compiled.prover != nil {
			e.penv.self = obj
			e.penv.vars = e.penv.buf[:0]
			e.penv.resetScratch(false)
			e.penv.old, e.penv.oldSet = nil, false
			if compiled.usesOldSelf {
				switch {
				case optionalOldSelf && oldObj == nil:
					e.penv.old, e.penv.oldSet = proveNone, true
				case optionalOldSelf:
					e.penv.old, e.penv.oldSet = proveOptional{val: oldObj, ok: true}, true
				case oldObj != nil:
					e.penv.old, e.penv.oldSet = oldObj, true
				}
			}
			e.penv.limited, e.penv.steps = true, builtInProveSteps
			v, ok := compiled.prover(&e.penv)
			if ok && v == true {
				continue
			}
			if e.penv.steps < 0 {
				// a rule whose comprehensions would walk a huge object for
				// longer than any real one needs (a uniqueness check over
				// tens of thousands of items, quadratic): not evaluated,
				// and said so, rather than minutes of CEL
				e.warnings = append(e.warnings, fmt.Sprintf("%s: rule not evaluated: it takes more than %d steps on this object: %s", fldPath, builtInProveSteps, ruleErrorString(rule)))
				continue
			}
		}
		if act == nil {
			act, optAct = n.activations(obj, oldObj, e.toVal)
		}
		ruleAct := act
		if optionalOldSelf {
			ruleAct = optAct
		}
		var plan *fastPlan
		if e.fast || e.builtIn {
			// built-in rules are unmetered: their programs track no cost
			// (compileRule), so the tracked path has none to report
			plan = compiled.fast.get()
		}
		var evalResult ref.Val
		var err error
		if plan != nil && plan.ok {
			// cost <= bound <= perCallLimit: the tracked evaluation could
			// not exceed the per-call limit; bound <= remaining <= the
			// actual remaining budget: nor the budget.
			if plan.cost > uint64(remaining) {
				return e.abandon()
			}
			if e.builtIn {
				// unmetered and bounded by the object's size: no
				// cancellable context per rule (its allocation is a good
				// part of a built-in object's validation)
				evalResult, _, err = plan.prog.Eval(ruleAct)
			} else {
				evalResult, _, err = plan.prog.ContextEval(e.ctx, ruleAct)
			}
			remaining -= int64(plan.cost)
		} else {
			var evalDetails *celgo.EvalDetails
			evalResult, evalDetails, err = compiled.program.ContextEval(e.ctx, ruleAct)
			if evalDetails == nil {
				errs = append(errs, field.InternalError(fldPath, fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
				return errs, -1
			}
			rtCost := evalDetails.ActualCost()
			if rtCost == nil {
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
				return errs, -1
			}
			if *rtCost > math.MaxInt64 || int64(*rtCost) > remaining {
				if e.fast {
					return e.abandon()
				}
				errs = append(errs, field.Invalid(fldPath, sts.Type, budgetExhausted))
				return errs, -1
			}
			remaining -= int64(*rtCost)
			if e.observe != nil {
				e.observe(compiled.fast, *rtCost, false)
			}
		}
		if err != nil {
			switch {
			case strings.HasPrefix(err.Error(), "no such overload"):
				// only reachable when type checking was bypassed (int-or-string is dyn)
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
			case strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded"):
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule))))
				return errs, -1
			default:
				// no such key, index out of bounds, overflow, division by zero, ...
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
			}
			continue
		}
		if evalResult == types.True {
			continue
		}

		curPath := fldPath
		if len(compiled.normalizedFieldPath) > 0 {
			curPath = curPath.Child(compiled.normalizedFieldPath)
		}
		// An error on a value the update left unchanged is ratcheted into
		// a warning, except at nodes that do not ratchet (built-in nodes
		// without x-kubernetes-ratcheting: the hand-written update
		// validation checks the whole new object again).
		addErr := func(fe *field.Error) {
			if e.ratcheting && !n.fixed && !compiled.usesOldSelf && r.shouldRatchetError() {
				e.warnings = append(e.warnings, fe.Error())
			} else {
				errs = append(errs, fe)
			}
		}
		detail, ok := "", false
		if compiled.messageExpression != nil {
			m := messageEval{ctx: e.ctx, src: rule.MessageExpression, act: ruleAct, remaining: remaining, tracked: compiled.messageExpression}
			if plan != nil && plan.msgOK {
				m.untracked, m.cost = plan.msgProg, plan.msgCost
			}
			msg, newRemaining, msgErr := m.eval()
			if e.observe != nil && m.untracked == nil && m.actual != nil {
				e.observe(compiled.fast, *m.actual, true)
			}
			switch {
			case m.overBudget && e.fast:
				return e.abandon()
			case msgErr == nil:
				detail, ok = msg, true
				remaining = newRemaining
			case msgErr.Type == apiservercel.ErrorTypeInternal:
				addErr(field.InternalError(curPath, msgErr))
				return errs, -1
			case msgErr.Type == apiservercel.ErrorTypeInvalid:
				addErr(field.Invalid(curPath, sts.Type, msgErr.Error()))
				return errs, -1
			default:
				// the apiserver logs the failure and falls back to message
				remaining = newRemaining
			}
		}
		if !ok {
			detail = ruleMessageOrDefault(rule)
		}
		if e.builtIn {
			if compiled.each != nil {
				if each := e.eachErrors(n, compiled, fldPath, obj, oldObj, optionalOldSelf, detail, rule.MessageExpression, rule.Reason); len(each) > 0 {
					for _, fe := range each {
						addErr(fe)
					}
					continue
				}
			}
			if compiled.diff != nil && oldObj != nil {
				// hand-written: fmt.Sprintf("...\n%v", diff.Diff(old, new))
				detail += "\n" + compiled.diff.text(obj, oldObj, ruleAct)
			}
			var value any = field.OmitValueType{}
			if !compiled.omitValue {
				value = valueAt(obj, compiled.fieldPathSteps)
				if value == nil {
					value = compiled.absent
				}
			}
			if compiled.literal != nil {
				value = *compiled.literal
			}
			addErr(handwrittenError(curPath, value, detail, rule.Reason, compiled.target))
			continue
		}
		var value any = obj
		if sts.Type == "object" || sts.Type == "array" {
			value = field.OmitValueType{}
		}
		addErr(fieldErrorForReason(curPath, value, detail, rule.Reason))
	}
	return errs, remaining
}

// messageEval evaluates a messageExpression, mirroring the apiserver's
// evalMessageExpression: the trimmed message and the remaining budget, or
// an error typed Internal/Invalid (stop evaluating) or untyped (fall back to
// message). untracked, when set, is evaluated instead of tracked, charging
// cost (its bound, at most the per-call limit).
type messageEval struct {
	ctx       context.Context
	src       string
	act       interpreter.Activation
	remaining int64
	tracked   celgo.Program
	untracked celgo.Program
	cost      uint64
	// overBudget is set when the charged cost exceeds the remaining
	// budget (with untracked, the actual cost may not).
	overBudget bool
	// actual is the actual cost of a tracked evaluation.
	actual *uint64
}

func (m *messageEval) eval() (string, int64, *apiservercel.Error) {
	var evalResult ref.Val
	var err error
	var rtCost uint64
	if m.untracked != nil {
		rtCost = m.cost
		if rtCost > uint64(m.remaining) {
			m.overBudget = true
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
		}
		evalResult, _, err = m.untracked.ContextEval(m.ctx, m.act)
	} else {
		var evalDetails *celgo.EvalDetails
		evalResult, evalDetails, err = m.tracked.ContextEval(m.ctx, m.act)
		if evalDetails == nil {
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", m.src)}
		}
		c := evalDetails.ActualCost()
		m.actual = c
		if c == nil {
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", m.src)}
		} else if *c > math.MaxInt64 || int64(*c) > m.remaining {
			m.overBudget = true
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
		}
		rtCost = *c
	}
	remaining := m.remaining - int64(rtCost)
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", m.src)}
		}
		return "", remaining, &apiservercel.Error{Detail: fmt.Sprintf("messageExpression evaluation failed due to: %v", err.Error())}
	}
	msg, ok := evalResult.Value().(string)
	if !ok {
		return "", remaining, &apiservercel.Error{Detail: "messageExpression failed to convert to string"}
	}
	trimmed := strings.TrimSpace(msg)
	switch {
	case len(trimmed) > celconfig.MaxEvaluatedMessageExpressionSizeBytes:
		return "", remaining, &apiservercel.Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", celconfig.MaxEvaluatedMessageExpressionSizeBytes)}
	case hasNewlines(trimmed):
		return "", remaining, &apiservercel.Error{Detail: "messageExpression should not contain line breaks"}
	case len(trimmed) == 0:
		return "", remaining, &apiservercel.Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return trimmed, remaining, nil
}

var newlineMatcher = regexp.MustCompile(`[\n]+`)

func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }
