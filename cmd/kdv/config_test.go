package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lines splits output into its lines.
func lines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// equalLines fails the test unless got holds exactly want, in order.
func equalLines(t *testing.T, what, got string, want ...string) {
	t.Helper()
	g := lines(got)
	if len(g) != len(want) {
		t.Errorf("%s: %d lines, want %d:\n%s", what, len(g), len(want), got)
		return
	}
	for i := range want {
		if g[i] != want[i] {
			t.Errorf("%s: line %d\n got %s\nwant %s", what, i+1, g[i], want[i])
		}
	}
}

// A repository configured by testdata/configrepo/.kdv.yaml (Kubernetes
// 1.36, CRDs in crds/, Secrets rejected, vendor/ and templates ignored),
// used from a subdirectory: the file is found upwards, its paths resolve
// against its own directory, and flags on the command line win.
func TestConfigRepository(t *testing.T) {
	t.Chdir("testdata/configrepo/team")
	const (
		skippedConfig = "../.kdv.yaml: skipped: not a manifest: kdv configuration"
		secret        = "../deploy/secret.yaml:2: Secret default/db: kind: Forbidden: prohibited resource kind Secret (--reject Secret)"
		big           = "../team/gadget.yaml:6: example.com/Gadget default/big: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10"
	)
	tests := []struct {
		name   string
		args   []string
		code   int
		out    []string
		stderr string
	}{
		{"the whole repository", []string{"validate", ".."}, exitInvalid, []string{
			skippedConfig, secret, big,
			"5 documents in 4 files: 3 valid, 2 invalid, 0 failed, 0 skipped (2 errors, 0 warnings); 1 non-manifest skipped; 2 paths ignored",
		}, ""},
		{"verbose", []string{"validate", "-v", ".."}, exitInvalid, []string{
			`../deploy/gadget.tmpl.yaml: ignored: matches "**/*.tmpl.yaml" (ignore in ../.kdv.yaml)`,
			`../vendor: ignored: matches "vendor/" (ignore in ../.kdv.yaml)`,
			skippedConfig,
			"../crds/gadgets.yaml:1: valid: apiextensions.k8s.io/CustomResourceDefinition gadgets.example.com",
			"../deploy/app.yaml:1: valid: example.com/Gadget default/small",
			"../deploy/app.yaml:8: valid: Service default/web",
			secret, big,
			"5 documents in 4 files: 3 valid, 2 invalid, 0 failed, 0 skipped (2 errors, 0 warnings); 1 non-manifest skipped; 2 paths ignored",
		}, "kdv: configuration: ../.kdv.yaml\n"},
		// The Gadget here validates against crds/ named by the configuration,
		// relative to it, not to the working directory.
		{"here only", []string{"validate", "."}, exitInvalid, []string{
			"gadget.yaml:6: example.com/Gadget default/big: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10",
			"1 document in 1 file: 0 valid, 1 invalid, 0 failed, 0 skipped (1 error, 0 warnings)",
		}, ""},
		// A file given by name under an ignored directory is ignored too.
		{"ignored by name", []string{"validate", "--summary=false", "../vendor/upstream/broken.yaml", "../deploy/app.yaml"}, exitValid, nil,
			"kdv: 1 path ignored; -v lists them with the pattern that matched\n"},
		// --reject replaces the file's list (the Secret is valid); the
		// template is still ignored, and said so on stderr without summary.
		{"command line wins", []string{"validate", "--reject", "Service", "--summary=false", "../deploy"}, exitInvalid, []string{
			"../deploy/app.yaml:9: Service default/web: kind: Forbidden: prohibited resource kind Service (--reject Service)",
		}, "kdv: 1 path ignored; -v lists them with the pattern that matched\n"},
		// Without it: no CRDs (the Gadget has no schema), no rejection, and
		// the vendored file and the template are read (and fail).
		{"--no-config", []string{"validate", "--no-config", "--summary=false", "../deploy", "../vendor", "."}, exitUsage, []string{
			"../deploy/app.yaml:1: no schema for example.com/v1, Kind=Gadget",
			"../deploy/gadget.tmpl.yaml:1: yaml: invalid map key: map[interface {}]interface {}{\".name\":interface {}(nil)}",
			"../vendor/upstream/broken.yaml:3: yaml: line 3: did not find expected ',' or ']'",
			"gadget.yaml:1: no schema for example.com/v1, Kind=Gadget",
		}, ""},
		{"check reads it too", []string{"check", "-v", "../crds", "../vendor"}, exitValid, []string{
			`../vendor: ignored: matches "vendor/" (ignore in ../.kdv.yaml)`,
			"../crds/gadgets.yaml:1: valid: apiextensions.k8s.io/CustomResourceDefinition gadgets.example.com",
			"1 document in 1 file: 1 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 1 path ignored",
		}, "kdv: configuration: ../.kdv.yaml\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := kdv(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errOut)
			}
			if tc.out == nil {
				if out != "" {
					t.Errorf("stdout %q, want nothing", out)
				}
			} else {
				equalLines(t, "stdout", out, tc.out...)
			}
			if errOut != tc.stderr {
				t.Errorf("stderr %q, want %q", errOut, tc.stderr)
			}
		})
	}
}

