package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// ANSI SGR sequences used when Options.Color is set.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// WriteText writes r in the text format, one line per finding, in input order:
//
//	file:line: group/Kind namespace/name: <(*field.Error).Error()>
//	file:line: <document-level error>   (as is if it starts with "file:")
//	file:line: warning: group/Kind namespace/name: <warning>
//	file:line: skipped: group/Kind namespace/name: <reason>
//
// followed by the [Summary] line. The core group is written as just "Kind",
// an object without namespace as just "name"; ":line" is left out when the
// line is unknown. Valid documents produce no line of their own unless
// opts.Verbose, which adds, in the same shape,
//
//	file: ignored: <reason>                    (first, one per Result.Ignored)
//	file:line: valid: group/Kind namespace/name
//
// opts.NoSummary leaves the summary out. With opts.Color, locations are bold
// and messages coloured by severity.
func WriteText(w io.Writer, r *Result, opts Options) error {
	t := textWriter{w: bufio.NewWriter(w), color: opts.Color}
	if opts.Verbose {
		for _, f := range r.Ignored {
			t.line(f.File, 0, "ignored: ", ansiCyan, "", f.Reason)
		}
	}
	for i := range r.Documents {
		d := &r.Documents[i]
		id := d.Identity()
		if opts.Verbose && d.Outcome() == Valid {
			t.line(d.File, d.Line, "valid: ", ansiGreen, "", d.displayName())
		}
		if d.Err != nil {
			if msg := d.Err.Error(); hasLocation(msg, d.File) {
				t.line("", 0, "", "", ansiRed, msg)
			} else {
				t.line(d.File, d.Line, "", "", ansiRed, msg)
			}
		}
		if d.Skipped && d.Err == nil && d.NotManifest {
			// No identity: it is not an object.
			t.line(d.File, d.Line, "skipped: ", ansiCyan, "", d.SkipReason)
		} else if d.Skipped && d.Err == nil {
			msg := d.displayName()
			if d.SkipReason != "" {
				msg += ": " + d.SkipReason
			}
			t.line(d.File, d.Line, "skipped: ", ansiCyan, "", msg)
		}
		if d.DecodeError != "" {
			line, _ := d.decodePos()
			t.line(d.File, line, "", "", ansiRed, prefixed(id, d.DecodeError))
		}
		for _, msg := range d.UnknownFields {
			line, _ := d.unknownPos(msg)
			t.line(d.File, line, "", "", ansiRed, prefixed(id, msg))
		}
		for _, e := range d.Errors {
			t.line(d.File, d.lineOf(e), "", "", ansiRed, prefixed(id, e.Error()))
		}
		for _, msg := range d.Warnings {
			t.line(d.File, d.Line, "warning: ", ansiYellow, "", prefixed(id, msg))
		}
	}
	if opts.NoSummary {
		return t.w.Flush()
	}
	sum := r.Summary().String()
	if t.color {
		c := ansiGreen
		if r.ExitCode() != ExitValid {
			c = ansiRed
		}
		sum = ansiBold + c + sum + ansiReset
	}
	t.w.WriteString(sum)
	t.w.WriteByte('\n')
	return t.w.Flush()
}

// prefixed returns "id: msg", or msg when id is empty.
func prefixed(id, msg string) string {
	if id == "" {
		return msg
	}
	return id + ": " + msg
}

// textWriter accumulates lines; bufio.Writer keeps the first write error,
// which Flush reports.
type textWriter struct {
	w     *bufio.Writer
	color bool
}

// hasLocation reports whether a document-level error message already starts
// with its file name and a colon, as manifest's errors do ("file:line: msg",
// "file: document N: msg"), so that writers do not repeat the location.
func hasLocation(msg, file string) bool {
	return file != "" && strings.HasPrefix(msg, file+":")
}

// line writes "file:line: <tag><msg>" with tag in tagColor and msg in
// msgColor when colour is on; an empty file writes no location.
func (t *textWriter) line(file string, line int, tag, tagColor, msgColor, msg string) {
	loc := ""
	if file != "" {
		loc = file
		if line > 0 {
			loc += ":" + strconv.Itoa(line)
		}
		loc += ":"
	}
	if t.color {
		if loc != "" {
			loc = ansiBold + loc + ansiReset
		}
		if tag != "" {
			tag = tagColor + tag + ansiReset
		}
		if msgColor != "" {
			msg = msgColor + msg + ansiReset
		}
	}
	if loc != "" {
		t.w.WriteString(loc)
		t.w.WriteByte(' ')
	}
	t.w.WriteString(tag)
	t.w.WriteString(msg)
	t.w.WriteByte('\n')
}
