package kdv

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// Validate validates obj as the apiserver validates a create request
// carrying it. obj is an *unstructured.Unstructured, a map[string]any (as
// decoded from YAML or JSON, or written in Go: ints, []string and the like
// are taken as a client would encode them), or a typed runtime.Object such
// as *appsv1.Deployment or an operator's own type (converted with
// runtime.DefaultUnstructuredConverter; an empty TypeMeta is filled from
// WithScheme or, for k8s.io/api types, from the type). obj is not changed.
//
// A namespaced object without a namespace is validated in "default", as
// kubectl sends it. A CustomResourceDefinition is checked as the apiserver
// checks a new CRD (it is not registered: give CRDs to New).
//
// The error is for objects that cannot be validated at all: an
// unsupported Go type, apiVersion or kind missing, or no schema for the
// kind (a *resource.NoSchemaError, naming the group, version and kind).
// What the apiserver would reject is in the Result: see Result.Err.
func (v *Validator) Validate(ctx context.Context, obj any) (*Result, error) {
	m, err := v.toMap(obj)
	if err != nil {
		return nil, err
	}
	return v.validate(ctx, m, nil)
}

// ValidateUpdate validates obj as an update of old, the object as stored:
// transition rules (CEL rules using oldSelf) run, immutable fields are
// compared, and errors on values the update leaves unchanged are ratcheted
// into warnings, as the apiserver does. old goes through the same decoding
// as obj. Both take the forms Validate takes and must have the same
// apiVersion and kind. Updates of CustomResourceDefinitions are not
// supported (an error).
func (v *Validator) ValidateUpdate(ctx context.Context, obj, old any) (*Result, error) {
	m, err := v.toMap(obj)
	if err != nil {
		return nil, err
	}
	o, err := v.toMap(old)
	if err != nil {
		return nil, fmt.Errorf("old object: %w", err)
	}
	if gvkOf(m) != gvkOf(o) {
		return nil, fmt.Errorf("kdv: the object is a %s and the old object a %s: an update keeps apiVersion and kind", describe(gvkOf(m)), describe(gvkOf(o)))
	}
	return v.validate(ctx, m, o)
}

// ValidateYAML validates, each as a create, the objects in data:
// multi-document YAML, JSON, and kind: List (whose items are validated
// one by one). name names data in errors (a file name, say; "" is
// "input"). It returns the results of the objects that could be
// validated, in order, each with its Index and Line; the error joins
// those that could not (a YAML syntax error, no schema for the kind),
// each naming name, the line and the reason. Empty documents are left
// out, as kubectl leaves them. CustomResourceDefinitions in data are
// checked, not registered: give them to New to validate their objects.
func (v *Validator) ValidateYAML(ctx context.Context, name string, data []byte) ([]Result, error) {
	if name == "" {
		name = "input"
	}
	docs := manifest.Parse(name, data, manifest.Options{StrictInputs: true})
	var out []Result
	var errs []error
	for i := range docs {
		d := &docs[i]
		if d.Err != nil {
			errs = append(errs, d.Err)
			continue
		}
		if d.Object == nil {
			continue
		}
		r, err := v.validate(ctx, d.Object, nil)
		if err != nil {
			errs = append(errs, &manifest.Error{File: d.File, Index: d.Index, Item: d.Item, Line: d.Line, Msg: err.Error()})
			continue
		}
		r.Index, r.Line = d.Index, d.Line
		r.Warnings = append(d.Warnings, r.Warnings...)
		out = append(out, *r)
	}
	return out, errors.Join(errs...)
}

// validate validates m, on update when old is not nil; neither changes.
func (v *Validator) validate(ctx context.Context, m, old map[string]any) (*Result, error) {
	gvk := gvkOf(m)
	if gvk.Kind == "" {
		return nil, errors.New("Object 'Kind' is missing")
	}
	if gvk.Version == "" {
		return nil, errors.New("Object 'apiVersion' is missing")
	}
	res := &Result{GVK: gvk}
	if md, ok := m["metadata"].(map[string]any); ok {
		res.Name, _ = md["name"].(string)
		res.Namespace, _ = md["namespace"].(string)
	}
	if kdvschema.IsCRD(gvk.GroupVersion().String(), gvk.Kind) {
		if old != nil {
			return nil, errors.New("kdv: updates of CustomResourceDefinitions are not supported; Validate checks one as a create")
		}
		return v.checkCRD(m, res)
	}
	rv, err := v.reg.Validator(gvk)
	if err != nil {
		return nil, err
	}
	out := rv.Validate(ctx, m, old)
	if out.DecodeErr != nil {
		res.DecodeError = out.DecodeErr.Error()
		return res, nil
	}
	res.DecodeError, res.DecodeErrorField = out.DecodeError, out.DecodeErrorField
	switch v.fieldValidation {
	case metav1.FieldValidationStrict:
		res.UnknownFields = out.UnknownFields
	case metav1.FieldValidationWarn:
		res.Warnings = append(res.Warnings, out.UnknownFields...)
	}
	res.Errors = out.Errors
	res.Warnings = append(res.Warnings, out.Warnings...)
	res.Object = out.Object
	if md, ok := out.Object["metadata"].(map[string]any); ok {
		res.Namespace, _ = md["namespace"].(string)
	}
	return res, nil
}

// checkCRD checks a CRD object as the apiserver does on create.
func (v *Validator) checkCRD(m map[string]any, res *Result) (*Result, error) {
	crd, err := kdvschema.ParseCRDObject(m)
	if err != nil {
		return nil, err
	}
	res.Errors, res.Warnings = resource.CheckCRD(crd, resource.CheckOptions{
		KubernetesMinor:     v.minor,
		StrictUnknownFields: v.fieldValidation == metav1.FieldValidationStrict,
	})
	return res, nil
}

// gvkOf reads an object's apiVersion and kind.
func gvkOf(m map[string]any) schema.GroupVersionKind {
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	return schema.FromAPIVersionAndKind(apiVersion, kind)
}

// describe names a GroupVersionKind as apiVersion and kind.
func describe(gvk schema.GroupVersionKind) string {
	return fmt.Sprintf("%s %s", gvk.GroupVersion(), gvk.Kind)
}