// Configuration files in a scratch directory: what each key does, and
// every problem reported with the file, line and key, exit 2.
func TestConfigFile(t *testing.T) {
	manifests := map[string]string{
		"deploy/ok.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n",
		"deploy/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n",
		"deploy/crd-x.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n",
	}
	tests := []struct {
		name   string
		config string   // .kdv.yaml; "" for none
		args   []string // after "validate" (or as given when starting with "check")
		code   int
		out    string // a line stdout must hold
		stderr string // what stderr must hold
	}{
		{"no file", "", []string{"deploy"}, exitInvalid, "3 documents in 3 files: 2 valid, 1 invalid", ""},
		{"summary false", "summary: false\n", []string{"deploy"}, exitInvalid, "", ""},
		{"skip as CSV scalar", "skip: Secret,ConfigMap\n", []string{"deploy"}, exitValid, "0 valid, 0 invalid, 0 failed, 3 skipped", ""},
		{"reject as a list", "reject:\n- secret\n", []string{"deploy"}, exitInvalid, "deploy/secret.yaml:2: Secret default/s: kind: Forbidden: prohibited resource kind Secret (--reject secret)", ""},
		{"ignore-filename-pattern from the file", "ignore-filename-pattern: [crd]\n", []string{"deploy"}, exitValid, "2 documents in 2 files: 2 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 1 path ignored", ""},
		{"ignore glob", "ignore: [deploy/crd-*]\n", []string{"deploy"}, exitValid, "; 1 path ignored", ""},
		{"a check flag is no error for validate", "strict: false\n", []string{"deploy"}, exitInvalid, "3 documents", ""},
		{"--config names another file", "summary: false\n", []string{"--config", "other.yaml", "deploy"}, exitValid, "2 documents in 2 files: 2 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 1 path ignored", ""},
		{"--no-config", "summary: false\nreject: [Secret]\n", []string{"--no-config", "deploy"}, exitInvalid, "2 valid, 1 invalid", ""},
		{"unknown key", "kubernets-version: 1.35\n", []string{"deploy"}, exitUsage, "",
			`kdv: .kdv.yaml:1: unknown key "kubernets-version": not a flag of kdv validate or kdv check (did you mean "kubernetes-version"?)`},
		{"list for a scalar flag", "kubernetes-version: [1.35]\n", []string{"deploy"}, exitUsage, "",
			"kdv: .kdv.yaml:1: kubernetes-version: takes one value, not a list"},
		{"bad boolean", "summary: maybe\n", []string{"deploy"}, exitUsage, "",
			`kdv: .kdv.yaml:1: summary: invalid value "maybe": strconv.ParseBool: parsing "maybe": invalid syntax`},
		{"bad number", "jobs: many\n", []string{"deploy"}, exitUsage, "",
			`kdv: .kdv.yaml:1: jobs: invalid value "many": strconv.ParseInt: parsing "many": invalid syntax`},
		{"bad version, checked as on the command line", "kubernetes-version: \"2.0\"\n", []string{"deploy"}, exitUsage, "",
			`kdv: invalid --kubernetes-version "2.0": want 1.<minor>, e.g. 1.37`},
		{"bad regular expression", "ignore-filename-pattern: ['(']\n", []string{"deploy"}, exitUsage, "",
			"kdv: invalid --ignore-filename-pattern \"(\": error parsing regexp: missing closing ): `(`"},
		{"--config missing", "", []string{"--config", "nope.yaml", "deploy"}, exitUsage, "", "kdv: nope.yaml: no such file or directory"},
		{"--config ''", "", []string{"--config", "", "deploy"}, exitUsage, "", "kdv: --config needs a file name (--no-config reads none)"},
		{"--config and --no-config", "", []string{"--config", "x", "--no-config", "deploy"}, exitUsage, "", "kdv: --config and --no-config contradict each other"},
		{"check applies its flags", "strict: maybe\n", []string{"check", "deploy"}, exitUsage, "",
			`kdv: .kdv.yaml:1: strict: invalid value "maybe"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"other.yaml": "ignore: ['*x.yaml']\n"}
			for k, v := range manifests {
				files[k] = v
			}
			if tc.config != "" {
				files[".kdv.yaml"] = tc.config
			}
			for rel, content := range files {
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			args := tc.args
			if args[0] != "check" {
				args = append([]string{"validate"}, args...)
			}
			code, out, errOut := kdv(t, "", args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout %s; stderr %s", code, tc.code, out, errOut)
			}
			if tc.out != "" && !strings.Contains(out, tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out)
			}
			if tc.out == "" && strings.Contains(out, "documents in") {
				t.Errorf("a summary:\n%s", out)
			}
			if !strings.Contains(errOut, tc.stderr) || tc.stderr == "" && errOut != "" {
				t.Errorf("stderr %q, want %q", errOut, tc.stderr)
			}
		})
	}
}

// Every key a configuration file may set is a flag of validate or check,
// and every such flag but those choosing the file is a key.
func TestConfigKeys(t *testing.T) {
	keys := configKeys()
	for _, want := range []string{"crds", "schemas", "kubernetes-version", "old", "output", "skip", "reject", "jobs",
		"strict", "strict-crds", "strict-inputs", "values", "set", "summary", "verbose", "ignore-filename-pattern"} {
		if !contains(keys, want) {
			t.Errorf("%q is not a key: %q", want, keys)
		}
	}
	for _, no := range []string{"config", "no-config", "ignore"} {
		if contains(keys, no) {
			t.Errorf("%q is a key", no)
		}
	}
	for name := range pathFlags {
		if !contains(keys, name) {
			t.Errorf("path flag %q is no flag", name)
		}
	}
}
