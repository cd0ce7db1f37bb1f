package resource

import (
	"sync"

	"context"
	"errors"
	"fmt"
	"maps"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/builtin"
	"kdv.dev/defaulting"
	"kdv.dev/formats"
	"kdv.dev/pruning"
	"kdv.dev/resource/internal/typed"
	kdvschema "kdv.dev/schema"
	"kdv.dev/validation"
)

// Schema is what validating one group/version/kind needs: its structural
// schema and how the apiserver serves it.
type Schema struct {
	GVK schema.GroupVersionKind
	// Structural is the version's schema with the resource at its root.
	Structural *kdvschema.Structural
	// Namespaced is the kind's scope.
	Namespaced bool
	// PreserveUnknownFields is a CRD's spec.preserveUnknownFields: no
	// pruning, no unknown-field errors.
	PreserveUnknownFields bool
	// StatusSubresource says the kind has a /status subresource: creates
	// and updates of the main resource cannot set status.
	StatusSubresource bool
	// StatusOnCreate says a create keeps (and validates) the status it
	// sets although the kind has a status subresource: the Node strategy's
	// PrepareForCreate drops only status.config and gated fields
	// (k8s.io/kubernetes pkg/registry/core/node strategy.go
	// dropDisabledFields, "Nodes allow *all* fields, including status, to
	// be set on create"), and ValidateNode checks parts of the status.
	// Updates still keep the old status.
	StatusOnCreate bool
	// DroppedOnCreate lists fields, as paths of property names, that the
	// kind's strategy clears on create before validating, so their values
	// are never checked, e.g. a Node's spec.configSource and status.config.
	DroppedOnCreate [][]string
	// KeptOnUpdate names top-level fields besides status that the kind's
	// strategy copies from the old object on update (PrepareForUpdate), so
	// an update's own values of them are never validated, e.g. a
	// CertificateSigningRequest's spec.
	KeptOnUpdate []string
	// Scale is a CRD version's scale subresource, nil without one.
	Scale *validation.Scale
	// BuiltIn marks the embedded schema of a built-in kind (see
	// validation.Options.BuiltIn): objects are first checked as the
	// apiserver decodes them into the kind's Go type.
	BuiltIn bool
	// Definitions names, for a built-in kind, the definition each schema
	// node was published as (kdv.dev/builtin DefinitionAt), from which
	// Go-typed decoding errors name Go types; nil for custom resources.
	Definitions func(steps []string) string
	// GoType names, for a built-in kind, the Go type of each schema node
	// and the embedded structs a property is promoted through (kdv.dev/builtin
	// GoType), for the same errors; nil for custom resources.
	GoType func(steps []string) (typ string, embedded []string, ok bool)
	// DeprecationWarning is the warning the apiserver sends with every
	// request of this kind's version, "" for none: a deprecated built-in
	// version's (builtin.Lifecycle.WarningMessage) or a deprecated CRD
	// version's (its deprecationWarning or the apiextensions-apiserver's
	// default text). Run adds it to the document's warnings.
	DeprecationWarning string
	// Source says where the schema came from, for messages, e.g.
	// "CustomResourceDefinition widgets.example.kdv.dev in crds/widgets.yaml"
	// or "built-in schemas of Kubernetes 1.37".
	Source string
}

// Options configure compiled validators.
type Options struct {
	// KubernetesMinor is the 1.x version whose behaviour is reproduced; 0
	// means validation.DefaultKubernetesMinor.
	KubernetesMinor int
	// DefaultNamespace is given to namespaced objects without one, as
	// kubectl does; empty means "default".
	DefaultNamespace string
	// FeatureGates is the modelled cluster's --feature-gates; the zero
	// value is the release's defaults. Fields of built-in kinds whose
	// gates are off are dropped before validation, as the apiserver drops
	// them.
	FeatureGates builtin.FeatureGates
	// LifecycleWarnings is the maturity of the gated fields that get a
	// warning when in use and kept: LifecycleWarnAlpha (also for ""),
	// LifecycleWarnBeta (alpha and beta) or LifecycleWarnNone.
	LifecycleWarnings string
}

// Validator validates objects of one kind. It is compiled once and safe for
// concurrent use.
type Validator struct {
	schema    Schema
	validator *validation.Validator
	defaulter *defaulting.Defaulter
	namespace string
	// typed checks built-in objects as the apiserver's decoder (nil for
	// custom resources).
	typed *typed.Checker
	// noEmbedded: the schema has no embedded resource below the root.
	noEmbedded bool
	// oldInvalid: the properties an update leaves unvalidated when the
	// old object does not validate (nil for most kinds)
	oldInvalid *oldInvalidSkip
	// gated are the built-in kind's fields guarded by feature gates: those
	// whose gates are off are dropped before validation as the apiserver's
	// strategies drop them.
	gated *gatedSet
}

