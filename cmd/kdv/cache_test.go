package main

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMain lets the tests run the test binary as kdv itself (KDV_TEST_MAIN=1):
// a separate process, as a user's runs are, for the compile cache tests.
func TestMain(m *testing.M) {
	if os.Getenv("KDV_TEST_MAIN") == "1" {
		useCompileCache()
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// kdvProcess runs kdv (this test binary as kdv) with args and the compile
// cache in cacheDir, and returns what it printed and its exit code.
func kdvProcess(t *testing.T, cacheDir string, args ...string) (string, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "KDV_TEST_MAIN=1", "KDV_CACHE_DIR="+cacheDir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// TestCompileCache: kdv's output is the same without the compile cache,
// with an empty one (which it fills), with a filled one, and with one whose
// files were damaged; built-in kinds (hand-written rules with messages and
// field paths), a CRD's rules, and updates (transition rules) included.
func TestCompileCache(t *testing.T) {
	inputs := [][]string{
		{"validate", "-o", "json", "../../examples/"},
		{"validate", "-o", "json", "testdata/broken.yaml", "testdata/list.yaml"},
		{"validate", "-o", "json", "--old", "testdata/podgroup-old.yaml", "testdata/podgroup-new.yaml"},
		{"validate", "-o", "json", "--crds", "../../examples/crd/widgets.crd.yaml", "--old", "testdata/old-widget.yaml", "testdata/new-widget.yaml"},
		{"check", "-o", "json", "../../examples/crd/widgets.crd.yaml"},
	}
	if gw := "../../../shared/corpus/gateway-api"; dirExists(gw) {
		inputs = append(inputs, []string{"validate", "-o", "json", "--ignore-missing-schemas", gw})
	}
	cache := t.TempDir()
	for _, args := range inputs {
		want, wantCode := kdvProcess(t, "off", args...)
		for _, run := range []string{"cold", "warm"} {
			before := modTimes(t, cache)
			got, code := kdvProcess(t, cache, args...)
			if got != want || code != wantCode {
				t.Errorf("%v, %s cache: exit %d, output\n%s\nwant exit %d, output\n%s", args, run, code, got, wantCode, want)
			}
			// a warm run finds every expression: it rewrites no file
			if after := modTimes(t, cache); run == "warm" && !maps.Equal(before, after) {
				t.Errorf("%v: the warm run wrote cache files (some expression was not found)", args)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*", "*"))
	if len(files) == 0 {
		t.Fatal("no cache file written")
	}
	// damaged files: truncated, garbage, another file's entries
	for i, f := range files {
		switch i % 3 {
		case 0:
			b, _ := os.ReadFile(f)
			os.WriteFile(f, b[:len(b)/2], 0o644)
		case 1:
			os.WriteFile(f, []byte("kdv-cel-ast-1\x05ruleX\x03abc"), 0o644)
		case 2:
			b, _ := os.ReadFile(files[(i+1)%len(files)])
			os.WriteFile(f, b, 0o644)
		}
	}
	for _, args := range inputs {
		want, wantCode := kdvProcess(t, "off", args...)
		got, code := kdvProcess(t, cache, args...)
		if got != want || code != wantCode {
			t.Errorf("%v, damaged cache: exit %d, output\n%s\nwant exit %d, output\n%s", args, code, got, wantCode, want)
		}
	}
}

func modTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	out := map[string]time.Time{}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = st.ModTime()
	}
	return out
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
