package helm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeChart writes files (path: text) under a new directory and returns it.
func writeChart(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const chartYAML = "apiVersion: v2\nname: app\nversion: 0.1.0\n"

// A directory without Chart.yaml is not handled.
func TestBuildNotAChart(t *testing.T) {
	handled, objs, err := Options{}.Build(t.TempDir())
	if handled || objs != nil || err != nil {
		t.Errorf("got %v %v %v", handled, objs, err)
	}
}

// CRDs come first, then templates by name; NOTES.txt, partials and empty
// output are left out; a vendored dependency's templates are rendered with
// its own values, named as helm names them and found on disk.
func TestBuildOrderAndDependencies(t *testing.T) {
	dir := writeChart(t, map[string]string{
		"Chart.yaml":                  chartYAML + "dependencies:\n  - name: sub\n    version: 0.1.0\n",
		"values.yaml":                 "sub:\n  count: 7\n",
		"crds/c.yaml":                 "kind: CustomResourceDefinition\n",
		"templates/b.yaml":            "kind: B\nns: {{ .Release.Namespace }}\n",
		"templates/a.yaml":            "kind: A\nname: {{ .Release.Name }}\n",
		"templates/_h.tpl":            `{{ define "x" }}y{{ end }}`,
		"templates/NOTES.txt":         "notes",
		"templates/empty.yaml":        "{{- if false }}x{{ end }}\n",
		"charts/sub/Chart.yaml":       "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
		"charts/sub/templates/s.yaml": "kind: S\ncount: {{ .Values.count }}\n",
	})
	handled, objs, err := Options{ReleaseName: "r", Namespace: "ns"}.Build(dir)
	if !handled || err != nil {
		t.Fatalf("handled %v, err %v", handled, err)
	}
	var got []string
	for _, o := range objs {
		if o.Via != filepath.Join(dir, "Chart.yaml") {
			t.Errorf("%s: via %s", o.Template, o.Via)
		}
		if o.File != filepath.Join(dir, strings.TrimPrefix(o.Template, "app/")) {
			t.Errorf("%s: file %s", o.Template, o.File)
		}
		got = append(got, o.Template+"="+strings.TrimSpace(string(o.Data)))
	}
	want := []string{
		"app/crds/c.yaml=kind: CustomResourceDefinition",
		"app/charts/sub/templates/s.yaml=kind: S\ncount: 7",
		"app/templates/a.yaml=kind: A\nname: r",
		"app/templates/b.yaml=kind: B\nns: ns",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// Values files merge over values.yaml key by key, later files win, and
// --set applies last.
func TestBuildValues(t *testing.T) {
	dir := writeChart(t, map[string]string{
		"Chart.yaml":       chartYAML,
		"values.yaml":      "a: {p: 1, q: 1}\nb: 1\n",
		"one.yaml":         "a: {p: 2}\nb: 2\n",
		"two.yaml":         "b: 3\n",
		"templates/t.yaml": "v: {{ .Values.a.p }}-{{ .Values.a.q }}-{{ .Values.b }}-{{ .Values.c }}\n",
	})
	o := Options{ValuesFiles: []string{filepath.Join(dir, "one.yaml"), filepath.Join(dir, "two.yaml")}, Set: []string{"c=4"}}
	_, objs, err := o.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || strings.TrimSpace(string(objs[0].Data)) != "v: 2-1-3-4" {
		t.Errorf("got %+v", objs)
	}
}

// What helm would fetch, or refuses to render, is an error (which the
// caller prefixes with the chart's directory).
func TestBuildErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		opts  Options
		want  string
	}{
		"missing dependency": {files: map[string]string{"Chart.yaml": chartYAML + "dependencies:\n  - name: redis\n    version: 1.0.0\n    repository: https://charts.example.com\n"},
			want: "found in Chart.yaml, but missing in charts/ directory: redis; kdv renders charts offline"},
		"remote values": {files: map[string]string{"Chart.yaml": chartYAML}, opts: Options{ValuesFiles: []string{"https://example.com/v.yaml"}},
			want: "values file https://example.com/v.yaml is remote"},
		"remote schema ref": {files: map[string]string{"Chart.yaml": chartYAML, "values.schema.json": `{"$ref": "https://example.com/s.json"}`},
			want: "app/values.schema.json refers to https://example.com/s.json; kdv renders charts offline"},
		"library chart": {files: map[string]string{"Chart.yaml": chartYAML + "type: library\n"},
			want: "library charts are not installable"},
		"template error": {files: map[string]string{"Chart.yaml": chartYAML, "templates/t.yaml": "{{ required \"x is required\" .Values.x }}\n"},
			want: "x is required"},
		"bad --set": {files: map[string]string{"Chart.yaml": chartYAML}, opts: Options{Set: []string{"a[x]=1"}},
			want: "--set a[x]=1"},
		"kubeVersion": {files: map[string]string{"Chart.yaml": chartYAML + "kubeVersion: '<1.20.0'\n"}, opts: Options{KubernetesMinor: 37},
			want: "incompatible with Kubernetes v1.37.0"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeChart(t, tc.files)
			handled, _, err := tc.opts.Build(dir)
			if !handled || err == nil {
				t.Fatalf("handled %v, err %v", handled, err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "helm template: ") {
				t.Errorf("error %q, want it to hold %q", err, tc.want)
			}
		})
	}
}
