package cel

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"kdv.dev/cel/internal/model"
	"kdv.dev/schema"
)

// CheckSchema returns the CEL errors the apiserver reports for a CRD version
// schema s on create, with paths below fldPath (the openAPIV3Schema path,
// e.g. spec.versions[0].schema.openAPIV3Schema): rule and messageExpression
// compile errors, "cel expression must evaluate to a bool", estimated cost
// over StaticEstimatedCostLimit per expression (times the cardinality of
// enclosing lists and maps), oldSelf on uncorrelatable parts (below lists
// that are not list-type map), optionalOldSelf without oldSelf, and the
// total over StaticEstimatedCRDCostLimit. New expressions are compiled
// against the NewExpressions environment at the options' compatibility
// version. Rules inside allOf/anyOf/oneOf/not are not compiled, as in the
// apiserver (they are not structural anyway). The per-rule checks that are
// not CEL (rule not specified, message, reason, fieldPath) belong to
// schema.Check; a node with such an error is not compiled, as in the
// apiserver. It mirrors the CEL part of ValidateCustomResourceDefinitionOpenAPISchema and
// validateCustomResourceDefinitionValidation (apiextensions validation.go,
// cel_validation.go).
func CheckSchema(s *schema.Structural, fldPath *field.Path, opts Options) field.ErrorList {
	if s == nil || !hasXValidations(s) {
		return nil
	}
	one := uint64(1)
	c := &crdChecker{env: envSetFor(opts), perCallLimit: opts.perCallLimit()}
	root := &checkContext{
		schema:         s,
		withinScope:    len(s.XValidations) > 0,
		maxCardinality: &one,
	}
	errs, _ := c.check(s, fldPath, root, nil)
	if c.total > StaticEstimatedCRDCostLimit {
		for _, expensive := range c.mostExpensive {
			errs = append(errs, field.Forbidden(expensive.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, field.Forbidden(fldPath, getCostErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.total, StaticEstimatedCRDCostLimit)))
	}
	return errs
}

type crdChecker struct {
	env           *environment.EnvSet
	perCallLimit  uint64
	total         uint64
	mostExpensive []ruleCost
}

type ruleCost struct {
	path *field.Path
	cost uint64
}

// observe adds an expression's cost to the CRD total, remembering the four
// most expensive ones above 1% of the limit (apiserver TotalCost).
func (c *crdChecker) observe(path *field.Path, cost uint64) {
	if math.MaxUint64-c.total < cost {
		c.total = math.MaxUint64
	} else {
		c.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.mostExpensive = append(c.mostExpensive, ruleCost{path: path, cost: cost})
	sort.SliceStable(c.mostExpensive, func(i, j int) bool { return c.mostExpensive[i].cost > c.mostExpensive[j].cost })
	if len(c.mostExpensive) > 4 {
		c.mostExpensive = c.mostExpensive[:4]
	}
}

// checkContext mirrors the apiserver's CELSchemaContext: the type of the
// node (computed lazily, from the parent's when possible) and the worst-case
// number of times the node can occur (nil: unbounded).
type checkContext struct {
	parent      *checkContext
	schema      *schema.Structural
	withinScope bool
	// access derives this node's type info from the parent's.
	access func(parent *typeInfo) *typeInfo

	info    *typeInfo
	infoErr error
	done    bool

	maxCardinality *uint64
}

type typeInfo struct {
	schema   *schema.Structural
	declType *apiservercel.DeclType
}

func (c *checkContext) typeInfo() (*typeInfo, error) {
	if c == nil || !c.withinScope {
		return nil, nil
	}
	if c.done {
		return c.info, c.infoErr
	}
	c.done = true
	if c.parent != nil {
		pi, err := c.parent.typeInfo()
		if err != nil {
			c.infoErr = err
			return nil, err
		}
		if pi != nil && c.access != nil {
			if c.info = c.access(pi); c.info != nil {
				return c.info, nil
			}
		}
	}
	dt := model.SchemaDeclType(c.schema, c.parent == nil || c.schema.XEmbeddedResource)
	if dt == nil {
		c.infoErr = fmt.Errorf("unable to convert structural schema to CEL declarations")
		return nil, c.infoErr
	}
	c.info = &typeInfo{schema: c.schema, declType: dt}
	return c.info, nil
}

func (c *checkContext) child(s *schema.Structural, access func(*typeInfo) *typeInfo) *checkContext {
	if c == nil {
		return nil
	}
	r := &checkContext{parent: c, schema: s, access: access, withinScope: c.withinScope || len(s.XValidations) > 0}
	if c.maxCardinality == nil {
		return r
	}
	maxElements := extractMaxElements(c.schema)
	if maxElements == nil {
		return r
	}
	m := multiplyWithOverflowGuard(*c.maxCardinality, *maxElements)
	r.maxCardinality = &m
	return r
}

func extractMaxElements(s *schema.Structural) *uint64 {
	var vv schema.ValueValidation
	if s.ValueValidation != nil {
		vv = *s.ValueValidation
	}
	one := uint64(1)
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil {
			if vv.MaxProperties != nil {
				m := uint64(max(*vv.MaxProperties, 0))
				return &m
			}
			return nil
		}
		return &one
	case "array":
		if vv.MaxItems != nil {
			m := uint64(max(*vv.MaxItems, 0))
			return &m
		}
		return nil
	}
	return &one
}

func multiplyWithOverflowGuard(baseCost, cardinality uint64) uint64 {
	if baseCost == 0 {
		return 0
	} else if math.MaxUint/baseCost < cardinality {
		return math.MaxUint
	}
	return baseCost * cardinality
}

func getCostErrorMessage(costName string, expressionCost, costLimit uint64) string {
	exceedFactor := float64(expressionCost) / float64(costLimit)
	var factor string
	switch {
	case exceedFactor > 100.0:
		factor = "more than 100x"
	case exceedFactor < 1.5:
		factor = fmt.Sprintf("%fx", exceedFactor)
	default:
		factor = fmt.Sprintf("%.1fx", exceedFactor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", costName, factor)
}

// check walks s like ValidateCustomResourceDefinitionOpenAPISchema
// (additionalProperties, properties, items, then the node's own rules) and
// returns the CEL errors and whether a non-CEL rule error was found at this
// level or deeper (which suppresses compilation, as the apiserver's
// SchemaErrors do). forbidOldSelf is the path of the nearest uncorrelatable
// ancestor.
func (c *crdChecker) check(s *schema.Structural, fldPath *field.Path, ctx *checkContext, forbidOldSelf *field.Path) (errs field.ErrorList, schemaErr bool) {
	if s == nil {
		return nil, false
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		ap := s.AdditionalProperties.Structural
		e, se := c.check(ap, fldPath.Child("additionalProperties"), ctx.child(ap, func(p *typeInfo) *typeInfo {
			if p.schema.AdditionalProperties != nil {
				return &typeInfo{schema: p.schema.AdditionalProperties.Structural, declType: p.declType.ElemType}
			}
			return nil
		}), forbidOldSelf)
		errs, schemaErr = append(errs, e...), schemaErr || se
	}
	if len(s.Properties) > 0 {
		names := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			names = append(names, k)
		}
		sort.Strings(names)
		sub := forbidOldSelf
		if !MapIsCorrelatable(s.XMapType) && sub == nil {
			sub = fldPath
		}
		for _, name := range names {
			prop := s.Properties[name]
			e, se := c.check(&prop, fldPath.Child("properties").Key(name), ctx.child(&prop, propertyAccessor(name)), sub)
			errs, schemaErr = append(errs, e...), schemaErr || se
		}
	}
	if s.Items != nil {
		sub := forbidOldSelf
		if (s.XListType == nil || *s.XListType != "map") && sub == nil {
			sub = fldPath
		}
		e, se := c.check(s.Items, fldPath.Child("items"), ctx.child(s.Items, func(p *typeInfo) *typeInfo {
			if p.schema.Items != nil {
				return &typeInfo{schema: p.schema.Items, declType: p.declType.ElemType}
			}
			return nil
		}), sub)
		errs, schemaErr = append(errs, e...), schemaErr || se
	}
	if nodeSchemaErrors(s) {
		schemaErr = true
	}
	if len(s.XValidations) == 0 {
		return errs, schemaErr
	}
	if ruleSchemaErrors(s) {
		schemaErr = true
	}
	if schemaErr || ctx == nil {
		return errs, schemaErr
	}
	return append(errs, c.compileNode(s, fldPath, ctx, forbidOldSelf)...), false
}

func propertyAccessor(name string) func(*typeInfo) *typeInfo {
	return func(p *typeInfo) *typeInfo {
		if p.schema.Properties == nil {
			return nil
		}
		prop := p.schema.Properties[name]
		if escaped, ok := apiservercel.Escape(name); ok {
			if f, ok := p.declType.Fields[escaped]; ok {
				return &typeInfo{schema: &prop, declType: f.Type}
			}
		}
		return nil
	}
}

func (c *crdChecker) compileNode(s *schema.Structural, fldPath *field.Path, ctx *checkContext, forbidOldSelf *field.Path) field.ErrorList {
	var errs field.ErrorList
	vpath := fldPath.Child("x-kubernetes-validations")
	info, err := ctx.typeInfo()
	if err != nil {
		return field.ErrorList{field.InternalError(vpath, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err))}
	} else if info == nil {
		return field.ErrorList{field.InternalError(vpath, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations"))}
	}
	results, err := compileRules(info.schema, info.declType, c.perCallLimit, c.env, newExpressions, false, false, nil)
	if err != nil {
		return field.ErrorList{field.InternalError(vpath, err)}
	}
	for i, cr := range results {
		rulePath := vpath.Index(i).Child("rule")
		cost := expressionCost(cr, ctx)
		if cost > StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(rulePath, getCostErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
		}
		c.observe(rulePath, cost)
		if cr.err != nil {
			if cr.err.Type == apiservercel.ErrorTypeRequired {
				errs = append(errs, field.Required(rulePath, cr.err.Detail))
			} else {
				errs = append(errs, field.Invalid(rulePath, internalRule(s.XValidations[i]), cr.err.Detail))
			}
		}
		msgPath := vpath.Index(i).Child("messageExpression")
		if cr.messageExpressionErr != nil {
			errs = append(errs, field.Invalid(msgPath, internalRule(s.XValidations[i]), cr.messageExpressionErr.Detail))
		} else if cr.messageExpression != nil {
			if cr.messageExpressionMaxCost > StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(msgPath, getCostErrorMessage("estimated messageExpression cost", cr.messageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			c.observe(msgPath, cr.messageExpressionMaxCost)
		}
		if cr.usesOldSelf {
			if forbidOldSelf != nil {
				errs = append(errs, field.Invalid(rulePath, s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", forbidOldSelf)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			errs = append(errs, field.Invalid(vpath.Index(i).Child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return errs
}

func expressionCost(cr compilationResult, ctx *checkContext) uint64 {
	if ctx.maxCardinality != nil {
		return multiplyWithOverflowGuard(cr.maxCost, *ctx.maxCardinality)
	}
	return multiplyWithOverflowGuard(cr.maxCost, cr.maxCardinality)
}

// nodeSchemaErrors reports whether s itself has one of the apiserver's
// per-node schema errors (reported by schema.Check) that do not concern its
// rules: additionalProperties next to properties, uniqueItems. Like every
// SchemaError of ValidateCustomResourceDefinitionOpenAPISchema, they
// suppress compiling the rules of this node and of its ancestors, and so
// keep those rules out of the CRD's estimated cost total.
func nodeSchemaErrors(s *schema.Structural) bool {
	if ap := s.AdditionalProperties; ap != nil && len(s.Properties) != 0 && (!ap.Bool || ap.Structural != nil) {
		return true
	}
	return s.ValueValidation != nil && s.ValueValidation.UniqueItems
}

// ruleSchemaErrors reports whether a rule of s has one of the non-CEL
// errors of the apiserver's x-kubernetes-validations checks (reported by
// schema.Check), which suppress compilation of the node's rules.
func ruleSchemaErrors(s *schema.Structural) bool {
	for _, r := range s.XValidations {
		trimmedRule := strings.TrimSpace(r.Rule)
		trimmedMsg := strings.TrimSpace(r.Message)
		switch {
		case len(trimmedRule) == 0,
			len(r.Message) > 0 && len(trimmedMsg) == 0,
			crlf(trimmedMsg),
			crlf(trimmedRule) && len(trimmedMsg) == 0,
			len(r.MessageExpression) > 0 && len(strings.TrimSpace(r.MessageExpression)) == 0,
			r.Reason != nil && !supportedReasons[*r.Reason],
			len(r.FieldPath) > 0 && len(strings.TrimSpace(r.FieldPath)) == 0,
			crlf(r.FieldPath):
			return true
		}
		if len(r.FieldPath) > 0 {
			if _, _, err := ValidFieldPath(r.FieldPath, s); err != nil {
				return true
			}
		}
	}
	return false
}

var supportedReasons = map[string]bool{"FieldValueInvalid": true, "FieldValueForbidden": true, "FieldValueRequired": true, "FieldValueDuplicate": true}

func crlf(s string) bool { return strings.ContainsAny(s, "\n\r") }

// internalValidationRule has the shape of the apiserver's internal
// apiextensions.ValidationRule, which has no JSON tags: the apiserver puts
// it as the bad value of compile errors, so messages print it as
// {"Rule":"...","Message":"",...}.
type internalValidationRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

func internalRule(r schema.ValidationRule) internalValidationRule {
	return internalValidationRule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, Reason: r.Reason, FieldPath: r.FieldPath, OptionalOldSelf: r.OptionalOldSelf}
}
