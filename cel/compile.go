package cel

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"

	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"kdv.dev/schema"
)

// compilationResult is the outcome of compiling one rule, as the
// apiserver's cel.CompilationResult (schema/cel/compilation.go):
// non-nil program and nil error on success; nil program and non-nil error
// on failure; both nil for an empty rule.
type compilationResult struct {
	program     celgo.Program
	err         *apiservercel.Error
	usesOldSelf bool
	// maxCost is the estimated worst-case cost of one evaluation.
	maxCost uint64
	// maxCardinality is the worst-case number of evaluations under
	// unbounded lists/maps (MaxRequestSizeBytes / (minSerializedSize+1)).
	maxCardinality uint64

	messageExpression        celgo.Program
	messageExpressionErr     *apiservercel.Error
	messageExpressionMaxCost uint64
	// normalizedFieldPath is the rule's fieldPath as a field.Path string
	// (e.g. "spec.foo[bar]"), empty when unset or invalid.
	normalizedFieldPath string
	// fieldPathSteps are the property names and map keys of fieldPath
	// (to report the value there in the hand-written form, Options.BuiltIn).
	fieldPathSteps []string
	// absent is the value the hand-written code sees at fieldPath when the
	// field is missing (see absentValue); nil when it prints null.
	absent any
	// omitValue is a built-in rule whose fieldPath's value path is "-":
	// its error carries no value (field.OmitValueType{}).
	omitValue bool
	// target is the schema node at fieldPath (the rule's own node without
	// one): a hand-written error prints a struct value there in its
	// internal Go form (schema.GoValue).
	target *schema.Structural
	// diff, of a built-in rule with x-kubernetes-diff, appends the diff
	// of the old and new values to the message (diff.go).
	diff *ruleDiff
	// literal: the fieldPath's value path is a quoted string ("'' as .x",
	// "'some-key' as .x"): the bad value is that string wherever the rule
	// reports; nil otherwise.
	literal *string

	// vacuity, for unmetered rules, skips the rule on objects that leave
	// out every field it reads (see vacuous.go); nil when not analyzable.
	vacuity *vacuity
	// each is the wildcard fieldPath of an unmetered rule (each.go).
	each *eachPath
	// prover, for unmetered rules, shows most passing evaluations true
	// without CEL (see prove.go).
	prover prover

	// fast plans the untracked program of the rule and its
	// messageExpression on first use (see fast.go); nil when program is nil.
	fast *fastPlan

	// deferred, for a built-in rule read from the compile cache, compiles
	// the rule on its first evaluation that vacuity does not skip (see
	// deferred.go); only usesOldSelf and vacuity are set beside it.
	deferred *deferredRule
}

// envKind selects the apiserver's NewExpressions environment (CRD
// create/update checks of new expressions) or StoredExpressions environment
// (evaluation of persisted rules).
type envKind int

const (
	storedExpressions envKind = iota
	newExpressions
)

// selfTypeName is the CEL type name of self (see compileRules).
const selfTypeName = "selfType0"

