package validation

import (
	"fmt"
	"strings"
	"testing"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestInKeyOrder: apimachinery lists label and annotation errors in Go's
// map order; after inKeyOrder they come in key order, every time, and
// they are the same errors. The annotations' total size error (no single
// key has it) stays, after the key errors.
func TestInKeyOrder(t *testing.T) {
	meta := &metav1.ObjectMeta{
		Name:   "web",
		Labels: map[string]string{"d": "{{w}}", "a": "{{x}}", "c/x/y": "ok", "b": "{{y}}", "e": "fine"},
		Annotations: map[string]string{
			"B B": "1", "A A": "2", "ok": strings.Repeat("x", 256*1024), "C C": "3",
		},
	}
	p := field.NewPath("metadata")
	want := []string{
		`metadata.labels: Invalid value: "{{x}}"`,
		`metadata.labels: Invalid value: "{{y}}"`,
		`metadata.labels: Invalid value: "c/x/y"`,
		`metadata.labels: Invalid value: "{{w}}"`,
		`metadata.annotations: Invalid value: "A A"`,
		`metadata.annotations: Invalid value: "B B"`,
		`metadata.annotations: Invalid value: "C C"`,
		`metadata.annotations: Too long`,
	}
	var first string
	for i := range 30 {
		errs := metavalidation.ValidateObjectMeta(meta, false, metavalidation.NameIsDNSSubdomain, p)
		n := len(errs)
		errs = inKeyOrder(errs, meta, p)
		if len(errs) != n {
			t.Fatalf("%d errors, want %d", len(errs), n)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		s := strings.Join(got, "\n")
		if i == 0 {
			first = s
			j := 0
			for _, e := range got {
				if j < len(want) && strings.HasPrefix(e, want[j]) {
					j++
				}
			}
			if j != len(want) {
				t.Fatalf("errors not in key order (matched %d of %d):\n%s", j, len(want), s)
			}
		} else if s != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, s, first)
		}
	}
}

// TestReorderKeepsUnknownRuns: a run with more than one error the rebuild
// does not produce is left as it was.
func TestReorderKeepsUnknownRuns(t *testing.T) {
	fld := field.NewPath("metadata", "labels")
	run := field.ErrorList{field.Invalid(fld, "z", "one"), field.Invalid(fld, "y", "two"), field.Invalid(fld, "x", "three")}
	before := fmt.Sprint(run)
	reorder(run, field.ErrorList{field.Invalid(fld, "x", "three")})
	if fmt.Sprint(run) != before {
		t.Errorf("reordered a run it cannot account for: %v", run)
	}
}
