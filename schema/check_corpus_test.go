package schema

import (
	"sort"
	"testing"
)

// TestCheckCorpus: every CRD the real projects ship is accepted by the
// apiserver, so Check must report no error for any of them.
func TestCheckCorpus(t *testing.T) {
	docs := parsedCorpusCRDs(t)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	warned := 0
	for _, name := range names {
		c := docs[name]
		errs, warnings := Check(c, CheckOptions{})
		for _, e := range errs {
			t.Errorf("%s: %v", name, e)
		}
		if len(warnings) > 0 {
			warned++
			t.Logf("%s: warnings %q", name, warnings)
		}
	}
	t.Logf("%d CRDs checked, %d with warnings", len(names), warned)
}
