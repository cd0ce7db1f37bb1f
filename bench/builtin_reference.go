package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/capabilities"
	"sigs.k8s.io/yaml"
)

// BuiltinVerdict is the apiserver's answer to a create or update of one
// built-in object, from k8s.io/kubernetes's own code.
type BuiltinVerdict struct {
	GVK             schema.GroupVersionKind
	Namespace, Name string
	// DecodeErr is the 400 the request handler returns when the body does
	// not decode into the typed object (`Deployment in version "v1" cannot
	// be handled as a Deployment: ...`); Unknown then holds the strict
	// decoding errors in it (`unknown field "spec.x"`, `duplicate field
	// "y"`), empty for other decode errors (type errors). Nothing is
	// validated after a decode error.
	DecodeErr string
	Unknown   []string
	// Errors are the validation errors of BeforeCreate/BeforeUpdate, in the
	// apiserver's order.
	Errors field.ErrorList
	// Warnings are the strategy's WarningsOnCreate/WarningsOnUpdate, which
	// the apiserver returns only for valid objects.
	Warnings []string
}

// Rejected reports whether the apiserver refuses the request.
func (v *BuiltinVerdict) Rejected() bool { return v.DecodeErr != "" || len(v.Errors) > 0 }

func init() {
	// kube-apiserver's --allow-privileged defaults to false, but kubeadm,
	// kind, and managed clusters set it: privileged containers are allowed.
	capabilities.Setup(true, 0)
}

// ErrNotServed is returned (wrapped) for objects whose group/version/kind
// the reference has no strategy for or 1.37 does not serve by default.
var ErrNotServed = errors.New("kind not served by the built-in reference")

// CheckBuiltin runs the apiserver's handling of a create (old == nil) or
// an update of one built-in object given as a JSON or YAML document. YAML
// is converted to JSON as kubectl does before sending (sigs.k8s.io/yaml,
// duplicate keys: last wins); JSON is sent as is, so duplicate keys are
// strict decoding errors. The steps are those of the create and update
// handlers and the generic registry store:
//
//   - strict decoding with the legacyscheme codec into the versioned type,
//     the scheme's defaulters and conversion to the internal type
//     (fieldValidation=Strict, kubectl's default); a decode error is the
//     handler's 400 (transformDecodeError);
//   - WipeObjectMetaSystemFields and the request namespace: the object's,
//     "default" when it has none, "" for cluster-scoped kinds (whose
//     metadata.namespace is then cleared);
//   - FillObjectMetaSystemFields and name generation (store.create);
//   - rest.BeforeCreate's / BeforeUpdate's steps, with
//     rest.ValidateCreate / ValidateUpdate for the field errors (strategy
//     validation, ObjectMeta checks, declarative validation with the
//     default feature gates), and the strategy's warnings.
//
// On update, old goes through the same decode, PrepareForCreate and
// Validate, as the stored object did, and both carry resourceVersion "1"
// (manifests have none; the store requires one). An update is a PUT of the
// document (kubectl replace), not kubectl apply's patch of the live
// object: fields the server filled in on create are missing from it unless
// the storage restores them (Service cluster IPs and node ports are; a
// Job's generated selector is not, so a Job update without it is rejected,
// as kubectl replace of a Job is). Admission (LimitRanger, ServiceAccount,
// DefaultStorageClass, PodSecurity, ...) and the storage layer's own steps
// (Service IP allocation, name conflicts) are not run.
//
// The error is for inputs the reference cannot judge: not an object, no
// apiVersion/kind, a kind not in builtinKinds (ErrNotServed), or an old
// object that does not decode.
func CheckBuiltin(doc, old []byte) (*BuiltinVerdict, error) {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	k, gvk, j, err := lookupBuiltin(doc)
	if err != nil {
		return nil, err
	}
	v := &BuiltinVerdict{GVK: gvk}
	obj, err := decodeBuiltin(j, gvk)
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
	// The handler's check, then BeforeCreate/BeforeUpdate's: the same
	// namespace, so it never fails here; it clears metadata.namespace on
	// cluster-scoped kinds.
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
	if old == nil {
		v.Errors, v.Warnings = beforeCreate(ctx, k, obj, om)
		return v, nil
	}
	oldObj, err := storedBuiltin(ctx, k, gvk, old)
	if err != nil {
		return nil, fmt.Errorf("old object: %w", err)
	}
	if om.GetResourceVersion() == "" {
		om.SetResourceVersion("1")
	}
	if k.beginUpdate != nil {
		k.beginUpdate(obj, oldObj)
	}
	v.Errors, v.Warnings = beforeUpdate(ctx, k.strategy, obj, oldObj, om)
	return v, nil
}

