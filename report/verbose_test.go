package report

import (
	"bytes"
	"strings"
	"testing"
)

// Verbose adds a line per valid document (the warned ConfigMap included)
// and per ignored file; NoSummary drops the last line; ignored files are
// counted in the summary either way.
func TestWriteTextVerboseAndSummary(t *testing.T) {
	r := fixture()
	r.Ignored = []IgnoredFile{{File: "vendor/crd.yaml", Reason: `matches --ignore-filename-pattern "crd"`}}
	tests := []struct {
		name  string
		opts  Options
		extra []string // lines beyond the plain output's, in order
		sum   bool
	}{
		{"plain", Options{}, nil, true},
		{"verbose", Options{Verbose: true}, []string{
			`vendor/crd.yaml: ignored: matches --ignore-filename-pattern "crd"`,
			"manifests/app.yaml:1: valid: apps/Deployment default/ok",
			"more.yaml:3: valid: ConfigMap kube-system/cfg",
		}, true},
		{"no summary", Options{NoSummary: true}, nil, false},
		{"verbose, no summary", Options{Verbose: true, NoSummary: true}, []string{
			`vendor/crd.yaml: ignored: matches --ignore-filename-pattern "crd"`,
			"manifests/app.yaml:1: valid: apps/Deployment default/ok",
			"more.yaml:3: valid: ConfigMap kube-system/cfg",
		}, false},
	}
	const summary = "7 documents in 4 files: 2 valid, 2 invalid, 2 failed, 1 skipped (7 errors, 1 warning); 1 path ignored"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteText(&buf, r, tc.opts); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			if tc.sum != (last == summary) {
				t.Errorf("last line %q; summary wanted: %v", last, tc.sum)
			}
			if strings.Contains(buf.String(), "documents in") != tc.sum {
				t.Errorf("summary present = %v, want %v:\n%s", !tc.sum, tc.sum, buf.String())
			}
			// The extra lines appear in order: the ignored file first, each
			// valid document just before its own warnings.
			at := 0
			for _, want := range tc.extra {
				i := indexFrom(lines, at, want)
				if i < 0 {
					t.Fatalf("missing or out of order: %q in\n%s", want, buf.String())
				}
				at = i + 1
			}
			n := 11 + len(tc.extra) // TestWriteText's lines without its summary
			if tc.sum {
				n++
			}
			if len(lines) != n {
				t.Errorf("%d lines, want %d:\n%s", len(lines), n, buf.String())
			}
		})
	}
	if !strings.Contains(lineAfter(r, "more.yaml:3: valid: ConfigMap kube-system/cfg"), "warning: ConfigMap kube-system/cfg") {
		t.Error("a valid document's warning does not follow its valid line")
	}
}

func indexFrom(lines []string, from int, s string) int {
	for i := from; i < len(lines); i++ {
		if lines[i] == s {
			return i
		}
	}
	return -1
}

// lineAfter returns the line after the line s of r's verbose text output.
func lineAfter(r *Result, s string) string {
	var buf bytes.Buffer
	WriteText(&buf, r, Options{Verbose: true})
	lines := strings.Split(buf.String(), "\n")
	if i := indexFrom(lines, 0, s); i >= 0 && i+1 < len(lines) {
		return lines[i+1]
	}
	return ""
}