// Outcome is the verdict on one object.
type Outcome struct {
	// UnknownFields are what strict field validation rejects (pruned
	// fields and unknown metadata fields), each as the apiserver words it,
	// `unknown field "spec.colour"`, in the apiserver's order.
	UnknownFields []string
	// Errors are the validation errors, in the apiserver's order.
	Errors field.ErrorList
	// Warnings are ratcheted errors (errors on values an update left
	// unchanged), which the apiserver does not report.
	Warnings []string
	// DecodeError is, for a built-in kind, the apiserver's 400 for an
	// object its decoder cannot decode into the kind's Go type (see
	// report.DocumentResult.DecodeError); nothing else is then reported.
	DecodeError string
	// DecodeErrorField is the path of the value DecodeError is about.
	DecodeErrorField string
	// DecodeErr is set when the apiserver would fail to decode the object
	// at all (apiVersion or kind not strings, malformed metadata); nothing
	// else is then reported.
	DecodeErr error
	// Object is the object after pruning and defaulting, as the apiserver
	// would store it (nil with DecodeErr).
	Object map[string]any
}

// Invalid reports whether the apiserver would reject the object.
func (o *Outcome) Invalid() bool {
	return o.DecodeErr != nil || o.DecodeError != "" || len(o.UnknownFields) > 0 || len(o.Errors) > 0
}

// Compile builds the validator of one kind.
func Compile(s Schema, opts Options) (*Validator, error) {
	if s.Structural == nil {
		return nil, fmt.Errorf("no schema for %s", s.GVK)
	}
	ns := s.Namespaced
	var nameRule func(string, bool) []string
	var fmts *formats.Registry
	if s.BuiltIn {
		// built-in kinds have their own name rules (custom resources: nil,
		// the DNS subdomain)
		nameRule = builtin.NameValidationFor(s.GVK.GroupKind(), opts.KubernetesMinor)
		// and validation-gen's formats with its errors, as the
		// apiserver's declarative validation checks them (custom
		// resources: the CRD format set)
		fmts = formats.New(formats.Options{KubeMinor: opts.KubernetesMinor, Declarative: true})
	}
	vopts := validation.Options{
		IsResourceRoot:        true,
		KubernetesMinor:       opts.KubernetesMinor,
		Kind:                  s.GVK.Kind,
		APIVersion:            s.GVK.GroupVersion().String(),
		Namespaced:            &ns,
		IgnoreResourceVersion: true,
		BuiltIn:               s.BuiltIn,
		Scale:                 s.Scale,
		NameValidation:        nameRule,
		MetaOnUpdate:          s.BuiltIn && builtin.MetaValidatedOnUpdateFor(s.GVK.GroupKind(), opts.KubernetesMinor),
		MetadataRepeats:       s.BuiltIn && !builtin.ErrorsFiltered(s.GVK.GroupKind()),
		NameGeneratedOnCreate: s.BuiltIn && builtin.NameGeneratedOnCreate(s.GVK.GroupKind()),
		Formats:               fmts,
	}
	namespace := opts.DefaultNamespace
	if namespace == "" {
		namespace = "default"
	}
	out := &Validator{schema: s, namespace: namespace}
	// The decode steps' compilers (defaulting, pruning, typed decoding,
	// gated fields) read the schema only: they run beside the validator's,
	// the longest, which a run waits for before its kind's first document.
	var decodeSteps sync.WaitGroup
	decodeSteps.Go(func() {
		out.defaulter, out.noEmbedded = defaulting.NewDefaulter(s.Structural), !pruning.HasEmbeddedResource(s.Structural)
		if s.BuiltIn && s.Definitions != nil {
			out.typed = typed.NewChecker(s.Structural, typed.Types{Definition: s.Definitions, GoType: s.GoType})
		}
		if s.BuiltIn {
			minor := opts.KubernetesMinor
			if minor == 0 {
				minor = validation.DefaultKubernetesMinor
			}
			out.gated = newGatedSet(gatedFields(s.Structural, minor, opts.FeatureGates, opts.LifecycleWarnings))
		}
	})
	defer decodeSteps.Wait()
	checked := s.Structural
	if s.BuiltIn && s.StatusSubresource && !s.StatusOnCreate {
		checked = ratchetingStatus(s.Structural)
	}
	v, err := validation.New(checked, vopts)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema of %s (%s): %w", s.GVK, s.Source, err)
	}
	out.validator = v
	if s.BuiltIn {
		if out.oldInvalid, err = newOldInvalidSkip(checked, vopts); err != nil {
			return nil, fmt.Errorf("compiling the schema of %s (%s): %w", s.GVK, s.Source, err)
		}
	}
	return out, nil
}

