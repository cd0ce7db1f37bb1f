package main

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"kdv.dev/report"
)

// action is the part of action.yml (a GitHub composite action) the tests
// read; keys are checked against GitHub's metadata syntax separately.
type action struct {
	Name        string
	Description string
	Inputs      map[string]actionInput
	Outputs     map[string]struct{ Description, Value string }
	Runs        struct {
		Using string
		Steps []actionStep
	}
}

type actionInput struct {
	Description string
	Required    bool
	Default     *string
}

type actionStep struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	If    string `json:"if"`
	Uses  string `json:"uses"`
	Run   string `json:"run"`
	Shell string `json:"shell"`
	With  map[string]string
	Env   map[string]string
}

// Keys GitHub's action metadata syntax allows, at the top and in a
// composite action's step.
var (
	actionKeys = []string{"name", "author", "description", "inputs", "outputs", "runs", "branding"}
	stepKeys   = []string{"id", "if", "name", "uses", "run", "shell", "with", "env", "working-directory", "continue-on-error"}
	// ${{ <expression> }}, and the contexts an expression names.
	exprRe   = regexp.MustCompile(`\$\{\{(.*?)\}\}`)
	inputRe  = regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`)
	stepRe   = regexp.MustCompile(`\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
	flagRe   = regexp.MustCompile(`(?:^|[\s(])(--?[A-Za-z][A-Za-z0-9-]*)`)
	kdvCmdRe = regexp.MustCompile(`\bkdv (validate|check)\b`)
)

// readAction reads ../../action.yml typed, as a generic map, and as text.
func readAction(t *testing.T) (action, map[string]any, string) {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	// Not strict: keys are checked against actionKeys and stepKeys.
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	return a, raw, string(data)
}

// action.yml is a well-formed composite action whose expressions name only
// declared inputs and step outputs, whose run steps all have a shell, and
// which passes kdv only flags kdv has.
func TestActionYAML(t *testing.T) {
	a, raw, text := readAction(t)
	for k := range raw {
		if !slices.Contains(actionKeys, k) {
			t.Errorf("action.yml: unknown top-level key %q", k)
		}
	}
	if a.Name == "" || a.Description == "" {
		t.Error("action.yml: name and description are required")
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("action.yml: runs.using %q with %d steps, want a composite action with steps", a.Runs.Using, len(a.Runs.Steps))
	}
	for name, in := range a.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if !in.Required && in.Default == nil {
			t.Errorf("optional input %s has no default", name)
		}
	}
	if d := a.Inputs["output"].Default; d == nil || !slices.Contains(report.Formats(), *d) {
		t.Errorf("input output defaults to %v, not one of %v", d, report.Formats())
	}

	ids := map[string]bool{}
	rawSteps := raw["runs"].(map[string]any)["steps"].([]any)
	for i, s := range a.Runs.Steps {
		for k := range rawSteps[i].(map[string]any) {
			if !slices.Contains(stepKeys, k) {
				t.Errorf("step %d (%s): unknown key %q", i, s.Name, k)
			}
		}
		if (s.Run == "") == (s.Uses == "") {
			t.Errorf("step %d (%s): needs exactly one of run and uses", i, s.Name)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %d (%s): a composite action's run step needs shell", i, s.Name)
		}
		if s.ID != "" {
			if ids[s.ID] {
				t.Errorf("step id %s repeated", s.ID)
			}
			ids[s.ID] = true
		}
		// An input pasted into a script could inject shell code: scripts
		// take inputs from env.
		if exprRe.MatchString(s.Run) {
			t.Errorf("step %d (%s): expression inside run; pass it through env", i, s.Name)
		}
	}

	// Every input and step output an expression names exists ("if:" values
	// are expressions without ${{ }}), and every input is used.
	var exprs []string
	for _, m := range exprRe.FindAllStringSubmatch(text, -1) {
		exprs = append(exprs, m[1])
	}
	for _, s := range a.Runs.Steps {
		exprs = append(exprs, s.If)
	}
	used := map[string]bool{}
	for _, e := range exprs {
		for _, m := range inputRe.FindAllStringSubmatch(e, -1) {
			used[m[1]] = true
			if _, ok := a.Inputs[m[1]]; !ok {
				t.Errorf("expression %q names undeclared input %s", e, m[1])
			}
		}
		for _, m := range stepRe.FindAllStringSubmatch(e, -1) {
			if !ids[m[1]] {
				t.Errorf("expression %q names unknown step %s", e, m[1])
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Inputs)) {
		if !used[name] {
			t.Errorf("input %s is never used", name)
		}
	}

	// The flags passed to kdv exist on its command (cobra's own lookup).
	root := newRootCommand()
	calls := 0
	for _, s := range a.Runs.Steps {
		for line := range strings.SplitSeq(s.Run, "\n") {
			m := kdvCmdRe.FindStringSubmatch(line)
			if m == nil && !strings.Contains(line, "args+=(") {
				continue
			}
			sub := "validate"
			if m != nil {
				calls++
				sub = m[1]
			}
			cmd, _, err := root.Find([]string{sub})
			if err != nil || cmd.Name() != sub {
				t.Fatalf("kdv has no command %s: %v", sub, err)
			}
			for _, f := range flagRe.FindAllStringSubmatch(line, -1) {
				flag := f[1]
				var found bool
				if long, ok := strings.CutPrefix(flag, "--"); ok {
					found = cmd.Flags().Lookup(long) != nil
				} else {
					found = len(flag) == 2 && cmd.Flags().ShorthandLookup(flag[1:]) != nil
				}
				if !found {
					t.Errorf("action.yml passes %s to kdv %s, which has no such flag (line %q)", flag, sub, strings.TrimSpace(line))
				}
			}
		}
	}
	if calls == 0 {
		t.Error("action.yml never runs kdv validate")
	}
	if !strings.Contains(text, "go install -tags kustomize_disable_go_plugin_support ./cmd/kdv") {
		t.Error("action.yml does not build ./cmd/kdv from its checkout")
	}
	if _, err := os.Stat("../../cmd/kdv/main.go"); err != nil {
		t.Error(err)
	}
}

