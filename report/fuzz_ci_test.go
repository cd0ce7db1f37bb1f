package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FuzzCIWriters feeds arbitrary file names and messages, line breaks
// included, through the github and tap writers: a GitHub workflow command
// stays one line whose properties and message the runner unescapes back to
// what kdv meant, and TAP keeps its plan, numbering and parseable YAML
// blocks whose messages read back intact.
func FuzzCIWriters(f *testing.F) {
	f.Add("a.yaml", "web", "must be < 10 & \"x\"", 3)
	f.Add("dir/a,b:c%25.yaml", "x", "50%\r\n::error::y", 1)
	f.Add("odd #1 \\", "", "a\n  ...\nnot ok 2\u2028\x7f", 0)
	f.Fuzz(func(t *testing.T, file, name, msg string, line int) {
		r := &Result{Documents: []DocumentResult{
			{File: file, Line: line, GVK: deployGVK, Namespace: "ns", Name: name,
				Errors:   field.ErrorList{field.Forbidden(field.NewPath("spec"), msg)},
				ErrorPos: func(*field.Error) (int, int) { return line * 2, line },
				Warnings: []string{msg}},
			{File: file, Index: 1, Line: line, Err: errors.New(msg), ErrKind: ErrParse},
			{File: file, Index: 2, Skipped: true, SkipReason: msg},
			{File: file, Index: -1, Empty: true},
		}}

		var gh bytes.Buffer
		if err := WriteGitHub(&gh, r, Options{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(gh.String(), "\n"), "\n")
		// error, warning, error, notice, summary.
		if len(lines) != 5 {
			t.Fatalf("github has %d lines, want 5:\n%q", len(lines), gh.String())
		}
		wantMsgs := []string{
			prefixed(r.Documents[0].Identity(), r.Documents[0].Errors[0].Error()),
			prefixed(r.Documents[0].Identity(), msg),
			msg,
		}
		for i, l := range lines[:3] {
			cmd, data, ok := strings.Cut(l[2:], "::")
			if !strings.HasPrefix(l, "::") || !ok {
				t.Fatalf("line %q is not a workflow command", l)
			}
			if got := unescapeGitHub(data); got != wantMsgs[i] {
				t.Errorf("message read back as %q, want %q", got, wantMsgs[i])
			}
			_, props, _ := strings.Cut(cmd, " ")
			for p := range strings.SplitSeq(props, ",") {
				k, v, ok := strings.Cut(p, "=")
				if !ok {
					t.Fatalf("property %q in %q", p, l)
				}
				if k == "file" && unescapeGitHub(v) != file {
					t.Errorf("file read back as %q, want %q", unescapeGitHub(v), file)
				}
			}
		}

		var tap bytes.Buffer
		if err := WriteTAP(&tap, r, Options{}); err != nil {
			t.Fatal(err)
		}
		checkTAP(t, tap.String(), 3)
		blocks := tapBlocks(t, tap.String())
		if len(blocks) != 2 {
			t.Fatalf("%d YAML blocks, want 2:\n%s", len(blocks), tap.String())
		}
		valid := string([]rune(msg)) // each invalid byte becomes U+FFFD
		if got := blocks[0]["warnings"].([]any)[0].(map[string]any)["message"]; got != valid {
			t.Errorf("warning read back as %q, want %q", got, valid)
		}
		if got := blocks[1]["message"]; got != valid {
			t.Errorf("document error read back as %q, want %q", got, valid)
		}
	})
}
