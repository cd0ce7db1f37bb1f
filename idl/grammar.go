package idl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// parseK8s parses the text after "+k8s:" with the grammar of
// k8s.io/gengo/v2/codetags (validation-gen's tags):
//
//	<tag>     ::= <tagName> [ "(" [ <args> ] ")" ] [ ( "=" <value> | "=+" <tag> ) ]
//	<args>    ::= <value> | <namedArgs>
//	<namedArgs> ::= <identifier> ":" <value> [ "," <namedArgs> ]*
//	<value>   ::= <identifier> | <string> | <int> | <bool>
//
// A chained tag value is written "=+k8s:name..." in Kubernetes sources; the
// "k8s:" prefix of the chained name is stripped. A trailing " # comment" is
// ignored. Names are returned as written (without the k8s: prefix).
func parseK8s(s string) (*Tag, error) {
	p := &k8sParser{buf: []rune(strings.TrimSpace(s))}
	t, err := p.tag()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.peek() == '#' {
		p.pos = len(p.buf)
	}
	if p.pos < len(p.buf) {
		return nil, fmt.Errorf("unexpected character %q at position %d", p.buf[p.pos], p.pos)
	}
	return t, nil
}

type k8sParser struct {
	buf []rune
	pos int
}

const eof = rune(-1)

func (p *k8sParser) peek() rune {
	if p.pos >= len(p.buf) {
		return eof
	}
	return p.buf[p.pos]
}

func (p *k8sParser) skipSpace() {
	for p.pos < len(p.buf) && unicode.IsSpace(p.buf[p.pos]) {
		p.pos++
	}
}

func isIdentBegin(r rune) bool { return unicode.IsLetter(r) || r == '_' }

func isIdentInterior(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-'
}

func isTagNameInterior(r rune) bool { return isIdentInterior(r) || r == ':' }

func (p *k8sParser) ident(interior func(rune) bool) (string, error) {
	if !isIdentBegin(p.peek()) {
		if p.peek() == eof {
			return "", errors.New("unexpected end of input")
		}
		return "", fmt.Errorf("unexpected character %q at position %d", p.peek(), p.pos)
	}
	start := p.pos
	for p.pos < len(p.buf) && interior(p.buf[p.pos]) {
		p.pos++
	}
	return string(p.buf[start:p.pos]), nil
}

func (p *k8sParser) tag() (*Tag, error) {
	name, err := p.ident(isTagNameInterior)
	if err != nil {
		return nil, err
	}
	name = strings.TrimPrefix(name, "k8s:")
	t := &Tag{Name: name, Syntax: SyntaxK8s}
	if p.peek() == '(' {
		p.pos++
		if t.Args, err = p.args(); err != nil {
			return nil, err
		}
	}
	if p.peek() != '=' {
		return t, nil
	}
	p.pos++
	r := p.peek()
	switch {
	case r == '+' && p.pos+1 < len(p.buf) && isIdentBegin(p.buf[p.pos+1]):
		p.pos++
		sub, err := p.tag()
		if err != nil {
			return nil, err
		}
		t.Payload, t.ValueType = sub, ValueTag
	case r == eof:
		return nil, errors.New("unexpected end of input")
	default:
		v, vt, err := p.value()
		if err != nil {
			return nil, err
		}
		t.Value, t.ValueType = v, vt
	}
	return t, nil
}

// args parses arguments after "(" up to and including ")".
func (p *k8sParser) args() ([]Arg, error) {
	var args []Arg
	p.skipSpace()
	if p.peek() == ')' {
		p.pos++
		return nil, nil
	}
	for {
		p.skipSpace()
		var a Arg
		if isIdentBegin(p.peek()) {
			save := p.pos
			id, _ := p.ident(isIdentInterior)
			if p.peek() == ':' {
				p.pos++
				p.skipSpace()
				a.Name = id
			} else {
				p.pos = save
			}
		}
		v, vt, err := p.value()
		if err != nil {
			return nil, err
		}
		a.Value, a.Type = v, vt
		args = append(args, a)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
			continue
		case ')':
			p.pos++
		case eof:
			return nil, errors.New("unexpected end of input")
		default:
			return nil, fmt.Errorf("unexpected character %q at position %d", p.peek(), p.pos)
		}
		break
	}
	named := args[0].Name != ""
	for _, a := range args[1:] {
		if (a.Name != "") != named {
			return nil, errors.New("can't mix named and positional arguments")
		}
	}
	if !named && len(args) > 1 {
		return nil, errors.New("multiple arguments must use 'name: value' syntax")
	}
	seen := map[string]bool{}
	for _, a := range args {
		if a.Name != "" && seen[a.Name] {
			return nil, fmt.Errorf("duplicate argument %q", a.Name)
		}
		seen[a.Name] = true
	}
	return args, nil
}

