package bench

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/build/constraint"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ReleaseRefVersions maps the Kubernetes minors the old-release reference
// (bench/releaseref) is built for to the k8s.io/kubernetes release it is
// built from: the newest patch release the module proxy serves.
var ReleaseRefVersions = map[int]string{
	30: "v1.30.14",
	31: "v1.31.14",
	32: "v1.32.13",
	33: "v1.33.13",
	34: "v1.34.4",
	35: "v1.35.4",
	36: "v1.36.3",
}

// releaseRefDir holds the reference's sources, relative to bench.
const releaseRefDir = "releaseref"

// BuildReleaseRef returns the path of the old-release reference binary for
// Kubernetes 1.<minor>, building it when the cache has none for these
// sources. The build is a scratch module in a temporary directory that
// requires that k8s.io/kubernetes release, pins every staging module
// (k8s.io/api, k8s.io/apiserver, ...; the list is the release's own
// go.mod's replace block) to the matching v0.<minor>.<patch> as bench's
// go.mod does for 1.37, holds bench/releaseref/*.go and
// builtin_service.go (the Service storage's hooks, whose package clause is
// rewritten), and is built with -tags releaseref,k8s1<minor>. The binary is
// cached under os.UserCacheDir()/kdv-bench/releaseref-1.<minor>, named by
// a hash of the version and the sources, so a change of either rebuilds.
// logf, when not nil, is told when a build starts and how long it took.
func BuildReleaseRef(minor int, logf func(format string, args ...any)) (string, error) {
	version, ok := ReleaseRefVersions[minor]
	if !ok {
		return "", fmt.Errorf("no k8s.io/kubernetes release known for Kubernetes 1.%d (known: %v)", minor, sortedMinors())
	}
	tags := []string{"releaseref", fmt.Sprintf("k8s1%d", minor)}
	files, err := releaseRefSources(tags)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", version)
	for _, name := range sortedFileNames(files) {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "kdv-bench", fmt.Sprintf("releaseref-1.%d", minor))
	bin := filepath.Join(dir, "releaseref-"+sum)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if logf != nil {
		logf("building the Kubernetes 1.%d reference (k8s.io/kubernetes %s) into %s", minor, version, bin)
	}
	mod, err := os.MkdirTemp("", fmt.Sprintf("kdv-releaseref-1.%d-", minor))
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(mod)
	env := append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	run := func(args ...string) error {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), mod, err, out)
		}
		return nil
	}
	staging, err := stagingModules(version, env)
	if err != nil {
		return "", err
	}
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module kdv.dev/scratch/releaseref\n\ngo 1.22\n\nrequire k8s.io/kubernetes %s\n\n// k8s.io/kubernetes requires its staging modules at v0.0.0.\nreplace (\n", version)
	sv := "v0" + strings.TrimPrefix(version, "v1")
	for _, m := range staging {
		fmt.Fprintf(&gomod, "\t%s => %s %s\n", m, m, sv)
	}
	gomod.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod.String()), 0o644); err != nil {
		return "", err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(mod, name), b, 0o644); err != nil {
			return "", err
		}
	}
	tmp := bin + ".tmp" + fmt.Sprint(os.Getpid())
	defer os.Remove(tmp)
	if err := run("mod", "tidy"); err != nil {
		return "", err
	}
	if err := run("build", "-tags", strings.Join(tags, ","), "-o", tmp, "."); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	// Binaries of earlier sources are of no further use.
	if old, _ := filepath.Glob(filepath.Join(dir, "releaseref-*")); len(old) > 0 {
		for _, o := range old {
			if o != bin && !strings.Contains(filepath.Base(o), ".tmp") {
				os.Remove(o)
			}
		}
	}
	return bin, nil
}

// releaseRefSources reads the reference's sources for the build tags:
// the files of bench/releaseref/*.go whose build constraint they satisfy
// (go mod tidy reads every file whatever its constraint, so the other
// releases' files, which import packages this release lacks, stay out),
// and bench/builtin_service.go as package main.
func releaseRefSources(tags []string) (map[string][]byte, error) {
	names, err := filepath.Glob(filepath.Join(releaseRefDir, "*.go"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no Go files in %s (run from bench)", releaseRefDir)
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		ok, err := satisfiesTags(b, tags)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if ok {
			files[filepath.Base(n)] = b
		}
	}
	svc, err := os.ReadFile("builtin_service.go")
	if err != nil {
		return nil, err
	}
	const clause = "\npackage bench\n"
	if !bytes.Contains(append([]byte("\n"), svc...), []byte(clause)) {
		return nil, fmt.Errorf("builtin_service.go: no %q clause to rewrite", strings.TrimSpace(clause))
	}
	svc = bytes.Replace(append([]byte("\n"), svc...), []byte(clause), []byte("\n//go:build releaseref\n\npackage main\n"), 1)[1:]
	files["builtin_service.go"] = svc
	return files, nil
}

// satisfiesTags reports whether a Go file's //go:build line, if any, holds
// with exactly these tags set.
func satisfiesTags(src []byte, tags []string) (bool, error) {
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "package ") {
			break
		}
		if !constraint.IsGoBuild(l) {
			continue
		}
		e, err := constraint.Parse(l)
		if err != nil {
			return false, err
		}
		return e.Eval(func(tag string) bool { return slices.Contains(tags, tag) }), nil
	}
	return true, nil
}

// stagingModules lists the modules the k8s.io/kubernetes release replaces
// with its staging directories, from its go.mod.
func stagingModules(version string, env []string) ([]string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", "k8s.io/kubernetes@"+version)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %v\n%s", version, err, out)
	}
	var info struct{ GoMod, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return nil, err
	}
	if info.Error != "" {
		return nil, fmt.Errorf("k8s.io/kubernetes@%s: %s", version, info.Error)
	}
	f, err := os.Open(info.GoMod)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var mods []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "\tk8s.io/api => ./staging/src/k8s.io/api"
		l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "replace"))
		from, to, ok := strings.Cut(l, "=>")
		if ok && strings.HasPrefix(strings.TrimSpace(to), "./staging/") {
			mods = append(mods, strings.TrimSpace(from))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("%s: no staging replace directives", info.GoMod)
	}
	sort.Strings(mods)
	return mods, nil
}

func sortedMinors() []int {
	var ms []int
	for m := range ReleaseRefVersions {
		ms = append(ms, m)
	}
	sort.Ints(ms)
	return ms
}

func sortedFileNames(files map[string][]byte) []string {
	var ns []string
	for n := range files {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
