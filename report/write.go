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

// Renderer renders a whole Result in one output format. Every format
// (text, json, junit, sarif, github, tap) is one, so that cmd/kdv and other
// callers pick a format by name ([Lookup], [Write]) without knowing it, and
// a new format is one type and one line in the table below. A renderer
// writes every document of r in input order, never fails on what r holds
// (only on w's errors), and writes nothing else to w.
type Renderer interface {
	Render(w io.Writer, r *Result, opts Options) error
}

// RenderFunc adapts a write function such as [WriteText] to [Renderer].
type RenderFunc func(io.Writer, *Result, Options) error

// Render calls f.
func (f RenderFunc) Render(w io.Writer, r *Result, opts Options) error { return f(w, r, opts) }

// formats maps each supported format name to its renderer, in the order
// Formats lists them.
var formats = []struct {
	name string
	r    Renderer
}{
	{"text", RenderFunc(WriteText)},
	{"json", RenderFunc(WriteJSON)},
	{"junit", RenderFunc(WriteJUnit)},
	{"sarif", RenderFunc(WriteSARIF)},
	{"github", RenderFunc(WriteGitHub)},
	{"tap", RenderFunc(WriteTAP)},
}

// Formats returns the supported format names: text, json, junit, sarif,
// github, tap.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Lookup returns the renderer of the named format (one of [Formats]); an
// unknown format is an error listing the supported ones.
func Lookup(format string) (Renderer, error) {
	for _, f := range formats {
		if f.name == format {
			return f.r, nil
		}
	}
	return nil, fmt.Errorf("unknown output format %q: must be one of %s", format, strings.Join(Formats(), ", "))
}

// Write renders r to w in the named format (one of [Formats]). An unknown
// format is an error listing the supported ones, and nothing is written.
func Write(w io.Writer, format string, r *Result, opts Options) error {
	rd, err := Lookup(format)
	if err != nil {
		return err
	}
	return rd.Render(w, r, opts)
}
