package formats

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/formats/internal/core"
)

// The scheduler's legacy annotations hold JSON that the apiserver decodes
// before validating it (k8s.io/kubernetes pkg/apis/core/validation
// ValidateTolerationsInPodAnnotations, ValidateTaintsInNodeAnnotations,
// ValidateAvoidPodsInNodeAnnotations). A value that does not decode is one
// error whose detail is encoding/json's own text, which names the Go type
// decoded into: these formats decode into the same types (internal ones
// mirrored in formats/internal/core, v1.AvoidPods itself) so the text is
// the apiserver's. The empty value is valid (the apiserver skips it).
// The errors carry the value as the bad value; the overlay's rules report
// them as the apiserver does (at metadata.annotations, the key as value).
func init() {
	handWrittenFormats["k8s-tolerations-annotation"] = annotationFormat(func(b []byte) error {
		var v []core.Toleration
		return json.Unmarshal(b, &v)
	})
	handWrittenFormats["k8s-taints-annotation"] = annotationFormat(func(b []byte) error {
		var v []core.Taint
		return json.Unmarshal(b, &v)
	})
	handWrittenFormats["k8s-avoid-pods-annotation"] = annotationFormat(func(b []byte) error {
		var v corev1.AvoidPods
		return json.Unmarshal(b, &v)
	})
}

// annotationFormat is the named format of an annotation whose value decode
// decodes.
func annotationFormat(decode func([]byte) error) *namedFormat {
	errs := func(fldPath *field.Path, s string) field.ErrorList {
		if s == "" {
			return nil
		}
		if err := decode([]byte(s)); err != nil {
			return field.ErrorList{field.Invalid(fldPath, s, err.Error())}
		}
		return nil
	}
	return &namedFormat{
		valid: func(s string) bool { return len(errs(nil, s)) == 0 },
		errs:  errs,
	}
}
