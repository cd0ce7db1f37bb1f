// Package report holds the result model of `kdv validate` and `kdv check` and
// renders it as text, JSON (kubectl-validate's shape), JUnit XML, SARIF 2.1.0,
// GitHub Actions workflow commands or TAP 14, each a [Renderer].
//
// The model is deliberately plain data: cmd/kdv fills a [Result] with one
// [DocumentResult] per input document, in input order, hands it to [Write]
// and exits with [Result.ExitCode]. The package depends only on the standard
// library and k8s.io/apimachinery so that every other kdv package can stay
// below it.
//
// Formats ([Formats]), all deterministic and in input order:
//
//   - text ([WriteText]): "file:line: group/Kind namespace/name: <field error>"
//     per error, then a summary line; optional ANSI colour.
//   - json ([WriteJSON]): kubectl-validate's {"<file>": [metav1.Status, ...]},
//     with the apiserver's 422 Invalid status for invalid documents, a status
//     per empty document, and warnings beside the status.
//   - junit ([WriteJUnit]): a testsuite per file, a testcase per document.
//   - sarif ([WriteSARIF]): SARIF 2.1.0, one result per error or warning.
//   - github ([WriteGitHub]): "::error file=F,line=L,col=C,title=T::message"
//     per finding, which GitHub Actions shows as annotations.
//   - tap ([WriteTAP]): TAP version 14, a test point per document with a
//     YAML block of its errors.
package report

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Process exit codes of kdv, as fixed by DESIGN.md ("CLI contract").
const (
	// ExitValid means every document was valid (skipped documents and
	// warnings do not change it).
	ExitValid = 0
	// ExitInvalid means at least one document failed validation.
	ExitInvalid = 1
	// ExitUsage means bad usage or unreadable input or schema: a document
	// could not be parsed, or had no usable schema.
	ExitUsage = 2
	// ExitInternal means kdv itself failed (a bug).
	ExitInternal = 3
)

// ErrKind classifies a document-level failure ([DocumentResult.Err]). Its
// value is used verbatim as the SARIF rule id and the JUnit error type.
type ErrKind string

const (
	// ErrDocument is the zero value: an unclassified failure caused by the
	// input. It counts as ExitUsage.
	ErrDocument ErrKind = ""
	// ErrParse means the document could not be read or decoded (YAML/JSON
	// syntax, missing apiVersion or kind).
	ErrParse ErrKind = "ParseError"
	// ErrNoSchema means no schema is known for the document's
	// GroupVersionKind, e.g. `no schema for extensions/v1beta1, Kind=Deployment`.
	ErrNoSchema ErrKind = "NoSchema"
	// ErrSchema means a schema exists but could not be loaded or compiled.
	ErrSchema ErrKind = "SchemaError"
	// ErrRemovedAPI means the document's built-in API version is no
	// longer served by the Kubernetes release validated against
	// (extensions/v1beta1 Ingress in 1.22 and later). The apiserver
	// rejects such a document whatever it holds, so it counts as
	// ExitInvalid, not as a missing schema.
	ErrRemovedAPI ErrKind = "RemovedAPI"
	// ErrInternal means a bug in kdv. It counts as ExitInternal and is
	// rendered in JSON as kubectl-validate renders non-API errors
	// (apierrors.NewInternalError, code 500).
	ErrInternal ErrKind = "InternalError"
)

// ruleID is the SARIF rule id / JUnit error type of k.
func (k ErrKind) ruleID() string {
	if k == ErrDocument {
		return "DocumentError"
	}
	return string(k)
}

