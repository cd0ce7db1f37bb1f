package formats

import (
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// CEL expressions of admission webhooks and policies. The apiserver compiles
// each expression of a ValidatingAdmissionPolicy (validations, message
// expressions, audit annotations, variables, match conditions) and of a
// webhook's match conditions when the object is created or updated, and
// rejects it with the compiler's error (k8s.io/kubernetes
// pkg/apis/admissionregistration/validation: validateValidationExpression,
// validateMessageExpression, validateAuditAnnotation, validateVariable,
// validateMatchConditionsExpression). These formats compile a value with
// the apiserver's own admission compiler (k8s.io/apiserver
// pkg/admission/plugin/cel) in the environment of its field.
//
// A format sees one string, not the policy around it, so the environment is
// the most permissive the policy could give: `params` is declared (as when
// spec.paramKind is set) and `variables` is a map of dyn (the policy's
// variables have their own types in the apiserver, and an expression that
// reads them is not held to its return type here). So kdv reports every
// error the apiserver reports for an expression that neither reads params
// without a paramKind nor misuses a variable's type, and never one it does
// not. The compatibility version is the apiserver library's default (an
// unchanged expression on update is checked in the newer stored-expressions
// environment by the apiserver; kdv ratchets unchanged values).
var admissionFormats = map[string]admissionExpr{
	// Validation.expression: untrimmed, bool.
	"k8s-admission-condition": {returns: []*celgo.Type{celgo.BoolType}, authorizer: true},
	// MatchCondition.expression (webhooks and policies): trimmed, bool.
	"k8s-admission-match-condition": {trim: true, trimValue: true, returns: []*celgo.Type{celgo.BoolType}, authorizer: true},
	// Validation.messageExpression: untrimmed, string, no authorizer.
	"k8s-admission-message-expression": {returns: []*celgo.Type{celgo.StringType}},
	// AuditAnnotation.valueExpression: trimmed, string or null.
	"k8s-admission-audit-expression": {trim: true, returns: []*celgo.Type{celgo.StringType, celgo.NullType}, authorizer: true},
	// Variable.expression: untrimmed, any type.
	"k8s-admission-variable": {returns: []*celgo.Type{celgo.AnyType}, authorizer: true},
}

type admissionExpr struct {
	// trim: the apiserver compiles the trimmed expression; trimValue: and
	// reports it trimmed (match conditions; audit annotations report the
	// value as written).
	trim, trimValue bool
	returns         []*celgo.Type
	authorizer      bool
}

// accessor is a plugincel.ExpressionAccessor.
type accessor struct {
	expr    string
	returns []*celgo.Type
}

func (a accessor) GetExpression() string      { return a.expr }
func (a accessor) ReturnTypes() []*celgo.Type { return a.returns }
func (a admissionExpr) valid(s string) bool   { return a.compileError(s) == nil }
func (a admissionExpr) format() *namedFormat  { return &namedFormat{valid: a.valid, errs: a.errs} }
func (a admissionExpr) errs(p *field.Path, s string) field.ErrorList {
	if err := a.compileError(s); err != nil {
		switch err.Type {
		case apiservercel.ErrorTypeRequired:
			return field.ErrorList{field.Required(p, err.Detail)}
		case apiservercel.ErrorTypeInvalid:
			if a.trimValue {
				s = strings.TrimSpace(s)
			}
			return field.ErrorList{field.Invalid(p, s, err.Detail)}
		default:
			return field.ErrorList{field.InternalError(p, err)}
		}
	}
	return nil
}

// compileError compiles s as its field's expression; nil when it compiles
// or is blank (blank expressions are the overlay's Required rules).
func (a admissionExpr) compileError(s string) *apiservercel.Error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	if a.trim {
		s = strings.TrimSpace(s)
	}
	returns := a.returns
	if strings.Contains(s, "variables") {
		// typed in the apiserver by the policy's variables, dyn here
		returns = []*celgo.Type{celgo.AnyType}
	}
	r := admissionCompiler().CompileCELExpression(accessor{expr: s, returns: returns},
		plugincel.OptionalVariableDeclarations{HasParams: true, HasAuthorizer: a.authorizer}, environment.NewExpressions)
	return r.Error
}

var (
	admissionOnce sync.Once
	admissionComp plugincel.Compiler
)

// admissionCompiler is the apiserver's stateless admission compiler over
// its base environment with `variables` declared as a map of dyn.
func admissionCompiler() plugincel.Compiler {
	admissionOnce.Do(func() {
		base := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
		env, err := base.Extend(environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions:        []celgo.EnvOption{celgo.Variable("variables", celgo.MapType(celgo.StringType, celgo.DynType))},
		})
		if err != nil {
			env = base
		}
		admissionComp = plugincel.NewCompiler(env)
	})
	return admissionComp
}

func init() {
	for name, a := range admissionFormats {
		handWrittenFormats[name] = a.format()
	}
}
