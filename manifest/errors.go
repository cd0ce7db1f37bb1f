package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Error is a problem with one document (or, with Index -1, with a whole source). It is the
// type of Document.Err and of the errors joined in Read's error.
type Error struct {
	// File is the path as given, "-" for stdin.
	File string
	// Index is the document index within the file (see Document.Index), -1 when the error
	// concerns the file as a whole (for example, it cannot be read).
	Index int
	// Item is the index within an expanded List, -1 when the document is not a List item.
	Item int
	// Line is the 1-based line in File the error points at, 0 when unknown.
	Line int
	// Column is the 1-based byte column of the offending key, 0 when unknown (go-yaml's
	// syntax errors carry a line only).
	Column int
	// Path is the field path of the offending field when known (a duplicate key or field),
	// in the dotted form sigs.k8s.io/json uses for strict errors ("spec.ports[0].name", map
	// keys as ".key"), which LineOf accepts; "" otherwise.
	Path string
	// Msg is the decoder's message, with line numbers made absolute.
	Msg string
}

// Error formats as "file:line: msg" (clickable in editors and terminals), or
// "file: document N: msg" when the line is unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0:
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	case e.Index >= 0:
		fmt.Fprintf(&b, ": document %d", e.Index)
	}
	if e.Item >= 0 {
		fmt.Fprintf(&b, ": items[%d]", e.Item)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// dupRe matches one go-yaml v2 strict error: `line N: key "x" already set in map`.
var dupRe = regexp.MustCompile(`^line (\d+): key (.*) already set in map$`)

// yamlLineRe matches go-yaml's "yaml: line N: msg" and "line N: msg" forms.
var yamlLineRe = regexp.MustCompile(`^(yaml: )?line (\d+): `)

// absLine rewrites a go-yaml message whose "line N" counts from the start of the document
// into one that counts from the start of the file, and returns that absolute line (0 if the
// message carries none). firstLine is the file line of the document's first byte.
func absLine(msg string, firstLine int) (string, int) {
	m := yamlLineRe.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg, 0
	}
	n, err := strconv.Atoi(msg[m[4]:m[5]])
	if err != nil {
		return msg, 0
	}
	line := firstLine + n - 1
	return msg[:m[4]] + strconv.Itoa(line) + msg[m[5]:], line
}
