// Package sarif holds the SARIF 2.1.0 object shapes kdv writes (OASIS
// Static Analysis Results Interchange Format, the format code-scanning UIs
// such as GitHub's read): only the properties kdv fills. kdv.dev/report
// writes validation results with them, kdv.dev/compat API changes.
package sarif

const (
	// SchemaURI is the $schema of a SARIF 2.1.0 log.
	SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	// Version is the SARIF version written.
	Version = "2.1.0"
)

// Log is a SARIF log: the $schema, the version and the runs.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// NewLog returns a SARIF 2.1.0 log holding one run.
func NewLog(run Run) Log {
	return Log{Schema: SchemaURI, Version: Version, Runs: []Run{run}}
}

// Run is one run of a tool and its results.
type Run struct {
	Tool    Tool     `json:"tool"`
	Results []Result `json:"results"`
}

// Tool names the tool of a run.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's component: its name, version, web site and the
// rules results refer to by index.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// Rule is one kind of result.
type Rule struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	ShortDescription     Message `json:"shortDescription"`
	DefaultConfiguration *Config `json:"defaultConfiguration,omitempty"`
}

// Config is a rule's default configuration: its level (error, warning,
// note).
type Config struct {
	Level string `json:"level"`
}

// Message is a plain-text message.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding: its rule (by id and index into Driver.Rules),
// level, message, locations and, optionally, properties.
type Result struct {
	RuleID     string            `json:"ruleId"`
	RuleIndex  int               `json:"ruleIndex"`
	Level      string            `json:"level"`
	Message    Message           `json:"message"`
	Locations  []Location        `json:"locations,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and, when known, a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file's URI (relative with forward slashes, or
// file://).
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// Region is a line (1-based) and, when known, a column.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}
