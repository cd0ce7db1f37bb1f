package resource

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

// runText validates YAML documents against the built-in schemas of
// Kubernetes 1.<minor> and the CRDs among them.
func runText(t *testing.T, minor int, text string, opts RunOptions) *report.Result {
	t.Helper()
	reg := NewRegistry(Options{KubernetesMinor: minor})
	if err := UseBuiltin(reg, minor); err != nil {
		t.Fatal(err)
	}
	docs, err := manifest.ReadStream("in.yaml", strings.NewReader(text), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), docs, reg, opts)
}

const vacBeta = `apiVersion: storage.k8s.io/v1beta1
kind: VolumeAttributesClass
metadata:
  name: gold
driverName: csi.example.com
parameters:
  iops: "1000"
`

// Built-in API versions by release: deprecated and served (the
// apiserver's warning, validation as usual), removed (an error naming the
// replacement, whatever the document holds, even with
// IgnoreMissingSchemas), introduced later (no schema, saying when).
func TestBuiltinLifecycle(t *testing.T) {
	const warn = "storage.k8s.io/v1beta1 VolumeAttributesClass is deprecated in v1.34+, unavailable in v1.37+; use storage.k8s.io/v1 VolumeAttributesClass"
	for _, minor := range []int{35, 36} {
		res := runText(t, minor, vacBeta, RunOptions{})
		d := res.Documents[0]
		if d.Outcome() != report.Valid || !slices.Equal(d.Warnings, []string{warn}) {
			t.Errorf("1.%d: %v %v %v", minor, d.Outcome(), d.Err, d.Warnings)
		}
		// Still validated: the driver name is required.
		res = runText(t, minor, strings.Replace(vacBeta, "driverName: csi.example.com\n", "", 1), RunOptions{})
		if d := res.Documents[0]; d.Outcome() != report.Invalid || len(d.Warnings) != 1 {
			t.Errorf("1.%d without driverName: %v %v %v", minor, d.Outcome(), d.Errors, d.Warnings)
		}
	}
	// A served version that is not deprecated: no warning.
	res := runText(t, 37, strings.Replace(vacBeta, "v1beta1", "v1", 1), RunOptions{})
	if d := res.Documents[0]; d.Outcome() != report.Valid || len(d.Warnings) != 0 {
		t.Errorf("storage.k8s.io/v1: %v %v %v %v", d.Outcome(), d.Err, d.Errors, d.Warnings)
	}

	removed := []struct {
		minor int
		text  string
		want  string
	}{
		{37, vacBeta, `storage.k8s.io/v1beta1 VolumeAttributesClass was removed in v1.37; use storage.k8s.io/v1 VolumeAttributesClass (no matches for kind "VolumeAttributesClass" in version "storage.k8s.io/v1beta1")`},
		{35, "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  bogus: 1\n",
			`extensions/v1beta1 Ingress was removed in v1.22; use networking.k8s.io/v1 Ingress (no matches for kind "Ingress" in version "extensions/v1beta1")`},
		// Removed without a replacement.
		{37, "apiVersion: networking.k8s.io/v1beta1\nkind: ServiceCIDR\nmetadata:\n  name: c\n",
			`networking.k8s.io/v1beta1 ServiceCIDR was removed in v1.37 (no matches for kind "ServiceCIDR" in version "networking.k8s.io/v1beta1")`},
	}
	for _, tc := range removed {
		for _, ignore := range []bool{false, true} {
			res := runText(t, tc.minor, tc.text, RunOptions{IgnoreMissingSchemas: ignore})
			d := res.Documents[0]
			var re *RemovedAPIError
			if !errors.As(d.Err, &re) || d.ErrKind != report.ErrRemovedAPI || d.Err.Error() != tc.want || d.Skipped {
				t.Errorf("1.%d ignore=%v: %v %q %v, want %q", tc.minor, ignore, d.ErrKind, d.Err, d.SkipReason, tc.want)
			}
			if res.ExitCode() != report.ExitInvalid {
				t.Errorf("1.%d: exit %d", tc.minor, res.ExitCode())
			}
		}
	}

	// Introduced after the release: no schema, and why.
	res = runText(t, 36, "apiVersion: storagemigration.k8s.io/v1\nkind: StorageVersionMigration\nmetadata:\n  name: m\n", RunOptions{})
	d := res.Documents[0]
	if want := "no schema for storagemigration.k8s.io/v1, Kind=StorageVersionMigration (storagemigration.k8s.io/v1 StorageVersionMigration is introduced in v1.37; --kubernetes-version is 1.36)"; d.ErrKind != report.ErrNoSchema || d.Err == nil || d.Err.Error() != want {
		t.Errorf("not yet: %v %v, want %q", d.ErrKind, d.Err, want)
	}
	// Unknown to the lifecycle data: the plain missing schema.
	res = runText(t, 37, "apiVersion: rbac.authorization.k8s.io/v1alpha9\nkind: Role\nmetadata:\n  name: r\n", RunOptions{IgnoreMissingSchemas: true})
	if d := res.Documents[0]; !d.Skipped {
		t.Errorf("unknown version: %v %v", d.Err, d.SkipReason)
	}
}

const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "example.com/v1beta1 Gadget is going away: move to v2"
    schema: {openAPIV3Schema: {type: object}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v2
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
`

// Deprecated CRD versions: the version's deprecationWarning, else the apiextensions-apiserver's default text naming
// the newest served, not deprecated, later version.
func TestCRDDeprecation(t *testing.T) {
	obj := func(v string) string {
		return "---\napiVersion: example.com/" + v + "\nkind: Gadget\nmetadata:\n  name: g\n"
	}
	res := runText(t, 37, gadgetCRD+obj("v1alpha1")+obj("v1beta1")+obj("v1"), RunOptions{})
	want := [][]string{
		nil, // the CRD
		{"example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget"},
		{"example.com/v1beta1 Gadget is going away: move to v2"},
		nil,
	}
	if len(res.Documents) != len(want) {
		t.Fatalf("%d results", len(res.Documents))
	}
	for i, d := range res.Documents {
		if d.Outcome() != report.Valid || !slices.Equal(d.Warnings, want[i]) {
			t.Errorf("document %d: %v %v %v %q, want %q", i, d.Outcome(), d.Err, d.Errors, d.Warnings, want[i])
		}
	}
	// Without a newer served version: no "use".
	crd := strings.Replace(gadgetCRD, "  - name: v1\n    served: true", "  - name: v1\n    served: false", 1)
	res = runText(t, 37, crd+obj("v1alpha1"), RunOptions{})
	if got := res.Documents[1].Warnings; !slices.Equal(got, []string{"example.com/v1alpha1 Gadget is deprecated"}) {
		t.Errorf("no newer version: %q", got)
	}
}
