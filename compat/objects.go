package compat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
	"kdv.dev/resource"
	"kdv.dev/schema"
)

// Object verdicts of CheckObjects.
const (
	// ObjectOK: valid under OLD, and under NEW both as a create and as an
	// unchanged update.
	ObjectOK = "ok"
	// ObjectStranded: valid under OLD, but NEW rejects it as a create, as
	// an unchanged update, or both.
	ObjectStranded = "stranded"
	// ObjectInvalidOld: OLD already rejects it; a rollout of NEW does not
	// strand what could not be created.
	ObjectInvalidOld = "invalid-under-old"
	// ObjectSkipped: neither OLD nor NEW defines its kind (a built-in
	// kind, another CRD's objects), or it is a CRD itself.
	ObjectSkipped = "skipped"
	// ObjectError: the document could not be read or decoded.
	ObjectError = "error"
)

// ObjectResult is the verdict on one existing object.
type ObjectResult struct {
	// File, Line and Index locate the document (Index counts documents in
	// the file, from 0).
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	Index int    `json:"index"`
	// APIVersion, Kind, Namespace and Name identify the object.
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	// Status is one of the Object* verdicts.
	Status string `json:"status"`
	// OldErrors are OLD's errors (ObjectInvalidOld).
	OldErrors []string `json:"oldErrors,omitempty"`
	// CreateErrors are NEW's errors on creating the object as written.
	CreateErrors []string `json:"createErrors,omitempty"`
	// UpdateErrors are NEW's errors on an update that leaves the stored
	// object unchanged; ratcheting (KEP-4008) already let through the
	// errors it forgives.
	UpdateErrors []string `json:"updateErrors,omitempty"`
	// Ratcheted are NEW's errors on unchanged values that ratcheting lets
	// through on update (they still fail a create).
	Ratcheted []string `json:"ratcheted,omitempty"`
	// Pruned are fields of the stored object NEW's schema drops when it
	// reads it: data lost, though no request fails because of it.
	Pruned []string `json:"pruned,omitempty"`
	// Note explains a skip or an error.
	Note string `json:"note,omitempty"`
}

// Stranded reports whether a rollout of NEW strands the object.
func (r ObjectResult) Stranded() bool { return r.Status == ObjectStranded }

// object renders the object as "Kind namespace/name" for reports.
func (r ObjectResult) object() string {
	n := r.Name
	if r.Namespace != "" {
		n = r.Namespace + "/" + n
	}
	return strings.TrimSpace(r.Kind + " " + n)
}

// ObjectOptions configure CheckObjects.
type ObjectOptions struct {
	// KubernetesMinor is the 1.x version whose validation is reproduced; 0
	// means the newest kdv knows.
	KubernetesMinor int
}

// CheckObjects validates existing objects (documents read from --objects)
// with kdv's resource pipeline, once with OLD's schemas and twice with
// NEW's, and says which a rollout of NEW would strand:
//
//   - under OLD as a create: an object OLD rejects is ObjectInvalidOld and
//     not judged further;
//   - under NEW as a create of the document as written (re-applying the
//     manifest to a new cluster, a GitOps re-create): no ratcheting;
//   - under NEW as an update that leaves the stored object unchanged: the
//     stored object is what OLD kept (pruned and defaulted by OLD), read
//     back through NEW (pruned and defaulted by NEW, as the apiserver
//     does on read), then validated as an update from itself, so CRD
//     validation ratcheting forgives errors on unchanged values, except
//     transition rules (oldSelf) which are never ratcheted.
//
// An object whose version NEW no longer serves is stranded both ways.
// Objects are matched to schemas by apiVersion and kind; conversion between
// versions of a CRD is not modelled (the object is judged in the version it
// is written in).
func CheckObjects(ctx context.Context, old, new *API, docs []manifest.Document, opts ObjectOptions) []ObjectResult {
	regOld, regNew := registryOf(old, opts), registryOf(new, opts)
	out := make([]ObjectResult, 0, len(docs))
	for i := range docs {
		out = append(out, checkObject(ctx, &docs[i], old, new, regOld, regNew))
	}
	return out
}

// registryOf registers an API's CRDs and OpenAPI kinds in a registry
// without built-in schemas: only the kinds the API defines are judged.
func registryOf(api *API, opts ObjectOptions) *resource.Registry {
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: opts.KubernetesMinor})
	for _, name := range sortedKeys(api.CRDs, map[string]bool(nil)) {
		crd := api.CRDs[name]
		if err := reg.AddCRD(crd, api.CRDLocations[name]); err != nil {
			// Its kind then has no schema; the object says why.
			reg.Reject(k8sschema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}, err.Error())
		}
	}
	scope := resource.BuiltinScope(opts.KubernetesMinor)
	for g, s := range api.Kinds {
		gvk := k8sschema.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind}
		reg.Add(resource.Schema{GVK: gvk, Structural: s, Namespaced: scope(gvk), Source: "OpenAPI schema in " + api.KindLocations[g]})
	}
	return reg
}

// defines reports whether an API defines the group and kind in any version.
func defines(api *API, gk k8sschema.GroupKind) bool {
	for _, crd := range api.CRDs {
		if crd.Spec.Group == gk.Group && crd.Spec.Names.Kind == gk.Kind {
			return true
		}
	}
	for g := range api.Kinds {
		if g.Group == gk.Group && g.Kind == gk.Kind {
			return true
		}
	}
	return false
}