// DocumentResult is the outcome of validating one document of one file.
//
// Exactly one of four outcomes applies (see [DocumentResult.Outcome]): Err set
// means the document could not be validated at all; Skipped means it was
// deliberately not validated; non-empty Errors means invalid; otherwise valid.
type DocumentResult struct {
	// File is the input name as the user gave it ("-" or similar for stdin).
	File string
	// Index is the 0-based position of the document within File.
	Index int
	// Line is the 1-based line where the document starts; 0 if unknown.
	Line int

	// Via is the file that built the object (a kustomization) when it was
	// built rather than read from File; Identity names it.
	Via string
	// Template is the Helm template the object was rendered from (the
	// "# Source:" comment of `helm template` output); Identity names it.
	Template string

	// GVK, Namespace and Name identify the object, as far as they are known.
	// An empty GVK.Group is the core group.
	GVK       schema.GroupVersionKind
	Namespace string
	Name      string

	// UnknownFields are what strict field validation rejects, each worded
	// as the apiserver's strict decoding error, `unknown field "spec.x"`,
	// in its order. They make the document invalid and come before Errors.
	// (The apiserver stops at them with 400 Bad Request; kdv reports the
	// validation errors of the pruned object too, so that one run shows
	// everything to fix.)
	UnknownFields []string
	// DecodeError is the apiserver's 400 Bad Request for a built-in object
	// its decoder cannot decode into the kind's Go type (`Deployment in
	// version "v1" cannot be handled as a Deployment: json: cannot
	// unmarshal string into Go struct field DeploymentSpec.spec.replicas of
	// type int32`); the apiserver then reports nothing else, and neither
	// does kdv. The document is invalid, not failed: it was read and its
	// kind known.
	DecodeError string
	// DecodeErrorField is the field path DecodeError is about
	// ("spec.replicas"), for its line; "" means the document's line.
	DecodeErrorField string
	// Errors are the validation errors in the apiserver's order; writers
	// keep that order.
	Errors field.ErrorList
	// ErrorPos optionally maps an error of Errors to the 1-based line and
	// column (in bytes) of its field in File; 0 means unknown, and writers
	// fall back to Line. Its shape matches manifest's Document.Position
	// applied to the error's Field. Text and JUnit use the line, SARIF both.
	ErrorPos func(*field.Error) (line, column int)
	// Warnings are non-fatal findings (ratcheted errors, unknown formats,
	// ...), rendered at Line. They do not make a document invalid.
	Warnings []string

	// Err is a document-level failure: unreadable or unparsable document,
	// no schema for its GVK, schema compile failure, or an internal error.
	Err error
	// ErrKind classifies Err; ignored when Err is nil.
	ErrKind ErrKind

	// Skipped marks a document that was deliberately not validated (for
	// example --ignore-missing-schemas); SkipReason says why.
	Skipped    bool
	SkipReason string
	// NotManifest marks a skipped input that is not a Kubernetes object at
	// all (a Helm values file, a CI workflow, a kustomization): it is
	// counted apart from the documents ([Summary.NotManifests]), once per
	// file when recognized by its name.
	NotManifest bool
	// Empty marks a document holding nothing but blank lines and comments
	// (or null), between two "---" separators: kubectl sends nothing for
	// it, so it is neither validated nor counted ([Summary]), and every
	// format leaves it out but JSON, which lists it as kubectl-validate
	// does (see [WriteJSON]). Only File is set; Index is -1, as document
	// indexes count the documents kubectl would send.
	Empty bool
}

// Outcome is the overall state of one document.
type Outcome int

const (
	// Valid: validated without errors.
	Valid Outcome = iota
	// Invalid: validated, with at least one field error.
	Invalid
	// Failed: not validated because of a document-level error (Err).
	Failed
	// Skipped: deliberately not validated.
	Skipped
)

