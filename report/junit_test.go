package report

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
)

// Independent reader types, so the test does not reuse the writer's structs.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Line      int    `xml:"line,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestWriteJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, fixture(), Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `<?xml version="1.0" encoding="UTF-8"?>`+"\n<testsuites") {
		t.Errorf("missing XML header:\n%s", buf.String())
	}
	// Well-formed: the tokenizer reads to EOF without error.
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		_, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
	}
	var got xSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Tests != 7 || got.Failures != 2 || got.Errors != 2 || got.Skipped != 1 {
		t.Errorf("totals = %d tests, %d failures, %d errors, %d skipped", got.Tests, got.Failures, got.Errors, got.Skipped)
	}
	var names []string
	for _, s := range got.Suites {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "manifests/app.yaml,crs/widget.yaml,more.yaml,-" {
		t.Errorf("suites = %v, want input order", names)
	}
	app := got.Suites[0]
	if app.Tests != 3 || app.Failures != 1 || app.Errors != 1 || app.Skipped != 0 || len(app.Cases) != 3 {
		t.Fatalf("app suite = %+v", app)
	}
	valid, bad, old := app.Cases[0], app.Cases[1], app.Cases[2]
	if valid.Name != "apps/Deployment default/ok" || valid.Classname != "manifests/app.yaml" || valid.Failure != nil || valid.Error != nil || valid.Skipped != nil {
		t.Errorf("valid case = %+v", valid)
	}
	if bad.Name != "apps/Deployment default/bad" || bad.Line != 20 || bad.Failure == nil {
		t.Fatalf("invalid case = %+v", bad)
	}
	if bad.Failure.Type != "Invalid" || bad.Failure.Message != "6 validation errors" {
		t.Errorf("failure = %+v", bad.Failure)
	}
	lines := []int{26, 20, 29, 24, 35, 20}
	var want strings.Builder
	for i, e := range expectedErrLines {
		want.WriteString("manifests/app.yaml:" + strconv.Itoa(lines[i]) + ": " + e + "\n")
	}
	if bad.Failure.Text != want.String() {
		t.Errorf("failure text:\n got %q\nwant %q", bad.Failure.Text, want.String())
	}
	if old.Error == nil || old.Error.Type != "NoSchema" || old.Error.Message != "no schema for extensions/v1beta1, Kind=Deployment" || old.Failure != nil {
		t.Errorf("failed case = %+v", old)
	}
	if old.Error.Text != "manifests/app.yaml:40: no schema for extensions/v1beta1, Kind=Deployment\n" {
		t.Errorf("error text = %q", old.Error.Text)
	}
	w := got.Suites[1].Cases[0]
	if w.Name != "example.com/Widget w1" || w.Skipped == nil || w.Skipped.Message != "no schema for example.com/v1, Kind=Widget" {
		t.Errorf("skipped case = %+v", w)
	}
	more := got.Suites[2]
	if more.Cases[0].SystemOut != "more.yaml:3: warning: unknown field \"data.extra\"\n" || more.Cases[0].Failure != nil {
		t.Errorf("warning case = %+v", more.Cases[0])
	}
	if more.Cases[1].Name != "document 2" || more.Cases[1].Error == nil || more.Cases[1].Error.Type != "ParseError" {
		t.Errorf("parse error case = %+v", more.Cases[1])
	}
	stdin := got.Suites[3].Cases[0]
	if stdin.Name != "Namespace Team_A" || stdin.Line != 0 || stdin.Failure == nil ||
		!strings.HasPrefix(stdin.Failure.Text, `-: metadata.name: Invalid value: "Team_A"`) {
		t.Errorf("stdin case = %+v", stdin)
	}
}

func TestWriteJUnitEscaping(t *testing.T) {
	nasty := "a<b>&\"c' ]]> \x00\x1b end"
	r := &Result{Documents: []DocumentResult{{File: "x<&>.yaml", Name: nasty, GVK: cmGVK, Warnings: []string{nasty}}}}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var got xSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	c := got.Suites[0].Cases[0]
	// encoding/xml replaces characters XML cannot carry with U+FFFD.
	clean := "a<b>&\"c' ]]> \uFFFD\uFFFD end"
	if got.Suites[0].Name != "x<&>.yaml" || c.Name != "ConfigMap "+clean || c.SystemOut != "x<&>.yaml: warning: "+clean+"\n" {
		t.Errorf("round trip: suite %q case %q out %q", got.Suites[0].Name, c.Name, c.SystemOut)
	}
}
