package cel

import (
	"math"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"
)

// The fast path: evaluating a rule with cel-go's runtime cost tracking
// (CostTracking, CostLimit) costs about a third of the evaluation itself, but
// the apiserver's verdict depends on the actual cost only where a limit is
// hit: the per-call limit (PerCallLimit) and the per-object budget
// (RuntimeCELCostBudget). When a rule's cost is known to be at most a bound
// B, with B <= the per-call limit and B <= what is left of the budget, the
// tracked evaluation cannot hit either limit, and an untracked evaluation of
// the same checked AST gives the same value, error and message (evaluation is
// deterministic). So a "fast" evaluation charges every rule its bound
// instead of its actual cost; its remaining budget is then a lower bound of
// the tracked one, and as long as it stays >= 0 (and > 0 where the tracked
// evaluation tests remaining <= 0) every budget test the tracked evaluation
// makes has the same outcome. Where the bound could not decide a test, the
// fast evaluation is abandoned and the object is validated again, tracked,
// from the start (see Validator.ValidateObject).
//
// The bound B is the static cost estimate of the rule, as the apiserver
// computes it (maxCost), except that the estimate is made with sizes the
// value is checked against before evaluating (boundedSizeEstimator, guard):
// the apiserver's size estimates are not upper bounds everywhere (objects
// and map keys are estimated at size 0, scalars at size 0 while their actual
// size is 1, and list functions traverse list elements that are objects at a
// cost the estimator does not model), which does not matter to the
// apiserver, which only uses estimates to reject too expensive CRDs, but
// would make the fast path inexact. B is max(maxCost, bounded estimate).

const (
	// objectSlack is how many keys an object value may have beyond its
	// declared fields (metadata, unknown fields under
	// x-kubernetes-preserve-unknown-fields) for the fast path.
	objectSlack = 64
	// mapKeyBound is the largest map key, in bytes, allowed on the fast
	// path (the apiserver's estimator sizes map keys at 0); label and
	// annotation keys are at most 317 bytes.
	mapKeyBound = 512
)

// fastPlan is the untracked program of one compiled rule and of its
// messageExpression, planned on first use so that start-up (NewValidator)
// does not pay for programs a run may never need.
type fastPlan struct {
	// inputs, set by compileRule
	env, msgEnv         *celgo.Env
	ast, msgAst         *celgo.Ast
	maxCost, msgMaxCost uint64
	root                *apiservercel.DeclType
	perCallLimit        uint64
	// unmetered: no cost limits apply (Options.BuiltIn); compileRule set
	// prog (and msgProg) untracked, charged nothing.
	unmetered bool

	once sync.Once
	// ok: prog may be evaluated untracked, charging cost.
	ok   bool
	prog celgo.Program
	cost uint64
	// msgOK: msgProg may be evaluated untracked, charging msgCost.
	msgOK   bool
	msgProg celgo.Program
	msgCost uint64
}

// get returns the planned p (nil when p is nil).
func (p *fastPlan) get() *fastPlan {
	if p == nil {
		return nil
	}
	p.once.Do(p.plan)
	return p
}

func (p *fastPlan) plan() {
	if p.unmetered {
		return // compileRule made the untracked programs
	}
	p.prog, p.cost, p.ok = p.untracked(p.env, p.ast, p.maxCost)
	if p.msgAst != nil {
		p.msgProg, p.msgCost, p.msgOK = p.untracked(p.msgEnv, p.msgAst, p.msgMaxCost)
	}
	// the ASTs are no longer needed
	p.env, p.msgEnv, p.ast, p.msgAst = nil, nil, nil, nil
}

// untracked returns the program of the checked ast without cost tracking
// and the bound of its cost, or ok false when the bound exceeds the per-call
// limit (the evaluation must then be tracked: it could hit the limit).
func (p *fastPlan) untracked(env *celgo.Env, ast *celgo.Ast, maxCost uint64) (celgo.Program, uint64, bool) {
	if env == nil || ast == nil || p.root == nil {
		return nil, 0, false
	}
	est, err := env.EstimateCost(ast, boundedCostEstimator{&library.CostEstimator{SizeEstimator: &boundedSizeEstimator{root: p.root}}})
	if err != nil {
		return nil, 0, false
	}
	bound := max(est.Max, maxCost)
	if bound > p.perCallLimit || bound > math.MaxInt64 {
		return nil, 0, false
	}
	// InterruptCheckFrequency keeps evaluation cancellable through ctx;
	// withoutCostTracking undoes the environment's cost tracking.
	prog, err := env.Program(ast, celgo.InterruptCheckFrequency(celconfig.CheckFrequency), withoutCostTracking())
	if err != nil {
		return nil, 0, false
	}
	return prog, bound, true
}

// boundedCostEstimator is the apiserver's cost estimator, except that list
// functions whose runtime cost traverses the list's elements as data trees
// (library cost.go traversalCost) are unbounded when the elements are not
// scalars: the estimator charges 1 per such element.
type boundedCostEstimator struct{ *library.CostEstimator }

func (b boundedCostEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	switch function {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		nodes := args
		if target != nil {
			nodes = append([]checker.AstNode{*target}, args...)
		}
		for _, n := range nodes {
			if !scalarOrScalarList(n.Type()) {
				return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 0, Max: math.MaxUint64}}
			}
		}
	}
	return b.CostEstimator.EstimateCallCost(function, overloadID, target, args)
}