// toJSON converts a YAML document to JSON as kubectl does; JSON is kept
// byte for byte.
func toJSON(doc []byte) ([]byte, error) {
	if t := bytes.TrimSpace(doc); len(t) > 0 && t[0] == '{' {
		return doc, nil
	}
	return yaml.YAMLToJSON(doc)
}

// lookupBuiltin finds the strategy of a document's kind, as kubectl finds
// the URL it posts to from apiVersion and kind.
func lookupBuiltin(doc []byte) (builtinKind, schema.GroupVersionKind, []byte, error) {
	j, err := toJSON(doc)
	if err != nil {
		return builtinKind{}, schema.GroupVersionKind{}, nil, err
	}
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(j, &tm); err != nil {
		return builtinKind{}, schema.GroupVersionKind{}, nil, fmt.Errorf("reading apiVersion and kind: %w", err)
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		return builtinKind{}, schema.GroupVersionKind{}, nil, fmt.Errorf("apiVersion or kind missing")
	}
	gv, err := schema.ParseGroupVersion(tm.APIVersion)
	if err != nil {
		return builtinKind{}, schema.GroupVersionKind{}, nil, err
	}
	gvk := gv.WithKind(tm.Kind)
	k, ok := builtinKinds[gvk.GroupKind()]
	if !ok || !servedVersion(k, gvk.Version) {
		return builtinKind{}, gvk, nil, fmt.Errorf("%s: %w", gvk, ErrNotServed)
	}
	return k, gvk, j, nil
}

func servedVersion(k builtinKind, v string) bool {
	for _, s := range k.versions {
		if s == v {
			return true
		}
	}
	return false
}

// decodeBuiltin is the create/update handler's decode: the strict JSON
// serializer, then defaulting and conversion to the internal version
// (CodecFactory.DecoderToVersion), into the kind's internal type. Errors
// are worded as transformDecodeError words them, and wrap the decoder's.
func decodeBuiltin(j []byte, gvk schema.GroupVersionKind) (runtime.Object, error) {
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

// storedBuiltin is the old object of an update as the store holds it:
// decoded and prepared as on create, with system fields.
func storedBuiltin(ctx context.Context, k builtinKind, gvk schema.GroupVersionKind, old []byte) (runtime.Object, error) {
	ok, ogvk, j, err := lookupBuiltin(old)
	if err != nil {
		return nil, err
	}
	if ok.resource != k.resource || ogvk.GroupKind() != gvk.GroupKind() {
		return nil, fmt.Errorf("old object is a %s, not a %s", ogvk, gvk)
	}
	obj, err := decodeBuiltin(j, ogvk)
	if err != nil {
		return nil, err
	}
	om, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	rest.WipeObjectMetaSystemFields(om)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(request.NamespaceValue(ctx), k.strategy.NamespaceScoped()), om); err != nil {
		return nil, err
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
	_ = rest.ValidateCreate(ctx, obj, k.strategy)
	om.SetResourceVersion("1")
	return obj, nil
}

// beforeCreate is store.create's metadata initialisation, its BeginCreate
// hook and rest.BeforeCreate, returning the field errors instead of a
// StatusError.
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
	if errs := rest.ValidateCreate(ctx, obj, s); len(errs) > 0 {
		return errs, nil
	}
	return nil, s.WarningsOnCreate(ctx, obj)
}

// beforeUpdate is rest.BeforeUpdate, returning the field errors instead of
// a StatusError.
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
	if errs := rest.ValidateUpdate(ctx, obj, old, s); len(errs) > 0 {
		return errs, nil
	}
	return nil, s.WarningsOnUpdate(ctx, obj, old)
}

// String renders the verdict one line per problem, as the differential
// tests and cmd/builtin-verdict print it.
func (v *BuiltinVerdict) String() string {
	var b strings.Builder
	if v.DecodeErr != "" {
		fmt.Fprintf(&b, "decode error: %s\n", v.DecodeErr)
	}
	for _, e := range v.Errors {
		fmt.Fprintf(&b, "%s\n", e.Error())
	}
	for _, w := range v.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if b.Len() == 0 {
		return "(valid)\n"
	}
	return b.String()
}
