package cel

import (
	"errors"
	"reflect"
	"unsafe"

	celgo "github.com/google/cel-go/cel"
)

// withoutCostTracking is a program option that turns cost tracking off again.
//
// The apiserver's base environment (k8s.io/apiserver/pkg/cel/environment
// base.go) carries program options that every env.Program applies first:
// EvalOptions(OptOptimize, OptTrackCost), CostLimit(PerCallLimit),
// CostTracking(&library.CostEstimator{}). cel-go has no option that clears
// an evaluation flag, and rebuilding the environment without those options
// is not possible through the apiserver's API (and re-planning programs
// outside cel-go would risk differences: constant folding, regex
// precompilation, library program options). So this option, applied last,
// clears the OptTrackCost bit of the program being configured, leaving every
// other option as it is: the program then plans without the cost observer
// (cel-go program.go: the tracker is only built when OptTrackCost,
// OptTrackState or OptExhaustiveEval is set).
//
// It reaches cel-go's unexported prog.evalOpts through reflection. If a
// cel-go version renames or retypes that field, the option fails, the
// program is not built, and the fast path is simply not used for the rule
// (fastPlan.untracked); TestUntrackedProgram checks that the programs it
// builds really do not track costs.
func withoutCostTracking() celgo.ProgramOption {
	return clearTrackCost(celgo.EvalOptions())
}

var errNoEvalOpts = errors.New("cel-go program has no evalOpts field")

// clearTrackCost builds a function of ProgramOption's type (whose parameter
// type, *cel.prog, cannot be named outside cel-go) by inference from a
// template option.
func clearTrackCost[F ~func(P) (P, error), P any](_ F) F {
	return F(func(p P) (P, error) {
		v := reflect.ValueOf(p)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return p, errNoEvalOpts
		}
		f := v.Elem().FieldByName("evalOpts")
		if !f.IsValid() || f.Type() != reflect.TypeOf(celgo.OptTrackCost) {
			return p, errNoEvalOpts
		}
		opts := (*celgo.EvalOption)(unsafe.Pointer(f.UnsafeAddr()))
		*opts &^= celgo.OptTrackCost
		return p, nil
	})
}
