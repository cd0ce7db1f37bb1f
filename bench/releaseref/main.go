//go:build releaseref

// Command releaseref is the built-in reference of bench (CheckBuiltin) for
// an older Kubernetes release: it is compiled against that release's
// k8s.io/kubernetes in a scratch module (bench's BuildReleaseRef), since
// bench's own module holds k8s.io/kubernetes v1.37.
//
// It reads cases as JSON lines on stdin, {"obj": <object>, "old": <object
// or null>}, and writes one JSON line per case (Verdict): the handler's
// decode error and strict-decoding errors, or the field errors of the
// registry strategy's create or update validation, and its warnings.
//
// The steps are those of Kubernetes 1.30 to 1.35's create and update
// handlers, generic store and rest.BeforeCreate/BeforeUpdate, which differ
// from 1.37's (bench/builtin_reference.go): no rest.ValidateCreate or
// ValidateUpdate (declarative validation, where a release has it, runs
// inside the strategies), and the ObjectMeta checks of create run only
// when the strategy's own validation passed, with
// path.ValidatePathSegmentName.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/capabilities"
)

// Case is one request: a create (Old empty or null) or an update of Old.
type Case struct {
	Obj json.RawMessage `json:"obj"`
	Old json.RawMessage `json:"old"`
}

// Verdict is the answer to one case, as bench.BuiltinVerdict holds it.
type Verdict struct {
	// Err is set when the reference cannot judge the case: not an object,
	// a kind this release does not serve (NotServed), an old object that
	// does not decode, a panic.
	Err       string `json:"err,omitempty"`
	NotServed bool   `json:"notServed,omitempty"`

	Group     string       `json:"group,omitempty"`
	Version   string       `json:"version,omitempty"`
	Kind      string       `json:"kind,omitempty"`
	Namespace string       `json:"namespace,omitempty"`
	Name      string       `json:"name,omitempty"`
	DecodeErr string       `json:"decodeErr,omitempty"`
	Unknown   []string     `json:"unknown,omitempty"`
	Errors    []FieldError `json:"errors,omitempty"`
	Warnings  []string     `json:"warnings,omitempty"`
	// OldInvalid marks an update whose old object this release rejects
	// on create (its strategy's validation fails): it cannot have been
	// created by this release, only by another one.
	OldInvalid bool `json:"oldInvalid,omitempty"`
}

// FieldError is one field.Error, with Error()'s full message.
type FieldError struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

// errNotServed marks kinds the release does not serve by default (or the
// reference has no strategy for).
var errNotServed = errors.New("kind not served by the built-in reference")

func main() {
	// kube-apiserver's --allow-privileged defaults to false, but kubeadm,
	// kind, and managed clusters set it: privileged containers are allowed.
	capabilities.Setup(true, 0)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if err := enc.Encode(judge(line)); err != nil {
				fmt.Fprintln(os.Stderr, "releaseref:", err)
				os.Exit(1)
			}
			// One answer per line, at once: the caller may wait for it.
			if err := out.Flush(); err != nil {
				fmt.Fprintln(os.Stderr, "releaseref:", err)
				os.Exit(1)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "releaseref:", err)
			os.Exit(1)
		}
	}
}

// judge answers one input line; a panic of the release's code is an Err,
// not the end of the process.
func judge(line []byte) (v *Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = &Verdict{Err: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
		}
	}()
	var c Case
	if err := json.Unmarshal(line, &c); err != nil {
		return &Verdict{Err: fmt.Sprintf("reading the case: %v", err)}
	}
	var old []byte
	if len(c.Old) > 0 && string(c.Old) != "null" {
		old = c.Old
	}
	v, err := check(c.Obj, old)
	if err != nil {
		return &Verdict{Err: err.Error(), NotServed: errors.Is(err, errNotServed)}
	}
	return v
}

