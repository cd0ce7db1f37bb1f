package cel

import (
	"bufio"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

var unescapeMatcher = regexp.MustCompile(`\\.`)

func unescapeSingleQuote(s string) (string, error) {
	var err error
	unescaped := unescapeMatcher.ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		default:
			err = fmt.Errorf("invalid escape char %s", m)
			return ""
		}
	})
	return unescaped, err
}

// ValidFieldPath checks that jsonPath (a rule's fieldPath, e.g.
// ".spec.foo['bar.baz']") is a JSON path of only field and map-key accessors
// valid for s, and returns it as a field.Path with the schema it reaches.
// allowArrayNotation false rejects the ['...'] form (as for
// selectableFields). Errors are the apiserver's ("does not refer to a valid
// field", "expected [ or . but got: x", ...). It mirrors the apiserver's
// cel.ValidFieldPath (schema/cel/validation.go).
func ValidFieldPath(jsonPath string, s *schema.Structural, allowArrayNotation ...bool) (validFieldPath *field.Path, foundSchema *schema.Structural, err error) {
	allowArray := len(allowArrayNotation) == 0 || allowArrayNotation[0]
	cur := s
	appendToPath := func(name string, isNamed bool) error {
		if !isNamed {
			validFieldPath = validFieldPath.Key(name)
			cur = cur.AdditionalProperties.Structural
		} else {
			validFieldPath = validFieldPath.Child(name)
			val, ok := cur.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			cur = &val
		}
		return nil
	}
	// namedOrKey decides how the next segment applies to cur; a nil schema
	// (additionalProperties: true without schema) refers to no valid field.
	namedOrKey := func() (bool, error) {
		switch {
		case cur == nil:
			return false, errors.New("does not refer to a valid field")
		case cur.Properties != nil:
			return true, nil
		case cur.AdditionalProperties != nil:
			return false, nil
		}
		return false, errors.New("does not refer to a valid field")
	}

	scanner := bufio.NewScanner(strings.NewReader(jsonPath))
	// Tokens: the delimiters '.', '[', ']' alone, single-quoted strings, and
	// the text between delimiters.
	scanner.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) > 0 {
			for i := 0; i < len(data); i++ {
				if data[0] == '\'' {
					if i > 0 && data[i] == '\'' && data[i-1] != '\\' {
						return i + 1, data[:i+1], nil
					}
					continue
				}
				switch data[i] {
				case '.', '[', ']':
					if i == 0 {
						return 1, data[:1], nil
					}
					return i, data[:i], nil
				}
			}
			if atEOF {
				return len(data), data, nil
			}
		}
		return 0, nil, nil
	})

	for scanner.Scan() {
		tok := scanner.Text()
		switch tok {
		case "[":
			if !allowArray {
				return nil, nil, errors.New("array notation is not allowed")
			}
			if !scanner.Scan() {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			tok = scanner.Text()
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			unescaped, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return nil, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			isNamed, err := namedOrKey()
			if err != nil {
				return nil, nil, err
			}
			if err := appendToPath(unescaped, isNamed); err != nil {
				return nil, nil, err
			}
			if !scanner.Scan() {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			if tok = scanner.Text(); tok != "]" {
				return nil, nil, fmt.Errorf("expected ] but got %s", tok)
			}
		case ".":
			if !scanner.Scan() {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			tok = scanner.Text()
			isNamed, err := namedOrKey()
			if err != nil {
				return nil, nil, err
			}
			if err := appendToPath(tok, isNamed); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, nil, err
	}
	return validFieldPath, cur, nil
}
