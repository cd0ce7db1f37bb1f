package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/yaml"
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

// toJSON converts YAML (a superset of JSON) to compact JSON.
func toJSON(data []byte) ([]byte, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("empty document")
	}
	if data[0] == '{' || data[0] == '[' {
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err == nil {
			return buf.Bytes(), nil
		}
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("malformed YAML/JSON: %w", err)
	}
	return bytes.TrimSpace(j), nil
}

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
