package schema

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// typedItemsInAllOfCRD is a CRD (from deepWideCRD) whose spec schema has
// an allOf holding a chain of about levels array schemas nested through
// items, each with a type, which is not structural inside a junctor: one
// error per level, with a path as long as the level is deep.
func typedItemsInAllOfCRD(levels int) []byte {
	data := []byte{4, 1}
	for levels > 0 {
		k := min((levels+7)/8, 255)
		data = append(data, 0, byte(k))
		levels -= 8 * k
	}
	return deepWideCRD(data)
}

func checkDeep(t testing.TB, levels int) field.ErrorList {
	crd, err := ParseCRD(typedItemsInAllOfCRD(levels))
	if err != nil {
		t.Fatal(err)
	}
	errs, _ := Check(crd, CheckOptions{})
	return errs
}

var notShown = regexp.MustCompile(`^spec\.validation\.openAPIV3Schema: Too many: (\d+) more errors not shown: kdv reports at most 1000 errors \(4 MiB of paths and messages\) per CustomResourceDefinition \(the apiserver reports them all\)$`)

// A schema 10,000 levels deep with an error at each level: the apiserver
// reports every error, each path up to 10,000 levels long (gigabytes of
// text; Check took 30 s and 1.6 GB). Check stops building errors at its
// budget and says how many more there are.
func TestHostileCheckErrorAtEveryLevel(t *testing.T) {
	// Errors per level, from two depths below the budget.
	small, large := len(checkDeep(t, 80)), len(checkDeep(t, 160))
	perLevel := (large - small) / 80
	if perLevel < 1 || large-small != perLevel*80 {
		t.Fatalf("%d errors at 80 levels, %d at 160: not a fixed number per level", small, large)
	}
	const levels = 9_976 // the decoders' nesting limit, less the CRD around the schema
	doc := typedItemsInAllOfCRD(levels)
	crd, err := ParseCRD(doc)
	if err != nil {
		t.Fatal(err)
	}
	var errs field.ErrorList
	checkBounded(t, "CRD schema with an error at each of 9,976 levels", func() { errs, _ = Check(crd, CheckOptions{}) })
	if len(errs) < 2 || len(errs) > MaxCheckErrors+1 {
		t.Fatalf("%d errors, want between 2 and %d", len(errs), MaxCheckErrors+1)
	}
	text := 0
	for _, e := range errs[:len(errs)-1] {
		text += len(e.Field) + len(e.Detail)
		// The errors shown are the apiserver's (those of a level's type).
		if !strings.HasSuffix(e.Field, ".type") || e.ErrorBody() != "Forbidden: must be empty to be structural" {
			t.Fatalf("unexpected error %.200s", e.Error())
		}
	}
	if text > MaxCheckErrorBytes+len(doc) {
		t.Errorf("%d bytes of paths and details, want at most %d and one error", text, MaxCheckErrorBytes)
	}
	last := errs[len(errs)-1]
	m := notShown.FindStringSubmatch(last.Error())
	if m == nil {
		t.Fatalf("last error %q, want one matching %s", last.Error(), notShown)
	}
	// The notice counts exactly the errors not shown.
	more, _ := strconv.Atoi(m[1])
	if want := small + perLevel*(levels-80); len(errs)-1+more != want {
		t.Errorf("%d errors shown and %d more, want %d in all", len(errs)-1, more, want)
	}
}

// ValidateStructural alone is bounded the same way.
func TestValidateStructuralErrorBudget(t *testing.T) {
	crd, err := ParseCRD(typedItemsInAllOfCRD(5000))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStructural(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	errs := ValidateStructural(field.NewPath("x"), s)
	if len(errs) > MaxCheckErrors+1 {
		t.Fatalf("%d errors", len(errs))
	}
	if last := errs[len(errs)-1].Error(); !strings.HasPrefix(last, "x: Too many: ") || !strings.Contains(last, "more errors not shown") {
		t.Errorf("last error %q, want the notice", last)
	}
}

func TestTooManyErrorsText(t *testing.T) {
	for _, tc := range []struct {
		n       int
		atLeast bool
		want    string
	}{
		{1, false, "spec: Too many: 1 more error not shown: kdv reports at most 1000 errors (4 MiB of paths and messages) per CustomResourceDefinition (the apiserver reports them all)"},
		{7, true, "spec: Too many: at least 7 more errors not shown: kdv reports at most 1000 errors (4 MiB of paths and messages) per CustomResourceDefinition (the apiserver reports them all)"},
	} {
		if got := tooManyErrors(nil, tc.n, tc.atLeast).Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
