package defaulting

import (
	"fmt"
	"sort"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"

	kdvcel "kdv.dev/cel"
	"kdv.dev/schema"
)

// DefaultExpressionKey is kdv's schema extension for a default computed
// from the object that holds the property:
//
//	imagePullPolicy:
//	  type: string
//	  x-kubernetes-default-expression: "imageTag(self.?image.orValue('')) == 'latest' ? 'Always' : 'IfNotPresent'"
//
// is a CEL expression whose self is the parent object (the Container, as
// unstructured JSON: a dyn map), evaluated when the property is missing
// (or null while not nullable) on the object as decoded: before the
// constant defaults and x-kubernetes-default-from copies of that object
// (which the results do not override: a property with a constant default
// is never missing) and before its properties are defaulted in turn.
// Its result (a string, integer, number, boolean or an object of such
// values, or an optional of one) becomes the property's value: an object
// result is defaulted in turn like a constant object default (`{}`: its
// properties' defaults apply inside it, as SetDefaults_Volume's
// EmptyDir: &EmptyDirVolumeSource{} gets its fields' defaulters); an
// evaluation error (a field of an
// unexpected type, an exceeded cost limit), an empty optional or a
// result of another type leaves the property missing, as a Go defaulter
// cannot set what its input does not let it compute.
//
// It declares the Go defaulters that compute a value from other fields
// (SetDefaults_Container: imagePullPolicy is Always when the image's tag
// is "latest", IfNotPresent otherwise), which the apiserver applies
// before validation, so that validation sees (and its errors print) the
// computed value. The environment is CEL's standard library with
// optionals, the strings extension and ImageLibrary; it is not the
// apiserver's validation environment. It is published only with the
// built-in schemas; CRDs cannot declare it.
const DefaultExpressionKey = schema.XDefaultExpression

// DefaultExpression returns the default expression of s
// (DefaultExpressionKey), "" when none.
func DefaultExpression(s *schema.Structural) string {
	e, _ := s.XOther[DefaultExpressionKey].(string)
	return e
}

// expressionCostLimit bounds one evaluation of a default expression: the
// expressions are kdv's own (built-in schemas only) and need a few dozen
// steps; the limit only keeps a mistaken one from walking a huge object.
const expressionCostLimit = 1_000_000

// Expression is a compiled default expression (DefaultExpressionKey). It
// is immutable and safe for concurrent use.
type Expression struct {
	prg cel.Program
	// ev decides the common cases without CEL's activation and value
	// conversion (kdv.dev/cel Evaluator); prg evaluates the others
	ev *kdvcel.Evaluator
}

type compiledExpression struct {
	e   *Expression
	err error
}

var (
	exprEnvOnce sync.Once
	exprEnv     *cel.Env
	exprEnvErr  error
	// expressions caches CompileDefaultExpression by source: a schema
	// walked by Default, or compiled by every NewDefaulter of a kind,
	// compiles each expression once per process.
	expressions sync.Map // string -> compiledExpression
)

func expressionEnv() (*cel.Env, error) {
	exprEnvOnce.Do(func() {
		exprEnv, exprEnvErr = cel.NewEnv(
			cel.Variable("self", cel.DynType),
			cel.OptionalTypes(),
			ext.Strings(),
			ImageLibrary(),
		)
	})
	return exprEnv, exprEnvErr
}

// CompileDefaultExpression compiles a default expression, once per
// process for each source. The error says why it does not compile, or
// that its type cannot be a JSON scalar or object.
func CompileDefaultExpression(expr string) (*Expression, error) {
	if c, ok := expressions.Load(expr); ok {
		c := c.(compiledExpression)
		return c.e, c.err
	}
	e, err := compileExpression(expr)
	c, _ := expressions.LoadOrStore(expr, compiledExpression{e, err})
	return c.(compiledExpression).e, c.(compiledExpression).err
}

func compileExpression(expr string) (*Expression, error) {
	env, err := expressionEnv()
	if err != nil {
		return nil, fmt.Errorf("default expression environment: %w", err)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("default expression %q: %w", expr, iss.Err())
	}
	t := ast.OutputType()
	if t.Kind() == types.OpaqueKind && t.TypeName() == "optional_type" && len(t.Parameters()) == 1 {
		t = t.Parameters()[0]
	}
	switch {
	case t.IsExactType(cel.StringType), t.IsExactType(cel.IntType), t.IsExactType(cel.DoubleType),
		t.IsExactType(cel.BoolType), t.IsExactType(cel.DynType):
	case t.Kind() == types.MapKind && len(t.Parameters()) == 2 &&
		(t.Parameters()[0].IsExactType(cel.StringType) || t.Parameters()[0].IsExactType(cel.DynType)):
		// an object: {} or {'medium': 'Memory'}; its values are checked
		// when evaluated (jsonValue)
	default:
		return nil, fmt.Errorf("default expression %q: type %s, want string, int, double, bool, map(string, ...), dyn or an optional of one", expr, ast.OutputType())
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptTrackCost), cel.CostLimit(expressionCostLimit))
	if err != nil {
		return nil, fmt.Errorf("default expression %q: %w", expr, err)
	}
	return &Expression{prg: prg, ev: kdvcel.NewEvaluator(ast, proveFuncs)}, nil
}

