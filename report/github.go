package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// finding is one line-level thing a writer reports about a document: an
// error, a warning or a note (a skipped document).
type finding struct {
	level        string // "error", "warning" or "notice"
	rule         string // the SARIF rule id: FieldValueInvalid, UnknownField, Warning, ...
	line, column int    // 1-based; 0 when unknown
	msg          string // "group/Kind namespace/name: <message>", as the text format words it
}

// findings lists d's findings in the order of the text and SARIF formats:
// the document-level error or skip, the decode error, unknown fields, field
// errors, warnings. Positions are those of the SARIF format (the field's own
// line and column through ErrorPos, else the document's first line).
func (d *DocumentResult) findings() []finding {
	id := d.Identity()
	var out []finding
	if d.Err != nil {
		out = append(out, finding{"error", d.ErrKind.ruleID(), d.Line, 0, prefixed(id, d.Err.Error())})
	} else if d.Skipped {
		msg := d.displayName() + ": skipped"
		if d.NotManifest {
			msg = "skipped"
		}
		if d.SkipReason != "" {
			msg += ": " + d.SkipReason
		}
		out = append(out, finding{"notice", ruleSkipped, d.Line, 0, msg})
	}
	if d.DecodeError != "" {
		line, column := d.decodePos()
		out = append(out, finding{"error", ruleDecodeError, line, column, prefixed(id, d.DecodeError)})
	}
	for _, msg := range d.UnknownFields {
		line, column := d.unknownPos(msg)
		out = append(out, finding{"error", ruleUnknownField, line, column, prefixed(id, msg)})
	}
	for _, e := range d.Errors {
		line, column := d.posOf(e)
		out = append(out, finding{"error", string(e.Type), line, column, prefixed(id, e.Error())})
	}
	for _, msg := range d.Warnings {
		out = append(out, finding{"warning", ruleWarning, d.Line, 0, prefixed(id, msg)})
	}
	return out
}

// WriteGitHub writes r as GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's files
// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
//
//	::error file=F,line=L,col=C,title=kdv FieldValueInvalid::apps/Deployment default/web: spec.replicas: ...
//	::warning file=F,line=L,title=kdv Warning::...
//	::notice file=F,line=L,title=kdv Skipped::...
//
// one command per finding, documents in input order and each document's
// findings in the order of the text format (skipped documents are notices),
// followed by the [Summary] line as plain text. Positions are the SARIF format's: the field's line and
// column, else the document's first line; line and col are left out when
// unknown, file when the input is stdin ("-"). The title is "kdv " and the
// SARIF rule id. Values are escaped as the runner unescapes them
// (@actions/core's escapeData and escapeProperty): "%" as %25, CR as %0D and
// LF as %0A everywhere, and ":" as %3A and "," as %2C in properties, so that
// a file name or message can neither end the command nor start another.
func WriteGitHub(w io.Writer, r *Result, _ Options) error {
	bw := bufio.NewWriter(w)
	for i := range r.Documents {
		d := &r.Documents[i]
		for _, f := range d.findings() {
			bw.WriteString("::")
			bw.WriteString(f.level)
			sep := byte(' ')
			prop := func(k, v string) {
				bw.WriteByte(sep)
				sep = ','
				bw.WriteString(k)
				bw.WriteByte('=')
				bw.WriteString(escapeGitHubProperty(v))
			}
			if d.File != "" && d.File != "-" {
				prop("file", d.File)
			}
			if f.line > 0 {
				prop("line", strconv.Itoa(f.line))
				if f.column > 0 {
					prop("col", strconv.Itoa(f.column))
				}
			}
			prop("title", "kdv "+f.rule)
			bw.WriteString("::")
			bw.WriteString(escapeGitHubData(f.msg))
			bw.WriteByte('\n')
		}
	}
	bw.WriteString(r.Summary().String())
	bw.WriteByte('\n')
	return bw.Flush()
}

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeGitHubData escapes a workflow command's message (escapeData).
func escapeGitHubData(s string) string { return githubData.Replace(s) }

// escapeGitHubProperty escapes a workflow command's property value
// (escapeProperty).
func escapeGitHubProperty(s string) string { return githubProperty.Replace(s) }
