package cel

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"

	"kdv.dev/cel/internal/model"
	"kdv.dev/schema"
	"kdv.dev/value"
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
	// toVal is the value adaptor (nil: values.ToVal, values.ToValBuiltIn
	// for built-in rules).
	toVal toVal
	// guard checks objects (and old objects) against the sizes the fast
	// path's cost bounds assume (see fast.go); nil when self is untyped.
	guard *lazyGuard
	// builder compiles the nodes' rules (nil without rules).
	builder *builder
	// builtIn renders errors in the hand-written form (Options.BuiltIn).
	builtIn bool
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

	rules []schema.ValidationRule
	// compileSchema and declType are the inputs of compiling rules (nil
	// without rules, and once compiled).
	compileSchema *schema.Structural
	declType      *apiservercel.DeclType
	builder       *builder
	// state is the compiled rules, set once by compiledRules.
	state atomic.Pointer[nodeRules]
	once  sync.Once

	isResourceRoot bool
	// skipOnUpdate: x-kubernetes-skip-update-validation, no rule at or
	// below this node is evaluated on update.
	skipOnUpdate bool
	// skipAlways: x-kubernetes-skip-validation, no rule at or below this
	// node is evaluated.
	skipAlways bool
	// fixed: the errors of this node's rules are not ratcheted on update
	// (x-kubernetes-ratcheting false here or inherited, the default of
	// built-in schemas).
	fixed bool
	// ownGuard is set on nodes whose type is not reachable from the root's
	// (properties whose names CEL cannot escape): the fast path checks
	// their values on their own.
	ownGuard *lazyGuard
}

// nodeRules is the outcome of compiling the rules of one node.
type nodeRules struct {
	compiled []compilationResult
	// err is a whole-node compilation failure, reported at evaluation time
	// as "rule compiler initialization error".
	err error
	// usesOldSelf: some rule references oldSelf.
	usesOldSelf bool
	// vacuities indexes the fields the unmetered rules' vacuities test
	// (nil when none or too many; see vacuityIndex).
	vacuities *vacuityIndex
}

// noRules is the state of nodes without rules of their own.
var noRules = &nodeRules{}

// compiledRules returns n's compiled rules, compiling them on first use.
func (n *node) compiledRules() *nodeRules {
	if r := n.state.Load(); r != nil {
		return r
	}
	n.once.Do(func() {
		n.state.Store(n.compile())
		n.compileSchema, n.declType = nil, nil
	})
	return n.state.Load()
}

func (n *node) compile() *nodeRules {
	if len(n.rules) == 0 {
		return noRules
	}
	b := n.builder
	compile := func(fp *[sha256.Size]byte) *nodeRules {
		b.compiles.Add(1)
		compiled, err := compileRules(n.compileSchema, n.declType, b.perCallLimit, b.env, storedExpressions, b.unmetered, b.unmetered && b.lazy, fp)
		if !b.lazy {
			// validators that compile everything up front (schema checks,
			// tests) plan every program now, so planning errors show
			planLazyPrograms(compiled)
		}
		r := &nodeRules{compiled: compiled, err: err}
		if b.unmetered {
			r.vacuities = newVacuityIndex(compiled)
		}
		for _, c := range compiled {
			if c.usesOldSelf {
				r.usesOldSelf = true
				break
			}
		}
		return r
	}
	if b.unmetered {
		return sharedCompile(b.env, b.perCallLimit, n.isResourceRoot, fingerprint(n.compileSchema, n.declType, &b.shapes), compile)
	}
	if compileCache.Load() != nil {
		fp := fingerprint(n.compileSchema, n.declType, &b.shapes)
		return compile(&fp)
	}
	return compile(nil)
}

// NewValidator compiles every x-kubernetes-validations rule of s (root,
// properties, items, additionalProperties and allOf branches, as the
// apiserver) once. With opts.SkipCheck (the validators of objects), each
// schema node's rules are compiled when the node is first evaluated, so
// that building a validator for a kind with many rules does not pay for
// the rules the validated documents never reach; the results are the same
// as compiling all rules up front. isResourceRoot is true for the root of a
// custom resource (self then always has apiVersion, kind, metadata.name and
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
	// CRD checks want every rule compiled (as the apiserver) now; object
	// validators compile on first use
	return newValidator(s, isResourceRoot, opts, opts.SkipCheck), errs
}

// newValidator builds the validator of s, compiling each node's rules on
// first use when lazy, and all of them now otherwise.
func newValidator(s *schema.Structural, isResourceRoot bool, opts Options, lazy bool) *Validator {
	ratcheting := opts.kubernetesMinor() >= 30
	if !hasXValidations(s) {
		return &Validator{schema: &model.Structural{Structural: s}, ratcheting: ratcheting, builtIn: opts.BuiltIn}
	}
	b := &builder{env: envSetFor(opts), perCallLimit: opts.perCallLimit(), lazy: lazy, unmetered: opts.BuiltIn, ratchets: !opts.BuiltIn}
	v := b.validator(s, isResourceRoot, ratcheting)
	v.builtIn = opts.BuiltIn
	return v
}

// validator builds the validator of s, which has rules.
func (b *builder) validator(s *schema.Structural, isResourceRoot, ratcheting bool) *Validator {
	v := &Validator{schema: &model.Structural{Structural: s}, ratcheting: ratcheting}
	rootDecl := model.SchemaDeclType(s, isResourceRoot)
	v.root = b.build(s, s, isResourceRoot, rootDecl)
	v.builder = b
	if rootDecl != nil {
		v.guard = &lazyGuard{decl: rootDecl}
	}
	return v
}

