package cel

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/warning"

	"kdv.dev/cel/internal/model"
	"kdv.dev/schema"
)

// Validator holds the compiled x-kubernetes-validations programs of a
// structural schema, in a tree parallel to the schema that only contains
// nodes with rules below them. It is safe for concurrent use. It mirrors
// the apiserver's cel.Validator (schema/cel/validation.go).
type Validator struct {
	root *node
	// schema is the root schema, for correlating old and new objects.
	schema *model.Structural
	// ratcheting is the CRDValidationRatcheting feature gate of the
	// emulated apiserver: beta and on by default since 1.30 (GA 1.33).
	ratcheting bool
}

type node struct {
	items                *node
	properties           map[string]*node
	propertyNames        []string // sorted keys of properties
	allOf                []*node
	additionalProperties *node

	schema *schema.Structural
	// adaptor is schema as a common.Schema (for map-list correlation).
	adaptor common.Schema
	// activationSchema is schema, with apiVersion, kind and metadata
	// ensured at resource roots, used to convert values.
	activationSchema common.Schema

	rules    []schema.ValidationRule
	compiled []compilationResult
	// compileErr is a whole-node compilation failure, reported at
	// evaluation time as "rule compiler initialization error".
	compileErr error

	isResourceRoot bool
	usesOldSelf    bool
}

// NewValidator compiles every x-kubernetes-validations rule of s (root,
// properties, items, additionalProperties and allOf branches, as the
// apiserver) once. isResourceRoot is true for the root of a custom resource
// (self then always has apiVersion, kind, metadata.name and
// metadata.generateName). Unless opts.SkipCheck, it also returns the
// CRD-time errors of CheckSchema (compile errors, cost limits, oldSelf
// misuse) with paths below opts.FieldPath; the validator is usable even then
// and reports broken rules at evaluation time as the apiserver would
// ("rule compile error: ..."). It mirrors the apiserver's cel.NewValidator.
func NewValidator(s *schema.Structural, isResourceRoot bool, opts Options) (*Validator, field.ErrorList) {
	var errs field.ErrorList
	if !opts.SkipCheck {
		errs = CheckSchema(s, opts.FieldPath, opts)
	}
	v := &Validator{schema: &model.Structural{Structural: s}, ratcheting: opts.kubernetesMinor() >= 30}
	if !hasXValidations(s) {
		return v, errs
	}
	b := builder{env: baseEnvSet(opts.compatibilityVersion()), perCallLimit: opts.perCallLimit()}
	v.root = b.build(s, s, isResourceRoot, model.SchemaDeclType(s, isResourceRoot))
	return v, errs
}

type builder struct {
	env          *environment.EnvSet
	perCallLimit uint64
}

// build mirrors the apiserver's validator(): validationSchema carries the
// rules (it differs from nodeSchema inside allOf branches), nodeSchema the
// structure.
func (b *builder) build(validationSchema, nodeSchema *schema.Structural, isResourceRoot bool, declType *apiservercel.DeclType) *node {
	compilationSchema := *nodeSchema
	compilationSchema.XValidations = validationSchema.XValidations
	compiled, err := compileRules(&compilationSchema, declType, b.perCallLimit, b.env, storedExpressions)

	n := &node{
		schema:         nodeSchema,
		rules:          validationSchema.XValidations,
		compiled:       compiled,
		compileErr:     err,
		isResourceRoot: isResourceRoot,
	}
	var elemType *apiservercel.DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	if validationSchema.Items != nil && nodeSchema.Items != nil {
		n.items = b.build(validationSchema.Items, nodeSchema.Items, nodeSchema.Items.XEmbeddedResource, elemType)
	}
	for k, vp := range validationSchema.Properties {
		np, ok := nodeSchema.Properties[k]
		if !ok {
			continue // only the structural spine can hold rules
		}
		var fieldType *apiservercel.DeclType
		if escaped, ok := apiservercel.Escape(k); ok {
			if declType == nil {
				continue
			}
			f, ok := declType.Fields[escaped]
			if !ok {
				continue // fields with unknown types are omitted from CEL validation
			}
			fieldType = f.Type
		} else {
			// unescapable names are absent from declType; type the value on its own
			if fieldType = model.SchemaDeclType(&np, np.XEmbeddedResource); fieldType == nil {
				continue
			}
		}
		vp, np := vp, np
		if p := b.build(&vp, &np, np.XEmbeddedResource, fieldType); p != nil {
			if n.properties == nil {
				n.properties = map[string]*node{}
			}
			n.properties[k] = p
		}
	}
	if validationSchema.AdditionalProperties != nil && validationSchema.AdditionalProperties.Structural != nil &&
		nodeSchema.AdditionalProperties != nil && nodeSchema.AdditionalProperties.Structural != nil {
		ap := nodeSchema.AdditionalProperties.Structural
		n.additionalProperties = b.build(validationSchema.AdditionalProperties.Structural, ap, ap.XEmbeddedResource, elemType)
	}
	if validationSchema.ValueValidation != nil {
		for i := range validationSchema.ValueValidation.AllOf {
			if a := b.build(model.NestedToStructural(&validationSchema.ValueValidation.AllOf[i]), nodeSchema, isResourceRoot, declType); a != nil {
				n.allOf = append(n.allOf, a)
			}
		}
	}
	if len(compiled) == 0 && err == nil && n.items == nil && n.additionalProperties == nil && len(n.properties) == 0 && len(n.allOf) == 0 {
		return nil
	}
	for k := range n.properties {
		n.propertyNames = append(n.propertyNames, k)
	}
	sort.Strings(n.propertyNames)
	for _, c := range compiled {
		if c.usesOldSelf {
			n.usesOldSelf = true
			break
		}
	}
	as := nodeSchema
	if isResourceRoot {
		as = model.WithTypeAndObjectMeta(nodeSchema)
	}
	n.adaptor = &model.Structural{Structural: nodeSchema}
	n.activationSchema = n.adaptor
	if as != nodeSchema {
		n.activationSchema = &model.Structural{Structural: as}
	}
	return n
}

