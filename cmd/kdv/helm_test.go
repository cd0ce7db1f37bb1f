package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
	"helm.sh/helm/v3/pkg/strvals"
	"sigs.k8s.io/yaml"
)

// A chart directory is rendered in-process and every rendered document
// validated: each error names the template and the line in that template's
// rendered output; the chart's CRD (crds/) is registered first, so the
// Widget its template renders is validated against it; values files,
// --set, --release-name and --namespace reach the templates.
func TestValidateHelmChart(t *testing.T) {
	code, out, errOut := kdv(t, "", "validate", "--values", "testdata/helm/shop-prod.yaml", "--set", "port=70000",
		"--release-name", "prod", "--namespace", "shop", "testdata/helm/shop")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d; stderr %s", code, exitInvalid, errOut)
	}
	wantLines(t, out,
		"testdata/helm/shop/templates/deployment.yaml:10: apps/Deployment shop/prod-shop (built by testdata/helm/shop/Chart.yaml) (template shop/templates/deployment.yaml): spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
		"testdata/helm/shop/templates/deployment.yaml:25: apps/Deployment shop/prod-shop (built by testdata/helm/shop/Chart.yaml) (template shop/templates/deployment.yaml): spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000",
		"testdata/helm/shop/templates/service.yaml:18: Service default/prod-shop (built by testdata/helm/shop/Chart.yaml) (template shop/templates/service.yaml): spec.ports[0].port: Invalid value: 70000",
		"testdata/helm/shop/templates/widget.yaml:6: example.com/Widget default/prod-shop (built by testdata/helm/shop/Chart.yaml) (template shop/templates/widget.yaml): spec.size: Invalid value: 12: spec.size in body should be less than or equal to 10\n",
		"testdata/helm/shop/templates/cache.yaml:5: ConfigMap default/prod-shop-Cache (built by testdata/helm/shop/Chart.yaml) (template shop/templates/cache.yaml): metadata.name: Invalid value:",
		"6 documents in 5 files: 2 valid, 4 invalid")
	if strings.Contains(out, "NOTES.txt") || strings.Contains(out, "optional.yaml") {
		t.Errorf("NOTES.txt or an empty template validated:\n%s", out)
	}
}

// kdv's in-process rendering gives the verdicts of rendering the chart
// with the helm library as `helm template --include-crds` does and
// validating that output separately.
func TestValidateHelmChartAsHelmTemplate(t *testing.T) {
	for _, tc := range []struct {
		name, dir string
		values    []string
		set       []string
	}{
		{name: "defaults", dir: "testdata/helm/shop"},
		{name: "prod", dir: "testdata/helm/shop", values: []string{"testdata/helm/shop-prod.yaml"}, set: []string{"port=70000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rendered := filepath.Join(t.TempDir(), "rendered.yaml")
			if err := os.WriteFile(rendered, helmTemplate(t, tc.dir, tc.values, tc.set), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"validate"}
			for _, v := range tc.values {
				args = append(args, "--values", v)
			}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			codeIn, in, _ := kdv(t, "", append(args, tc.dir)...)
			codeOut, out, _ := kdv(t, "", "validate", rendered)
			if codeIn != codeOut {
				t.Errorf("exit %d in-process, %d after helm template", codeIn, codeOut)
			}
			if a, b := verdicts(in), verdicts(out); a != b {
				t.Errorf("in-process:\n%s\nafter helm template:\n%s", a, b)
			}
		})
	}
}

// helmTemplate renders the chart in dir as `helm template --include-crds`
// does (action.Install's client-only rendering), with the helm library.
func helmTemplate(t *testing.T, dir string, valuesFiles, set []string) []byte {
	t.Helper()
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]any{}
	for _, f := range valuesFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(data, &vals); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range set {
		if err := strvals.ParseInto(s, vals); err != nil {
			t.Fatal(err)
		}
	}
	top, err := chartutil.ToRenderValues(ch, vals, chartutil.ReleaseOptions{Name: "release-name", Namespace: "default", Revision: 1, IsInstall: true}, chartutil.DefaultCapabilities)
	if err != nil {
		t.Fatal(err)
	}
	files, err := engine.Render(ch, top)
	if err != nil {
		t.Fatal(err)
	}
	for k := range files {
		if strings.HasSuffix(k, "NOTES.txt") {
			delete(files, k)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, crd := range ch.CRDObjects() {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", crd.Filename, crd.File.Data)
	}
	for _, m := range manifests {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", m.Name, m.Content)
	}
	for _, h := range hooks {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", h.Path, h.Manifest)
	}
	return []byte(b.String())
}

var (
	builtBy = regexp.MustCompile(` \(built by [^)]*\)`)
	counts  = regexp.MustCompile(`\d+ valid, \d+ invalid, \d+ failed, \d+ skipped \(\d+ errors?, \d+ warnings?\)`)
)

// verdicts is kdv's text output without where the documents were read
// (file and line) and without the "built by" note: the objects, their
// templates and their errors, sorted, and the counts.
func verdicts(out string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if m := counts.FindString(l); m != "" {
			lines = append(lines, "= "+m)
			continue
		}
		_, rest, _ := strings.Cut(l, ": ")
		lines = append(lines, builtBy.ReplaceAllString(rest, ""))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// The external-secrets chart from its Go module, written by others: as
// shipped, its dependency is not vendored, so kdv refuses it as
// `helm template` does (offline, no dependency update); without that
// dependency (disabled by default), rendered with its default values, kdv
// gives the verdicts of helm-render-then-validate.
func TestValidateHelmChartExternalSecrets(t *testing.T) {
	src := moduleCacheDir(t, "github.com/external-secrets/external-secrets@v*/deploy/charts/external-secrets")
	code, _, errOut := kdv(t, "", "validate", src)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	wantLines(t, errOut, "kdv: "+src+": helm template: found in Chart.yaml, but missing in charts/ directory: bitwarden-sdk-server; kdv renders charts offline")

	dir := filepath.Join(t.TempDir(), "external-secrets")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	chartFile := filepath.Join(dir, "Chart.yaml")
	meta, err := os.ReadFile(chartFile)
	if err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(string(meta), "dependencies:")
	if !ok {
		t.Fatalf("%s lists no dependencies", chartFile)
	}
	if err := os.WriteFile(chartFile, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	rendered := filepath.Join(t.TempDir(), "rendered.yaml")
	if err := os.WriteFile(rendered, helmTemplate(t, dir, nil, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	codeIn, in, errIn := kdv(t, "", "validate", dir)
	codeOut, out, _ := kdv(t, "", "validate", rendered)
	if codeIn != codeOut {
		t.Errorf("exit %d in-process (%s), %d after helm template", codeIn, errIn, codeOut)
	}
	if a, b := verdicts(in), verdicts(out); a != b {
		t.Errorf("in-process:\n%s\nafter helm template:\n%s", a, b)
	}
	if !strings.Contains(in, "documents in") || strings.Contains(in, " 0 valid") {
		t.Errorf("nothing validated:\n%s", in)
	}
	t.Logf("%s", lastLine(in))
}
