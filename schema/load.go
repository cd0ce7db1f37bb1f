package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/yaml"

	"kdv.dev/manifest"
)

// LoadSchema decodes one schema object (JSON or YAML) into Props. name
// (usually the file name) prefixes errors. Unknown keys are kept in
// Props.Extra. It does not resolve $ref; use LoadOpenAPIDocument for
// documents with references.
func LoadSchema(name string, data []byte) (*Props, error) {
	j, err := toJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(j) == 0 || j[0] != '{' {
		return nil, fmt.Errorf("%s: a schema must be an object, got %s", name, describeJSON(j))
	}
	p := &Props{}
	if err := json.Unmarshal(j, p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, describeDecodeError(err))
	}
	return p, nil
}

// toJSON converts one YAML (a superset of JSON) document to compact JSON.
func toJSON(data []byte) ([]byte, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("empty document")
	}
	if data[0] != '{' && data[0] != '[' {
		if line := secondDocumentLine(data); line > 0 {
			return nil, fmt.Errorf("more than one YAML document (the second starts at line %d); expected one", line)
		}
	}
	if data[0] == '{' || data[0] == '[' {
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err == nil {
			return buf.Bytes(), nil
		}
	}
	j, err := yamlToJSON(data)
	if err != nil {
		if _, ok := err.(*aliasError); ok {
			return nil, err
		}
		return nil, fmt.Errorf("malformed YAML/JSON: %w", err)
	}
	return bytes.TrimSpace(j), nil
}

// yamlToJSON is sigs.k8s.io/yaml.YAMLToJSON behind the manifest reader's alias expansion
// bound (manifest.DefaultMaxExpandedBytes): go-yaml's own alias ratio check lets aliases of
// a large value through, and a 1 MB schema file could otherwise expand to 1 GiB.
func yamlToJSON(data []byte) ([]byte, error) {
	if err := manifest.CheckAliasExpansion(data, 0); err != nil {
		return nil, &aliasError{err}
	}
	return yaml.YAMLToJSON(data)
}

// aliasError is yamlToJSON's alias expansion error, which is not a syntax error; it names
// the bound.
type aliasError struct{ err error }

func (e *aliasError) Error() string { return e.err.Error() + " (manifest.DefaultMaxExpandedBytes)" }
func (e *aliasError) Unwrap() error { return e.err }

func describeJSON(j []byte) string {
	if len(j) == 0 {
		return "nothing"
	}
	switch j[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// describeDecodeError names the JSON field of a type mismatch.
func describeDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%s: cannot decode %s into %s", te.Field, te.Value, te.Type)
	}
	return err
}

// secondDocumentLine returns the line of the "---" separator that starts a
// second non-empty YAML document, or 0.
func secondDocumentLine(data []byte) int {
	content := false
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimRight(line, " \t\r")
		if bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")) {
			if content {
				// Only a separator followed by content starts a second document.
				rest := bytes.SplitN(data, []byte("\n"), i+2)
				if len(rest) == i+2 && hasYAMLContent(rest[i+1]) {
					return i + 1
				}
			}
			continue
		}
		if len(bytes.TrimSpace(t)) > 0 && t[0] != '#' {
			content = true
		}
	}
	return 0
}

func hasYAMLContent(b []byte) bool {
	for _, line := range bytes.Split(b, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' && !bytes.Equal(t, []byte("---")) && !bytes.Equal(t, []byte("...")) {
			return true
		}
	}
	return false
}
