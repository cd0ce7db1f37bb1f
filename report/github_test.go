package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestWriteGitHub(t *testing.T) {
	const bad = "::error file=manifests/app.yaml,"
	want := []string{
		bad + "line=26,col=3,title=kdv FieldValueInvalid::apps/Deployment default/bad: " + expectedErrLines[0],
		bad + "line=20,title=kdv FieldValueRequired::apps/Deployment default/bad: " + expectedErrLines[1],
		bad + "line=29,col=5,title=kdv FieldValueNotSupported::apps/Deployment default/bad: " + expectedErrLines[2],
		bad + "line=24,col=5,title=kdv FieldValueTooLong::apps/Deployment default/bad: " + expectedErrLines[3],
		bad + "line=35,title=kdv FieldValueDuplicate::apps/Deployment default/bad: " + expectedErrLines[4],
		bad + "line=20,title=kdv FieldValueForbidden::apps/Deployment default/bad: " + expectedErrLines[5],
		bad + "line=40,title=kdv NoSchema::extensions/Deployment default/old: no schema for extensions/v1beta1, Kind=Deployment",
		"::notice file=crs/widget.yaml,line=1,title=kdv Skipped::example.com/Widget w1: skipped: no schema for example.com/v1, Kind=Widget",
		`::warning file=more.yaml,line=3,title=kdv Warning::ConfigMap kube-system/cfg: unknown field "data.extra"`,
		"::error file=more.yaml,line=9,title=kdv ParseError::error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context",
		// stdin: no file, no line.
		`::error title=kdv FieldValueInvalid::Namespace Team_A: metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`,
		"7 documents in 4 files: 2 valid, 2 invalid, 2 failed, 1 skipped (7 errors, 1 warning)",
	}
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, fixture(), Options{}); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got: %s\nwant: %s", i+1, got[i], want[i])
		}
	}
}

// A file name or message cannot end the command early, add a property or
// start a second command: the runner's escaping (@actions/core
// escapeData/escapeProperty) is applied, "%" first so that it is not
// applied twice.
func TestWriteGitHubEscaping(t *testing.T) {
	r := &Result{Documents: []DocumentResult{{
		File: "dir/a,b:c%d.yaml", Line: 4, GVK: cmGVK, Name: "x",
		Errors:   field.ErrorList{field.Invalid(field.NewPath("data", "k"), "50%", "bad,\r\nreally: yes\n::error::fake")},
		Warnings: []string{"line 1\nline 2 %0A"},
	}, {
		File: "b.yaml", Err: errors.New("a.yaml:1: x\n::warning::y"), ErrKind: ErrParse,
	}}}
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=dir/a%2Cb%3Ac%25d.yaml,line=4,title=kdv FieldValueInvalid::ConfigMap x: data.k: Invalid value: \"50%25\": bad,%0D%0Areally: yes%0A::error::fake\n" +
		"::warning file=dir/a%2Cb%3Ac%25d.yaml,line=4,title=kdv Warning::ConfigMap x: line 1%0Aline 2 %250A\n" +
		"::error file=b.yaml,title=kdv ParseError::a.yaml:1: x%0A::warning::y\n" +
		"2 documents in 2 files: 0 valid, 1 invalid, 1 failed, 0 skipped (1 error, 1 warning)\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	for _, tc := range []struct{ in, data, prop string }{
		{"", "", ""},
		{"%25", "%2525", "%2525"},
		{"a:b,c", "a:b,c", "a%3Ab%2Cc"},
		{"\r\n", "%0D%0A", "%0D%0A"},
	} {
		if got := escapeGitHubData(tc.in); got != tc.data {
			t.Errorf("escapeGitHubData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := escapeGitHubProperty(tc.in); got != tc.prop {
			t.Errorf("escapeGitHubProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

// unescapeGitHub is the runner's reverse mapping (actions/runner
// ActionCommand.UnescapeValue), for the fuzz test.
func unescapeGitHub(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}
