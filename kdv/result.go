package kdv

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/report"
)

// Result is the verdict on one object. The apiserver accepts the object
// when Valid reports true; Err returns the error it answers otherwise.
type Result struct {
	// GVK, Namespace and Name identify the object. Namespace is the one it
	// is validated in ("default" for a namespaced object without one).
	GVK       schema.GroupVersionKind
	Namespace string
	Name      string

	// Errors are the validation errors, with the apiserver's field paths,
	// types and messages, in its order: the causes of its 422 Invalid.
	// With unknown fields (Strict) they are those of the pruned object,
	// which the apiserver would report once the fields are removed.
	Errors field.ErrorList
	// UnknownFields are, with WithFieldValidation("Strict") (the
	// default), the fields the schema does not know, each as the
	// apiserver's strict decoding error words it, `unknown field
	// "spec.colour"`. The apiserver answers them with a 400 Bad Request
	// before validating.
	UnknownFields []string
	// DecodeError is the apiserver's 400 Bad Request for an object it
	// cannot decode at all: for a built-in kind, a value its Go type
	// cannot hold (`Deployment in version "v1" cannot be handled as a
	// Deployment: json: cannot unmarshal string into Go struct field
	// DeploymentSpec.spec.replicas of type int32`); for any kind, metadata
	// that is not an ObjectMeta. Nothing else is then reported.
	DecodeError string
	// DecodeErrorField is the field path DecodeError is about, when known.
	DecodeErrorField string
	// Warnings are what the apiserver accepts but warns about: with
	// WithFieldValidation("Warn"), each unknown field (`unknown field
	// "spec.x"`); errors ratcheted on update (on values the update left
	// unchanged); fields of disabled feature gates dropped; for a CRD,
	// its checks' warnings; with ValidateYAML, repeated keys first.
	Warnings []string

	// Object is the object as the apiserver would store it: pruned and
	// defaulted (nil with DecodeError). It is Result's own.
	Object map[string]any

	// Index and Line locate the object in ValidateYAML's input: the
	// 0-based document index (items of a List share their List's) and the
	// 1-based line where it starts; 0 for Validate and ValidateUpdate.
	Index, Line int
}

// Valid reports whether the apiserver would accept the object.
func (r *Result) Valid() bool {
	return r.DecodeError == "" && len(r.UnknownFields) == 0 && len(r.Errors) == 0
}

// Err returns nil when the object is valid, otherwise the error the
// apiserver answers, an *apierrors.StatusError, so that a test can compare
// it with what a real apiserver (envtest) returns: for a DecodeError or
// unknown fields, apierrors.NewBadRequest with the apiserver's message
// (`GatewayClass in version "v1" cannot be handled as a GatewayClass:
// strict decoding error: unknown field "spec.colour"`); for Errors,
// apierrors.NewInvalid(GVK.GroupKind(), Name, Errors), whose message is
// `GatewayClass.gateway.networking.k8s.io "name" is invalid: spec.x:
// ...`. apierrors.IsInvalid and IsBadRequest tell them apart.
func (r *Result) Err() error {
	if r.Valid() {
		return nil
	}
	d := report.DocumentResult{GVK: r.GVK, Name: r.Name, Errors: r.Errors, UnknownFields: r.UnknownFields, DecodeError: r.DecodeError}
	return &apierrors.StatusError{ErrStatus: d.Status()}
}