// Schema returns the schema the validator was compiled from.
func (v *Validator) Schema() Schema { return v.schema }

// Validate runs the apiserver's decode steps and validation on a deep copy
// of obj: on create when old is nil, on update otherwise (old goes through
// the same decode steps, as the stored object did).
func (v *Validator) Validate(ctx context.Context, obj, old map[string]any) Outcome {
	return v.ValidateInPlace(ctx, deepCopy(obj), old)
}

// ValidateInPlace is Validate on an obj the caller gives up, as the
// apiserver gives up the object it decoded: obj is pruned, defaulted and
// has its dropped fields removed in place (it is the Outcome's Object),
// which saves Validate's deep copy (for a Pod, 40% of the bytes Validate
// allocates). old is not changed. A caller that validates objects it has
// just decoded and no longer needs uses it (RunPending drops each object
// after validation, so copying it would be wasted work).
func (v *Validator) ValidateInPlace(ctx context.Context, obj, old map[string]any) Outcome {
	var out Outcome
	clean, err := v.typedDecode(obj)
	if err != nil {
		out.DecodeError = err.Error()
		var te *typed.Error
		if errors.As(err, &te) {
			out.DecodeErrorField = te.Field
		}
		return out
	}
	// The gated fields the input sets, before defaulting may set more: a
	// field is said to be dropped only when the manifest has it.
	var present map[string]bool
	if v.gated != nil {
		present = v.gated.present(obj)
	}
	unknown, err := v.decode(obj, clean)
	if err != nil {
		out.DecodeErr = err
		return out
	}
	out.UnknownFields = unknownFieldMessages(unknown)
	out.Object = obj
	var oldObj any
	if old != nil {
		old = deepCopy(old)
		if clean, err := v.typedDecode(old); err != nil {
			old = nil
		} else if _, err := v.decode(old, clean); err != nil {
			// The stored object could not have been decoded either; validate
			// as a create, which reports everything.
			old = nil
		} else {
			oldObj = old
		}
	}
	if v.schema.StatusSubresource && (old != nil || !v.schema.StatusOnCreate) {
		prepareStatus(obj, old)
	}
	if old == nil {
		for _, p := range v.schema.DroppedOnCreate {
			dropPath(obj, p)
		}
	}
	if old != nil {
		for _, f := range v.schema.KeptOnUpdate {
			keepOld(obj, old, f)
		}
	}
	var dropped []string
	if v.gated != nil {
		// old is stored: the apiserver kept what it holds.
		dropped = v.gated.apply(obj, old, present)
	}
	val := v.validator
	if old != nil {
		val = v.oldInvalid.validator(ctx, val, old)
	}
	out.Errors, out.Warnings = val.ValidateWithWarnings(ctx, obj, oldObj)
	out.Warnings = append(dropped, out.Warnings...)
	return out
}

// typedDecode returns, for a built-in kind, the error the apiserver's
// decoder returns for obj (a 400 Bad Request, "<Kind> in version "<v>"
// cannot be handled as a <Kind>: ..."; transformDecodeError in
// k8s.io/apiserver pkg/endpoints/handlers), nil for custom resources; and
// whether pruning would leave obj as it is (typed.Checker.CheckClean,
// false for custom resources).
func (v *Validator) typedDecode(obj map[string]any) (clean bool, err error) {
	if v.typed == nil {
		return false, nil
	}
	clean, err = v.typed.CheckClean(obj)
	if err != nil {
		k := v.schema.GVK
		return false, fmt.Errorf("%s in version %q cannot be handled as a %s: %w", k.Kind, k.Version, k.Kind, err)
	}
	return clean, nil
}

// prepareStatus does what the apiserver's PrepareForCreate and
// PrepareForUpdate do to a resource with a status subresource before
// validating it: a create cannot set status, and an update keeps the old
// one (k8s.io/apiextensions-apiserver pkg/registry/customresource
// strategy.go; built-in strategies reset status likewise).
func prepareStatus(obj, old map[string]any) {
	if old == nil {
		delete(obj, "status")
		return
	}
	keepOld(obj, old, "status")
}

