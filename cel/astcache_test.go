package cel

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FuzzDecodeStore: a cache file is a side input anyone with write access to
// the cache directory shapes; decoding it never panics, and what it decodes
// to was in the file.
func FuzzDecodeStore(f *testing.F) {
	key := []byte("0123456789abcdef0123456789abcdef")
	st := &astStore{key: key, entries: map[string][]byte{"rule\x00self.a > 0": []byte("\x0a\x02xy")}}
	f.Add(st.encode())
	f.Add([]byte(cacheFormat))
	f.Add([]byte(cacheFormat + "\x20"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeStore(data, key)
		if err != nil {
			return
		}
		for k, v := range m {
			if !bytes.Contains(data, []byte(k)) || !bytes.Contains(data, v) {
				t.Fatalf("entry %q not in the input", k)
			}
		}
		// what decodes encodes back to the same entries
		again, err := decodeStore((&astStore{key: key, entries: m}).encode(), key)
		if err != nil || len(again) != len(m) {
			t.Fatalf("round trip: %v, %d entries, want %d", err, len(again), len(m))
		}
	})
}

// TestDecodeStoreRejects: files of another key, of another format, or cut
// short read as nothing.
func TestDecodeStoreRejects(t *testing.T) {
	key := []byte("k1")
	good := (&astStore{key: key, entries: map[string][]byte{"a": []byte("b")}}).encode()
	if m, err := decodeStore(good, key); err != nil || string(m["a"]) != "b" {
		t.Fatalf("good file: %v %v", m, err)
	}
	for name, data := range map[string][]byte{
		"other key":    (&astStore{key: []byte("k2"), entries: map[string][]byte{"a": []byte("b")}}).encode(),
		"other format": append([]byte("kdv-cel-ast-0"), good[len(cacheFormat):]...),
		"truncated":    good[:len(good)-1],
		"empty":        nil,
	} {
		if m, err := decodeStore(data, key); err == nil {
			t.Errorf("%s: decoded %v", name, m)
		}
	}
}

// TestParallelCompile: a built-in node with many rules is compiled on
// several goroutines (compileRules); the errors are those of compiling
// one rule at a time, with the compile cache cold, warm and off.
func TestParallelCompile(t *testing.T) {
	var src strings.Builder
	src.WriteString("type: object\nproperties:\n  num: {type: integer}\n  str: {type: string}\nx-kubernetes-validations:\n")
	for i := range 40 {
		fmt.Fprintf(&src, "- {rule: \"self.?num.orValue(0) != %d && !self.?str.orValue('').startsWith('%d')\", message: \"rule %d\", reason: FieldValueInvalid, fieldPath: .num}\n", i, i, i)
	}
	obj := map[string]any{"num": int64(7), "str": "12"}
	run := func() string {
		v, errs := NewValidator(yamlSchema(t, src.String()), false, Options{BuiltIn: true, SkipCheck: true})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		got, _ := v.ValidateObject(context.Background(), field.NewPath("spec"), obj, nil, RuntimeCELCostBudget)
		return fmt.Sprint(got)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	want := run() // one goroutine, no cache
	if !strings.Contains(want, "rule 7") || !strings.Contains(want, "rule 1") || strings.Contains(want, "rule 3") {
		t.Fatalf("sequential compile: %s", want)
	}
	runtime.GOMAXPROCS(4)
	if got := run(); got != want {
		t.Errorf("parallel, no cache: %s\nwant %s", got, want)
	}
	if err := SetCompileCacheDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	defer SetCompileCacheDir("")
	for _, state := range []string{"cold", "warm"} {
		if got := run(); got != want {
			t.Errorf("parallel, %s cache: %s\nwant %s", state, got, want)
		}
	}
}
