// Package resource validates whole Kubernetes objects the way the
// kube-apiserver handles a create or update request: it resolves the
// object's schema by group, version and kind (built-in kinds, CRDs, OpenAPI
// documents), then runs the apiserver's decode-time steps (ObjectMeta
// decoding, pruning with unknown-field reporting, null pruning, embedded
// metadata coercion, defaulting) and its validation (ObjectMeta, OpenAPI
// value validation with ratcheting, embedded resources, list types, CEL
// rules), in the apiserver's order. It also checks CRDs as the apiserver
// does on create, with CEL compilation and default validation wired in.
//
// It mirrors k8s.io/apiextensions-apiserver pkg/apiserver
// customresource_handler.go (decoding) and pkg/registry/customresource
// (validation).
package resource

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/cel"
	"kdv.dev/defaulting"
	"kdv.dev/schema"
	"kdv.dev/validation"
)

// CheckOptions configure CheckCRD.
type CheckOptions struct {
	// KubernetesMinor is the 1.x version to check against; 0 means the
	// newest kdv knows (validation.DefaultKubernetesMinor).
	KubernetesMinor int
	// StrictUnknownFields makes unknown schema keys errors, as kubectl's
	// default --validate=strict; otherwise they are warnings.
	StrictUnknownFields bool
}

// CheckCRD returns the errors the apiserver reports when the CRD is
// created, in its order: structural and schema rules (schema.Check), then
// for each structural schema the validation of its defaults (pruned,
// valid against the schema and its CEL rules), then CEL compilation and
// cost estimation. Warnings are the apiserver's warnings (unrecognized
// formats) and kdv's (extensions the apiserver does not know).
func CheckCRD(crd *schema.CRD, opts CheckOptions) (field.ErrorList, []string) {
	minor := opts.KubernetesMinor
	if minor == 0 {
		minor = validation.DefaultKubernetesMinor
	}
	return schema.Check(crd, schema.CheckOptions{
		StrictUnknownFields: opts.StrictUnknownFields,
		ValidateDefaults: func(s *schema.Structural, fldPath *field.Path) field.ErrorList {
			errs, err := defaulting.ValidateDefaultsWith(context.Background(), fldPath, s, true, true, defaulting.NewValidators(minor))
			if err != nil {
				return append(errs, field.InternalError(fldPath, err))
			}
			return errs
		},
		ValidateSchema: func(s *schema.Structural, fldPath *field.Path) field.ErrorList {
			return cel.CheckSchema(s, fldPath, cel.Options{FieldPath: fldPath, KubernetesMinor: minor})
		},
	})
}