// compileRules compiles s.XValidations against declType, mirroring the
// apiserver's cel.Compile. perCallLimit is the runtime per-call cost limit.
// fp is s's fingerprint (share.go) when the caller has it, else nil.
func compileRules(s *schema.Structural, declType *apiservercel.DeclType, perCallLimit uint64, base *environment.EnvSet, kind envKind, unmetered, deferCached bool, fp *[sha256.Size]byte) ([]compilationResult, error) {
	if len(s.XValidations) == 0 {
		return nil, nil
	}
	if declType == nil {
		return nil, errFailedDeclType
	}
	// The apiserver names the self type "selfType<nanoseconds>" so authors
	// cannot depend on it; kdv uses a fixed name so messages that print the
	// type are deterministic.
	scopedType := declType.MaybeAssignTypeName(selfTypeName)
	envs := &ruleEnvs{base: base, kind: kind, scopedType: scopedType}
	estimator := &library.CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	maxCard := maxCardinality(declType.MinSerializedSize)
	store := openStore(base, kind, s, declType, fp)
	defer store.save()
	rules := s.XValidations
	ruleEnv := make([]*celgo.Env, len(rules))
	for i, rule := range rules {
		env, err := envs.get(rule.OptionalOldSelf != nil && *rule.OptionalOldSelf)
		if err != nil {
			return nil, err
		}
		ruleEnv[i] = env
	}
	results := make([]compilationResult, len(rules))
	compile := func(i int) {
		if deferCached && unmetered {
			if d, ok := deferRule(s, rules[i], ruleEnv[i], declType, store); ok {
				results[i] = d
				return
			}
		}
		results[i] = compileRule(s, rules[i], ruleEnv[i], estimator, declType, maxCard, perCallLimit, unmetered, store)
	}
	workers := min(runtime.GOMAXPROCS(0), maxCompileWorkers, len(rules)/minRulesPerCompileWorker)
	if !unmetered || workers < 2 {
		for i := range rules {
			compile(i)
		}
		return results, nil
	}
	// A built-in node with many rules (a PodSpec has over a hundred) is
	// compiled on several goroutines: reading a rule's checked AST from
	// the compile cache is most of the start-up of validating one object,
	// and the other workers of kdv validate are often waiting for this
	// very node. Unmetered rules share nothing mutable but the store
	// (locked) and the environments (extended above, safe for concurrent
	// use); CRD rules also estimate their cost, compiled one by one.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(rules); i = int(next.Add(1)) - 1 {
				compile(i)
			}
		})
	}
	wg.Wait()
	return results, nil
}

// maxCompileWorkers and minRulesPerCompileWorker bound the goroutines that
// compile one node's built-in rules: a few, each with enough rules to
// outweigh starting it.
const (
	maxCompileWorkers        = 4
	minRulesPerCompileWorker = 8
)

type compileError string

func (e compileError) Error() string { return string(e) }

const errFailedDeclType = compileError("failed to convert to declType for CEL validation rules")

// ruleEnvs lazily extends the base environment of kind with self and
// oldSelf (or optional oldSelf), as the apiserver's prepareEnvSet.
type ruleEnvs struct {
	base                  *environment.EnvSet
	kind                  envKind
	scopedType            *apiservercel.DeclType
	oldSelf, optionalSelf *celgo.Env
}

func (r *ruleEnvs) get(optional bool) (*celgo.Env, error) {
	target := &r.oldSelf
	if optional {
		target = &r.optionalSelf
	}
	if *target != nil {
		return *target, nil
	}
	oldSelfType := r.scopedType.CelType()
	if optional {
		oldSelfType = types.NewOptionalType(oldSelfType)
	}
	// The base environment validates declarations eagerly, which builds
	// the type checker (every function of the Kubernetes libraries) at
	// each extension: most of a CRD's start-up. Lazily, the checker is
	// built on the first compilation, and not at all when every rule
	// comes from the compile cache (programs do not need it). The
	// declarations are the same; a conflict among them would show at
	// compilation instead.
	lazy := celgo.EagerlyValidateDeclarations(false)
	info, known := envVersions.Load(r.base)
	if !known {
		e, err := r.base.Extend(
			environment.VersionedOptions{
				IntroducedVersion: version.MajorMinor(1, 0),
				EnvOptions:        []celgo.EnvOption{celgo.Variable(ScopedVarName, r.scopedType.CelType()), lazy},
				DeclTypes:         []*apiservercel.DeclType{r.scopedType},
			},
			environment.VersionedOptions{
				IntroducedVersion: version.MajorMinor(1, 24),
				EnvOptions:        []celgo.EnvOption{celgo.Variable(OldScopedVarName, oldSelfType)},
			},
		)
		if err != nil {
			return nil, err
		}
		*target = envOf(e, r.kind)
		return *target, nil
	}
	// One of kdv's base environments: extend only the environment of
	// kind, with the options EnvSet.Extend (filterAndBuildOpts) gives it.
	// Extending both, as EnvSet.Extend does, doubled the cost. The stored
	// expressions environment takes every option; the new expressions one
	// those introduced at its compatibility version.
	compat := info.(envInfo).compat
	base := envOf(r.base, r.kind)
	opts := []celgo.EnvOption{celgo.Variable(ScopedVarName, r.scopedType.CelType()), lazy}
	if r.kind == storedExpressions || compat.AtLeast(version.MajorMinor(1, 24)) {
		opts = append(opts, celgo.Variable(OldScopedVarName, oldSelfType))
	}
	provider := apiservercel.NewDeclTypeProvider(r.scopedType)
	if r.kind == storedExpressions || compat.AtLeast(version.MajorMinor(1, 31)) {
		provider.SetRecognizeKeywordAsFieldName(true)
	}
	providerOpts, err := provider.EnvOptions(base.CELTypeProvider())
	if err != nil {
		return nil, err
	}
	e, err := base.Extend(append(opts, providerOpts...)...)
	if err != nil {
		return nil, err
	}
	*target = e
	return e, nil
}

