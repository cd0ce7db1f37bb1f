package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kdv.dev/idl"
)

func load(t *testing.T, patterns ...string) *idl.Universe {
	t.Helper()
	u, err := idl.Load(idl.Options{}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Packages) != len(patterns) {
		t.Fatalf("%d packages for %v", len(u.Packages), patterns)
	}
	return u
}

// lines renders findings as "<positions, base names>: <the rest>".
func lines(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		for i, p := range f.Positions {
			f.Positions[i] = filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		}
		out = append(out, f.String())
	}
	return out
}

// TestChecks is the table test of the single-version checks: each case is
// a small package under testdata with one mistake, and the one finding it
// must give (with the line of the field or type).
func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		want []string
	}{{
		pkg:  "requireddefault",
		want: []string{"v1/types.go:26: requireddefault.lint.kdv.dev/ThingSpec v1 size: required-with-default: required field has a default (+default=3): the default is applied before validation, so the field is never missing; make it optional (API conventions: fields with defaults are optional)"},
	}, {
		pkg:  "enumnovalues",
		want: []string{"v1/types.go:23: enumnovalues.lint.kdv.dev/Mode v1: enum-no-values: Mode is an enum (+enum) but declares no constants: no value is allowed by name and the schema publishes no enum, so any string is accepted"},
	}, {
		pkg:  "listnotype",
		want: []string{"v1/types.go:26: listnotype.lint.kdv.dev/Thing v1 spec.names: list-no-list-type: list without +listType: it is atomic by default, so server-side apply replaces it whole and CEL rules cannot correlate its items; say +listType=atomic, set or map"},
	}, {
		pkg:  "maplistnokeys",
		want: []string{"v1/types.go:34: maplistnokeys.lint.kdv.dev/Thing v1 spec.ports: map-list-no-keys: +listType=map without +listMapKey: the apiserver rejects a map list without keys"},
	}, {
		pkg:  "oldselfset",
		want: []string{`v1/types.go:26: oldselfset.lint.kdv.dev/Thing v1 spec.ports[*].number: oldself-uncorrelatable: rule "self == oldSelf" uses oldSelf inside the list spec.ports, which is not a map list: the old value of its items cannot be found, so the apiserver rejects the schema; make spec.ports +listType=map or drop oldSelf`},
	}, {
		pkg: "rulecost",
		want: []string{
			"v1/types.go:12: rulecost.lint.kdv.dev/Thing v1: rule-cost: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared); the per-rule budget is 10000000 (cel.StaticEstimatedCostLimit) and the whole schema's 100000000 (cel.StaticEstimatedCRDCostLimit); add +maxItems, +maxProperties or +maxLength to the lists, maps and strings the rule reaches",
			"v1/types.go:27: rulecost.lint.kdv.dev/Thing v1 spec.names: rule-cost: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared); the per-rule budget is 10000000 (cel.StaticEstimatedCostLimit) and the whole schema's 100000000 (cel.StaticEstimatedCRDCostLimit); add +maxItems, +maxProperties or +maxLength to the lists, maps and strings the rule reaches",
			"v1/types.go:27: rulecost.lint.kdv.dev/Thing v1 spec.names: rule-cost: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
		},
	}} {
		t.Run(tc.pkg, func(t *testing.T) {
			fs, err := Run(load(t, "./testdata/"+tc.pkg+"/v1"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(fs); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestVersions: two versions of one CRD-style kind whose validation
// differs on two fields (maxLength 10 to 5 and a changed rule on label, an
// enum value dropped on color) and agrees on a third.
func TestVersions(t *testing.T) {
	fs, err := Run(load(t, "./testdata/versions/v1", "./testdata/versions/v2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`v1/types.go:32, v2/types.go:32: versions.lint.kdv.dev/Thing v1→v2 spec.color: differs:enum-value-removed: enum value "Blue" removed`,
		"v1/types.go:27, v2/types.go:27: versions.lint.kdv.dev/Thing v1→v2 spec.label: differs:max-tightened: maxLength tightened from 10 to 5",
		`v1/types.go:27, v2/types.go:27: versions.lint.kdv.dev/Thing v1→v2 spec.label: differs:rule-added: rule "self.size() > 1" added`,
		`v1/types.go:27, v2/types.go:27: versions.lint.kdv.dev/Thing v1→v2 spec.label: differs:rule-removed: rule "self.size() > 0" removed`,
	}
	if got := lines(fs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One version alone has nothing to compare.
	if fs, _ := Run(load(t, "./testdata/versions/v2"), Options{}); len(fs) != 0 {
		t.Errorf("v2 alone: %v", fs)
	}
}

// TestAutoscaling lints k8s.io/api autoscaling/v1 and v2 (from the module
// cache): three differences, checked by hand against the sources (v0.37.2):
// v1's CrossVersionObjectReference is +structType=atomic (v1/types.go:26),
// v2's is not; v1's status.currentReplicas has no omitempty (required, zero
// default), v2's is +optional with omitempty. The committed exception file
// silences all three.
func TestAutoscaling(t *testing.T) {
	fs, err := Run(load(t, "k8s.io/api/autoscaling/v1", "k8s.io/api/autoscaling/v2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"v1/types.go:45, v2/types.go:56: autoscaling/HorizontalPodAutoscaler v1→v2 spec.scaleTargetRef: differs:map-type-changed: x-kubernetes-map-type changed from atomic to granular",
		"v1/types.go:81, v2/types.go:420: autoscaling/HorizontalPodAutoscaler v1→v2 status.currentReplicas: differs:default-removed: default 0 removed: new objects that leave it unset no longer get it",
		"v1/types.go:81, v2/types.go:420: autoscaling/HorizontalPodAutoscaler v1→v2 status.currentReplicas: differs:required-removed: field no longer required",
	}
	got := lines(append([]Finding(nil), fs...))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	data, err := os.ReadFile("testdata/autoscaling.exceptions")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := ParseExceptions("autoscaling.exceptions", data)
	if err != nil {
		t.Fatal(err)
	}
	if unused := ex.Apply(fs); len(unused) != 0 || Failing(fs) != 0 {
		t.Errorf("unused %v, %d failing", unused, Failing(fs))
	}
	var out bytes.Buffer
	if err := Write(&out, "text", fs, nil, false); err != nil || out.String() != "3 findings: 0 failing, 3 excepted\n" {
		t.Errorf("text: %v %q", err, out.String())
	}
	out.Reset()
	var doc struct{ Findings []Finding }
	if err := Write(&out, "json", fs, nil, false); err != nil || json.Unmarshal(out.Bytes(), &doc) != nil || len(doc.Findings) != 3 || doc.Findings[0].Excepted == "" {
		t.Errorf("json: %v %s", err, out.String())
	}
}

func TestParseExceptions(t *testing.T) {
	ex, err := ParseExceptions("x", []byte("# comment\n\ng/K spec.a differs:max-tightened: on purpose\ng/K spec.b:\nnonsense\ng/K spec.a differs:max-tightened: again\ng/K spec.c: every check\n"))
	for _, want := range []string{"x:4: g/K spec.b: no reason given", `x:5: want "<object> <path> <check>: <reason>", got "nonsense"`, "x:6: g/K spec.a differs:max-tightened already excepted on line 3"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	fs := []Finding{
		{Object: "g/K", Path: "spec.a", Check: "differs:max-tightened"},
		{Object: "g/K", Path: "spec.a", Check: "differs:rule-added"},
		{Object: "g/K", Path: "spec.c", Check: "differs:rule-added"},
	}
	if unused := ex.Apply(fs); len(unused) != 0 {
		t.Errorf("unused: %v", unused)
	}
	if fs[0].Excepted != "on purpose" || fs[1].Excepted != "" || fs[2].Excepted != "every check" || Failing(fs) != 1 {
		t.Errorf("%+v", fs)
	}
	ex, _ = ParseExceptions("y", []byte("g/K spec.z: gone\n"))
	if unused := ex.Apply(fs); strings.Join(unused, "") != "y:1: g/K spec.z" {
		t.Errorf("unused: %v", unused)
	}
}

func TestVersionLess(t *testing.T) {
	order := []string{"v1alpha1", "v1beta1", "v1beta2", "v1", "v2alpha1", "v2beta2", "v2", "v10", "foo"}
	for i := range order {
		for j := range order {
			if got := versionLess(order[i], order[j]); got != (i < j) {
				t.Errorf("versionLess(%s, %s) = %v", order[i], order[j], got)
			}
		}
	}
}
