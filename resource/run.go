package resource

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/manifest"
	"kdv.dev/report"
	kdvschema "kdv.dev/schema"
)

// RunOptions configure Run.
type RunOptions struct {
	// Jobs is how many documents are validated at once; 0 means the
	// number of CPUs.
	Jobs int
	// Old holds the previous versions of the objects: a document whose
	// group, kind, namespace and name match one of them is validated as an
	// update of it (transition rules, immutability, ratcheting).
	Old []manifest.Document
	// SkipKinds lists kinds (Kind or Kind.group) that are not validated.
	SkipKinds []string
	// RejectKinds lists kinds (Kind or Kind.group) that must not appear, as
	// kubeconform's -reject: a document of one is invalid, with one
	// Forbidden error on its kind ("prohibited resource kind Secret
	// (--reject Secret)"), and is not validated further. SkipKinds wins
	// over it, as in kubeconform. A CustomResourceDefinition of the input
	// is still checked and registered, so that its custom resources are
	// validated; the error is added to its own result.
	RejectKinds []string
	// StrictInputs validates documents that manifest.NotManifestObject
	// recognizes as not Kubernetes objects (neither apiVersion nor kind, a
	// Kustomize file) instead of skipping them as not manifests: they fail
	// as kubectl fails them.
	StrictInputs bool
	// IgnoreMissingSchemas skips documents whose kind has no schema
	// instead of reporting an error. A built-in API version the release
	// no longer serves (RemovedAPIError) is still reported.
	IgnoreMissingSchemas bool
	// Check configures the checks of CustomResourceDefinitions found in the
	// input.
	Check CheckOptions
	// Progress, when set, is called after each document with the number
	// done so far.
	Progress func(done int)
}

// Run validates documents in input order and returns one result per
// document. CustomResourceDefinitions among the documents are checked as
// the apiserver checks them on create and, when valid, registered in reg
// before any other document is validated, so that their custom resources
// in the same input validate against them.
func Run(ctx context.Context, docs []manifest.Document, reg *Registry, opts RunOptions) *report.Result {
	_, results := runGroups(ctx, groups{
		n:          len(docs),
		decode:     func(i int) []manifest.Document { return docs[i : i+1 : i+1] },
		mayHoldCRD: func(i int) bool { return isCRDDocument(&docs[i]) },
	}, reg, opts)
	return flatten(results)
}

// PrepareRead returns a manifest.Options.Split for reading the input of a
// run with opts on reg: it starts compiling (Registry.Prepare) the kind
// each document names (manifest.Pending.SniffGVK), except the kinds opts
// skips, so that compiling the first kinds overlaps reading the rest.
func PrepareRead(reg *Registry, opts RunOptions) func(*manifest.Pending) {
	skip := skipSet(opts.SkipKinds)
	return func(p *manifest.Pending) {
		gvk, ok := p.SniffGVK()
		if !ok || skip[strings.ToLower(gvk.Kind)] || skip[strings.ToLower(gvk.GroupKind().String())] {
			return
		}
		reg.Prepare(gvk)
	}
}

// skipSet is RunOptions.SkipKinds as lower-case Kind and Kind.group keys.
func skipSet(kinds []string) map[string]bool {
	skip := map[string]bool{}
	for _, k := range kinds {
		skip[strings.ToLower(strings.TrimSpace(k))] = true
	}
	return skip
}

// kindSet maps RunOptions.SkipKinds or RejectKinds as lower-case Kind and
// Kind.group keys to the entry as written, for messages.
func kindSet(kinds []string) map[string]string {
	set := map[string]string{}
	for _, k := range kinds {
		k = strings.TrimSpace(k)
		set[strings.ToLower(k)] = k
	}
	return set
}

// rejected returns the error of a document whose kind is in reject, or nil.
func rejected(gvk schema.GroupVersionKind, reject map[string]string) *field.Error {
	entry, ok := reject[strings.ToLower(gvk.Kind)]
	if !ok {
		if entry, ok = reject[strings.ToLower(gvk.GroupKind().String())]; !ok {
			return nil
		}
	}
	return field.Forbidden(field.NewPath("kind"), fmt.Sprintf("prohibited resource kind %s (--reject %s)", gvk.Kind, entry))
}

// base fills what every result has: location, identity, parse errors, and
// the warnings of decoding (repeated keys), which come first.
func base(d *manifest.Document) report.DocumentResult {
	r := report.DocumentResult{File: d.File, Index: d.Index, Line: d.Line, Via: d.Via, Template: d.Template}
	r.Warnings = slices.Clone(d.Warnings)
	if d.NotManifest != "" {
		r.Skipped, r.NotManifest, r.SkipReason = true, true, "not a manifest: "+d.NotManifest
		return r
	}
	if d.Err != nil {
		r.Err, r.ErrKind = d.Err, report.ErrParse
		return r
	}
	if d.Object == nil {
		return r
	}
	r.GVK = d.GVK()
	if md, ok := d.Object["metadata"].(map[string]any); ok {
		r.Name, _ = md["name"].(string)
		r.Namespace, _ = md["namespace"].(string)
	}
	r.ErrorPos = func(e *field.Error) (int, int) { return d.Position(e.Field) }
	return r
}

// crdCheck is the outcome of checking one CRD document.
type crdCheck struct {
	crd      *kdvschema.CRD
	parseErr error
	errs     field.ErrorList
	warnings []string
}