// check is bench.CheckBuiltin with this release's steps (see the package
// comment).
func check(doc, old []byte) (*Verdict, error) {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	k, gvk, err := lookup(doc)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
	obj, err := decode(doc, gvk)
	if err != nil {
		v.DecodeErr = err.Error()
		if se, ok := runtime.AsStrictDecodingError(errors.Unwrap(err)); ok {
			for _, e := range se.Errors() {
				v.Unknown = append(v.Unknown, e.Error())
			}
		}
		return v, nil
	}
	om, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	rest.WipeObjectMetaSystemFields(om)
	reqNS := ""
	if k.strategy.NamespaceScoped() {
		reqNS = om.GetNamespace()
		if reqNS == "" {
			reqNS = metav1.NamespaceDefault
		}
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(reqNS, k.strategy.NamespaceScoped()), om); err != nil {
		return nil, err
	}
	ctx = request.WithNamespace(ctx, reqNS)
	verb := "create"
	if old != nil {
		verb = "update"
	}
	ctx = request.WithRequestInfo(ctx, &request.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIGroup: gvk.Group, APIVersion: gvk.Version,
		Resource: k.resource, Namespace: reqNS, Name: om.GetName(),
	})
	v.Namespace, v.Name = om.GetNamespace(), om.GetName()
	var errs field.ErrorList
	if old == nil {
		errs, v.Warnings = beforeCreate(ctx, k, obj, om)
	} else {
		oldObj, oldErrs, err := stored(ctx, k, gvk, old)
		v.OldInvalid = len(oldErrs) > 0
		if err != nil {
			return nil, fmt.Errorf("old object: %w", err)
		}
		if om.GetResourceVersion() == "" {
			om.SetResourceVersion("1")
		}
		if k.beginUpdate != nil {
			k.beginUpdate(obj, oldObj)
		}
		errs, v.Warnings = beforeUpdate(ctx, k.strategy, obj, oldObj, om)
	}
	for _, e := range errs {
		v.Errors = append(v.Errors, FieldError{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()})
	}
	return v, nil
}

// lookup finds the strategy of a JSON document's kind, as kubectl finds
// the URL it posts to from apiVersion and kind.
func lookup(doc []byte) (builtinKind, schema.GroupVersionKind, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(doc, &tm); err != nil {
		return builtinKind{}, schema.GroupVersionKind{}, fmt.Errorf("reading apiVersion and kind: %w", err)
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		return builtinKind{}, schema.GroupVersionKind{}, fmt.Errorf("apiVersion or kind missing")
	}
	gv, err := schema.ParseGroupVersion(tm.APIVersion)
	if err != nil {
		return builtinKind{}, schema.GroupVersionKind{}, err
	}
	gvk := gv.WithKind(tm.Kind)
	k, ok := builtinKinds[gvk.GroupKind()]
	if !ok || !servedVersion(k, gvk.Version) {
		return builtinKind{}, gvk, fmt.Errorf("%s: %w", gvk, errNotServed)
	}
	return k, gvk, nil
}

func servedVersion(k builtinKind, v string) bool {
	for _, s := range k.versions {
		if s == v {
			return true
		}
	}
	return false
}

