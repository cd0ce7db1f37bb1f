package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// splitData reads a data file's JSON (datafile.Data) into rawData, slicing
// the definitions out of the text instead of decoding them. The file is
// about 3 MB, and encoding/json's RawMessage decoding validates and copies
// every definition: it was about a fifth of kdv's start-up on one built-in
// object. Only the kinds are decoded with encoding/json; each value is
// delimited by a scan that follows JSON's strings, escapes and nesting.
// Text that is not a JSON object of the expected shape is an error (the
// files are generated, so this means a corrupt build), and so is a value
// the scan cannot delimit; a definition's own syntax is checked when it is
// decoded (version.defLocked).
func splitData(j []byte) (rawData, error) {
	var d rawData
	s := scanner{b: j}
	err := s.object(func(key string, val []byte) error {
		switch key {
		case "kinds":
			return json.Unmarshal(val, &d.Kinds)
		case "goFields":
			d.GoFields = val
		case "goLayouts":
			d.GoLayouts = map[string]json.RawMessage{}
			inner := scanner{b: val}
			return inner.object(func(name string, l []byte) error {
				d.GoLayouts[name] = l
				return nil
			})
		case "base":
			return json.Unmarshal(val, &d.Base)
		case "inherited":
			return json.Unmarshal(val, &d.Inherited)
		case "schemas":
			d.Schemas = map[string]json.RawMessage{}
			inner := scanner{b: val}
			return inner.object(func(name string, def []byte) error {
				d.Schemas[name] = def
				return nil
			})
		}
		return nil
	})
	if err == nil {
		if s.ws(); s.i != len(s.b) {
			err = fmt.Errorf("%w: text after the object at byte %d", errSyntax, s.i)
		}
	}
	if err != nil {
		return rawData{}, err
	}
	return d, nil
}

// scanner walks JSON text.
type scanner struct {
	b []byte
	i int
}

var errSyntax = errors.New("malformed built-in data")

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// object calls f with each key (decoded) and raw value of the object at
// the cursor, in order.
func (s *scanner) object(f func(key string, val []byte) error) error {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return fmt.Errorf("%w: object expected at byte %d", errSyntax, s.i)
	}
	s.i++
	for first := true; ; first = false {
		s.ws()
		if first && s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return nil
		}
		start := s.i
		if err := s.str(); err != nil {
			return err
		}
		var key string
		if k := s.b[start+1 : s.i-1]; bytes.IndexByte(k, '\\') < 0 {
			key = string(k) // no escapes: the text is the key
		} else if err := json.Unmarshal(s.b[start:s.i], &key); err != nil {
			return fmt.Errorf("%w: key at byte %d: %v", errSyntax, start, err)
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return fmt.Errorf("%w: ':' expected at byte %d", errSyntax, s.i)
		}
		s.i++
		s.ws()
		vstart := s.i
		if err := s.value(); err != nil {
			return err
		}
		if err := f(key, s.b[vstart:s.i]); err != nil {
			return err
		}
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			continue
		}
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return nil
		}
		return fmt.Errorf("%w: ',' or '}' expected at byte %d", errSyntax, s.i)
	}
}

// str skips the string at the cursor. It jumps from quote to quote
// (bytes.IndexByte is vectorized; the data is mostly descriptions): a
// quote ends the string unless an odd run of backslashes precedes it.
func (s *scanner) str() error {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return fmt.Errorf("%w: string expected at byte %d", errSyntax, s.i)
	}
	for s.i++; ; {
		q := bytes.IndexByte(s.b[s.i:], '"')
		if q < 0 {
			s.i = len(s.b)
			return fmt.Errorf("%w: unterminated string", errSyntax)
		}
		s.i += q + 1
		bs := 0
		for j := s.i - 2; j >= 0 && s.b[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return nil
		}
	}
}

// value skips the value at the cursor: a string, or everything up to the
// bracket that closes the object or array it opens (strings inside
// skipped), or a scalar up to the next delimiter.
func (s *scanner) value() error {
	if s.i >= len(s.b) {
		return fmt.Errorf("%w: value expected at end", errSyntax)
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if err := s.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return nil
				}
			}
			s.i++
		}
		return fmt.Errorf("%w: unterminated value", errSyntax)
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if s.i == start {
				return fmt.Errorf("%w: value expected at byte %d", errSyntax, s.i)
			}
			return nil
		}
		s.i++
	}
	return nil
}
