package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hooks of .pre-commit-hooks.yaml, run by the real pre-commit tool on a
// scratch repository: pre-commit clones this repository (a snapshot of the
// working tree, so that uncommitted changes are what is tested), builds kdv
// with its golang language (`go install ./...` with GOPATH in its cache)
// and runs the hooks on the files given. Each hook must pass on a valid
// file and fail on an invalid one with kdv's own message.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kdv in pre-commit's environment")
	}
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit is not on PATH (Debian: apt-get install pre-commit): the hooks of .pre-commit-hooks.yaml are not tested")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: pre-commit needs it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gitOut(root, "rev-parse", "HEAD"); err != nil {
		t.Skipf("%s is not a git work tree with a commit (pre-commit clones hook repositories with git): %v", root, err)
	}
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	tmp := t.TempDir()
	hooks, rev := snapshotRepo(t, root, filepath.Join(tmp, "kdv"))

	work := filepath.Join(tmp, "work")
	files := map[string]string{
		".pre-commit-config.yaml": "repos:\n- repo: " + hooks + "\n  rev: " + rev + "\n  hooks:\n  - id: kdv-validate\n  - id: kdv-check\n",
		"valid.yaml":              "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n",
		"invalid.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n",
		"crd.yaml":                readFile(t, widgetCRD),
		"bad-crd.yaml":            strings.Replace(readFile(t, widgetCRD), "scope: Namespaced", "scope: Galactic", 1),
	}
	if !strings.Contains(files["bad-crd.yaml"], "Galactic") {
		t.Fatal("the widget CRD has no scope: Namespaced line to break")
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if _, err := gitOut(work, args...); err != nil {
			t.Fatal(err)
		}
	}

	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "cache"),
		// pre-commit sets GOPATH to its environment directory, which would
		// move the module cache there too: keep the shared one, so that the
		// build reads the modules already downloaded (GOPROXY is inherited
		// for any that are not).
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"GOTOOLCHAIN=local",
	)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	preCommitRun := func(hook string, files ...string) (int, string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, preCommit, append([]string{"run", hook, "--color", "never", "--files"}, files...)...)
		cmd.Dir, cmd.Env = work, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0, out.String()
		case errors.As(err, &exit):
			return exit.ExitCode(), out.String()
		}
		t.Fatalf("pre-commit run %s: %v\n%s", hook, err, out.String())
		return 0, ""
	}

	// The first run installs the hook environment (go install ./...).
	code, out := preCommitRun("kdv-validate", "valid.yaml", "crd.yaml")
	if code != 0 || !strings.Contains(out, "kdv validate") || !strings.Contains(out, "Passed") {
		t.Fatalf("kdv-validate on valid files: exit %d, want 0 and Passed:\n%s", code, out)
	}
	code, out = preCommitRun("kdv-validate", "invalid.yaml")
	if code != 1 || !strings.Contains(out, "Failed") ||
		!strings.Contains(out, "invalid.yaml:13: apps/Deployment default/web: spec.replicas: Invalid value: -1: must be greater than or equal to 0") ||
		!strings.Contains(out, "2 documents in 1 file: 1 valid, 1 invalid") {
		t.Errorf("kdv-validate on invalid.yaml: exit %d, want 1 with kdv's message:\n%s", code, out)
	}
	// kdv check checks CRDs only: the invalid Deployment is skipped.
	code, out = preCommitRun("kdv-check", "crd.yaml", "invalid.yaml")
	if code != 0 || !strings.Contains(out, "kdv check") || !strings.Contains(out, "Passed") {
		t.Errorf("kdv-check on a valid CRD: exit %d, want 0 and Passed:\n%s", code, out)
	}
	code, out = preCommitRun("kdv-check", "bad-crd.yaml")
	if code != 1 || !strings.Contains(out, "Failed") ||
		!strings.Contains(out, `spec.scope: Unsupported value: "Galactic": supported values: "Cluster", "Namespaced"`) {
		t.Errorf("kdv-check on an invalid CRD: exit %d, want 1 with kdv's message:\n%s", code, out)
	}
}

// snapshotRepo clones the repository at root into dir and commits there
// what root's working tree holds on top of HEAD (changed, new and deleted
// files, .gitignore respected), returning dir and the commit: pre-commit
// installs hooks from a commit, and the test must see the files as they
// are, .pre-commit-hooks.yaml included, committed or not.
func snapshotRepo(t *testing.T, root, dir string) (string, string) {
	t.Helper()
	head, err := gitOut(root, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gitOut("", "clone", "-q", "--no-checkout", root, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := gitOut(dir, "checkout", "-q", "--detach", head); err != nil {
		t.Fatal(err)
	}
	changed, err := gitOut(root, "ls-files", "-z", "--modified", "--others", "--exclude-standard")
	if err != nil {
		t.Fatal(err)
	}
	for name := range strings.SplitSeq(changed, "\x00") {
		if name == "" {
			continue
		}
		src, dst := filepath.Join(root, name), filepath.Join(dir, name)
		if _, err := os.Lstat(src); errors.Is(err, os.ErrNotExist) {
			os.Remove(dst) // deleted in the working tree
			continue
		}
		if err := copyFile(src, dst); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := gitOut(dir, "add", "-A"); err != nil {
		t.Fatal(err)
	}
	if _, err := gitOut(dir, "commit", "-q", "--allow-empty", "--no-verify", "-m", "working tree of "+root); err != nil {
		t.Fatal(err)
	}
	rev, err := gitOut(dir, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return dir, rev
}

// gitOut runs git in dir with a fixed identity and returns its trimmed
// output.
func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=kdv test", "GIT_AUTHOR_EMAIL=test@kdv.dev",
		"GIT_COMMITTER_NAME=kdv test", "GIT_COMMITTER_EMAIL=test@kdv.dev", "GIT_CONFIG_NOSYSTEM=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("git " + strings.Join(args, " ") + ": " + err.Error() + ": " + stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

// copyFile copies src to dst, keeping its permission bits (a script stays
// executable).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// readFile returns the contents of name.
func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