// checkCRD parses and checks a CRD document; it touches no registry, so
// CRDs can be checked in parallel and registered in input order.
func checkCRD(d *manifest.Document, opts CheckOptions) crdCheck {
	crd, err := kdvschema.ParseCRDObject(d.Object)
	if err != nil {
		return crdCheck{parseErr: err}
	}
	errs, warnings := CheckCRD(crd, opts)
	return crdCheck{crd: crd, errs: errs, warnings: warnings}
}

// registerCRD records a checked CRD's result in r and registers the CRD
// when valid (rejects its kind otherwise).
func registerCRD(d *manifest.Document, reg *Registry, c crdCheck, r *report.DocumentResult) {
	if c.parseErr != nil {
		r.Err, r.ErrKind = c.parseErr, report.ErrSchema
		return
	}
	crd := c.crd
	r.Errors = c.errs
	r.Warnings = append(r.Warnings, c.warnings...)
	gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	loc := fmt.Sprintf("%s:%d", d.File, d.Line)
	if len(c.errs) > 0 {
		reg.Reject(gk, fmt.Sprintf("its CustomResourceDefinition %s at %s is invalid", crd.Metadata.Name, loc))
		return
	}
	if err := reg.AddCRD(crd, loc); err != nil {
		r.Err, r.ErrKind = err, report.ErrSchema
	}
}

// oldKey identifies an object across old and new manifests.
type oldKey struct {
	gk              schema.GroupKind
	namespace, name string
}

func keyOf(obj map[string]any, gvk schema.GroupVersionKind) oldKey {
	k := oldKey{gk: gvk.GroupKind()}
	if md, ok := obj["metadata"].(map[string]any); ok {
		k.name, _ = md["name"].(string)
		k.namespace, _ = md["namespace"].(string)
	}
	return k
}

func indexOld(docs []manifest.Document) map[oldKey]map[string]any {
	m := map[oldKey]map[string]any{}
	for i := range docs {
		if docs[i].Err == nil && docs[i].Object != nil {
			m[keyOf(docs[i].Object, docs[i].GVK())] = docs[i].Object
		}
	}
	return m
}

// validateDocument validates one non-CRD document into r. With owned, the
// caller gives d.Object up and it is pruned and defaulted in place.
func validateDocument(ctx context.Context, d *manifest.Document, owned bool, reg *Registry, olds map[oldKey]map[string]any, skip map[string]bool, reject map[string]string, opts RunOptions, r *report.DocumentResult) {
	if d.Err != nil || d.Object == nil || d.NotManifest != "" {
		return
	}
	if !opts.StrictInputs {
		if why := manifest.NotManifestObject(d.Object); why != "" {
			r.Skipped, r.NotManifest, r.SkipReason = true, true, "not a manifest: "+why
			return
		}
	}
	gvk := d.GVK()
	if gvk.Kind == "" {
		r.Err, r.ErrKind = fmt.Errorf("Object 'Kind' is missing"), report.ErrDocument
		return
	}
	if gvk.Version == "" {
		r.Err, r.ErrKind = fmt.Errorf("Object 'apiVersion' is missing"), report.ErrDocument
		return
	}
	if skip[strings.ToLower(gvk.Kind)] || skip[strings.ToLower(gvk.GroupKind().String())] {
		r.Skipped, r.SkipReason = true, "kind "+gvk.Kind+" is skipped"
		return
	}
	if e := rejected(gvk, reject); e != nil {
		r.Errors = field.ErrorList{e}
		// Named as validated documents are: namespaced ones in the
		// namespace they would be created in.
		if v, err := reg.Validator(gvk); err == nil && v.Schema().Namespaced && r.Namespace == "" {
			r.Namespace = v.namespace
		}
		return
	}
	v, err := reg.Validator(gvk)
	if err != nil {
		if _, ok := err.(*RemovedAPIError); ok {
			// Reported even with IgnoreMissingSchemas: the schema is
			// not missing, the apiserver rejects the version.
			r.Err, r.ErrKind = err, report.ErrRemovedAPI
			return
		}
		if _, ok := err.(*NoSchemaError); ok {
			if opts.IgnoreMissingSchemas {
				r.Skipped, r.SkipReason = true, err.Error()
				return
			}
			r.Err, r.ErrKind = err, report.ErrNoSchema
			return
		}
		r.Err, r.ErrKind = err, report.ErrSchema
		return
	}
	if w := v.Schema().DeprecationWarning; w != "" {
		// The apiserver adds it before any other warning of the request.
		r.Warnings = append(r.Warnings, w)
	}
	old := lookupOld(olds, keyOf(d.Object, gvk), v)
	var out Outcome
	if owned {
		out = v.ValidateInPlace(ctx, d.Object, old)
	} else {
		out = v.Validate(ctx, d.Object, old)
	}
	if out.DecodeErr != nil {
		r.Err, r.ErrKind = out.DecodeErr, report.ErrDocument
		return
	}
	if v.Schema().Namespaced && r.Namespace == "" {
		r.Namespace = v.namespace
	}
	r.DecodeError, r.DecodeErrorField = out.DecodeError, out.DecodeErrorField
	r.UnknownFields = out.UnknownFields
	r.Errors = out.Errors
	r.Warnings = append(r.Warnings, out.Warnings...)
}

// lookupOld finds the old version of an object. For a namespaced kind, an
// object without a namespace lives in the default namespace, so the two
// spellings match each other.
func lookupOld(olds map[oldKey]map[string]any, k oldKey, v *Validator) map[string]any {
	if old := olds[k]; old != nil || !v.Schema().Namespaced {
		return old
	}
	switch k.namespace {
	case "":
		k.namespace = v.namespace
	case v.namespace:
		k.namespace = ""
	default:
		return nil
	}
	return olds[k]
}