func envOf(set *environment.EnvSet, kind envKind) *celgo.Env {
	if kind == newExpressions {
		return set.NewExpressionsEnv()
	}
	return set.StoredExpressionsEnv()
}

// compileRule compiles one rule; unmetered (built-in rules, Options.BuiltIn)
// builds only the untracked program, which is all such rules need.
//
// store, when not nil, is the node's compile cache (astcache.go).
func compileRule(s *schema.Structural, rule schema.ValidationRule, env *celgo.Env, estimator *library.CostEstimator, declType *apiservercel.DeclType, maxCard, perCallLimit uint64, unmetered bool, store *astStore) (res compilationResult) {
	if len(strings.TrimSpace(rule.Rule)) == 0 {
		return
	}
	optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
	ast, issues := store.compile(env, entryKey("rule", optional, rule.Rule), rule.Rule)
	if issues != nil {
		res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "compilation failed: " + issues.String()}
		return
	}
	if ast.OutputType() != celgo.BoolType {
		res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "cel expression must evaluate to a bool"}
		return
	}
	if !ast.IsChecked() {
		res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "unexpected compilation error: cannot convert unchecked ast"}
		return
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldScopedVarName {
			res.usesOldSelf = true
			break
		}
	}
	if unmetered {
		prog := newLazyProgram(env, ast)
		res.program = prog
		res.fast = &fastPlan{unmetered: true, ok: true, prog: prog}
		res.vacuity = newVacuity(ast)
		res.prover = newProver(ast)
		store.put(entryKey(metaRole, optional, rule.Rule), encodeRuleMeta(res.usesOldSelf, res.vacuity))
		if rule.MessageExpression != "" {
			ast, issues := store.compile(env, entryKey("message", optional, rule.MessageExpression), rule.MessageExpression)
			if issues != nil || ast.OutputType() != celgo.StringType {
				res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression compilation failed"}
				return
			}
			mprog := newLazyProgram(env, ast)
			res.messageExpression = mprog
			res.fast.msgOK, res.fast.msgProg = true, mprog
		}
		res.setFieldPath(rule, s)
		if rule.Diff != nil {
			d, err := compileDiff(rule.Diff, s, func(expr string) (*lazyProgram, error) {
				ast, issues := store.compile(env, entryKey("diff", optional, expr), expr)
				if issues != nil {
					return nil, fmt.Errorf("x-kubernetes-diff condition %q: %s", expr, issues.String())
				}
				if ast.OutputType() != celgo.BoolType {
					return nil, fmt.Errorf("x-kubernetes-diff condition %q: not a bool", expr)
				}
				return newLazyProgram(env, ast), nil
			})
			if err != nil {
				// broken data: reported on each evaluation, not ignored
				res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: err.Error()}
			}
			res.diff = d
		}
		return
	}
	prog, err := env.Program(ast,
		celgo.CostLimit(perCallLimit),
		celgo.CostTracking(estimator),
		celgo.InterruptCheckFrequency(celconfig.CheckFrequency),
	)
	if err != nil {
		res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "program instantiation failed: " + err.Error()}
		return
	}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		res.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "cost estimation failed: " + err.Error()}
		return
	}
	res.maxCost = est.Max
	res.maxCardinality = maxCard
	res.program = prog
	res.fast = &fastPlan{env: env, ast: ast, maxCost: est.Max, root: declType, perCallLimit: perCallLimit}
	if rule.MessageExpression != "" {
		menv := env
		ast, issues := store.compile(menv, entryKey("message", optional, rule.MessageExpression), rule.MessageExpression)
		if issues != nil {
			res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression compilation failed: " + issues.String()}
			return
		}
		if ast.OutputType() != celgo.StringType {
			res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression must evaluate to a string"}
			return
		}
		if _, err := celgo.AstToCheckedExpr(ast); err != nil {
			res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "unexpected messageExpression compilation error: " + err.Error()}
			return
		}
		mprog, err := menv.Program(ast,
			celgo.CostLimit(perCallLimit),
			celgo.CostTracking(estimator),
			celgo.InterruptCheckFrequency(celconfig.CheckFrequency),
		)
		if err != nil {
			res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression instantiation failed: " + err.Error()}
			return
		}
		mest, err := menv.EstimateCost(ast, estimator)
		if err != nil {
			res.messageExpressionErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "cost estimation failed for messageExpression: " + err.Error()}
			return
		}
		res.messageExpression = mprog
		res.messageExpressionMaxCost = mest.Max
		res.fast.msgEnv, res.fast.msgAst, res.fast.msgMaxCost = menv, ast, mest.Max
	}
	res.setFieldPath(rule, s)
	return
}