// dropPath deletes the field at path p (property names) from obj, if
// every object on the way is there.
func dropPath(obj map[string]any, p []string) {
	for i, name := range p {
		if i == len(p)-1 {
			delete(obj, name)
			return
		}
		next, ok := obj[name].(map[string]any)
		if !ok {
			return
		}
		obj = next
	}
}

// keepOld gives obj the old object's field f, or none when old has none.
func keepOld(obj, old map[string]any, f string) {
	if v, ok := old[f]; ok {
		obj[f] = v
	} else {
		delete(obj, f)
	}
}

// decode applies, in place, what the apiserver does to a request body
// before validation: namespace from the client, ObjectMeta decoding,
// pruning, null pruning, coercion, then defaulting. clean: pruning and
// null pruning would not change obj (typedDecode), and are skipped.
func (v *Validator) decode(obj map[string]any, clean bool) ([]string, error) {
	if v.schema.Namespaced {
		md, ok := obj["metadata"].(map[string]any)
		if !ok && obj["metadata"] == nil {
			md = map[string]any{}
			obj["metadata"] = md
			ok = true
		}
		// Only a missing or empty namespace is the client's to fill; a
		// malformed one is left for decoding to reject.
		if ns, present := md["namespace"]; ok && (!present || ns == nil || ns == "") {
			md["namespace"] = v.namespace
		}
	} else if md, ok := obj["metadata"].(map[string]any); ok {
		// The create and update handlers clear the namespace of a
		// cluster-scoped object before validating it (k8s.io/apiserver
		// pkg/registry/rest EnsureObjectNamespaceMatchesRequestNamespace,
		// "cluster-scoped, clear namespace"). A non-string one is left for
		// decoding to reject.
		if _, isString := md["namespace"].(string); isString {
			delete(md, "namespace")
		}
	}
	unknown, err := pruning.Apply(obj, v.schema.Structural, pruning.ApplyOptions{
		PreserveUnknownFields:   v.schema.PreserveUnknownFields,
		ReturnUnknownFieldPaths: true,
		NoEmbeddedResources:     v.noEmbedded,
		Clean:                   clean,
	})
	if err != nil {
		return nil, err
	}
	v.defaulter.Default(obj)
	return unknown, nil
}

// Prune applies, in place, the apiserver's decode-time pruning to obj
// (ObjectMeta decoding, pruning, null pruning, embedded metadata coercion)
// and returns what strict field validation would report, each as
// `unknown field "<path>"`.
func (v *Validator) Prune(obj map[string]any) ([]string, error) {
	paths, err := pruning.Apply(obj, v.schema.Structural, pruning.ApplyOptions{
		PreserveUnknownFields:   v.schema.PreserveUnknownFields,
		ReturnUnknownFieldPaths: true,
		NoEmbeddedResources:     v.noEmbedded,
	})
	return unknownFieldMessages(paths), err
}

// unknownFieldMessages words pruned paths as strict field validation does.
func unknownFieldMessages(paths []string) []string {
	var out []string
	for _, err := range pruning.UnknownFieldErrors(paths) {
		out = append(out, err.Error())
	}
	return out
}

// Default applies, in place, the schema's defaults to obj as the apiserver
// does after pruning.
func (v *Validator) Default(obj map[string]any) {
	v.defaulter.Default(obj)
}

// deepCopy copies an unstructured object. Unlike runtime.DeepCopyJSON it
// accepts any scalar (int, int32, float32, ... from callers that build
// objects in Go) instead of panicking; scalars are values and need no copy.
func deepCopy(obj map[string]any) map[string]any {
	return deepCopyValue(obj).(map[string]any)
}

func deepCopyValue(x any) any {
	switch x := x.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = deepCopyValue(v)
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = deepCopyValue(v)
		}
		return l
	}
	return x
}

// ratchetingStatus returns s with status ratcheting on update
// (x-kubernetes-ratcheting): a built-in kind with a status subresource has
// its status reset on create and copied from the stored object on update
// (the strategies' PrepareForUpdate), and its update validation
// (ValidateDeploymentUpdate, ValidateServiceCIDRUpdate, ...) does not check
// that status again: the status strategy checked it when it was written.
// Node, whose create keeps the status, is the exception: ValidateNodeUpdate
// checks the stored status too. s itself is not changed.
func ratchetingStatus(s *kdvschema.Structural) *kdvschema.Structural {
	st, ok := s.Properties["status"]
	if !ok {
		return s
	}
	out := *s
	out.Properties = maps.Clone(s.Properties)
	st.XOther = maps.Clone(st.XOther)
	if st.XOther == nil {
		st.XOther = map[string]any{}
	}
	st.XOther[kdvschema.XRatcheting] = true
	out.Properties["status"] = st
	return &out
}
