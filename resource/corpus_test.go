package resource

import (
	"context"
	"os"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

const corpus = "../../shared/corpus"

func needCorpus(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("shared corpus not present")
	}
}

// runCorpus validates the documents under paths with the CRDs under crds
// and returns the results by outcome.
func runCorpus(t *testing.T, crds []string, paths ...string) *report.Result {
	t.Helper()
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCRDs(reg, crds, nil); err != nil {
		t.Fatal(err)
	}
	docs, err := manifest.Read(paths, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), docs, reg, RunOptions{})
}

// Every Gateway API example validates clean against the experimental CRDs
// (issue: kdv validate acceptance).
func TestCorpusGatewayAPIExamples(t *testing.T) {
	needCorpus(t)
	res := runCorpus(t, []string{corpus + "/gateway-api/config/crd/experimental"}, corpus+"/gateway-api/examples")
	for _, d := range res.Documents {
		if d.Outcome() != report.Valid {
			t.Errorf("%s:%d %s: %v %v %v", d.File, d.Line, d.Identity(), d.Err, d.UnknownFields, d.Errors)
		}
	}
	t.Logf("%s", res.Summary())
}
