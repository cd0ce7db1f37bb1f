package report

import (
	"fmt"
	"io"
	"strings"
)

// Options tune the writers. The zero value is valid.
type Options struct {
	// Color enables ANSI colours in the text format. cmd/kdv sets it when
	// stdout is a terminal and NO_COLOR is unset; other formats ignore it.
	Color bool
	// ToolVersion is kdv's version, written as the SARIF driver version
	// when not empty.
	ToolVersion string
	// Verbose lists what is otherwise silent: each valid document, and each
	// ignored file (Result.Ignored), as kubeconform's -verbose does. Formats
	// that list every document anyway ignore it.
	Verbose bool
	// NoSummary leaves out the summary line (kubeconform's -summary=false);
	// formats without one ignore it.
	NoSummary bool
}

// formats maps each supported format name to its writer, in the order
// Formats lists them.
var formats = []struct {
	name  string
	write func(io.Writer, *Result, Options) error
}{
	{"text", WriteText},
	{"json", WriteJSON},
	{"junit", WriteJUnit},
	{"sarif", WriteSARIF},
}

// Formats returns the supported format names: text, json, junit, sarif.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Write renders r to w in the named format (one of [Formats]). An unknown
// format is an error listing the supported ones, and nothing is written.
func Write(w io.Writer, format string, r *Result, opts Options) error {
	for _, f := range formats {
		if f.name == format {
			return f.write(w, r, opts)
		}
	}
	return fmt.Errorf("unknown output format %q: must be one of %s", format, strings.Join(Formats(), ", "))
}
