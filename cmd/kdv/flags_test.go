package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// kubeconform's -reject, -verbose, -summary and -ignore-filename-pattern,
// as kdv spells them, on the examples (no configuration file is read:
// --no-config keeps a stray one in a parent directory out of the test).
func TestKubeconformFlags(t *testing.T) {
	const brokenSummary = "5 documents in 2 files: 2 valid, 3 invalid, 0 failed, 0 skipped (6 errors, 0 warnings)"
	tests := []struct {
		name   string
		args   []string
		code   int
		out    []string // exact stdout lines; nil: check only contains
		has    []string
		stderr string
	}{
		{"reject by Kind and Kind.group", []string{"--reject", "ConfigMap,Deployment.apps", "--summary=false", "../../examples/builtin"}, exitInvalid, []string{
			"../../examples/builtin/broken.yaml:6: ConfigMap default/settings: kind: Forbidden: prohibited resource kind ConfigMap (--reject ConfigMap)",
			"../../examples/builtin/broken.yaml:13: apps/Deployment default/api: kind: Forbidden: prohibited resource kind Deployment (--reject Deployment.apps)",
			"../../examples/builtin/broken.yaml:35: apps/Deployment default/worker: kind: Forbidden: prohibited resource kind Deployment (--reject Deployment.apps)",
			"../../examples/builtin/web.yaml:3: apps/Deployment default/web: kind: Forbidden: prohibited resource kind Deployment (--reject Deployment.apps)",
		}, nil, ""},
		{"reject a kind not there", []string{"--reject", "Secret", "../../examples/builtin/web.yaml"}, exitValid, []string{
			"2 documents in 1 file: 2 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings)",
		}, nil, ""},
		{"verbose lists the valid documents", []string{"-v", "../../examples/builtin"}, exitInvalid, nil, []string{
			"../../examples/builtin/web.yaml:2: valid: apps/Deployment default/web\n../../examples/builtin/web.yaml:25: valid: Service default/web\n" + brokenSummary + "\n",
		}, ""},
		{"--verbose", []string{"--verbose", "../../examples/builtin/web.yaml"}, exitValid, []string{
			"../../examples/builtin/web.yaml:2: valid: apps/Deployment default/web",
			"../../examples/builtin/web.yaml:25: valid: Service default/web",
			"2 documents in 1 file: 2 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings)",
		}, nil, ""},
		{"no summary, all valid: nothing at all", []string{"--summary=false", "../../examples/builtin/web.yaml"}, exitValid, []string{""}, nil, ""},
		// kubeconform matches the regular expression anywhere in the path
		// as walked, files only; kdv counts what it left out.
		{"ignore-filename-pattern", []string{"--ignore-filename-pattern", "broken", "--ignore-filename-pattern", `^nomatch`, "../../examples/builtin"}, exitValid, []string{
			"2 documents in 1 file: 2 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 1 path ignored",
		}, nil, ""},
		{"ignore-filename-pattern does not match directories", []string{"--ignore-filename-pattern", `builtin$`, "../../examples/builtin"}, exitInvalid, nil, []string{brokenSummary}, ""},
		{"ignore-filename-pattern, verbose", []string{"-v", "--ignore-filename-pattern", `\.yaml$`, "../../examples/builtin"}, exitValid, []string{
			`../../examples/builtin/broken.yaml: ignored: matches --ignore-filename-pattern "\.yaml$"`,
			`../../examples/builtin/web.yaml: ignored: matches --ignore-filename-pattern "\.yaml$"`,
			"0 documents in 0 files: 0 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 2 paths ignored",
		}, nil, ""},
		{"ignored, -o json: said on stderr", []string{"-o", "json", "--ignore-filename-pattern", "broken", "../../examples/builtin"}, exitValid, nil,
			[]string{`"../../examples/builtin/web.yaml"`}, "kdv: 1 path ignored; -v lists them with the pattern that matched\n"},
		{"ignored, -o json -v: listed on stderr", []string{"-o", "json", "-v", "--ignore-filename-pattern", "broken", "../../examples/builtin"}, exitValid, nil,
			nil, "kdv: ../../examples/builtin/broken.yaml: ignored: matches --ignore-filename-pattern \"broken\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := kdv(t, "", append([]string{"validate", "--no-config"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errOut)
			}
			if tc.out != nil {
				equalLines(t, "stdout", out, tc.out...)
			}
			wantLines(t, out, tc.has...)
			if errOut != tc.stderr {
				t.Errorf("stderr %q, want %q", errOut, tc.stderr)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	var minors []string
	for _, m := range builtin.Versions() {
		minors = append(minors, "1."+itoa(m))
	}
	code, out, errOut := kdv(t, "", "version")
	if code != exitValid || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	// go test binaries carry no VCS information and the module's version
	// is unknown: "(devel)".
	equalLines(t, "version", out,
		"kdv (devel) ("+runtime.Version()+")",
		"Kubernetes "+strings.Join(minors, ", ")+" (built-in schemas and rules; default "+minors[len(minors)-1]+")")

	code, out, _ = kdv(t, "", "version", "-o", "json")
	var info versionInfo
	if code != exitValid || json.Unmarshal([]byte(out), &info) != nil {
		t.Fatalf("exit %d, output %s", code, out)
	}
	if info.Version != "(devel)" || info.GoVersion != runtime.Version() || strings.Join(info.KubernetesVersions, " ") != strings.Join(minors, " ") ||
		info.DefaultKubernetesVersion != minors[len(minors)-1] {
		t.Errorf("json: %+v", info)
	}
	for _, key := range []string{`"version"`, `"goVersion"`, `"kubernetesVersions"`, `"defaultKubernetesVersion"`} {
		if !strings.Contains(out, key) {
			t.Errorf("json lacks %s:\n%s", key, out)
		}
	}

	if code, _, errOut := kdv(t, "", "version", "-o", "yaml"); code != exitUsage || errOut != "kdv: unknown output format \"yaml\": must be one of text, json\n" {
		t.Errorf("-o yaml: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := kdv(t, "", "version", "extra"); code != exitUsage {
		t.Errorf("an argument: exit %d", code)
	}
	if code, out, _ := kdv(t, "", "--version"); code != exitValid || out != "kdv version (devel)\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

func TestVersionOf(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go install @version", debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}, Settings: setting("vcs.revision", "abc")}, "v0.3.1"},
		{"pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125093055-0123456789ab"}}, "v0.0.0-20261125093055-0123456789ab"},
		{"built in a checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: setting("vcs.revision", "0afa95c1", "vcs.modified", "false")}, "0afa95c1"},
		{"with local changes", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: setting("vcs.revision", "0afa95c1", "vcs.modified", "true")}, "0afa95c1-dirty"},
		{"nothing known", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"empty", debug.BuildInfo{}, "(devel)"},
	}
	for _, tc := range tests {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