func checkObject(ctx context.Context, d *manifest.Document, old, new *API, regOld, regNew *resource.Registry) ObjectResult {
	r := ObjectResult{File: d.File, Line: d.Line, Index: d.Index}
	if d.Err != nil {
		r.Status, r.Note = ObjectError, d.Err.Error()
		return r
	}
	r.APIVersion, _ = d.Object["apiVersion"].(string)
	r.Kind, _ = d.Object["kind"].(string)
	if md, ok := d.Object["metadata"].(map[string]any); ok {
		r.Namespace, _ = md["namespace"].(string)
		r.Name, _ = md["name"].(string)
	}
	gvk := d.GVK()
	if schema.IsCRD(r.APIVersion, r.Kind) {
		r.Status, r.Note = ObjectSkipped, "a CustomResourceDefinition: give CRDs as OLD and NEW"
		return r
	}
	if !defines(old, gvk.GroupKind()) && !defines(new, gvk.GroupKind()) {
		r.Status, r.Note = ObjectSkipped, fmt.Sprintf("neither OLD nor NEW defines %s", gvk.GroupKind())
		return r
	}
	vOld, err := regOld.Validator(gvk)
	if err != nil {
		r.Status, r.Note = ObjectSkipped, "not an object of OLD: "+err.Error()
		return r
	}
	before := vOld.Validate(ctx, d.Object, nil)
	if before.Invalid() {
		r.Status, r.OldErrors = ObjectInvalidOld, outcomeErrors(&before)
		return r
	}
	vNew, err := regNew.Validator(gvk)
	if err != nil {
		var nse *resource.NoSchemaError
		msg := err.Error()
		if errors.As(err, &nse) {
			msg = fmt.Sprintf("NEW does not serve %s %s: the apiserver answers 404 (%s)", gvk.GroupVersion(), gvk.Kind, msg)
		}
		r.Status, r.CreateErrors, r.UpdateErrors = ObjectStranded, []string{msg}, []string{msg}
		return r
	}
	create := vNew.Validate(ctx, d.Object, nil)
	r.CreateErrors = outcomeErrors(&create)

	stored := before.Object
	pruned, err := vNew.Prune(stored)
	if err != nil {
		r.UpdateErrors = []string{"reading the stored object under NEW: " + err.Error()}
	} else {
		vNew.Default(stored)
		r.Pruned = pruned
		update := vNew.Validate(ctx, stored, stored)
		r.UpdateErrors, r.Ratcheted = outcomeErrors(&update), update.Warnings
	}
	r.Status = ObjectOK
	if len(r.CreateErrors) > 0 || len(r.UpdateErrors) > 0 {
		r.Status = ObjectStranded
	}
	return r
}

// outcomeErrors lists everything that makes the apiserver reject an object,
// one message each.
func outcomeErrors(o *resource.Outcome) []string {
	var out []string
	if o.DecodeErr != nil {
		out = append(out, o.DecodeErr.Error())
	}
	if o.DecodeError != "" {
		out = append(out, o.DecodeError)
	}
	out = append(out, o.UnknownFields...)
	for _, e := range o.Errors {
		out = append(out, e.Error())
	}
	return out
}

// AnyStranded reports whether some object is stranded.
func AnyStranded(results []ObjectResult) bool {
	for _, r := range results {
		if r.Stranded() {
			return true
		}
	}
	return false
}

// WriteObjects renders CheckObjects' results: "text" lists stranded,
// invalid, skipped and unreadable objects with their errors, then counts;
// "json" is {"objects": [...]} with every result.
func WriteObjects(w io.Writer, format string, results []ObjectResult) error {
	switch format {
	case "json":
		if results == nil {
			results = []ObjectResult{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Objects []ObjectResult `json:"objects"`
		}{results})
	case "", "text":
	default:
		return fmt.Errorf("unknown output format %q for --objects: must be text or json", format)
	}
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
		if r.Status == ObjectOK && len(r.Pruned) == 0 {
			continue
		}
		loc := fmt.Sprintf("%s:%d", r.File, r.Line)
		head := loc + ": " + r.object() + ": " + r.Status
		switch r.Status {
		case ObjectStranded:
			var how []string
			if len(r.CreateErrors) > 0 {
				how = append(how, "create")
			}
			if len(r.UpdateErrors) > 0 {
				how = append(how, "unchanged update")
			}
			head += " (NEW rejects it on " + strings.Join(how, " and ") + ")"
		case ObjectSkipped, ObjectError:
			head += ": " + r.Note
		}
		fmt.Fprintln(w, head)
		lines := func(label string, errs []string) {
			for _, e := range errs {
				fmt.Fprintf(w, "    %s: %s\n", label, e)
			}
		}
		lines("old", r.OldErrors)
		lines("create", r.CreateErrors)
		lines("update", r.UpdateErrors)
		lines("ratcheted on update", r.Ratcheted)
		for _, p := range r.Pruned {
			fmt.Fprintf(w, "    pruned on read: %s\n", strings.TrimPrefix(p, "unknown field "))
		}
	}
	_, err := fmt.Fprintf(w, "%d objects: %d stranded, %d ok, %d invalid under OLD, %d skipped, %d unreadable\n",
		len(results), counts[ObjectStranded], counts[ObjectOK], counts[ObjectInvalidOld], counts[ObjectSkipped], counts[ObjectError])
	return err
}
