package defaulting

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/cel"
	"kdv.dev/defaulting/internal/objectmeta"
	"kdv.dev/schema"
	"kdv.dev/validation"
)

// NewValidators returns the Validators ValidateDefaults uses, for the
// Kubernetes 1.x minor version kubernetesMinor (0: the packages' default,
// 1.37): OpenAPI validation by kdv.dev/validation (without CEL, without
// list-type uniqueness, which the apiserver does not check for defaults, and
// with int-or-string fields untyped, as Structural.ToKubeOpenAPI makes
// them) and CEL rules by kdv.dev/cel with the apiserver's per-call limit.
func NewValidators(kubernetesMinor int) Validators {
	return Validators{
		EmbeddedMeta: objectmeta.Validate,
		OpenAPI: func(ctx context.Context, pth *field.Path, obj any, s *schema.Structural) field.ErrorList {
			v, err := validation.New(s, validation.Options{FieldPath: pth, SkipCEL: true, KubernetesMinor: kubernetesMinor, UntypedIntOrString: true})
			if err != nil {
				return field.ErrorList{field.InternalError(pth, err)}
			}
			errs := v.Validate(ctx, obj, nil)
			// ValidateCustomResource is OpenAPI only: list-type
			// uniqueness (Duplicate value) is checked by the strategy,
			// which defaults never go through. uniqueItems, the only
			// OpenAPI source of duplicates, is forbidden in CRDs.
			out := errs[:0]
			for _, e := range errs {
				if e.Type != field.ErrorTypeDuplicate {
					out = append(out, e)
				}
			}
			return out
		},
		CEL: func(ctx context.Context, pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, oldObj any, costBudget int64) (field.ErrorList, int64) {
			// Compile errors are reported by the CRD's own checks; here, as
			// in the apiserver, a broken rule fails at evaluation.
			v, _ := cel.NewValidator(s, isResourceRoot, cel.Options{SkipCheck: true, KubernetesMinor: kubernetesMinor})
			return v.Validate(ctx, pth, obj, oldObj, costBudget)
		},
	}
}