// proveFuncs are ImageLibrary's functions for the Evaluator.
var proveFuncs = map[string]kdvcel.ProveFunc{
	"imageTag": func(args []any) (any, bool) {
		s, ok := args[0].(string)
		if !ok {
			return nil, false
		}
		return ImageTag(s), true
	},
}

// Eval evaluates the expression with self bound to the object parent and
// returns the default (string, int64, float64, bool, or a map[string]any
// of those, freshly built by each call) and true, or false when it
// computes none (see DefaultExpressionKey). It never panics.
func (e *Expression) Eval(parent map[string]any) (any, bool) {
	if e == nil {
		return nil, false
	}
	if e.ev != nil {
		// the prover's evaluation is bounded by the size of parent and the
		// expression, as the cost limit bounds CEL's
		if v, set, decided := e.ev.Eval(parent); decided {
			if !set {
				return nil, false
			}
			return goJSONValue(v, 0)
		}
	}
	out, _, err := e.prg.Eval(map[string]any{"self": parent})
	if err != nil {
		return nil, false
	}
	if o, ok := out.(*types.Optional); ok {
		if !o.HasValue() {
			return nil, false
		}
		out = o.GetValue()
	}
	return jsonValue(out, 0)
}

// maxObjectDepth bounds the nesting of an object result: kdv's defaults
// are `{}` or one level of fields; a deeper one is a mistake, not a
// reason to recurse without limit.
const maxObjectDepth = 8

// jsonValue converts a CEL result to the JSON value of a default: a
// scalar, or an object with string keys whose values are JSON values
// (not null: a Go defaulter sets no field to nil). Anything else
// (a list, a null, a non-string key) is no default.
// goJSONValue is jsonValue for a result of the Evaluator (Go values, maps
// possibly shared with parent or the expression): a fresh copy.
func goJSONValue(v any, depth int) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		if depth >= maxObjectDepth {
			return nil, false
		}
		obj := make(map[string]any, len(v))
		for k, fv := range v {
			c, ok := goJSONValue(fv, depth+1)
			if !ok {
				return nil, false
			}
			obj[k] = c
		}
		return obj, true
	case string, int64, float64, bool:
		return v, true
	}
	return nil, false
}

func jsonValue(v ref.Val, depth int) (any, bool) {
	if m, ok := v.(traits.Mapper); ok {
		if depth >= maxObjectDepth {
			return nil, false
		}
		obj := map[string]any{}
		for it := m.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			ks, ok := k.(types.String)
			if !ok {
				return nil, false
			}
			fv, ok := jsonValue(m.Get(k), depth+1)
			if !ok {
				return nil, false
			}
			obj[string(ks)] = fv
		}
		return obj, true
	}
	switch v := v.(type) {
	case types.String:
		return string(v), true
	case types.Int:
		return int64(v), true
	case types.Double:
		return float64(v), true
	case types.Bool:
		return bool(v), true
	}
	return nil, false
}

// propExpression is a property defaulted by an expression over its parent.
type propExpression struct {
	key      string
	expr     *Expression
	nullable bool
}

// expressionsOf returns the compiled default expressions of s's
// properties. One that does not compile is left out: kdv's generator
// compiles every expression it publishes (it refuses the schema
// otherwise), and TestDefaultExpressionsCompile checks the embedded ones.
func expressionsOf(s *schema.Structural) []propExpression {
	var out []propExpression
	for k, p := range s.Properties {
		src := DefaultExpression(&p)
		if src == "" {
			continue
		}
		if e, err := CompileDefaultExpression(src); err == nil {
			out = append(out, propExpression{k, e, p.Nullable})
		}
	}
	// in key order, so that evaluation is deterministic
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// computeExpressions evaluates the expressions of the missing properties
// of x (null counts as missing unless nullable) on x as it is, before
// the object's other defaults; setComputed then sets their results. A Go
// defaulter computes from the decoded fields (SetDefaults_Job's
// completions is 1 when completions and parallelism are both unset,
// before parallelism's own default of 1), and every expression of an
// object sees the same input whatever the order of its properties.
func computeExpressions(x map[string]any, exprs []propExpression) []computed {
	var out []computed
	for _, pe := range exprs {
		if v, found := x[pe.key]; found && (v != nil || pe.nullable) {
			continue
		}
		if d, ok := pe.expr.Eval(x); ok {
			out = append(out, computed{pe.key, d})
		}
	}
	return out
}

// computed is a default computed by an expression.
type computed struct {
	key   string
	value any
}

// setComputed sets the computed defaults whose property is still missing.
func setComputed(x map[string]any, cs []computed) {
	for _, c := range cs {
		if v, found := x[c.key]; !found || v == nil {
			x[c.key] = c.value
		}
	}
}
