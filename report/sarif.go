package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// SARIF constants (OASIS SARIF 2.1.0, §3.13.3 and §3.13.4).
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// InformationURI is the SARIF tool.driver.informationUri of kdv.
	InformationURI = "https://kdv.dev"
)

// SARIF 2.1.0 object shapes; only the properties kdv fills.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifRules is the fixed rule table, so rule indexes are stable across runs:
// every field.ErrorType of k8s.io/apimachinery (ids are the metav1.CauseType
// values the apiserver puts in Status causes), then kdv's document-level
// kinds (ErrInternal shares field.ErrorTypeInternal's id "InternalError"),
// the warning rule and the skip rule. Rule ids are unique.
var sarifRules = []sarifRule{
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
	{ID: ruleDecodeError, Name: ruleDecodeError, ShortDescription: sarifMessage{"Object cannot be decoded into its kind's Go type (400 Bad Request)"}, DefaultConfiguration: sarifConfig{"error"}},
	{ID: ruleUnknownField, Name: ruleUnknownField, ShortDescription: sarifMessage{"Unknown field (strict field validation)"}, DefaultConfiguration: sarifConfig{"error"}},
	{ID: ruleWarning, Name: ruleWarning, ShortDescription: sarifMessage{"Validation warning"}, DefaultConfiguration: sarifConfig{"warning"}},
	{ID: ruleSkipped, Name: ruleSkipped, ShortDescription: sarifMessage{"Document not validated"}, DefaultConfiguration: sarifConfig{"note"}},
}

const (
	ruleUnknownField = "UnknownField"
	ruleDecodeError  = "DecodeError"
	ruleWarning      = "Warning"
	ruleSkipped      = "Skipped"
)

func fieldRule(t field.ErrorType) sarifRule {
	return sarifRule{ID: string(t), Name: string(t), ShortDescription: sarifMessage{t.String()}, DefaultConfiguration: sarifConfig{"error"}}
}

func docRule(k ErrKind, level, desc string) sarifRule {
	return sarifRule{ID: k.ruleID(), Name: k.ruleID(), ShortDescription: sarifMessage{desc}, DefaultConfiguration: sarifConfig{level}}
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
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "kdv",
			Version:        opts.ToolVersion,
			InformationURI: InformationURI,
			Rules:          sarifRules,
		}},
		Results: []sarifResult{},
	}
	add := func(d *DocumentResult, id, level, msg string, line, column int) {
		loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(d.File)}}
		if line > 0 {
			loc.Region = &sarifRegion{StartLine: line, StartColumn: column}
		}
		run.Results = append(run.Results, sarifResult{
			RuleID:    id,
			RuleIndex: ruleIndex(id),
			Level:     level,
			Message:   sarifMessage{Text: msg},
			Locations: []sarifLocation{{PhysicalLocation: loc}},
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
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
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
