package upgrade

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"kdv.dev/report"
)

// Summary counts documents per category: a document counts once in each
// category it has a finding of (a deprecated version newly rejected counts
// in both); Unaffected, Skipped and Failed documents have no other.
type Summary struct {
	Files     int
	Documents int
	// NotManifests counts the inputs that are not Kubernetes objects (a
	// Helm values file, a CI workflow), skipped as kdv validate skips them.
	NotManifests int
	// Counts maps each category to its number of documents.
	Counts map[Category]int
}

// Summary counts r's documents. Not-manifest inputs (a Helm values file)
// are counted neither as files nor as documents, as kdv validate does.
func (r *Result) Summary() Summary {
	s := Summary{Counts: map[Category]int{}}
	files := map[string]bool{}
	for i := range r.Documents {
		d := &r.Documents[i]
		if d.ToCreate.NotManifest && d.ToCreate.Err == nil {
			s.NotManifests++
			continue
		}
		if !files[d.ToCreate.File] {
			files[d.ToCreate.File] = true
			s.Files++
		}
		s.Documents++
		if len(d.Findings) == 0 {
			s.Counts[d.Class]++
			continue
		}
		seen := map[Category]bool{}
		for _, f := range d.Findings {
			if !seen[f.Category] {
				seen[f.Category] = true
				s.Counts[f.Category]++
			}
		}
	}
	return s
}

// String is the text format's summary line, e.g. "3 documents in 2 files,
// 1.35 -> 1.37: 1 removed, 0 newly rejected, 1 deprecated, 0 warnings
// changed, 1 newly accepted, 0 invalid at both, 0 failed, 0 skipped, 0
// unaffected".
func (s Summary) String(from, to int) string {
	parts := make([]string, 0, len(Categories))
	for _, c := range Categories {
		n := s.Counts[c]
		switch c {
		case WarningChanged:
			parts = append(parts, fmt.Sprintf("%d with warnings changed", n))
		case Unchanged:
			parts = append(parts, fmt.Sprintf("%d invalid at both", n))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ReplaceAll(string(c), "-", " ")))
		}
	}
	out := fmt.Sprintf("%s in %s, %s -> %s: %s", plural(s.Documents, "document"), plural(s.Files, "file"), release(from), release(to), strings.Join(parts, ", "))
	if s.NotManifests > 0 {
		out += "; " + plural(s.NotManifests, "non-manifest") + " skipped"
	}
	return out
}

// ExitCode is kdv's exit code for r: 3 for an internal error, 2 when a
// document could not be validated, 1 when the upgrade breaks a document
// (removed version, newly rejected), 0 otherwise.
func (r *Result) ExitCode() int {
	code := report.ExitValid
	for i := range r.Documents {
		d := &r.Documents[i]
		for _, f := range d.Findings {
			c := report.ExitValid
			switch {
			case f.Category == Failed && (d.ToCreate.ErrKind == report.ErrInternal || d.FromCreate.ErrKind == report.ErrInternal):
				c = report.ExitInternal
			case f.Category == Failed:
				c = report.ExitUsage
			case f.Category.Breaks():
				c = report.ExitInvalid
			}
			code = max(code, c)
		}
	}
	return code
}

// WriteOptions tune the writers.
type WriteOptions struct {
	// ShowUnchanged lists the documents invalid at both releases, which
	// are otherwise only counted.
	ShowUnchanged bool
	// NoSummary leaves the text format's summary line out.
	NoSummary bool
	// Verbose lists the unaffected documents too ("valid at 1.35 and
	// 1.37"), as kdv validate -v lists valid ones.
	Verbose bool
}

// Formats are the output formats of Write.
var Formats = []string{"text", "json"}

// Write renders r as text or json.
func Write(w io.Writer, format string, r *Result, opts WriteOptions) error {
	switch format {
	case "text", "":
		return WriteText(w, r, opts)
	case "json":
		return WriteJSON(w, r, opts)
	}
	return fmt.Errorf("unknown output format %q: must be one of %s", format, strings.Join(Formats, ", "))
}