// omittedValuePath is the value path of a built-in rule's fieldPath that
// reports no value ("-", "- as .x").
const omittedValuePath = "-"

// setFieldPath records the rule's fieldPath, normalised, and its steps.
func (res *compilationResult) setFieldPath(rule schema.ValidationRule, s *schema.Structural) {
	fp, report := rule.FieldPath, ""
	builtIn := res.fast != nil && res.fast.unmetered
	if builtIn {
		// "<value path> as <reported path>" (each.go)
		if v, r, ok := cutReportedPath(fp); ok {
			fp, report = v, r
		}
	}
	if builtIn && (fp == omittedValuePath || report != "" && fp == omittedValuePath) {
		// "-" and "- as .x": the error carries no value, as the
		// hand-written field.Invalid(fldPath, field.OmitValueType{}, ...)
		// (a check of a whole struct that does not print it), at self or
		// at .x
		res.omitValue, res.target = true, s
		if report != "" {
			res.normalizedFieldPath = report
		}
		return
	}
	if report != "" && fp == "." {
		// ". as .x": the value is self, reported at .x (a check of a
		// struct reported at one of its fields with the struct as the
		// bad value: field.Invalid(fldPath.Child("localhostProfile"),
		// profile, ...))
		res.normalizedFieldPath, res.target = report, s
		return
	}
	if lit, ok := quotedLiteral(fp); report != "" && ok {
		// "'' as .x": the bad value is the literal "", reported at .x
		// (hand-written code that prints a constant instead of the value
		// it checks: validateV1EventSeries's field.Invalid(..., "", ...));
		// likewise any literal without quotes ("'scheduler.alpha.kubernetes.io/taints'
		// as .metadata.annotations": the annotation's key, as
		// ValidateTaintsInNodeAnnotations reports it)
		res.normalizedFieldPath, res.target, res.literal = report, s, &lit
		return
	}
	if p, ok := parseEachPath(fp, s); ok && builtIn {
		// a built-in rule with list wildcards (each.go)
		p.report = report
		res.each = &p
		res.normalizedFieldPath, res.fieldPathSteps = p.prefix, p.prefixSteps
		if report != "" {
			res.normalizedFieldPath, _, _ = strings.Cut(report, "[*]")
		}
		res.absent = absentValue(s, p.steps)
		res.target = nodeAt(s, p.steps)
		return
	}
	res.target = s
	if fp != "" {
		if p, _, steps, err := schema.ResolveFieldPathSteps(fp, s, true); err == nil {
			res.normalizedFieldPath = p.String()
			res.fieldPathSteps = steps
			if report != "" {
				res.normalizedFieldPath = report
			}
			res.absent = absentValue(s, steps)
			res.target = nodeAt(s, steps)
		}
	}
}

