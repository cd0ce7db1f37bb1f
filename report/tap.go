package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTAP writes r in the Test Anything Protocol, version 14
// (https://testanything.org/tap-version-14-specification.html), one test
// point per document in input order:
//
//	TAP version 14
//	1..4
//	ok 1 - manifests/app.yaml apps/Deployment default/web
//	not ok 2 - manifests/app.yaml apps/Deployment default/bad
//	  ---
//	  message: "2 errors"
//	  severity: fail
//	  file: "manifests/app.yaml"
//	  line: 20
//	  errors:
//	    - rule: "FieldValueInvalid"
//	      line: 26
//	      column: 7
//	      message: "spec.replicas: Invalid value: -1: ..."
//	  ...
//	ok 3 - crs/widget.yaml example.com/Widget w1 # SKIP no schema for ...
//	not ok 4 - more.yaml document 2
//	# 4 documents in 3 files: ...
//
// Invalid and failed documents are "not ok" with a YAML diagnostic block
// listing their errors (each with its rule id, the SARIF format's line and
// column, and the message without the identity, which the description
// holds); valid ones are "ok", with a block of their warnings if they have
// any; skipped ones (not-manifest files too) are "ok" with a "# SKIP" directive
// and the reason. The [Summary] line ends the output as a comment. Strings in
// the blocks are double-quoted with YAML escapes, valid YAML whatever they
// hold; in
// descriptions, "\" and "#" are escaped ("\\", "\#") as TAP 14 requires, and
// line breaks become spaces so that one test point stays one line.
func WriteTAP(w io.Writer, r *Result, _ Options) error {
	bw := bufio.NewWriter(w)
	points := make([]*DocumentResult, 0, len(r.Documents))
	for i := range r.Documents {
		if !r.Documents[i].Empty {
			points = append(points, &r.Documents[i])
		}
	}
	bw.WriteString("TAP version 14\n1..")
	bw.WriteString(strconv.Itoa(len(points)))
	bw.WriteByte('\n')
	for i, d := range points {
		out := d.Outcome()
		if out == Invalid || out == Failed {
			bw.WriteString("not ")
		}
		bw.WriteString("ok ")
		bw.WriteString(strconv.Itoa(i + 1))
		bw.WriteString(" - ")
		bw.WriteString(tapDescription(d.File + " " + d.displayName()))
		if out == Skipped {
			bw.WriteString(" # SKIP")
			if d.SkipReason != "" {
				bw.WriteByte(' ')
				bw.WriteString(oneLine(d.SkipReason))
			}
		}
		bw.WriteByte('\n')
		writeTAPDiagnostics(bw, d, out)
	}
	bw.WriteString("# ")
	bw.WriteString(oneLine(r.Summary().String()))
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeTAPDiagnostics writes d's YAML diagnostic block, indented by two
// spaces as TAP 14 requires, when d has errors or warnings.
func writeTAPDiagnostics(bw *bufio.Writer, d *DocumentResult, out Outcome) {
	var errs, warns []finding
	for _, f := range d.findings() {
		switch f.level {
		case "error":
			errs = append(errs, f)
		case "warning":
			warns = append(warns, f)
		}
	}
	if len(errs) == 0 && len(warns) == 0 {
		return
	}
	// Messages without the identity: the description names the object.
	strip := func(msg string) string {
		if id := d.Identity(); id != "" {
			return strings.TrimPrefix(msg, id+": ")
		}
		return msg
	}
	bw.WriteString("  ---\n")
	switch {
	case out == Failed:
		tapField(bw, "  ", "message", tapString(strip(errs[0].msg)))
	case len(errs) > 0:
		tapField(bw, "  ", "message", tapString(plural(len(errs), "error")))
	default:
		tapField(bw, "  ", "message", tapString(plural(len(warns), "warning")))
	}
	severity := "fail"
	if len(errs) == 0 {
		severity = "comment"
	}
	tapField(bw, "  ", "severity", severity)
	tapField(bw, "  ", "file", tapString(d.File))
	if d.Line > 0 {
		tapField(bw, "  ", "line", strconv.Itoa(d.Line))
	}
	list := func(key string, fs []finding) {
		if len(fs) == 0 {
			return
		}
		bw.WriteString("  " + key + ":\n")
		for _, f := range fs {
			bw.WriteString("    - ")
			tapField(bw, "", "rule", tapString(f.rule))
			if f.line > 0 {
				tapField(bw, "      ", "line", strconv.Itoa(f.line))
			}
			if f.column > 0 {
				tapField(bw, "      ", "column", strconv.Itoa(f.column))
			}
			tapField(bw, "      ", "message", tapString(strip(f.msg)))
		}
	}
	list("errors", errs)
	list("warnings", warns)
	bw.WriteString("  ...\n")
}

// tapField writes one "key: value" line of a diagnostic block.
func tapField(bw *bufio.Writer, indent, key, value string) {
	bw.WriteString(indent)
	bw.WriteString(key)
	bw.WriteString(": ")
	bw.WriteString(value)
	bw.WriteByte('\n')
}

// tapString quotes s as a YAML double-quoted scalar: '"' and '\' are
// escaped, and so is every character YAML does not allow as written in a
// stream (C0 and C1 controls, DEL, the byte order mark, U+FFFE and U+FFFF),
// so that no string can end the block, break the line or make it invalid
// YAML. Invalid UTF-8 becomes U+FFFD, as in the JSON and SARIF formats.
func tapString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case yamlPrintable(r):
			b.WriteRune(r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlPrintable reports whether r may appear as written in a quoted YAML
// scalar and keep its value: YAML 1.2's c-printable, less the byte order
// mark (it only starts a stream) and NEL, U+2028 and U+2029, which YAML 1.1
// parsers (go.yaml.in/yaml/v2 behind sigs.k8s.io/yaml) read as line breaks.
func yamlPrintable(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF:
		return r != 0x2028 && r != 0x2029
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

var tapEscaper = strings.NewReplacer(`\`, `\\`, "#", `\#`)

// tapDescription escapes a test point description: "#" would start a
// directive and "\" is TAP 14's escape character.
func tapDescription(s string) string { return tapEscaper.Replace(oneLine(s)) }

// oneLine replaces line breaks with spaces: a test point is one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
