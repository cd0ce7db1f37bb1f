package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

// Empty, comment-only and null documents of a file get an Empty result, in
// their place, so that -o json lists one status per document as
// kubectl-validate does; no other format and no count sees them.
func TestRunPendingListsEmptyDocuments(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.yaml")
	data := "# leading comment\n---\n\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n---\nnull\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {k: 1}\n---\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	pending, err := manifest.ReadPending([]string{file}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	res := RunPending(context.Background(), pending, reg, RunOptions{Jobs: 2})
	var got []string
	for _, d := range res.Documents {
		switch {
		case d.Empty:
			got = append(got, "empty")
		default:
			got = append(got, d.Name+":"+d.Outcome().String())
		}
	}
	want := []string{"empty", "empty", "a:valid", "empty", "b:invalid"}
	if len(got) != len(want) {
		t.Fatalf("results %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("results %q, want %q", got, want)
		}
	}
	if res.Documents[4].Index != 1 {
		t.Errorf("second ConfigMap has index %d, want 1 (empty documents take none)", res.Documents[4].Index)
	}
	if s := res.Summary(); s.Documents != 2 || s.Files != 1 {
		t.Errorf("summary counts empty documents: %s", s)
	}

	var buf bytes.Buffer
	if err := report.Write(&buf, "json", res, report.Options{}); err != nil {
		t.Fatal(err)
	}
	var statuses map[string][]metav1.Status
	if err := json.Unmarshal(buf.Bytes(), &statuses); err != nil {
		t.Fatal(err)
	}
	st := statuses[file]
	if len(st) != 5 {
		t.Fatalf("%d statuses, want 5:\n%s", len(st), buf.String())
	}
	for i, want := range []string{"Success", "Success", "Success", "Success", "Failure"} {
		if st[i].Status != want {
			t.Errorf("status %d = %s, want %s", i, st[i].Status, want)
		}
	}
	if st[0].Message != "" || st[3].Message != "" {
		t.Errorf("empty documents' statuses carry a message: %+v %+v", st[0], st[3])
	}
}