// The action's two scripts, run here as the runner would run them (inputs
// through env, GITHUB_PATH and GITHUB_OUTPUT files): the install step builds
// kdv from this checkout, and the run step annotates the shipped examples
// and writes SARIF to a file.
func TestActionScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kdv")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not on PATH")
	}
	a, _, _ := readAction(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	githubPath, githubOutput := filepath.Join(tmp, "path"), filepath.Join(tmp, "output")
	for _, f := range []string{githubPath, githubOutput} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// step runs the run step called name with the given inputs (the
	// others at their defaults) and returns its exit code and stdout.
	step := func(name string, inputs map[string]string, path string) (int, string) {
		t.Helper()
		i := slices.IndexFunc(a.Runs.Steps, func(s actionStep) bool { return s.Name == name })
		if i < 0 {
			t.Fatalf("no step %q", name)
		}
		s := a.Runs.Steps[i]
		env := append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_PATH="+githubPath, "GITHUB_OUTPUT="+githubOutput, "PATH="+path)
		for k, v := range s.Env {
			v = exprRe.ReplaceAllStringFunc(v, func(e string) string {
				e = strings.TrimSpace(e[3 : len(e)-2])
				if e == "github.action_path" {
					return root
				}
				in := strings.TrimPrefix(e, "inputs.")
				if v, ok := inputs[in]; ok {
					return v
				}
				return *a.Inputs[in].Default
			})
			env = append(env, k+"="+v)
		}
		// As the runner runs `shell: bash`: bash --noprofile --norc -eo pipefail {0}.
		script := filepath.Join(tmp, "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir, cmd.Env = root, env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			t.Fatalf("%s: %v", name, err)
		}
		if stderr.Len() > 0 {
			t.Logf("%s stderr:\n%s", name, stderr.String())
		}
		return code, stdout.String()
	}

	if code, _ := step("Install kdv", nil, os.Getenv("PATH")); code != 0 {
		t.Fatalf("install step exited %d", code)
	}
	added, _ := os.ReadFile(githubPath)
	bin := strings.TrimSpace(string(added))
	if _, err := os.Stat(filepath.Join(bin, "kdv")); err != nil {
		t.Fatalf("install step put no kdv in %q (GITHUB_PATH): %v", bin, err)
	}
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")

	code, out := step("Run kdv validate", map[string]string{"paths": "examples/builtin\nexamples/crd", "kubernetes-version": "1.35"}, path)
	if code != 1 {
		t.Errorf("run step exited %d, want 1 (the examples hold invalid objects)\n%s", code, out)
	}
	wantLines(t, out,
		"::error file=examples/builtin/broken.yaml,line=39,col=3,title=kdv FieldValueInvalid::apps/Deployment default/worker: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
		"9 documents in 4 files: 4 valid, 5 invalid")
	if got, _ := os.ReadFile(githubOutput); string(got) != "exit-code=1\n" {
		t.Errorf("GITHUB_OUTPUT = %q, want exit-code=1", got)
	}

	sarifFile := filepath.Join(tmp, "kdv.sarif")
	code, out = step("Run kdv validate", map[string]string{"paths": "examples/builtin/web.yaml", "output": "sarif", "output-file": sarifFile, "args": "--skip Secret -j 1"}, path)
	if code != 0 || out != "" {
		t.Errorf("SARIF run exited %d, want 0 with nothing on stdout:\n%s", code, out)
	}
	var log struct {
		Version string
		Runs    []struct{ Results []any }
	}
	data, _ := os.ReadFile(sarifFile)
	if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Errorf("output-file is not a SARIF 2.1.0 log (%v):\n%s", err, data)
	}
}