// String returns the lower-case name of o ("valid", "invalid", "failed",
// "skipped").
func (o Outcome) String() string {
	switch o {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Outcome returns the state of d. Err takes precedence over Skipped, which
// takes precedence over Errors.
func (d *DocumentResult) Outcome() Outcome {
	switch {
	case d.Err != nil:
		return Failed
	case d.Skipped:
		return Skipped
	case len(d.Errors) > 0, len(d.UnknownFields) > 0, d.DecodeError != "":
		return Invalid
	}
	return Valid
}

// unknownPos returns the line and column of an unknown-field message
// (`unknown field "spec.x"`), through ErrorPos, falling back to the
// document start.
func (d *DocumentResult) unknownPos(msg string) (line, column int) {
	path := strings.TrimSuffix(strings.TrimPrefix(msg, `unknown field "`), `"`)
	return d.posOf(&field.Error{Field: path})
}

// decodePos returns the line and column of DecodeError's field, falling
// back to the document start.
func (d *DocumentResult) decodePos() (line, column int) {
	if d.DecodeErrorField == "" {
		return d.Line, 0
	}
	return d.posOf(&field.Error{Field: d.DecodeErrorField})
}

// lineOf returns the 1-based line of e, falling back to the document start.
func (d *DocumentResult) lineOf(e *field.Error) int {
	line, _ := d.posOf(e)
	return line
}

// posOf returns the line and column of e; the column is 0 unless the line
// came from ErrorPos.
func (d *DocumentResult) posOf(e *field.Error) (line, column int) {
	if d.ErrorPos != nil {
		if l, c := d.ErrorPos(e); l > 0 {
			return l, max(c, 0)
		}
	}
	return d.Line, 0
}

// kindString is "Kind" for the core group and "group/Kind" otherwise; empty
// when the kind is unknown.
func (d *DocumentResult) kindString() string {
	if d.GVK.Kind == "" {
		return ""
	}
	if d.GVK.Group == "" {
		return d.GVK.Kind
	}
	return d.GVK.Group + "/" + d.GVK.Kind
}

// Identity returns how writers name the object: "group/Kind namespace/name",
// with just "Kind" for the core group and just "name" without a namespace,
// followed by " (built by <Via>)" for a built object and " (template
// <Template>)" for a rendered one. Unknown parts are left
// out; it is empty when neither kind nor name is known.
func (d *DocumentResult) Identity() string {
	id := d.identity()
	if d.Via != "" && id != "" {
		id += " (built by " + d.Via + ")"
	}
	if d.Template != "" && id != "" {
		id += " (template " + d.Template + ")"
	}
	return id
}

func (d *DocumentResult) identity() string {
	name := d.Name
	if name != "" && d.Namespace != "" {
		name = d.Namespace + "/" + name
	}
	k := d.kindString()
	switch {
	case k == "":
		return name
	case name == "":
		return k
	}
	return k + " " + name
}

// displayName is Identity, or "document N" (1-based) when that is empty.
func (d *DocumentResult) displayName() string {
	if id := d.Identity(); id != "" {
		return id
	}
	if d.NotManifest && d.Line == 0 {
		return "file" // recognized by its name or text, not by its documents
	}
	return fmt.Sprintf("document %d", d.Index+1)
}

// Result is the outcome of one kdv run: every document, in input order.
type Result struct {
	Documents []DocumentResult
	// Ignored are the files not read because the user said so
	// (--ignore-filename-pattern, a configuration file's ignores), in walk
	// order. They have no documents; the text format counts them in its
	// summary and, verbose, lists them.
	Ignored []IgnoredFile
}

// IgnoredFile is a file or directory that was not read, and why: the
// pattern that matched, e.g. `--ignore-filename-pattern "crd"`.
type IgnoredFile struct {
	File   string
	Reason string
}

// ExitCode returns the process exit code for r (DESIGN.md): ExitInternal if
// any document failed with ErrInternal, else ExitUsage if any other
// document-level failure than ErrRemovedAPI occurred, else ExitInvalid if
// any document is invalid or of a removed API version, else ExitValid. Skipped documents and warnings count as valid.
func (r *Result) ExitCode() int {
	code := ExitValid
	for i := range r.Documents {
		d := &r.Documents[i]
		c := ExitValid
		switch d.Outcome() {
		case Failed:
			switch d.ErrKind {
			case ErrInternal:
				c = ExitInternal
			case ErrRemovedAPI:
				c = ExitInvalid
			default:
				c = ExitUsage
			}
		case Invalid:
			c = ExitInvalid
		}
		code = max(code, c)
	}
	return code
}

// Summary counts the documents of a Result by outcome.
type Summary struct {
	Files     int // distinct File values
	Documents int
	Valid     int
	Invalid   int
	Failed    int
	Skipped   int
	Errors    int // field errors over all invalid documents
	Warnings  int // warnings over all documents
	// NotManifests counts the results marked NotManifest, which are not
	// counted in Files, Documents or Skipped.
	NotManifests int
	// Ignored counts Result.Ignored.
	Ignored int
}

// Summary counts r's documents.
func (r *Result) Summary() Summary {
	s := Summary{Ignored: len(r.Ignored)}
	files := map[string]bool{}
	for i := range r.Documents {
		d := &r.Documents[i]
		if d.Empty {
			continue
		}
		if d.NotManifest && d.Err == nil {
			s.NotManifests++
			continue
		}
		if !files[d.File] {
			files[d.File] = true
			s.Files++
		}
		s.Documents++
		switch d.Outcome() {
		case Valid:
			s.Valid++
		case Invalid:
			s.Invalid++
		case Failed:
			s.Failed++
		case Skipped:
			s.Skipped++
		}
		s.Errors += len(d.Errors) + len(d.UnknownFields)
		if d.DecodeError != "" {
			s.Errors++
		}
		s.Warnings += len(d.Warnings)
	}
	return s
}

// String renders s as the text format's last line, e.g.
// "4 documents in 2 files: 1 valid, 1 invalid, 1 failed, 1 skipped (6 errors, 1 warning)",
// followed by "; 3 non-manifests skipped" and "; 2 paths ignored" when
// there are some.
func (s Summary) String() string {
	out := fmt.Sprintf("%s in %s: %d valid, %d invalid, %d failed, %d skipped (%s, %s)",
		plural(s.Documents, "document"), plural(s.Files, "file"),
		s.Valid, s.Invalid, s.Failed, s.Skipped,
		plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	if s.NotManifests > 0 {
		out += "; " + plural(s.NotManifests, "non-manifest") + " skipped"
	}
	if s.Ignored > 0 {
		out += "; " + plural(s.Ignored, "path") + " ignored"
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// fileOrder returns the distinct file names of docs in order of first
// appearance, and the indexes of each file's documents, leaving out empty
// documents.
func fileOrder(docs []DocumentResult) ([]string, map[string][]int) {
	var files []string
	byFile := map[string][]int{}
	for i := range docs {
		if docs[i].Empty {
			continue
		}
		f := docs[i].File
		if _, ok := byFile[f]; !ok {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], i)
	}
	return files, byFile
}