// decode is the create/update handler's decode: the strict JSON
// serializer, then defaulting and conversion to the internal version,
// worded as transformDecodeError words it.
func decode(j []byte, gvk schema.GroupVersionKind) (runtime.Object, error) {
	internal := gvk.GroupKind().WithVersion(runtime.APIVersionInternal)
	into, err := legacyscheme.Scheme.New(internal)
	if err != nil {
		return nil, err
	}
	info, ok := runtime.SerializerInfoForMediaType(legacyscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok || info.StrictSerializer == nil {
		return nil, fmt.Errorf("no strict JSON serializer")
	}
	dec := legacyscheme.Codecs.DecoderToVersion(info.StrictSerializer, internal.GroupVersion())
	obj, got, err := dec.Decode(j, &gvk, into)
	if err != nil {
		kind := internal.Kind
		if kinds, _, kerr := legacyscheme.Scheme.ObjectKinds(into); kerr == nil {
			kind = kinds[0].Kind
		}
		if got != nil && got.Kind != "" {
			return nil, &decodeError{fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", got.Kind, got.Version, kind, err), err}
		}
		return nil, &decodeError{fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v", kind, err), err}
	}
	if got.GroupVersion() != gvk.GroupVersion() {
		return nil, &decodeError{fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", got.GroupVersion(), gvk.GroupVersion()), nil}
	}
	return obj, nil
}

// decodeError is a 400 from the handler's decode step.
type decodeError struct {
	msg string
	err error
}

func (e *decodeError) Error() string { return e.msg }
func (e *decodeError) Unwrap() error { return e.err }

// stored is the old object of an update as the store holds it: decoded
// and prepared as on create, with system fields. The field errors are
// those of its create validation, which the store has not rejected it for
// (it may have been created by another release).
func stored(ctx context.Context, k builtinKind, gvk schema.GroupVersionKind, old []byte) (runtime.Object, field.ErrorList, error) {
	ok, ogvk, err := lookup(old)
	if err != nil {
		return nil, nil, err
	}
	if ok.resource != k.resource || ogvk.GroupKind() != gvk.GroupKind() {
		return nil, nil, fmt.Errorf("old object is a %s, not a %s", ogvk, gvk)
	}
	obj, err := decode(old, ogvk)
	if err != nil {
		return nil, nil, err
	}
	om, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	rest.WipeObjectMetaSystemFields(om)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(request.NamespaceValue(ctx), k.strategy.NamespaceScoped()), om); err != nil {
		return nil, nil, err
	}
	rest.FillObjectMetaSystemFields(om)
	if om.GetGenerateName() != "" && om.GetName() == "" {
		om.SetName(k.strategy.GenerateName(om.GetGenerateName()))
	}
	if k.beginCreate != nil {
		k.beginCreate(obj)
	}
	k.strategy.PrepareForCreate(ctx, obj)
	// Some strategies complete the object in Validate (the Job strategy
	// generates its selector and labels): the stored object has that done.
	errs := k.strategy.Validate(ctx, obj)
	om.SetResourceVersion("1")
	return obj, errs, nil
}

// beforeCreate is store.create's metadata initialisation, its BeginCreate
// hook and this release's rest.BeforeCreate, returning the field errors
// instead of a StatusError.
func beforeCreate(ctx context.Context, k builtinKind, obj runtime.Object, om metav1.Object) (field.ErrorList, []string) {
	s := k.strategy
	rest.FillObjectMetaSystemFields(om)
	if om.GetGenerateName() != "" && om.GetName() == "" {
		om.SetName(s.GenerateName(om.GetGenerateName()))
	}
	if k.beginCreate != nil {
		k.beginCreate(obj)
	}
	s.PrepareForCreate(ctx, obj)
	if errs := s.Validate(ctx, obj); len(errs) > 0 {
		return errs, nil
	}
	// The common ObjectMeta checks, only after the strategy's passed.
	if errs := genericvalidation.ValidateObjectMetaAccessor(om, s.NamespaceScoped(), path.ValidatePathSegmentName, field.NewPath("metadata")); len(errs) > 0 {
		return errs, nil
	}
	return nil, s.WarningsOnCreate(ctx, obj)
}

// beforeUpdate is this release's rest.BeforeUpdate, returning the field
// errors instead of a StatusError.
func beforeUpdate(ctx context.Context, s builtinStrategy, obj, old runtime.Object, om metav1.Object) (field.ErrorList, []string) {
	oldMeta, err := meta.Accessor(old)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}, nil
	}
	om.SetGeneration(oldMeta.GetGeneration())
	s.PrepareForUpdate(ctx, obj, old)
	if len(om.GetUID()) == 0 {
		om.SetUID(oldMeta.GetUID())
	}
	if t := oldMeta.GetCreationTimestamp(); !t.IsZero() {
		om.SetCreationTimestamp(t)
	}
	if !oldMeta.GetDeletionTimestamp().IsZero() {
		om.SetDeletionTimestamp(oldMeta.GetDeletionTimestamp())
	}
	if oldMeta.GetDeletionGracePeriodSeconds() != nil && om.GetDeletionGracePeriodSeconds() == nil {
		om.SetDeletionGracePeriodSeconds(oldMeta.GetDeletionGracePeriodSeconds())
	}
	// validateCommonFields, then the strategy's update validation.
	errs := genericvalidation.ValidateObjectMetaAccessor(om, s.NamespaceScoped(), path.ValidatePathSegmentName, field.NewPath("metadata"))
	errs = append(errs, genericvalidation.ValidateObjectMetaAccessorUpdate(om, oldMeta, field.NewPath("metadata"))...)
	errs = append(errs, s.ValidateUpdate(ctx, obj, old)...)
	if len(errs) > 0 {
		return errs, nil
	}
	return nil, s.WarningsOnUpdate(ctx, obj, old)
}