type builder struct {
	env          *environment.EnvSet
	perCallLimit uint64
	// lazy defers compiling a node's rules to its first evaluation.
	lazy bool
	// unmetered evaluates every rule untracked, without cost limits
	// (Options.BuiltIn).
	unmetered bool
	// compiles counts the nodes whose rules were compiled (tests).
	compiles atomic.Int64
	// shapes memoizes the fingerprints of the schema's subtrees.
	shapes shapeMemo
	// ratchets is x-kubernetes-ratcheting of the node being built,
	// inherited from its parents (schema.Structural.Ratchets); built-in
	// schemas start without.
	ratchets bool
}

// build mirrors the apiserver's validator(): validationSchema carries the
// rules (it differs from nodeSchema inside allOf branches), nodeSchema the
// structure.
func (b *builder) build(validationSchema, nodeSchema *schema.Structural, isResourceRoot bool, declType *apiservercel.DeclType) *node {
	defer func(r bool) { b.ratchets = r }(b.ratchets)
	b.ratchets = nodeSchema.Ratchets(b.ratchets)
	n := &node{
		schema:         nodeSchema,
		rules:          validationSchema.XValidations,
		isResourceRoot: isResourceRoot,
		fixed:          !b.ratchets,
	}
	if len(n.rules) > 0 {
		compilationSchema := *nodeSchema
		compilationSchema.XValidations = validationSchema.XValidations
		n.compileSchema, n.declType, n.builder = &compilationSchema, declType, b
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
		ownType := false
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
			ownType = true
		}
		vp, np := vp, np
		if p := b.build(&vp, &np, np.XEmbeddedResource, fieldType); p != nil {
			p.skipOnUpdate = np.SkipsUpdateValidation()
			p.skipAlways = np.SkipsValidation()
			if ownType {
				p.ownGuard = &lazyGuard{decl: fieldType}
			}
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
	// compileRules returns results or an error exactly when there are
	// rules, so pruning needs no compilation
	if len(n.rules) == 0 && n.items == nil && n.additionalProperties == nil && len(n.properties) == 0 && len(n.allOf) == 0 {
		return nil
	}
	if !b.lazy {
		n.compiledRules()
	}
	for k := range n.properties {
		n.propertyNames = append(n.propertyNames, k)
	}
	sort.Strings(n.propertyNames)
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

// ratchet mirrors the apiserver's ratchetingOptions: the correlation of the
// current node (nil when uncorrelatable) and of its nearest correlatable
// ancestor.
type ratchet struct {
	current, nearestParent *common.CorrelatedObject
	// unchanged: a built-in list above is deep-equal to the old one, so
	// everything below ratchets, correlated or not (validateArray)
	unchanged bool
}

func (r ratchet) shouldRatchetError() bool {
	if r.unchanged {
		return true
	}
	if r.current != nil {
		return r.current.CachedDeepEqual()
	}
	return r.nearestParent.CachedDeepEqual()
}

func (r ratchet) key(f string) ratchet {
	if r.current == nil || r.unchanged {
		return r
	} else if r.nearestParent == nil && (f == "apiVersion" || f == "kind") {
		// apiVersion and kind changes cannot be ratcheted: both objects are
		// converted to the same version before validation
		return ratchet{}
	}
	return ratchet{current: r.current.Key(f), nearestParent: r.current}
}

func (r ratchet) index(i int) ratchet {
	if r.current == nil || r.unchanged {
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
	if n == nil || obj == nil || n.skipAlways || n.skipOnUpdate && e.update {
		return nil, remaining
	}
	if e.fast && n.ownGuard != nil && !e.fits(n.ownGuard.get(), obj, oldObj) {
		return e.abandon()
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
	if e.builtIn && e.ratcheting && !n.fixed && oldObj != nil && !r.unchanged && value.Equal(value.Of(obj), value.Of(oldObj)) {
		// A built-in list ratchets as a whole when the update leaves it
		// deep-equal (the hand-written update checks compare with
		// equality.Semantic.DeepEqual; validation-gen skips an unchanged
		// field), even where its items have no list-map keys to correlate
		// them by (validation.node.plainEqual).
		r = ratchet{unchanged: true}
	}
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

// toVal converts unstructured values to CEL values: values.ToVal, which
// is the apiserver's common.UnstructuredToVal with faster field access
// (no regexp unescaping of plain names); tests set the Validator's toVal to
// common.UnstructuredToVal to compare the two on the corpus.
type toVal func(any, common.Schema) ref.Val

// activations builds the activations for the rule variables; optAct binds
// oldSelf as an optional for optionalOldSelf rules.
func (n *node) activations(obj, oldObj any, conv toVal) (act, optAct interpreter.Activation) {
	self := conv(obj, n.activationSchema)
	if !n.compiledRules().usesOldSelf {
		a := &activation{self: self}
		return a, a
	}
	va := &activation{self: self}
	opt := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if oldObj != nil {
		va.oldSelf = conv(oldObj, n.activationSchema)
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

// fieldErrorForReason is the error of a failed CRD rule, as the apiserver
// builds it for the rule's reason (reasonType).
func fieldErrorForReason(fldPath *field.Path, value any, detail string, reason *string) *field.Error {
	switch reasonType(reason, false) {
	case field.ErrorTypeForbidden:
		return field.Forbidden(fldPath, detail)
	case field.ErrorTypeRequired:
		return field.Required(fldPath, detail)
	case field.ErrorTypeDuplicate:
		return field.Duplicate(fldPath, value)
	default:
		return field.Invalid(fldPath, value, detail)
	}
}

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