func hasXValidations(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasXValidations(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasXValidations(s.AdditionalProperties.Structural) {
		return true
	}
	for _, p := range s.Properties {
		if hasXValidations(&p) {
			return true
		}
	}
	return false
}

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
func (v *Validator) Validate(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (field.ErrorList, int64) {
	errs, _, rem := v.ValidateWithWarnings(ctx, fldPath, obj, oldObj, costBudget)
	return errs, rem
}

// ValidateWithWarnings is Validate that also returns the ratcheted errors as
// warnings (the apiserver sends them as HTTP warnings, formatted with
// field.Error.Error()).
func (v *Validator) ValidateWithWarnings(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64) (errs field.ErrorList, warnings []string, remainingBudget int64) {
	if v == nil || v.root == nil {
		return nil, nil, costBudget
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var r ratchet
	if v.ratcheting && oldObj != nil && !isNilValue(oldObj) {
		r.current = common.NewCorrelatedObject(obj, oldObj, v.schema)
	}
	e := evaluation{ctx: ctx, ratcheting: v.ratcheting}
	errs, remainingBudget = e.validate(v.root, fldPath, obj, oldObj, r, costBudget)
	return errs, e.warnings, remainingBudget
}

// ValidateAfter composes CEL with the value validation errors prior the way
// the apiserver's custom resource strategy does: when prior contains a
// blocking error (see BlockingError) the rules are skipped and the note
// error is returned; otherwise the rules' errors are returned, evaluated with
// RuntimeCELCostBudget.
func (v *Validator) ValidateAfter(ctx context.Context, obj, oldObj any, prior field.ErrorList) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	if e := BlockingError(prior); e != nil {
		return field.ErrorList{e}
	}
	errs, _ := v.Validate(ctx, nil, obj, oldObj, RuntimeCELCostBudget)
	return errs
}

// evaluation is the state of one Validate call.
type evaluation struct {
	ctx        context.Context
	ratcheting bool
	warnings   []string
}

// ratchet mirrors the apiserver's ratchetingOptions: the correlation of the
// current node (nil when uncorrelatable) and of its nearest correlatable
// ancestor.
type ratchet struct {
	current, nearestParent *common.CorrelatedObject
}

func (r ratchet) shouldRatchetError() bool {
	if r.current != nil {
		return r.current.CachedDeepEqual()
	}
	return r.nearestParent.CachedDeepEqual()
}

func (r ratchet) key(f string) ratchet {
	if r.current == nil {
		return r
	} else if r.nearestParent == nil && (f == "apiVersion" || f == "kind") {
		// apiVersion and kind changes cannot be ratcheted: both objects are
		// converted to the same version before validation
		return ratchet{}
	}
	return ratchet{current: r.current.Key(f), nearestParent: r.current}
}

func (r ratchet) index(i int) ratchet {
	if r.current == nil {
		return r
	}
	return ratchet{current: r.current.Index(i), nearestParent: r.current}
}

func isNilValue(x any) bool {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return v.IsNil()
	}
	return false
}

func (e *evaluation) validate(n *node, fldPath *field.Path, obj, oldObj any, r ratchet, budget int64) (errs field.ErrorList, remaining int64) {
	remaining = budget
	if n == nil || obj == nil {
		return nil, remaining
	}
	errs, remaining = e.validateExpressions(n, fldPath, obj, oldObj, r, remaining)
	if remaining < 0 {
		return errs, remaining
	}
	for _, a := range n.allOf {
		var aerrs field.ErrorList
		// allOf errors are not ratcheted, as in schema validation
		aerrs, remaining = e.validate(a, fldPath, obj, oldObj, ratchet{nearestParent: r.nearestParent}, remaining)
		errs = append(errs, aerrs...)
		if remaining < 0 {
			return errs, remaining
		}
	}
	switch obj := obj.(type) {
	case []any:
		oldArray, _ := oldObj.([]any)
		var aerrs field.ErrorList
		aerrs, remaining = e.validateArray(n, fldPath, obj, oldArray, r, remaining)
		return append(errs, aerrs...), remaining
	case map[string]any:
		oldMap, _ := oldObj.(map[string]any)
		var merrs field.ErrorList
		merrs, remaining = e.validateMap(n, fldPath, obj, oldMap, r, remaining)
		return append(errs, merrs...), remaining
	}
	return errs, remaining
}

// validateMap visits the entries of obj that have validators. The
// apiserver ranges over the Go map (random order); kdv visits keys in
// sorted order so that output, and where the budget runs out, are
// deterministic.
func (e *evaluation) validateMap(n *node, fldPath *field.Path, obj, oldObj map[string]any, r ratchet, budget int64) (errs field.ErrorList, remaining int64) {
	remaining = budget
	if remaining < 0 || obj == nil {
		return nil, remaining
	}
	correlatable := MapIsCorrelatable(n.schema.XMapType)
	if n.additionalProperties != nil {
		for _, k := range sortedKeys(obj) {
			var oldV any
			if correlatable {
				oldV = oldObj[k]
			}
			var kerrs field.ErrorList
			kerrs, remaining = e.validate(n.additionalProperties, fldPath.Key(k), obj[k], oldV, r.key(k), remaining)
			errs = append(errs, kerrs...)
			if remaining < 0 {
				return errs, remaining
			}
		}
	}
	for _, k := range n.propertyNames {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var oldV any
		if correlatable {
			oldV = oldObj[k]
		}
		var kerrs field.ErrorList
		kerrs, remaining = e.validate(n.properties[k], fldPath.Child(k), v, oldV, r.key(k), remaining)
		errs = append(errs, kerrs...)
		if remaining < 0 {
			return errs, remaining
		}
	}
	return errs, remaining
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (e *evaluation) validateArray(n *node, fldPath *field.Path, obj, oldObj []any, r ratchet, budget int64) (errs field.ErrorList, remaining int64) {
	remaining = budget
	if remaining < 0 || n.items == nil {
		return nil, remaining
	}
	// only map lists correlate items with old items; for other lists
	// MakeMapList returns a list whose Get always returns nil
	oldItems := common.MakeMapList(n.adaptor, oldObj)
	for i := range obj {
		var ierrs field.ErrorList
		ierrs, remaining = e.validate(n.items, fldPath.Index(i), obj[i], oldItems.Get(obj[i]), r.index(i), remaining)
		errs = append(errs, ierrs...)
		if remaining < 0 {
			return errs, remaining
		}
	}
	return errs, remaining
}

// MapIsCorrelatable reports whether map entries correlate with the old
// map's entries by key: x-kubernetes-map-type unset, granular or atomic.
func MapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

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
	if n.compileErr != nil {
		return field.ErrorList{field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compiler initialization error: %v", n.compileErr))}, remaining
	}
	if len(n.compiled) == 0 {
		return nil, remaining
	}
	if remaining <= 0 {
		return field.ErrorList{field.Invalid(fldPath, sts.Type, "validation failed due to running out of cost budget, no further validation rules will be run")}, -1
	}
	act, optAct := n.activations(obj, oldObj)
	for i, compiled := range n.compiled {
		rule := n.rules[i]
		if compiled.err != nil {
			errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compile error: %v", compiled.err)))
			continue
		}
		if compiled.program == nil {
			continue // empty rule
		}
		optionalOldSelf := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if compiled.usesOldSelf && oldObj == nil && (!optionalOldSelf || !e.ratcheting) {
			// transition rules need a correlated old value, unless
			// optionalOldSelf (which needs CRDValidationRatcheting)
			continue
		}
		ruleAct := act
		if optionalOldSelf {
			ruleAct = optAct
		}
		evalResult, evalDetails, err := compiled.program.ContextEval(e.ctx, ruleAct)
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
			errs = append(errs, field.Invalid(fldPath, sts.Type, "validation failed due to running out of cost budget, no further validation rules will be run"))
			return errs, -1
		}
		remaining -= int64(*rtCost)
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
		addErr := func(fe *field.Error) {
			if e.ratcheting && !compiled.usesOldSelf && r.shouldRatchetError() {
				e.warnings = append(e.warnings, fe.Error())
				// also to a recorder in ctx, as the apiserver does
				warning.AddWarning(e.ctx, "", fe.Error())
			} else {
				errs = append(errs, fe)
			}
		}
		detail, ok := "", false
		if compiled.messageExpression != nil {
			msg, newRemaining, msgErr := evalMessageExpression(e.ctx, compiled.messageExpression, rule.MessageExpression, ruleAct, remaining)
			switch {
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
		var value any = obj
		if sts.Type == "object" || sts.Type == "array" {
			value = field.OmitValueType{}
		}
		addErr(fieldErrorForReason(curPath, value, detail, rule.Reason))
	}
	return errs, remaining
}

// activations builds the activations for the rule variables; optAct binds
// oldSelf as an optional for optionalOldSelf rules.
func (n *node) activations(obj, oldObj any) (act, optAct interpreter.Activation) {
	self := common.UnstructuredToVal(obj, n.activationSchema)
	if !n.usesOldSelf {
		a := &activation{self: self}
		return a, a
	}
	va := &activation{self: self}
	opt := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if oldObj != nil {
		va.oldSelf = common.UnstructuredToVal(oldObj, n.activationSchema)
		va.hasOldSelf = true
		opt.oldSelf = types.OptionalOf(va.oldSelf)
	}
	return va, opt
}

type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func fieldErrorForReason(fldPath *field.Path, value any, detail string, reason *string) *field.Error {
	if reason == nil {
		return field.Invalid(fldPath, value, detail)
	}
	switch *reason {
	case "FieldValueForbidden":
		return field.Forbidden(fldPath, detail)
	case "FieldValueRequired":
		return field.Required(fldPath, detail)
	case "FieldValueDuplicate":
		return field.Duplicate(fldPath, value)
	default:
		return field.Invalid(fldPath, value, detail)
	}
}

// evalMessageExpression mirrors the apiserver's: the trimmed message and the
// remaining budget, or an error typed Internal/Invalid (stop evaluating) or
// untyped (fall back to message).
func evalMessageExpression(ctx context.Context, expr celgo.Program, src string, act interpreter.Activation, remaining int64) (string, int64, *apiservercel.Error) {
	evalResult, evalDetails, err := expr.ContextEval(ctx, act)
	if evalDetails == nil {
		return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	rtCost := evalDetails.ActualCost()
	if rtCost == nil {
		return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	} else if *rtCost > math.MaxInt64 || int64(*rtCost) > remaining {
		return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src)}
		}
		return "", remaining - int64(*rtCost), &apiservercel.Error{Detail: fmt.Sprintf("messageExpression evaluation failed due to: %v", err.Error())}
	}
	msg, ok := evalResult.Value().(string)
	if !ok {
		return "", remaining - int64(*rtCost), &apiservercel.Error{Detail: "messageExpression failed to convert to string"}
	}
	trimmed := strings.TrimSpace(msg)
	switch {
	case len(trimmed) > celconfig.MaxEvaluatedMessageExpressionSizeBytes:
		return "", remaining - int64(*rtCost), &apiservercel.Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", celconfig.MaxEvaluatedMessageExpressionSizeBytes)}
	case hasNewlines(trimmed):
		return "", remaining - int64(*rtCost), &apiservercel.Error{Detail: "messageExpression should not contain line breaks"}
	case len(trimmed) == 0:
		return "", remaining - int64(*rtCost), &apiservercel.Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return trimmed, remaining - int64(*rtCost), nil
}

var newlineMatcher = regexp.MustCompile(`[\n]+`)

func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }

func ruleMessageOrDefault(rule schema.ValidationRule) string {
	if len(rule.Message) == 0 {
		return fmt.Sprintf("failed rule: %s", ruleErrorString(rule))
	}
	return strings.TrimSpace(rule.Message)
}

func ruleErrorString(rule schema.ValidationRule) string {
	if len(rule.Message) > 0 {
		return strings.TrimSpace(rule.Message)
	}
	return strings.TrimSpace(rule.Rule)
}
