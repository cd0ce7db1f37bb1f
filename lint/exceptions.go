package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Exceptions are the intended findings of an exception file.
type Exceptions struct {
	// File is the file's name, for messages.
	File string
	// entries by key, in file order.
	entries []exception
}

type exception struct {
	key, reason string
	line        int
	used        bool
}

// MaxExceptionLines bounds an exception file.
const MaxExceptionLines = 100000

// ParseExceptions reads an exception file: one entry per line,
// "<key>: <reason>", where the key is a finding's Key ("<object> <path>
// <check>", e.g. "autoscaling/HorizontalPodAutoscaler spec.minReplicas
// differs:default-changed"). A key without the check ("<object> <path>")
// silences every finding on that path. Blank lines and lines starting with
// # are comments. Every entry needs a reason: an exception is a decision a
// reviewer should be able to read. Errors name the file and line; the other
// lines are still read.
func ParseExceptions(name string, data []byte) (*Exceptions, error) {
	ex := &Exceptions{File: name}
	var errs []error
	seen := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		if i >= MaxExceptionLines {
			errs = append(errs, fmt.Errorf("%s: more than %d lines (lint.MaxExceptionLines); the rest is ignored", name, MaxExceptionLines))
			break
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, ok := strings.Cut(line, ": ")
		if !ok && strings.HasSuffix(line, ":") {
			key, ok = strings.TrimSuffix(line, ":"), true
		}
		key, reason = strings.TrimSpace(key), strings.TrimSpace(reason)
		switch {
		case !ok || key == "":
			errs = append(errs, fmt.Errorf("%s:%d: want \"<object> <path> <check>: <reason>\", got %q", name, i+1, line))
			continue
		case reason == "":
			errs = append(errs, fmt.Errorf("%s:%d: %s: no reason given", name, i+1, key))
			continue
		case len(strings.Fields(key)) < 2:
			errs = append(errs, fmt.Errorf("%s:%d: %q names no path or check: want \"<object> <path> <check>\"", name, i+1, key))
			continue
		}
		if prev, dup := seen[key]; dup {
			errs = append(errs, fmt.Errorf("%s:%d: %s already excepted on line %d", name, i+1, key, prev))
			continue
		}
		seen[key] = i + 1
		ex.entries = append(ex.entries, exception{key: key, reason: reason, line: i + 1})
	}
	return ex, errors.Join(errs...)
}

// Apply sets Excepted on the findings an entry names and returns the
// entries that named none ("file:line: key"), which are stale: the
// difference they excused is gone, or the key is mistyped.
func (ex *Exceptions) Apply(findings []Finding) (unused []string) {
	if ex == nil {
		return nil
	}
	byKey := map[string]*exception{}
	for i := range ex.entries {
		byKey[ex.entries[i].key] = &ex.entries[i]
	}
	for i := range findings {
		f := &findings[i]
		e := byKey[f.Key()]
		if e == nil {
			e = byKey[strings.TrimSuffix(f.Key(), " "+f.Check)]
		}
		if e != nil {
			f.Excepted, e.used = e.reason, true
		}
	}
	for _, e := range ex.entries {
		if !e.used {
			unused = append(unused, fmt.Sprintf("%s:%d: %s", ex.File, e.line, e.key))
		}
	}
	return unused
}

// Failing counts the findings no exception silences.
func Failing(findings []Finding) int {
	n := 0
	for _, f := range findings {
		if f.Excepted == "" {
			n++
		}
	}
	return n
}

// Formats are the output formats Write knows.
func Formats() []string { return []string{"text", "json"} }

// Write renders findings: "text" lists those not excepted, one per line
// (ShowExcepted adds the others, marked), then counts; "json" is
// {"findings": [...], "unusedExceptions": [...]} with every finding.
func Write(w io.Writer, format string, findings []Finding, unused []string, showExcepted bool) error {
	switch format {
	case "json":
		if findings == nil {
			findings = []Finding{}
		}
		if unused == nil {
			unused = []string{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // CEL rules hold < > &
		return enc.Encode(struct {
			Findings         []Finding `json:"findings"`
			UnusedExceptions []string  `json:"unusedExceptions"`
		}{findings, unused})
	case "", "text":
	default:
		return fmt.Errorf("unknown output format %q: must be one of %s", format, strings.Join(Formats(), ", "))
	}
	counts := map[string]int{}
	for _, f := range findings {
		check, _, _ := strings.Cut(f.Check, ":")
		if f.Excepted != "" {
			counts["excepted"]++
			if showExcepted {
				fmt.Fprintf(w, "%s\n    excepted: %s\n", f, f.Excepted)
			}
			continue
		}
		counts[check]++
		fmt.Fprintln(w, f)
	}
	for _, u := range unused {
		fmt.Fprintf(w, "%s: unused exception: no finding has this key\n", u)
	}
	var parts []string
	for k, n := range counts {
		if k != "excepted" {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	sort.Strings(parts)
	summary := fmt.Sprintf("%d findings: %d failing, %d excepted", len(findings), len(findings)-counts["excepted"], counts["excepted"])
	if len(parts) > 0 {
		summary += " (" + strings.Join(parts, ", ") + ")"
	}
	_, err := fmt.Fprintln(w, summary)
	return err
}
