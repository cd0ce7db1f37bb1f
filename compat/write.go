package compat

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"kdv.dev/report"
	"kdv.dev/report/sarif"
)

// Formats are the output formats Write knows.
func Formats() []string { return []string{"text", "json", "sarif"} }

// WriteOptions control Write.
type WriteOptions struct {
	// MinSeverity leaves out changes below it (default Safe: all).
	MinSeverity Severity
	// FailOn is the severity from which a change fails the run; SARIF marks
	// those results "error", the others "warning" or "note".
	FailOn Severity
	// ToolVersion is kdv's version, for SARIF.
	ToolVersion string
}

// Write renders res in the named format (see Formats).
func Write(w io.Writer, format string, res Result, opts WriteOptions) error {
	var shown []Change
	for _, c := range res.Changes {
		if c.Severity >= opts.MinSeverity {
			shown = append(shown, c)
		}
	}
	switch format {
	case "", "text":
		if err := writeText(w, shown, res.Changes); err != nil || res.Objects == nil {
			return err
		}
		return WriteObjects(w, "text", res.Objects)
	case "json":
		return writeJSON(w, shown, res.Objects)
	case "sarif":
		return writeSARIF(w, shown, res.Objects, opts)
	}
	return fmt.Errorf("unknown output format %q: must be one of %s", format, strings.Join(Formats(), ", "))
}

// writeText prints one line per change, its rule and hint indented below
// (for changes that break something), then counts per severity.
func writeText(w io.Writer, shown, all []Change) error {
	for _, c := range shown {
		fmt.Fprintln(w, c.String())
		if c.Severity > Safe {
			fmt.Fprintf(w, "    rule: %s\n", c.Rule)
		}
		if c.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", c.Hint)
		}
	}
	var counts [len(severityNames)]int
	for _, c := range all {
		counts[c.Severity]++
	}
	_, err := fmt.Fprintf(w, "%d changes: %d breaks-objects, %d breaks-clients, %d ratcheted, %d safe\n",
		len(all), counts[BreaksObjects], counts[BreaksClients], counts[Ratcheted], counts[Safe])
	return err
}

func writeJSON(w io.Writer, shown []Change, objects []ObjectResult) error {
	if shown == nil {
		shown = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // CEL rules and patterns hold < > &
	return enc.Encode(struct {
		Changes []Change       `json:"changes"`
		Objects []ObjectResult `json:"objects,omitempty"`
	}{shown, objects})
}

// writeSARIF writes SARIF 2.1.0: one rule per change kind, one result per
// change, located at the changed object's document, and one error result
// per stranded object (rule "object-stranded"), located at its document.
func writeSARIF(w io.Writer, shown []Change, objects []ObjectResult, opts WriteOptions) error {
	run := sarif.Run{
		Tool:    sarif.Tool{Driver: sarif.Driver{Name: "kdv", Version: opts.ToolVersion, InformationURI: report.InformationURI, Rules: []sarif.Rule{}}},
		Results: []sarif.Result{},
	}
	index := map[string]int{}
	for _, c := range shown {
		i, ok := index[c.Kind]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[c.Kind] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarif.Rule{ID: c.Kind, Name: c.Kind, ShortDescription: sarif.Message{Text: c.Kind}})
		}
		level := "note"
		switch {
		case c.Severity >= opts.FailOn && c.Severity > Safe:
			level = "error"
		case c.Severity > Safe:
			level = "warning"
		}
		text := c.String()
		if c.Rule != "" {
			text += " (" + c.Rule + ")"
		}
		r := sarif.Result{RuleID: c.Kind, RuleIndex: i, Level: level, Message: sarif.Message{Text: text},
			Properties: map[string]string{"severity": c.Severity.String(), "path": c.Path, "object": c.Object, "version": c.Version}}
		r.Locations = sarifLocations(c.File, c.Line)
		run.Results = append(run.Results, r)
	}
	for _, o := range objects {
		if !o.Stranded() {
			continue
		}
		if _, ok := index["object-stranded"]; !ok {
			index["object-stranded"] = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarif.Rule{ID: "object-stranded", Name: "object-stranded", ShortDescription: sarif.Message{Text: "an existing object valid under OLD is rejected by NEW"}})
		}
		text := o.object() + " is valid under OLD but NEW rejects it: " + strings.Join(append(append([]string{}, o.CreateErrors...), o.UpdateErrors...), "; ")
		r := sarif.Result{RuleID: "object-stranded", RuleIndex: index["object-stranded"], Level: "error", Message: sarif.Message{Text: text},
			Properties: map[string]string{"kind": o.Kind, "name": o.Name, "namespace": o.Namespace}}
		r.Locations = sarifLocations(o.File, o.Line)
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // CEL rules and patterns hold < > &
	return enc.Encode(sarif.NewLog(run))
}

// sarifLocations locates a result at file:line (none for stdin or an
// unknown file; no region without a line).
func sarifLocations(file string, line int) []sarif.Location {
	if file == "" || file == "-" {
		return nil
	}
	loc := sarif.PhysicalLocation{ArtifactLocation: sarif.ArtifactLocation{URI: filepath.ToSlash(file)}}
	if line > 0 {
		loc.Region = &sarif.Region{StartLine: line}
	}
	return []sarif.Location{{PhysicalLocation: loc}}
}
