package idl

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
)

// Syntax says which comment-tag syntax a tag was written in.
type Syntax int

const (
	// SyntaxK8s is validation-gen's "+k8s:" syntax (k8s.io/gengo/v2 codetags
	// grammar: name, optional arguments, "=" value or "=+" chained tag).
	SyntaxK8s Syntax = iota
	// SyntaxPlain is the unprefixed "+name=value" syntax of openapi-gen and
	// KEP-4153 ("+minimum=1", "+validationRule=...", "+listType=map").
	SyntaxPlain
	// SyntaxKubebuilder is controller-tools' "+kubebuilder:..." marker syntax.
	SyntaxKubebuilder
	// SyntaxLifecycle is KEP-2558's "+lifecycle:<component>:k=v,..." syntax.
	SyntaxLifecycle
)

// String names the syntax: k8s, plain, kubebuilder or lifecycle.
func (s Syntax) String() string {
	switch s {
	case SyntaxK8s:
		return "k8s"
	case SyntaxPlain:
		return "plain"
	case SyntaxKubebuilder:
		return "kubebuilder"
	case SyntaxLifecycle:
		return "lifecycle"
	}
	return "unknown"
}

// ValueType is the kind of a tag's value or argument.
type ValueType string

const (
	// ValueNone means the tag has no value ("+k8s:optional").
	ValueNone ValueType = ""
	// ValueString is a quoted string or a bare identifier.
	ValueString ValueType = "string"
	// ValueInt is an integer literal.
	ValueInt ValueType = "int"
	// ValueBool is true or false.
	ValueBool ValueType = "bool"
	// ValueRaw is text taken verbatim (plain and kubebuilder values that are
	// not parsed further, e.g. a default written as JSON).
	ValueRaw ValueType = "raw"
	// ValueTag means the value is another tag, held in Payload.
	ValueTag ValueType = "tag"
)

// Arg is one argument of a tag: positional (Name empty) or named.
type Arg struct {
	Name  string
	Value string
	Type  ValueType
}

// Tag is one comment tag in kdv's single tag model. Whatever the syntax it
// was written in, Name is the canonical meaning (see the table in
// DESIGN.md): "+k8s:minimum=1", "+minimum=1" and
// "+kubebuilder:validation:Minimum=1" all give Name "minimum", Value "1".
// Arguments are named with the validation-gen names (e.g. validationRule's
// rule, message, messageExpression, reason, fieldPath, optionalOldSelf).
type Tag struct {
	// Name is the canonical tag name, e.g. "minimum", "validationRule",
	// "beta", "resource".
	Name string
	// Syntax is the syntax the tag was written in.
	Syntax Syntax
	// Args are the tag's arguments, e.g. since: "1.37" for beta.
	Args []Arg
	// Value is the scalar value; empty when ValueType is ValueNone or
	// ValueTag.
	Value     string
	ValueType ValueType
	// Payload is the chained tag when ValueType is ValueTag
	// ("+k8s:eachVal=+k8s:format=k8s-short-name").
	Payload *Tag
	// Pos is where the tag was written.
	Pos token.Position
	// Text is the tag as written, from its "+" on.
	Text string
	// Source is, for a tag of a rule overlay, the code it mirrors (the
	// overlay's "source" line, e.g. "k8s.io/kubernetes
	// pkg/apis/core/v1/defaults.go SetDefaults_Container"); "" for tags
	// written in Go comments.
	Source string
}

// Arg returns the value of the named argument (or the positional argument
// when name is empty) and whether it is present.
func (t *Tag) Arg(name string) (string, bool) {
	for _, a := range t.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Int returns the tag's value as an integer.
func (t *Tag) Int() (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(t.Value), 0, 64)
	if err != nil {
		return 0, t.Errorf("value %q is not an integer", t.Value)
	}
	return v, nil
}

// Float returns the tag's value as a number.
func (t *Tag) Float() (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(t.Value), 64)
	if err != nil {
		return 0, t.Errorf("value %q is not a number", t.Value)
	}
	return v, nil
}

// Errorf returns an error prefixed with the tag's file:line and text.
func (t *Tag) Errorf(format string, args ...any) error {
	return &TagError{Pos: t.Pos, Text: t.Text, Msg: fmt.Sprintf(format, args...)}
}

// Leaf returns the innermost tag of a chain: the tag itself when it has no
// payload.
func (t *Tag) Leaf() *Tag {
	for t.Payload != nil {
		t = t.Payload
	}
	return t
}

// String renders the tag in the canonical +k8s-like form, for messages and
// reports.
func (t *Tag) String() string {
	var b strings.Builder
	b.WriteString(t.Name)
	if len(t.Args) > 0 {
		b.WriteByte('(')
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if a.Name != "" {
				b.WriteString(a.Name + ": ")
			}
			if a.Type == ValueString {
				b.WriteString(strconv.Quote(a.Value))
			} else {
				b.WriteString(a.Value)
			}
		}
		b.WriteByte(')')
	}
	switch t.ValueType {
	case ValueNone:
	case ValueTag:
		b.WriteString("=+" + t.Payload.String())
	default:
		b.WriteString("=" + t.Value)
	}
	return b.String()
}

// TagError is an unknown or malformed tag, with its position.
type TagError struct {
	Pos  token.Position
	Text string
	Msg  string
}

// Error renders "file:line: tag \"...\": message".
func (e *TagError) Error() string {
	pos := ""
	if e.Pos.Filename != "" {
		pos = fmt.Sprintf("%s:%d: ", e.Pos.Filename, e.Pos.Line)
	}
	if e.Text != "" {
		return fmt.Sprintf("%stag %q: %s", pos, e.Text, e.Msg)
	}
	return pos + e.Msg
}
