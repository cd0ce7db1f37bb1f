package compat

import (
	"fmt"
	"os"
	"path"

	"sigs.k8s.io/yaml"
)

// Config is a project's policy for kdv compat, read from a YAML file
// (`kdv compat --config FILE`):
//
//	failOn: breaks-objects        # the severity from which a change fails the run
//	severities:                   # a severity per change kind, e.g. for a project
//	  enum-value-added: safe      # whose clients accept unknown enum values
//	ignore:                       # changes accepted on purpose (path.Match
//	- object: widgets.example.com #   patterns; an empty field matches all)
//	  path: spec.legacy*
//	  kind: field-removed
//	  reason: removed after the deprecation period (v1.4)
//
// Flags given on the command line win over failOn.
type Config struct {
	// FailOn replaces the default --fail-on severity.
	FailOn *Severity `json:"failOn,omitempty"`
	// Severities sets the severity of every change of a kind (the Kind of
	// Change, e.g. "enum-value-added").
	Severities map[string]Severity `json:"severities,omitempty"`
	// Ignore lists changes that are intended; they are left out.
	Ignore []Ignore `json:"ignore,omitempty"`
}

// Ignore matches changes by object, path and kind (path.Match patterns,
// an empty one matching everything); Reason says why (required).
type Ignore struct {
	Object string `json:"object,omitempty"`
	Path   string `json:"path,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Reason string `json:"reason"`
}

// LoadConfig reads a Config file. Unknown keys, unknown severities, bad
// patterns and ignore entries without a reason are errors naming the file.
func LoadConfig(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c Config
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for i, ig := range c.Ignore {
		if ig.Reason == "" {
			return nil, fmt.Errorf("%s: ignore[%d]: a reason is required", file, i)
		}
		for _, p := range []string{ig.Object, ig.Path, ig.Kind} {
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("%s: ignore[%d]: pattern %q: %w", file, i, p, err)
			}
		}
	}
	return &c, nil
}

// Apply returns changes with the configured severities and without the
// ignored ones, in the same order.
func (c *Config) Apply(changes []Change) []Change {
	if c == nil {
		return changes
	}
	var out []Change
	for _, ch := range changes {
		if c.ignored(ch) {
			continue
		}
		if s, ok := c.Severities[ch.Kind]; ok {
			ch.Severity = s
		}
		out = append(out, ch)
	}
	return out
}

func (c *Config) ignored(ch Change) bool {
	match := func(pattern, s string) bool {
		if pattern == "" {
			return true
		}
		ok, _ := path.Match(pattern, s)
		return ok
	}
	for _, ig := range c.Ignore {
		if match(ig.Object, ch.Object) && match(ig.Path, ch.Path) && match(ig.Kind, ch.Kind) {
			return true
		}
	}
	return false
}