// sizeEstimator gives the checker size estimates of values reached from
// self, from the declared maxItems/maxProperties/maxLength (apiserver
// compilation.go sizeEstimator).
type sizeEstimator struct {
	root *apiservercel.DeclType
}

func (c *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	cur, _ := declTypeAt(c.root, element.Path())
	if cur == nil {
		return nil
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(cur.MaxElements)}
}

// declTypeAt follows a checker path (self, then "@items", "@values",
// "@keys" or field names) from root, self's type; nil when the path leaves
// the declared types. key reports that the last step was "@keys".
func declTypeAt(root *apiservercel.DeclType, path []string) (cur *apiservercel.DeclType, key bool) {
	if len(path) == 0 {
		return nil, false
	}
	cur = root
	for _, name := range path[1:] {
		key = false
		switch name {
		case "@items", "@values":
			cur = cur.ElemType
		case "@keys":
			cur, key = cur.KeyType, true
		default:
			f, ok := cur.Fields[name]
			if !ok {
				return nil, false
			}
			cur = f.Type
		}
		if cur == nil {
			return nil, false
		}
	}
	return cur, key
}

func (c *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// maxCardinality is the worst-case number of times data of the given
// minimum serialized size fits in a maximal request.
func maxCardinality(minSize int64) uint64 {
	sz := minSize + 1 // at least one comma between elements
	return uint64(celconfig.MaxRequestSizeBytes / sz)
}

var baseEnvs sync.Map // "major.minor" or "major.minor+builtin" -> *environment.EnvSet

// baseEnvSet returns the apiserver's base environment set at the given
// compatibility version; MustBaseEnvSet caches it too, but only when its
// package-level cache flag is on, so keep our own.
func baseEnvSet(v *version.Version) *environment.EnvSet {
	key := v.String()
	if e, ok := baseEnvs.Load(key); ok {
		return e.(*environment.EnvSet)
	}
	e := environment.MustBaseEnvSet(v)
	if prev, loaded := baseEnvs.LoadOrStore(key, e); loaded {
		return prev.(*environment.EnvSet)
	}
	envVersions.Store(e, envInfo{key: key, compat: v})
	return e
}

// builtinEnvSet returns the environment of built-in rules
// (Options.BuiltIn): the base environment at v with kdv's libraries of
// hand-written checks (x509.go, kdvlib.go). A CRD's rules never see those
// functions.
// Its cache key differs from the base environment's, so compiled ASTs of
// one are never read back for the other (astcache.go).
func builtinEnvSet(v *version.Version) *environment.EnvSet {
	key := v.String() + "+builtin"
	if e, ok := baseEnvs.Load(key); ok {
		return e.(*environment.EnvSet)
	}
	e, err := baseEnvSet(v).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        []celgo.EnvOption{x509Library(), kdvLibrary()},
	})
	if err != nil {
		// the library's declarations are fixed: a conflict is a bug
		panic(fmt.Sprintf("cel: built-in environment: %v", err))
	}
	if prev, loaded := baseEnvs.LoadOrStore(key, e); loaded {
		return prev.(*environment.EnvSet)
	}
	envVersions.Store(e, envInfo{key: key, compat: v})
	return e
}

// envSetFor returns the environment rules compile in under opts.
func envSetFor(opts Options) *environment.EnvSet {
	if opts.BuiltIn {
		return builtinEnvSet(opts.compatibilityVersion())
	}
	return baseEnvSet(opts.compatibilityVersion())
}

// quotedLiteral returns the string a fieldPath's value path quotes: 'x'
// with no quote inside.
func quotedLiteral(fp string) (string, bool) {
	if len(fp) < 2 || fp[0] != '\'' || fp[len(fp)-1] != '\'' || strings.ContainsAny(fp[1:len(fp)-1], "'\"") {
		return "", false
	}
	return fp[1 : len(fp)-1], true
}
