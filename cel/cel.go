// Package cel evaluates x-kubernetes-validations rules (CEL) exactly as the
// kube-apiserver does for custom resources: typing of self and oldSelf,
// compilation with static cost estimation and the apiserver's limits,
// evaluation with per-call and per-object cost budgets, messages,
// messageExpression, reason, fieldPath, transition rules, optionalOldSelf and
// ratcheting of unchanged values.
//
// It reuses k8s.io/apiserver/pkg/cel (environment, library, common) so CEL
// functions, types and costs are the apiserver's, and mirrors
// k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel (compilation.go,
// validation.go) and the CEL part of
// pkg/apis/apiextensions/validation (validation.go, cel_validation.go).
//
// Validator.Validate and ValidateWithWarnings track every rule's runtime
// cost, as the apiserver, and return the remaining budget. Callers that only
// need the errors and warnings should use Validator.ValidateObject: it skips
// cost tracking wherever a static bound proves no limit can be hit, falls
// back to tracked evaluation otherwise, and returns the same result (see
// fast.go).
package cel

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

const (
	// ScopedVarName is the CEL variable holding the value a rule applies to.
	ScopedVarName = "self"
	// OldScopedVarName is the CEL variable holding the old value in
	// transition rules.
	OldScopedVarName = "oldSelf"

	// PerCallLimit is the runtime cost limit of one rule evaluation
	// (k8s.io/apiserver/pkg/apis/cel PerCallLimit, about 0.1 s).
	PerCallLimit = celconfig.PerCallLimit
	// RuntimeCELCostBudget is the runtime cost budget for all rules of one
	// custom resource (k8s.io/apiserver/pkg/apis/cel RuntimeCELCostBudget,
	// about 1 s).
	RuntimeCELCostBudget = celconfig.RuntimeCELCostBudget
	// StaticEstimatedCostLimit is the largest allowed estimated cost of one
	// expression times its cardinality, checked on CRD create/update
	// (apiextensions validation.StaticEstimatedCostLimit).
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest allowed sum of estimated
	// costs of all rules of one CRD version schema
	// (apiextensions validation.StaticEstimatedCRDCostLimit).
	StaticEstimatedCRDCostLimit = 100000000
	// MaxEvaluatedMessageExpressionSizeBytes bounds the string a
	// messageExpression may produce.
	MaxEvaluatedMessageExpressionSizeBytes = celconfig.MaxEvaluatedMessageExpressionSizeBytes

	// DefaultKubernetesMinor is the Kubernetes minor version emulated when
	// Options.KubernetesMinor is zero.
	DefaultKubernetesMinor = 37
)

// Options configures compilation.
type Options struct {
	// FieldPath is the path of the schema root used in compile-time errors,
	// e.g. spec.versions[0].schema.openAPIV3Schema; nil gives paths
	// relative to the schema (properties[spec].x-kubernetes-validations[0].rule).
	FieldPath *field.Path
	// KubernetesMinor is the minor version of the emulated kube-apiserver
	// (default DefaultKubernetesMinor). Below 30, CRDValidationRatcheting is
	// off (no ratcheting, optionalOldSelf rules skipped on create, as in
	// 1.28-1.29). Its CEL compatibility version, which
	// decides the libraries available to new expressions, is one minor
	// lower, as the apiserver's DefaultCompatibilityVersion
	// (effective version's MinCompatibilityVersion).
	KubernetesMinor int
	// CompatibilityVersion, when set, overrides the CEL compatibility
	// version derived from KubernetesMinor.
	CompatibilityVersion *version.Version
	// PerCallLimit overrides the runtime per-call cost limit (tests only;
	// zero means PerCallLimit).
	PerCallLimit uint64
	// SkipCheck makes NewValidator skip the CRD-time checks (CheckSchema)
	// when the caller already ran them.
	SkipCheck bool
	// BuiltIn renders rule failures as the hand-written validation of a
	// built-in kind reports them, for the rules kdv's overlay declares in
	// place of k8s.io/kubernetes pkg/apis/*/validation: the bad value is the
	// value at the rule's fieldPath (null when absent), printed as
	// field.Error prints it; reason may also be FieldValueNotFound,
	// FieldValueNotSupported, FieldValueTooLong or FieldValueTooMany; and a
	// message equal to the error type's own wording ("Required value")
	// adds no detail, as most hand-written errors carry none. The rules are
	// evaluated without the CRD cost limits (per-call limit, per-object
	// budget), which hand-written validation does not have either: the
	// built-in rules are kdv's own, written to be at most quadratic in the
	// size of the object, and a value that fails to fit no size estimate
	// (built-in lists have no maxItems) must still be validated. They
	// compile in the base environment extended with kdv's functions for
	// checks no Kubernetes library has (x509.go), and see a string of
	// format "byte" as encoding/json decodes the Go []byte
	// (values.ToValBuiltIn).
	BuiltIn bool
}

func (o Options) kubernetesMinor() int {
	if o.KubernetesMinor == 0 {
		return DefaultKubernetesMinor
	}
	return o.KubernetesMinor
}

// compatibilityVersion returns the CEL environment compatibility version.
func (o Options) compatibilityVersion() *version.Version {
	if o.CompatibilityVersion != nil {
		return version.MajorMinor(o.CompatibilityVersion.Major(), o.CompatibilityVersion.Minor())
	}
	minor := o.kubernetesMinor()
	if o.BuiltIn {
		// Built-in rules are kdv's rendering of hand-written Go, which no
		// CEL environment limits: they compile in the newest environment
		// whatever release is emulated (1.30's lacks the format library
		// and cidr(), which they use).
		minor = DefaultKubernetesMinor
	}
	if minor > 0 {
		minor--
	}
	return version.MajorMinor(1, uint(minor))
}

func (o Options) perCallLimit() uint64 {
	if o.PerCallLimit == 0 {
		return PerCallLimit
	}
	return o.PerCallLimit
}

// BlockingError returns the apiserver's note error when errs (the value
// validation errors of an object) contain an error that blocks CEL
// evaluation — NotSupported, Required, TooLong, TooMany or TypeInvalid — and
// nil otherwise. The apiserver then skips all x-kubernetes-validations rules
// and appends this error instead (pkg/registry/customresource/strategy.go
// hasBlockingErr).
func BlockingError(errs field.ErrorList) *field.Error {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}
