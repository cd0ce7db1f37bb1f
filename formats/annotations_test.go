package formats

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestAnnotationFormats: the details are those of the 1.37 apiserver
// (bench/cmd/builtin-verdict) for the same annotation values.
func TestAnnotationFormats(t *testing.T) {
	r := New(Options{Declarative: true})
	cases := []struct{ format, value, want string }{
		{"k8s-tolerations-annotation", "", ""},
		{"k8s-tolerations-annotation", "null", ""},
		{"k8s-tolerations-annotation", `[{"Key":"a","effect":"NoSchedule"}]`, ""},
		{"k8s-tolerations-annotation", "x", "invalid character 'x' looking for beginning of value"},
		{"k8s-tolerations-annotation", "[", "unexpected end of JSON input"},
		{"k8s-tolerations-annotation", "{}", "json: cannot unmarshal object into Go value of type []core.Toleration"},
		{"k8s-tolerations-annotation", `"s"`, "json: cannot unmarshal string into Go value of type []core.Toleration"},
		{"k8s-tolerations-annotation", `[{"key":1}]`, "json: cannot unmarshal number into Go struct field Toleration.Key of type string"},
		{"k8s-tolerations-annotation", `[{"tolerationSeconds":"a"}]`, "json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64"},
		{"k8s-tolerations-annotation", `[{"operator":5}]`, "json: cannot unmarshal number into Go struct field Toleration.Operator of type core.TolerationOperator"},
		{"k8s-taints-annotation", `[{"key":"k","effect":"NoSchedule"}]`, ""},
		{"k8s-taints-annotation", "x", "invalid character 'x' looking for beginning of value"},
		{"k8s-taints-annotation", `[{"timeAdded":"yesterday"}]`, `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"k8s-taints-annotation", `[{"timeAdded":5}]`, "json: cannot unmarshal number into Go struct field Taint.TimeAdded of type string"},
		{"k8s-taints-annotation", `[{"key":true}]`, "json: cannot unmarshal bool into Go struct field Taint.Key of type string"},
		{"k8s-taints-annotation", `{"a":1}`, "json: cannot unmarshal object into Go value of type []core.Taint"},
		{"k8s-avoid-pods-annotation", `{"preferAvoidPods":[{"podSignature":{}}]}`, ""},
		{"k8s-avoid-pods-annotation", "x", "invalid character 'x' looking for beginning of value"},
		{"k8s-avoid-pods-annotation", "[]", "json: cannot unmarshal array into Go value of type v1.AvoidPods"},
		{"k8s-avoid-pods-annotation", `{"preferAvoidPods":[{"evictionTime":"bad"}]}`, `parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"`},
		{"k8s-avoid-pods-annotation", `{"preferAvoidPods":"a"}`, "json: cannot unmarshal string into Go struct field AvoidPods.preferAvoidPods of type []v1.PreferAvoidPodsEntry"},
	}
	for _, tc := range cases {
		c, ok := r.Lookup(tc.format)
		if !ok {
			t.Fatalf("%s: not known", tc.format)
		}
		errs := c.Errors(field.NewPath("x"), tc.value)
		if got := c.Valid(tc.value); got != (tc.want == "") {
			t.Errorf("%s %q: Valid = %v, want %v", tc.format, tc.value, got, tc.want == "")
		}
		var got string
		if len(errs) > 0 {
			got = errs[0].Detail
		}
		if len(errs) > 1 || got != tc.want {
			t.Errorf("%s %q: errors %v, want detail %q", tc.format, tc.value, errs, tc.want)
		}
	}
}
