package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/report/sarif"
)

// InformationURI is the SARIF tool.driver.informationUri of kdv.
const InformationURI = "https://kdv.dev"

// sarifRules is the fixed rule table, so rule indexes are stable across runs:
// every field.ErrorType of k8s.io/apimachinery (ids are the metav1.CauseType
// values the apiserver puts in Status causes), then kdv's document-level
// kinds (ErrInternal shares field.ErrorTypeInternal's id "InternalError"),
// the warning rule and the skip rule. Rule ids are unique.
var sarifRules = []sarif.Rule{
	fieldRule(field.ErrorTypeNotFound),
	fieldRule(field.ErrorTypeRequired),
	fieldRule(field.ErrorTypeDuplicate),
	fieldRule(field.ErrorTypeInvalid),
	fieldRule(field.ErrorTypeNotSupported),
	fieldRule(field.ErrorTypeForbidden),
	fieldRule(field.ErrorTypeTooLong),
	fieldRule(field.ErrorTypeTooMany),
	fieldRule(field.ErrorTypeTooFew),
	fieldRule(field.ErrorTypeInternal),
	fieldRule(field.ErrorTypeTypeInvalid),
	fieldRule(field.ErrorTypeTooShort),
	docRule(ErrDocument, "error", "Document could not be validated"),
	docRule(ErrParse, "error", "Document could not be read or decoded"),
	docRule(ErrNoSchema, "error", "No schema for the document's kind"),
	docRule(ErrSchema, "error", "Schema could not be loaded or compiled"),
	docRule(ErrRemovedAPI, "error", "API version no longer served by this Kubernetes release"),
	{ID: ruleDecodeError, Name: ruleDecodeError, ShortDescription: sarif.Message{Text: "Object cannot be decoded into its kind's Go type (400 Bad Request)"}, DefaultConfiguration: &sarif.Config{Level: "error"}},
	{ID: ruleUnknownField, Name: ruleUnknownField, ShortDescription: sarif.Message{Text: "Unknown field (strict field validation)"}, DefaultConfiguration: &sarif.Config{Level: "error"}},
	{ID: ruleWarning, Name: ruleWarning, ShortDescription: sarif.Message{Text: "Validation warning"}, DefaultConfiguration: &sarif.Config{Level: "warning"}},
	{ID: ruleSkipped, Name: ruleSkipped, ShortDescription: sarif.Message{Text: "Document not validated"}, DefaultConfiguration: &sarif.Config{Level: "note"}},
}

const (
	ruleUnknownField = "UnknownField"
	ruleDecodeError  = "DecodeError"
	ruleWarning      = "Warning"
	ruleSkipped      = "Skipped"
)

func fieldRule(t field.ErrorType) sarif.Rule {
	return sarif.Rule{ID: string(t), Name: string(t), ShortDescription: sarif.Message{Text: t.String()}, DefaultConfiguration: &sarif.Config{Level: "error"}}
}

func docRule(k ErrKind, level, desc string) sarif.Rule {
	return sarif.Rule{ID: k.ruleID(), Name: k.ruleID(), ShortDescription: sarif.Message{Text: desc}, DefaultConfiguration: &sarif.Config{Level: level}}
}

// ruleIndex returns the index of id in sarifRules; unknown field error types
// (newer apimachinery) map to FieldValueInvalid's entry but keep their own id.
func ruleIndex(id string) int {
	for i, r := range sarifRules {
		if r.ID == id {
			return i
		}
	}
	return ruleIndex(string(field.ErrorTypeInvalid))
}

// WriteSARIF writes r as a SARIF 2.1.0 log with one run of tool "kdv". The
// driver lists a fixed rule table (one rule per field.ErrorType such as
// FieldValueInvalid or FieldValueRequired, one per ErrKind such as NoSchema
// and ParseError, plus Warning and Skipped). Each field error, document-level
// error, warning and skipped document becomes a result (level error, error,
// warning and note respectively) whose message is
// "group/Kind namespace/name: <field error>" and whose location is the file
// (a relative URI with forward slashes, or a file:// URI for an absolute
// path) at the error's line and column (DocumentResult.ErrorPos), or the
// document's first line when unknown. The region is left out when no line is
// known, startColumn when no column is.
func WriteSARIF(w io.Writer, r *Result, opts Options) error {
	run := sarif.Run{
		Tool: sarif.Tool{Driver: sarif.Driver{
			Name:           "kdv",
			Version:        opts.ToolVersion,
			InformationURI: InformationURI,
			Rules:          sarifRules,
		}},
		Results: []sarif.Result{},
	}
	add := func(d *DocumentResult, id, level, msg string, line, column int) {
		loc := sarif.PhysicalLocation{ArtifactLocation: sarif.ArtifactLocation{URI: fileURI(d.File)}}
		if line > 0 {
			loc.Region = &sarif.Region{StartLine: line, StartColumn: column}
		}
		run.Results = append(run.Results, sarif.Result{
			RuleID:    id,
			RuleIndex: ruleIndex(id),
			Level:     level,
			Message:   sarif.Message{Text: msg},
			Locations: []sarif.Location{{PhysicalLocation: loc}},
		})
	}
	for i := range r.Documents {
		d := &r.Documents[i]
		id := d.Identity()
		if d.Err != nil {
			add(d, d.ErrKind.ruleID(), "error", prefixed(id, d.Err.Error()), d.Line, 0)
		} else if d.Skipped {
			msg := d.displayName() + ": skipped"
			if d.SkipReason != "" {
				msg += ": " + d.SkipReason
			}
			add(d, ruleSkipped, "note", msg, d.Line, 0)
		}
		if d.DecodeError != "" {
			line, column := d.decodePos()
			add(d, ruleDecodeError, "error", prefixed(id, d.DecodeError), line, column)
		}
		for _, msg := range d.UnknownFields {
			line, column := d.unknownPos(msg)
			add(d, ruleUnknownField, "error", prefixed(id, msg), line, column)
		}
		for _, e := range d.Errors {
			line, column := d.posOf(e)
			add(d, string(e.Type), "error", prefixed(id, e.Error()), line, column)
		}
		for _, msg := range d.Warnings {
			add(d, ruleWarning, "warning", prefixed(id, msg), d.Line, 0)
		}
	}
	log := sarif.NewLog(run)
	data, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// fileURI turns a file name as given on the command line into a SARIF
// artifactLocation.uri: relative paths stay relative with forward slashes
// (percent-encoded where a URI needs it), absolute paths become file:// URIs.
func fileURI(name string) string {
	p := filepath.ToSlash(name)
	if filepath.IsAbs(name) || path.IsAbs(p) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // Windows drive letter: file:///C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
