package validation

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestWithoutRepeats: 1.37's strategies filter the error list, which
// drops repeated messages; earlier ones keep the repeated metadata errors
// (k8s.io/kubernetes v1.36.3 lists a bad label twice on update:
// rest.ValidateUpdate's common checks and ValidateObjectMetaUpdate), and
// kdv's own repeats elsewhere are dropped. A valueless Invalid error beside
// the same error with its value is dropped in both.
func TestWithoutRepeats(t *testing.T) {
	labels := field.NewPath("metadata", "labels")
	spec := field.NewPath("spec", "selector")
	list := func() field.ErrorList {
		return field.ErrorList{
			field.Invalid(labels, "bad key!", "name part must consist of alphanumeric characters"),
			field.Invalid(spec, nil, "field is immutable"),
			field.Invalid(labels, "bad key!", "name part must consist of alphanumeric characters"),
			field.Invalid(spec, map[string]any{"app": "a"}, "field is immutable"),
			field.Required(field.NewPath("spec", "policyName"), ""),
			field.Required(field.NewPath("spec", "policyName"), ""),
		}
	}
	for _, c := range []struct {
		dedupe bool
		want   []string
	}{
		{true, []string{`metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`, `spec.selector: Invalid value: {"app":"a"}: field is immutable`, `spec.policyName: Required value`}},
		{false, []string{`metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`, `metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`, `spec.selector: Invalid value: {"app":"a"}: field is immutable`, `spec.policyName: Required value`}},
	} {
		got := withoutRepeats(list(), c.dedupe)
		if len(got) != len(c.want) {
			t.Fatalf("dedupe %v: %d errors %v, want %d", c.dedupe, len(got), got, len(c.want))
		}
		for i, e := range got {
			if e.Error() != c.want[i] {
				t.Errorf("dedupe %v: error %d = %q, want %q", c.dedupe, i, e.Error(), c.want[i])
			}
		}
	}
}
