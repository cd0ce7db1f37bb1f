package upgrade

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
)

// builtinRegistry is what kdv upgrade-check uses without --crds and
// --schemas: the built-in schemas of one release.
func builtinRegistry(minor int) (*resource.Registry, error) {
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: minor})
	return reg, resource.UseBuiltin(reg, minor)
}

func check(t *testing.T, from, to int, paths ...string) *Result {
	t.Helper()
	docs, err := manifest.Read(paths, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), docs, Options{From: from, To: to, Registry: builtinRegistry, Run: resource.RunOptions{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func categories(d *Document) []Category {
	var out []Category
	for _, f := range d.Findings {
		out = append(out, f.Category)
	}
	return out
}

// Manifests whose verdict differs between Kubernetes 1.35 and 1.37, in
// both directions (an upgrade and a rollback). The 1.37 verdicts are the
// reference's (bench/cmd/builtin-verdict, k8s.io/kubernetes v1.37.2:
// Service "1abc" valid on create and on update, Deployment with replicas
// -1 invalid; it does not serve VolumeAttributesClass v1beta1, nor the
// storagemigration group at all). The 1.35 verdicts and the lifecycle
// releases come from the sources named in each testdata file: 1.35's
// ValidateServiceName is NameIsDNS1035Label (RelaxedServiceNameValidation,
// KEP-5311, is beta from 1.36), and the +k8s:prerelease-lifecycle-gen tags
// of k8s.io/api v0.37.2 (storage/v1beta1 VolumeAttributesClass removed in
// 1.37, storagemigration/v1beta1 deprecated in 1.37 and removed in 1.40,
// storagemigration/v1 introduced in 1.37).
func TestCheckReleases(t *testing.T) {
	type want struct {
		class    Category
		cats     []Category
		contains []string // in the findings' messages and errors
		stored   string
	}
	cases := []struct {
		file           string
		upgrade, downg want
	}{
		{"service-digit-name.yaml",
			want{class: NewlyAccepted, cats: []Category{NewlyAccepted}, contains: []string{"rejected by 1.35, valid at 1.37", `metadata.name: Invalid value: "1abc": a DNS-1035 label`}},
			// A rollback rejects new Services so named; stored ones still
			// update: ValidateObjectMetaUpdate does not check the name
			// again (it is immutable).
			want{class: NewlyRejected, cats: []Category{NewlyRejected}, contains: []string{"rejected by 1.35 (1 error), valid before", "a DNS-1035 label"}, stored: "accepted"}},
		{"volumeattributesclass-v1beta1.yaml",
			want{class: Removed, cats: []Category{Removed}, contains: []string{"storage.k8s.io/v1beta1 VolumeAttributesClass was removed in v1.37; use storage.k8s.io/v1 VolumeAttributesClass"}},
			// Served (deprecated) by 1.35: a rollback brings it back.
			want{class: Deprecated, cats: []Category{Deprecated, NewlyAccepted}, contains: []string{"storage.k8s.io/v1beta1 VolumeAttributesClass is deprecated in v1.34+, unavailable in v1.37+; use storage.k8s.io/v1 VolumeAttributesClass"}}},
		{"storageversionmigration-v1beta1.yaml",
			want{class: Deprecated, cats: []Category{Deprecated}, contains: []string{"storagemigration.k8s.io/v1beta1 StorageVersionMigration is deprecated in v1.37+, unavailable in v1.40+; use storagemigration.k8s.io/v1 StorageVersionMigration"}},
			want{class: Unaffected}},
		{"storageversionmigration-v1.yaml",
			want{class: NewlyAccepted, cats: []Category{NewlyAccepted}, contains: []string{"storagemigration.k8s.io/v1 StorageVersionMigration is not served by 1.35 (introduced in v1.37)"}},
			want{class: NewlyRejected, cats: []Category{NewlyRejected}, contains: []string{"storagemigration.k8s.io/v1 StorageVersionMigration is not served by 1.35 (introduced in v1.37)"}}},
		{"deployment.yaml", want{class: Unaffected}, want{class: Unaffected}},
		{"deployment-invalid.yaml",
			want{class: Unchanged, cats: []Category{Unchanged}, contains: []string{"rejected by 1.35 and 1.37 (1 error)", "spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
			want{class: Unchanged, cats: []Category{Unchanged}, contains: []string{"rejected by 1.37 and 1.35 (1 error)"}}},
		{"ingress-extensions.yaml",
			want{class: Removed, cats: []Category{Removed}, contains: []string{"extensions/v1beta1 Ingress was removed in v1.22; use networking.k8s.io/v1 Ingress (already not served by 1.35)"}},
			want{class: Removed, cats: []Category{Removed}, contains: []string{"(already not served by 1.37)"}}},
	}
	for _, tc := range cases {
		for _, dir := range []struct {
			from, to int
			w        want
		}{{35, 37, tc.upgrade}, {37, 35, tc.downg}} {
			res := check(t, dir.from, dir.to, filepath.Join("testdata", "releases", tc.file))
			if len(res.Documents) != 1 {
				t.Fatalf("%s: %d documents", tc.file, len(res.Documents))
			}
			d := &res.Documents[0]
			name := tc.file + " " + release(dir.from) + "->" + release(dir.to)
			if d.Class != dir.w.class || !slices.Equal(categories(d), dir.w.cats) {
				t.Errorf("%s: class %s, findings %v; want %s, %v", name, d.Class, categories(d), dir.w.class, dir.w.cats)
			}
			var text []string
			stored := ""
			for _, f := range d.Findings {
				text = append(text, f.Message)
				for _, p := range f.Errors {
					text = append(text, p.Text)
				}
				if f.Category == NewlyRejected {
					stored = f.StoredObjects
				}
			}
			all := strings.Join(text, "\n")
			for _, s := range dir.w.contains {
				if !strings.Contains(all, s) {
					t.Errorf("%s: findings lack %q:\n%s", name, s, all)
				}
			}
			if stored != dir.w.stored {
				t.Errorf("%s: stored objects %q, want %q", name, stored, dir.w.stored)
			}
		}
	}
}

// The removed and deprecated findings carry the release data apart, for
// the JSON output.
func TestRemovedFields(t *testing.T) {
	res := check(t, 35, 37, "testdata/releases/volumeattributesclass-v1beta1.yaml", "testdata/releases/storageversionmigration-v1beta1.yaml")
	got := []Finding{res.Documents[0].Findings[0], res.Documents[1].Findings[0]}
	want := []Finding{
		{Category: Removed, RemovedIn: "1.37", DeprecatedIn: "1.34", Replacement: "storage.k8s.io/v1 VolumeAttributesClass"},
		{Category: Deprecated, RemovedIn: "1.40", DeprecatedIn: "1.37", Replacement: "storagemigration.k8s.io/v1 StorageVersionMigration"},
	}
	for i := range want {
		g := got[i]
		g.Message = ""
		if g.Category != want[i].Category || g.RemovedIn != want[i].RemovedIn || g.DeprecatedIn != want[i].DeprecatedIn || g.Replacement != want[i].Replacement {
			t.Errorf("finding %d: %+v, want %+v", i, g, want[i])
		}
	}
	if code := res.ExitCode(); code != report.ExitInvalid {
		t.Errorf("exit %d, want 1", code)
	}
}

// Options.Registry is the hook for what differs per release beyond the
// built-in schemas (feature gates, once resource models them per cluster):
// here a CRD that changes between the two registries. A new maxLength is
// enforced on create and ratcheted on an unchanged update (KEP-4008,
// apiextensions-apiserver pkg/apiserver/validation/ratcheting.go); a new
// transition rule is checked on update only; a new deprecation warning is
// a changed warning. Two documents with the same name are not compared as
// updates.
func TestRegistryHook(t *testing.T) {
	docs, err := manifest.Read([]string{"testdata/hook/widgets.yaml"}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg := func(minor int) (*resource.Registry, error) {
		r, err := builtinRegistry(minor)
		if err != nil {
			return nil, err
		}
		crd := "testdata/hook/crd-old.yaml"
		if minor == 37 {
			crd = "testdata/hook/crd-new.yaml"
		}
		_, err = resource.LoadCRDs(r, []string{crd}, nil)
		return r, err
	}
	res, err := Check(context.Background(), docs, Options{From: 35, To: 37, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	const (
		warning = "new warning at 1.37: example.kdv.dev/v1 Widget is going away"
		tooLong = "spec.size: Too long: may not be more than 3 bytes"
		// The apiextensions-apiserver does not run CEL rules on an object
		// that failed its OpenAPI validation, and says so.
		celSkipped = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
	)
	want := []struct {
		cats     []Category
		stored   string
		onUpdate bool
		errs     []string
		compared bool
	}{
		{[]Category{NewlyRejected, WarningChanged}, "accepted", false, []string{tooLong, celSkipped}, true},
		{[]Category{NewlyRejected, WarningChanged}, "", true, []string{"spec.generation: Invalid value: 1: must grow on every update"}, true},
		{[]Category{NewlyRejected, WarningChanged}, "not compared", false, []string{tooLong, celSkipped}, false},
		{[]Category{WarningChanged}, "", false, nil, false},
	}
	for i, w := range want {
		d := &res.Documents[i]
		if !slices.Equal(categories(d), w.cats) || d.UpdateCompared != w.compared {
			t.Errorf("document %d: findings %v, compared %v; want %v, %v", i, categories(d), d.UpdateCompared, w.cats, w.compared)
			continue
		}
		f := d.Findings[0]
		if f.Category == NewlyRejected {
			var errs []string
			for _, p := range f.Errors {
				errs = append(errs, p.Text)
			}
			if f.StoredObjects != w.stored || f.OnUpdate != w.onUpdate || !slices.Equal(errs, w.errs) {
				t.Errorf("document %d: stored %q onUpdate %v errors %q; want %q %v %q", i, f.StoredObjects, f.OnUpdate, errs, w.stored, w.onUpdate, w.errs)
			}
		}
		if last := d.Findings[len(d.Findings)-1]; last.Message != warning {
			t.Errorf("document %d: last finding %q, want %q", i, last.Message, warning)
		}
	}
}

// A document that cannot be read fails, and the others are still compared.
func TestFailedDocument(t *testing.T) {
	docs, err := manifest.Read([]string{"-"}, strings.NewReader("a: [\n---\n"+mustRead(t, "testdata/releases/deployment.yaml")), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), docs, Options{From: 35, To: 37, Registry: builtinRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 2 || res.Documents[0].Class != Failed || res.Documents[1].Class != Unaffected {
		t.Fatalf("classes %v", res.Documents)
	}
	if code := res.ExitCode(); code != report.ExitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, res, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "-:1: not validated: yaml: line 1: did not find expected node content\n") || !strings.HasSuffix(buf.String(), "2 documents in 1 file, 1.35 -> 1.37: 0 removed, 0 newly rejected, 0 deprecated, 0 with warnings changed, 0 newly accepted, 0 invalid at both, 1 failed, 0 skipped, 1 unaffected\n") {
		t.Errorf("text:\n%s", buf.String())
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	docs, err := manifest.Read([]string{path}, nil, manifest.Options{})
	if err != nil || len(docs) != 1 {
		t.Fatal(err)
	}
	return string(docs[0].Raw)
}

// The JSON format holds every document with its four verdicts, and the
// unchanged problems the text format only counts.
func TestWriteJSON(t *testing.T) {
	res := check(t, 35, 37, "testdata/releases/deployment-invalid.yaml", "testdata/releases/service-digit-name.yaml")
	var buf bytes.Buffer
	if err := Write(&buf, "json", res, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		From, To  string
		Documents []struct {
			File, Kind, Name string
			Class            Category
			Verdicts         map[string]string
			Findings         []Finding
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.From != "1.35" || out.To != "1.37" || len(out.Documents) != 2 {
		t.Fatalf("%+v", out)
	}
	d := out.Documents[0]
	if d.Class != Unchanged || d.Verdicts["fromCreate"] != "invalid" || d.Verdicts["toCreate"] != "invalid" || len(d.Findings) != 1 || len(d.Findings[0].Errors) != 1 {
		t.Errorf("unchanged document: %+v", d)
	}
	s := out.Documents[1]
	if s.Class != NewlyAccepted || s.Verdicts["fromCreate"] != "invalid" || s.Verdicts["toCreate"] != "valid" || s.Verdicts["toUpdate"] != "valid" {
		t.Errorf("newly accepted document: %+v", s)
	}
	if out.Summary["unchanged"] != 1 || out.Summary["newly-accepted"] != 1 || out.Summary["documents"] != 2 {
		t.Errorf("summary %v", out.Summary)
	}
	if err := Write(&buf, "yaml", res, WriteOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// --ignore-missing-schemas skips kinds kdv has no schema for, not a
// built-in version the older release does not serve yet: a rollback
// still reports it as newly rejected.
func TestIgnoreMissingSchemas(t *testing.T) {
	docs, err := manifest.Read([]string{"testdata/releases/storageversionmigration-v1.yaml", "testdata/hook/widgets.yaml"}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), docs, Options{From: 37, To: 35, Registry: builtinRegistry, Run: resource.RunOptions{IgnoreMissingSchemas: true}})
	if err != nil {
		t.Fatal(err)
	}
	var classes []Category
	for _, d := range res.Documents {
		classes = append(classes, d.Class)
	}
	if want := []Category{NewlyRejected, Skipped, Skipped, Skipped, Skipped}; !slices.Equal(classes, want) {
		t.Errorf("classes %v, want %v", classes, want)
	}
	if r := res.Documents[1].SkipReason; r != "no schema for example.kdv.dev/v1, Kind=Widget" {
		t.Errorf("skip reason %q", r)
	}
	if code := res.ExitCode(); code != report.ExitInvalid {
		t.Errorf("exit %d, want 1", code)
	}
}
