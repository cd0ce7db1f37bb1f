package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotManifestFile(t *testing.T) {
	for name, want := range map[string]string{
		"chart/Chart.yaml":                 "Helm chart metadata (Chart.yaml)",
		"chart/values.yaml":                "Helm values file",
		"env/values-prod.yml":              "Helm values file",
		"env/prod.values.yaml":             "Helm values file",
		"chart/values.schema.json":         "Helm values file",
		"overlay/kustomization.yaml":       "Kustomize kustomization",
		"overlay/Kustomization":            "Kustomize kustomization",
		"repo/.github/workflows/ci.yml":    "GitHub configuration (under .github/)",
		"repo/.github/dependabot.yml":      "GitHub configuration (under .github/)",
		".gitlab-ci.yml":                   "GitLab CI configuration",
		"repo/.kdv.yaml":                   "kdv configuration",
		"docker-compose.override.yaml":     "Docker Compose file",
		"compose.yaml":                     "Docker Compose file",
		"deploy/configmap.yaml":            "",
		"deploy/values-configmap-like.txt": "", // no manifest extension: never walked anyway
		"deploy/valuesconfig.yaml":         "", // not a values file by any convention
		"deploy/kustomization-notes.yaml":  "",
		"-":                                "",
	} {
		if got := notManifestFile(name); got != want {
			t.Errorf("notManifestFile(%q) = %q, want %q", name, got, want)
		}
	}
}

// Only documents that look like no object at all are recognized: one of apiVersion and kind,
// a mis-cased key or metadata make the document a manifest with a mistake, whose error the
// author needs to see.
func TestNotManifestObject(t *testing.T) {
	for _, tc := range []struct{ doc, why string }{
		{"logLevel: debug\n", "neither apiVersion nor kind"},
		{"{}\n", "neither apiVersion nor kind"},
		{"apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n", "Kustomize configuration (kustomize.config.k8s.io/v1alpha1 Component)"},
		{"kind: ConfigMap\nmetadata: {name: a}\n", ""}, // validation reports the missing apiVersion
		{"apiVersion: v1\nmetadata: {name: a}\n", ""},  // validation reports the missing kind
		{"Kind: ConfigMap\napiversion: v1\n", ""},      // mis-cased: a manifest with a mistake
		{"metadata: {name: a}\ndata: {a: b}\n", ""},    // an object without its type
	} {
		docs := Parse("in.yaml", []byte(tc.doc), Options{})
		if len(docs) != 1 || docs[0].Err != nil || docs[0].NotManifest != "" {
			t.Fatalf("%q: decoded to %+v", tc.doc, docs)
		}
		if got := NotManifestObject(docs[0].Object); got != tc.why {
			t.Errorf("%q: NotManifestObject %q, want %q", tc.doc, got, tc.why)
		}
	}
}

// A top-level list is recognized while decoding (it has no Object to judge later); a scalar
// stays an error, since a manifest missing a colon reads as one.
func TestNotManifestValues(t *testing.T) {
	for _, tc := range []struct{ doc, why, err string }{
		{"- hosts: all\n", "a list, neither apiVersion nor kind", ""},
		{"[1, 2]\n", "a list, neither apiVersion nor kind", ""},
		{"apiVersion v1\nkind Pod\n", "", "json: cannot unmarshal string into Go value"},
	} {
		docs := Parse("in.yaml", []byte(tc.doc), Options{})
		if len(docs) != 1 {
			t.Fatalf("%q: %d documents", tc.doc, len(docs))
		}
		d := docs[0]
		if d.NotManifest != tc.why {
			t.Errorf("%q: NotManifest %q, want %q", tc.doc, d.NotManifest, tc.why)
		}
		if tc.err == "" && d.Err != nil || tc.err != "" && (d.Err == nil || !strings.Contains(d.Err.Error(), tc.err)) {
			t.Errorf("%q: Err %v, want %q", tc.doc, d.Err, tc.err)
		}
		strict := Parse("in.yaml", []byte(tc.doc), Options{StrictInputs: true})
		if strict[0].NotManifest != "" || strict[0].Err == nil {
			t.Errorf("%q with StrictInputs: NotManifest %q, Err %v", tc.doc, strict[0].NotManifest, strict[0].Err)
		}
	}
}

// A file recognized by its name or text is one document saying so, whatever it holds (a
// template does not even parse as YAML); with StrictInputs it is read as before.
func TestReadRecognizesFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("chart/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n")
	write("chart/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n---\nkind: x\n")
	write("chart/templates/plain.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n")
	write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
	docs, err := Read([]string{dir}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		rel, _ := filepath.Rel(dir, d.File)
		got = append(got, rel+": "+d.NotManifest)
	}
	want := []string{
		"chart/Chart.yaml: Helm chart metadata (Chart.yaml)",
		"chart/templates/cm.yaml: Helm template source; render the chart to validate what it produces",
		"chart/templates/plain.yaml: ", // no template action: a manifest as it is
		"cm.yaml: ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	strict, _ := Read([]string{dir}, nil, Options{StrictInputs: true})
	for _, d := range strict {
		if d.NotManifest != "" {
			t.Errorf("StrictInputs: %s: %s", d.File, d.NotManifest)
		}
	}
	if len(strict) != 5 { // Chart.yaml, the template's first document fails, its second, plain, cm
		t.Errorf("StrictInputs: %d documents, want 5", len(strict))
	}
}
