package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FuzzWriters feeds arbitrary file names, object names and messages through
// every writer: none may fail, JSON and SARIF must stay valid JSON with the
// message intact, JUnit well-formed XML, text one line per finding.
func FuzzWriters(f *testing.F) {
	f.Add("a.yaml", "web", "must be < 10 & \"x\"", 3)
	f.Add("-", "", "", 0)
	f.Add("dir/a b.yaml", "x]]>y", "\x00\x1b[31m\xff", -5)
	f.Fuzz(func(t *testing.T, file, name, msg string, line int) {
		if strings.ContainsAny(file+name+msg, "\n\r") {
			t.Skip("multi-line messages are out of the one-line-per-finding contract")
		}
		r := &Result{Documents: []DocumentResult{
			{File: file, Line: line, GVK: deployGVK, Namespace: "ns", Name: name,
				Errors:   field.ErrorList{field.Invalid(field.NewPath("spec", "x"), msg, msg), field.Required(field.NewPath(msg), msg)},
				ErrorPos: func(*field.Error) (int, int) { return line * 2, line },
				Warnings: []string{msg}},
			{File: file, Index: 1, Line: line, Err: errors.New(msg), ErrKind: ErrParse},
			{File: file, Index: 2, Skipped: true, SkipReason: msg},
		}}
		for _, format := range Formats() {
			if err := Write(io.Discard, format, r, Options{Color: true}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}

		var text bytes.Buffer
		WriteText(&text, r, Options{})
		// 2 errors + 1 warning + 1 document error + 1 skipped + summary.
		if n := strings.Count(text.String(), "\n"); n != 6 {
			t.Errorf("text has %d lines, want 6:\n%s", n, text.String())
		}

		var js bytes.Buffer
		WriteJSON(&js, r, Options{})
		var statuses map[string][]metav1.Status
		if err := json.Unmarshal(js.Bytes(), &statuses); err != nil {
			t.Fatalf("json: %v", err)
		}
		// One file (its name may be altered: encoding/json writes invalid
		// UTF-8 as U+FFFD), three statuses.
		if len(statuses) != 1 {
			t.Errorf("json has %d files, want 1", len(statuses))
		}
		for _, st := range statuses {
			if len(st) != 3 || st[0].Code != 422 || st[1].Code != 400 || st[2].Status != metav1.StatusSuccess {
				t.Errorf("json statuses = %v", st)
			}
		}

		var sarif bytes.Buffer
		WriteSARIF(&sarif, r, Options{})
		var log struct {
			Runs []struct {
				Results []struct {
					Message struct{ Text string }
				}
			}
		}
		if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
			t.Fatalf("sarif: %v", err)
		}
		if got := log.Runs[0].Results[3].Message.Text; got != prefixed(r.Documents[1].Identity(), msg) && strings.ToValidUTF8(msg, "\uFFFD") == msg {
			t.Errorf("sarif message %q, want %q", got, msg)
		}

		var junit bytes.Buffer
		WriteJUnit(&junit, r, Options{})
		dec := xml.NewDecoder(&junit)
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("junit not well-formed: %v\n%s", err, junit.String())
			}
		}
	})
}

func BenchmarkWrite(b *testing.B) {
	var r Result
	for range 200 {
		r.Documents = append(r.Documents, fixture().Documents...)
	}
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, format, &r, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