// WriteText writes one line per finding, in input order,
//
//	file:line: group/Kind namespace/name: <category>: <message>
//
// with one line per error for newly rejected and newly accepted documents
// (and, with opts.ShowUnchanged, for documents invalid at both), a line
// per skipped document ("file:line: skipped: not a manifest: ..." for an
// input that is not a Kubernetes object), then the summary line.
func WriteText(w io.Writer, r *Result, opts WriteOptions) error {
	bw := bufio.NewWriter(w)
	from, to := release(r.From), release(r.To)
	for i := range r.Documents {
		d := &r.Documents[i]
		loc := &d.ToCreate
		line := func(at int, msg string) {
			pos := location(loc.File, at)
			if id := loc.Identity(); id != "" {
				msg = id + ": " + msg
			}
			fmt.Fprintf(bw, "%s: %s\n", pos, msg)
		}
		if opts.Verbose && d.Class == Unaffected {
			line(loc.Line, fmt.Sprintf("valid at %s and %s", from, to))
		}
		if d.Class == Skipped {
			if loc.NotManifest && loc.Err == nil {
				fmt.Fprintf(bw, "%s: skipped: %s\n", location(loc.File, loc.Line), d.SkipReason)
			} else {
				line(loc.Line, "skipped: "+d.SkipReason)
			}
		}
		for _, f := range d.Findings {
			switch f.Category {
			case Removed:
				line(loc.Line, "removed: "+f.Message)
			case Deprecated:
				line(loc.Line, "deprecated: "+f.Message)
			case WarningChanged:
				line(loc.Line, f.Message)
			case Failed:
				line(loc.Line, "not validated: "+withoutLocation(f.Message, loc.File))
			case NewlyRejected:
				tag := "newly rejected by " + to
				if f.OnUpdate {
					tag += " on an unchanged update"
				}
				for _, p := range f.Errors {
					line(p.Line, tag+": "+p.Text)
				}
				switch f.StoredObjects {
				case "accepted":
					line(loc.Line, fmt.Sprintf("%s: objects stored at %s still pass an unchanged update at %s", tag, from, to))
				case "rejected":
					line(loc.Line, fmt.Sprintf("%s: objects stored at %s fail an unchanged update at %s too", tag, from, to))
				case "not compared":
					line(loc.Line, fmt.Sprintf("%s: objects stored at %s: update not compared (another document has the same kind, namespace and name)", tag, from))
				}
			case NewlyAccepted:
				for _, p := range f.Errors {
					line(p.Line, fmt.Sprintf("newly accepted by %s (rejected by %s): %s", to, from, p.Text))
				}
			case Unchanged:
				if !opts.ShowUnchanged {
					continue
				}
				isNew := map[string]bool{}
				for _, p := range f.NewErrors {
					isNew[p.Text] = true
				}
				for _, p := range f.Errors {
					tag := fmt.Sprintf("invalid at %s and %s: ", from, to)
					if isNew[p.Text] {
						tag = fmt.Sprintf("invalid at %s and %s (new at %s): ", from, to, to)
					}
					line(p.Line, tag+p.Text)
				}
			}
		}
	}
	if !opts.NoSummary {
		fmt.Fprintln(bw, r.Summary().String(r.From, r.To))
	}
	return bw.Flush()
}

// withoutLocation removes the "file:line: " that parse errors start with,
// since the line says where already.
func withoutLocation(msg, file string) string {
	rest, ok := strings.CutPrefix(msg, file+":")
	if !ok {
		return msg
	}
	i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 || !strings.HasPrefix(rest[i:], ": ") {
		return msg
	}
	return rest[i+2:]
}

// location is "file:line", or "file" when the line is unknown.
func location(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// jsonDocument is one document of the JSON format.
type jsonDocument struct {
	File       string            `json:"file"`
	Line       int               `json:"line,omitempty"`
	Index      int               `json:"index"`
	Via        string            `json:"via,omitempty"`
	Template   string            `json:"template,omitempty"`
	APIVersion string            `json:"apiVersion,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	Namespace  string            `json:"namespace,omitempty"`
	Name       string            `json:"name,omitempty"`
	Class      Category          `json:"class"`
	SkipReason string            `json:"skipReason,omitempty"`
	Verdicts   map[string]string `json:"verdicts"`
	Findings   []Finding         `json:"findings,omitempty"`
}

// WriteJSON writes {"from": "1.35", "to": "1.37", "documents": [...],
// "summary": {...}}: every document with its class, its four verdicts
// ("valid", "invalid", "failed", "skipped" for "fromCreate", "toCreate",
// "fromUpdate", "toUpdate"; the updates only when compared) and its
// findings, unchanged problems included.
func WriteJSON(w io.Writer, r *Result, _ WriteOptions) error {
	out := struct {
		From      string         `json:"from"`
		To        string         `json:"to"`
		Documents []jsonDocument `json:"documents"`
		Summary   map[string]int `json:"summary"`
	}{From: release(r.From), To: release(r.To), Documents: []jsonDocument{}, Summary: map[string]int{}}
	for i := range r.Documents {
		d := &r.Documents[i]
		loc := &d.ToCreate
		if loc.NotManifest && loc.Err == nil {
			continue
		}
		jd := jsonDocument{File: loc.File, Line: loc.Line, Index: loc.Index, Via: loc.Via, Template: loc.Template,
			Kind: loc.GVK.Kind, Namespace: loc.Namespace, Name: loc.Name, Class: d.Class, SkipReason: d.SkipReason, Findings: d.Findings,
			Verdicts: map[string]string{"fromCreate": d.FromCreate.Outcome().String(), "toCreate": d.ToCreate.Outcome().String()}}
		if !loc.GVK.Empty() {
			jd.APIVersion = loc.GVK.GroupVersion().String()
		}
		if d.UpdateCompared {
			jd.Verdicts["fromUpdate"] = d.FromUpdate.Outcome().String()
			jd.Verdicts["toUpdate"] = d.ToUpdate.Outcome().String()
		}
		out.Documents = append(out.Documents, jd)
	}
	s := r.Summary()
	out.Summary["files"], out.Summary["documents"], out.Summary["notManifests"] = s.Files, s.Documents, s.NotManifests
	for _, c := range Categories {
		out.Summary[string(c)] = s.Counts[c]
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