// scalarOrScalarList: t is a scalar type or a list of scalars, whose
// traversal cost the estimator bounds.
func scalarOrScalarList(t *types.Type) bool {
	if t == nil {
		return false
	}
	if t.Kind() == types.ListKind {
		params := t.Parameters()
		return len(params) == 1 && isScalarKind(params[0].Kind())
	}
	return isScalarKind(t.Kind())
}

func isScalarKind(k types.Kind) bool {
	switch k {
	case types.BoolKind, types.IntKind, types.UintKind, types.DoubleKind, types.StringKind, types.BytesKind,
		types.DurationKind, types.TimestampKind, types.NullTypeKind:
		return true
	}
	return false
}

// boundedSizeEstimator is sizeEstimator with the sizes guard enforces: at
// least 1 (the runtime size of a scalar), objects at most their declared
// fields plus objectSlack, map keys at most mapKeyBound bytes.
type boundedSizeEstimator struct {
	root *apiservercel.DeclType
}

func (c *boundedSizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	cur, key := declTypeAt(c.root, element.Path())
	if cur == nil {
		return nil
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(sizeBound(cur, key))}
}

func (c *boundedSizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// sizeBound is the size boundedSizeEstimator assumes and guard enforces.
func sizeBound(t *apiservercel.DeclType, key bool) int64 {
	n := t.MaxElements
	switch {
	case key:
		n = max(n, mapKeyBound)
	case t.IsObject():
		n = int64(len(t.Fields)) + objectSlack
	}
	return max(n, 1)
}

// guard is a DeclType reduced to what the fast path checks of a value: Go
// types, list and map lengths, string lengths in bytes (at least their
// length in code points, CEL's size), key counts of objects, map key
// lengths. A value that fits its guard has, wherever a rule can reach, sizes
// within boundedSizeEstimator's.
type guard struct {
	kind   guardKind
	max    int64 // elements, keys or bytes
	keyMax int64
	elem   *guard
	fields map[string]*guard // by property name (unescaped)
}

type guardKind uint8

const (
	guardNever guardKind = iota // unknown type: never fits
	guardList
	guardMap
	guardObject
	guardString // string, bytes (base64: decoded is shorter)
	guardIntOrString
	guardInt
	guardNumber
	guardBool
	guardTime // duration, date, date-time strings: constant-size values
)

// newGuard returns the guard of t; nil t never fits.
func newGuard(t *apiservercel.DeclType) *guard {
	if t == nil {
		return &guard{kind: guardNever}
	}
	g := &guard{max: sizeBound(t, false)}
	switch {
	case t.IsList():
		g.kind, g.elem = guardList, newGuard(t.ElemType)
	case t.IsMap():
		g.kind, g.elem = guardMap, newGuard(t.ElemType)
		g.keyMax = mapKeyBound
		if t.KeyType != nil {
			g.keyMax = sizeBound(t.KeyType, true)
		}
	case t.IsObject():
		g.kind = guardObject
		g.fields = make(map[string]*guard, len(t.Fields))
		for name, f := range t.Fields {
			prop, ok := apiservercel.Unescape(name)
			if !ok || f.Type == nil {
				continue
			}
			g.fields[prop] = newGuard(f.Type)
		}
	default:
		switch t.CelType().Kind() {
		case types.StringKind, types.BytesKind:
			g.kind = guardString
		case types.DynKind:
			g.kind = guardIntOrString
		case types.IntKind:
			g.kind = guardInt
		case types.DoubleKind:
			g.kind = guardNumber
		case types.BoolKind:
			g.kind = guardBool
		case types.DurationKind, types.TimestampKind:
			g.kind = guardTime
		}
	}
	return g
}

// fits reports whether the unstructured value x is within g's bounds; nil
// (null, or absent) always fits.
func (g *guard) fits(x any) bool {
	if x == nil {
		return true
	}
	switch g.kind {
	case guardList:
		l, ok := x.([]any)
		if !ok || int64(len(l)) > g.max {
			return false
		}
		for _, e := range l {
			if !g.elem.fits(e) {
				return false
			}
		}
		return true
	case guardMap:
		m, ok := x.(map[string]any)
		if !ok || int64(len(m)) > g.max {
			return false
		}
		for k, e := range m {
			if int64(len(k)) > g.keyMax || !g.elem.fits(e) {
				return false
			}
		}
		return true
	case guardObject:
		m, ok := x.(map[string]any)
		if !ok || int64(len(m)) > g.max {
			return false
		}
		if len(m) < len(g.fields) {
			for k, e := range m {
				if f, ok := g.fields[k]; ok && !f.fits(e) {
					return false
				}
			}
			return true
		}
		for k, f := range g.fields {
			if e, ok := m[k]; ok && !f.fits(e) {
				return false
			}
		}
		return true
	case guardString:
		s, ok := x.(string)
		return ok && int64(len(s)) <= g.max
	case guardIntOrString:
		switch x := x.(type) {
		case string:
			return int64(len(x)) <= g.max
		case int64, float64:
			return true
		}
		return false
	case guardInt:
		_, ok := x.(int64)
		return ok
	case guardNumber:
		switch x.(type) {
		case int64, float64:
			return true
		}
		return false
	case guardBool:
		_, ok := x.(bool)
		return ok
	case guardTime:
		_, ok := x.(string)
		return ok
	}
	return false
}

// lazyGuard builds a guard on first use.
type lazyGuard struct {
	once sync.Once
	decl *apiservercel.DeclType
	g    *guard
}

func (l *lazyGuard) get() *guard {
	l.once.Do(func() { l.g = newGuard(l.decl); l.decl = nil })
	return l.g
}
