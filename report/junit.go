package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JUnit XML shapes, following the de-facto schema read by Jenkins, GitLab
// and GitHub test reporters: testsuites > testsuite > testcase with
// failure, error, skipped and system-out children.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// WriteJUnit writes r as JUnit XML: one testsuite per file (in order of first
// appearance), one testcase per document named by its identity
// ("group/Kind namespace/name", or "document N" when unknown) with
// classname = file. An invalid document has a <failure type="Invalid"> whose
// text lists its errors one per line as "file:line: <field error>"; a failed
// document has an <error> typed by its ErrKind (rule ids as in SARIF) with
// the same kind of text; a skipped one <skipped/>.
// Warnings go to the testcase's <system-out>.
func WriteJUnit(w io.Writer, r *Result, _ Options) error {
	out := junitSuites{Name: "kdv"}
	files, byFile := fileOrder(r.Documents)
	for _, f := range files {
		suite := junitSuite{Name: f}
		for _, i := range byFile[f] {
			d := &r.Documents[i]
			c := junitCase{Name: d.displayName(), Classname: f, File: f, Line: d.Line}
			var errs strings.Builder
			if d.DecodeError != "" {
				line, _ := d.decodePos()
				errs.WriteString(location(f, line))
				errs.WriteString(d.DecodeError)
				errs.WriteByte('\n')
			}
			for _, msg := range d.UnknownFields {
				line, _ := d.unknownPos(msg)
				errs.WriteString(location(f, line))
				errs.WriteString(msg)
				errs.WriteByte('\n')
			}
			for _, e := range d.Errors {
				errs.WriteString(location(f, d.lineOf(e)))
				errs.WriteString(e.Error())
				errs.WriteByte('\n')
			}
			switch d.Outcome() {
			case Failed:
				// Field errors found before the failure (if any) follow it.
				text := d.Err.Error()
				if !hasLocation(text, f) {
					text = location(f, d.Line) + text
				}
				c.Error = &junitProblem{Message: d.Err.Error(), Type: d.ErrKind.ruleID(),
					Text: text + "\n" + errs.String()}
				suite.Errors++
			case Skipped:
				c.Skipped = &junitSkipped{Message: d.SkipReason}
				suite.Skipped++
			case Invalid:
				c.Failure = &junitProblem{
					Message: plural(len(d.Errors)+len(d.UnknownFields)+boolInt(d.DecodeError != ""), "validation error"),
					Type:    "Invalid",
					Text:    errs.String(),
				}
				suite.Failures++
			}
			if len(d.Warnings) > 0 {
				var b strings.Builder
				for _, msg := range d.Warnings {
					fmt.Fprintf(&b, "%swarning: %s\n", location(f, d.Line), msg)
				}
				c.SystemOut = b.String()
			}
			suite.Cases = append(suite.Cases, c)
			suite.Tests++
		}
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Errors += suite.Errors
		out.Skipped += suite.Skipped
		out.Suites = append(out.Suites, suite)
	}
	data, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	b.Write(data)
	b.WriteByte('\n')
	_, err = io.WriteString(w, b.String())
	return err
}

// location is "file:line: ", or "file: " when the line is unknown.
func location(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line) + ": "
	}
	return file + ": "
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