// value parses an identifier, bool, int or string.
func (p *k8sParser) value() (string, ValueType, error) {
	r := p.peek()
	switch {
	case r == '"' || r == '`':
		s, err := p.str()
		return s, ValueString, err
	case r == '-' || r == '+' || unicode.IsDigit(r):
		start := p.pos
		p.pos++
		for p.pos < len(p.buf) && (unicode.IsDigit(p.buf[p.pos]) || unicode.IsLetter(p.buf[p.pos]) || p.buf[p.pos] == '_') {
			p.pos++
		}
		lit := string(p.buf[start:p.pos])
		if _, err := strconv.ParseInt(lit, 0, 64); err != nil {
			return "", "", fmt.Errorf("invalid number %q", lit)
		}
		return lit, ValueInt, nil
	case isIdentBegin(r):
		id, _ := p.ident(isIdentInterior)
		if id == "true" || id == "false" {
			return id, ValueBool, nil
		}
		return id, ValueString, nil
	case r == eof:
		return "", "", errors.New("unexpected end of input")
	}
	return "", "", fmt.Errorf("unexpected character %q at position %d", r, p.pos)
}

// str parses a Go double-quoted or backtick-quoted string.
func (p *k8sParser) str() (string, error) {
	q := p.buf[p.pos]
	start := p.pos
	p.pos++
	for p.pos < len(p.buf) {
		c := p.buf[p.pos]
		if c == '\\' && q == '"' {
			p.pos += 2
			continue
		}
		p.pos++
		if c == q {
			s, err := strconv.Unquote(string(p.buf[start:p.pos]))
			if err != nil {
				return "", fmt.Errorf("invalid string %s: %v", string(p.buf[start:p.pos]), err)
			}
			return s, nil
		}
	}
	return "", errors.New("unterminated string")
}

// splitArgs splits a kubebuilder or KEP-4153 argument list
// ("rule=\"a,b\",message=`x`,reason=Forbidden") at top-level commas,
// respecting quotes and braces.
func splitArgs(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	var quote rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, string(rs[start:i]))
			start = i + 1
		}
	}
	if quote != 0 {
		return nil, errors.New("unterminated string")
	}
	if depth != 0 {
		return nil, errors.New("unbalanced braces")
	}
	return append(out, string(rs[start:])), nil
}

// unquote removes Go quotes (", `) or single quotes around a whole value;
// other values are returned trimmed.
func unquote(v string) (string, ValueType, error) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 {
		switch {
		case v[0] == '"' && v[len(v)-1] == '"', v[0] == '`' && v[len(v)-1] == '`':
			s, err := strconv.Unquote(v)
			if err != nil {
				return "", "", fmt.Errorf("invalid string %s: %v", v, err)
			}
			return s, ValueString, nil
		case v[0] == '\'' && v[len(v)-1] == '\'':
			return v[1 : len(v)-1], ValueString, nil
		}
	}
	if v != "" && (v[0] == '"' || v[0] == '`') {
		return "", "", fmt.Errorf("unterminated string %s", v)
	}
	return v, ValueRaw, nil
}

// SplitList splits a list value written "a;b;c" or "{a,b,c}" (controller-
// tools list syntax) into its trimmed, unquoted elements.
func SplitList(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	var parts []string
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		var err error
		if parts, err = splitArgs(v[1 : len(v)-1]); err != nil {
			return nil, err
		}
	} else {
		parts = strings.Split(v, ";")
	}
	var out []string
	for _, p := range parts {
		s, _, err := unquote(p)
		if err != nil {
			return nil, err
		}
		// an empty part is dropped (a trailing ";"), a quoted empty
		// string ("") is a value
		if q := strings.TrimSpace(p); s != "" || strings.HasPrefix(q, `"`) || strings.HasPrefix(q, "`") {
			out = append(out, s)
		}
	}
	return out, nil
}
