package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMayHaveAnchor checks the cheap scan that decides whether the alias expansion bound
// must parse a document a second time: every real anchor is found, and the '&' of prose
// (CRD descriptions) is not taken for one.
func TestMayHaveAnchor(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"a: &x 1\nb: *x\n", true},
		{"&x a: 1\n", true},
		{"&x\na: 1\n", true},
		{"a:\n  &x b: 1\n", true},
		{"- &x a\n- *x\n", true},
		{"? &k a\n: 1\n", true},
		{"a: !!str &x b\n", true},
		{"a: !t &x b\n", true},
		{"a: [&x 1, *x]\n", true},
		{"a: [1,&x 2]\n", true},
		{"a: {k: &x 1}\n", true},
		{"a: {&x k: 1}\n", true},
		{"a: [\n  &x 1]\n", true},
		{"a:\t&x 1\n", true},
		{"a:&x 1\n", true}, // a plain scalar in block context; a false positive is fine
		{"a: \"x\"\nb:\r\n  &y c\r\n", true},
		{"\xEF\xBB\xBF&x a: 1\n", true},
		{"a: &x-y 1\n", true},
		{"a: &1 b\n", true},
		{"description: Hosts matches *.example.com and A & B\n", false},
		{"description: |-\n  Wildcards such as \"*.example.com\" match\n  A & B, and C &\n  D.\n", false},
		{"a: b&c *d\n", false},
		{"a: '&'\nb: \"& *\"\n", false},
		{"a: [& , *]\n", false},
		{"rule: 'a && b' # *\n", false},
		{"a: [x, &&y]\n", false},
		{"a: x &{y} *\n", false},
		{"a: x &", false},
		{"a: !x&y *z\n", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := mayHaveAnchor([]byte(tt.in)); got != tt.want {
			t.Errorf("mayHaveAnchor(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestMayHaveAnchorCRDs checks that the Gateway API CRDs, whose descriptions hold both '&'
// and '*', are not parsed a second time.
func TestMayHaveAnchorCRDs(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "gateway-api", "config", "crd", "experimental")
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		split(data, func(c chunk) bool {
			if mayHaveAnchor(c.raw) {
				t.Errorf("%s:%d: document taken for one with anchors", f, c.line)
			}
			return true
		})
	}
}

// TestCheckAliasExpansion: the exported bound says what Read says about the same document.
func TestCheckAliasExpansion(t *testing.T) {
	bomb := "big: &big \"" + strings.Repeat("y", 1<<20) + "\"\nrefs: [" + strings.Repeat("*big,", 99) + "*big]\nfill: [" + strings.Repeat("0,", 99) + "0]\n"
	want := "yaml: document contains excessive aliasing: expands to more than 67108864 bytes"
	if err := CheckAliasExpansion([]byte(bomb), 0); err == nil || err.Error() != want {
		t.Errorf("default limit: got %v, want %q", err, want)
	}
	docs, _ := Read([]string{"-"}, strings.NewReader(bomb), Options{})
	if len(docs) != 1 || docs[0].Err == nil || !strings.HasSuffix(docs[0].Err.Error(), want) {
		t.Errorf("Read: got %+v, want an error ending in %q", docs, want)
	}
	if err := CheckAliasExpansion([]byte(bomb), -1); err != nil {
		t.Errorf("no limit: %v", err)
	}
	if err := CheckAliasExpansion([]byte(bomb), 200<<20); err != nil {
		t.Errorf("200 MiB limit: %v", err)
	}
	for _, ok := range []string{"a: &a [1, 2]\nb: *a\n", "no anchors: *x\n", "a: [\n", ""} {
		if err := CheckAliasExpansion([]byte(ok), 0); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
