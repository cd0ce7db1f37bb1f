package validation

import (
	"fmt"
	"math"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// Scale is a CRD version's scale subresource (apiextensions v1
// CustomResourceSubresourceScale): JSON paths such as ".spec.replicas".
type Scale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	// LabelSelectorPath is optional.
	LabelSelectorPath *string
}

// scale mirrors ValidateScaleSpec and ValidateScaleStatus
// (apiextensions-apiserver pkg/registry/customresource/validator.go): the
// replicas at both paths must be integers between 0 and MaxInt32, and the
// label selector, when its path is set, a string.
func (v *Validator) scale(obj value.Value) field.ErrorList {
	sc := v.opts.Scale
	if sc == nil {
		return nil
	}
	u, _ := obj.Unstructured().(map[string]any)
	var errs field.ErrorList
	replicas := func(path string) {
		fields := strings.Split(strings.TrimPrefix(path, "."), ".")
		n, _, err := unstructured.NestedInt64(u, fields...)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(path), n, err.Error()))
		case n < 0:
			errs = append(errs, field.Invalid(field.NewPath(path), n, "should be a non-negative integer"))
		case n > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(path), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	replicas(sc.SpecReplicasPath)
	replicas(sc.StatusReplicasPath)
	if sc.LabelSelectorPath != nil {
		fields := strings.Split(strings.TrimPrefix(*sc.LabelSelectorPath, "."), ".")
		s, _, err := unstructured.NestedString(u, fields...)
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(*sc.LabelSelectorPath), s, err.Error()))
		}
	}
	return errs
}
