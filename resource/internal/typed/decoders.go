package typed

// The UnmarshalJSON methods of the Go types whose JSON decoding is more
// than a type check: resource.Quantity, intstr.IntOrString, metav1.Time.

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kdv.dev/schema"
)

// quantity is resource.Quantity.UnmarshalJSON: the JSON text, unquoted,
// trimmed, through resource.ParseQuantity.
// On success it returns the quantity's canonical string (Quantity.String:
// 0.5 and "0.5" give "500m"), which is what the apiserver stores, prints
// in its messages and validates; x otherwise.
func (c *checker) quantity(x any) any {
	var lit string
	if str, ok := x.(string); ok && plainJSONString(str) {
		lit = str // its JSON text, unquoted, is itself
	} else {
		lit = literal(x)
		if len(lit) >= 2 && lit[0] == '"' && lit[len(lit)-1] == '"' {
			lit = lit[1 : len(lit)-1]
		}
	}
	q, err := resource.ParseQuantity(strings.TrimSpace(lit))
	if err != nil {
		c.setAbort(err)
		return x
	}
	return q.String()
}

// plainJSONString reports whether encoding/json writes s as itself in
// quotes (no escapes).
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
			return false
		}
	}
	return true
}

// isQuantity reports whether s is package builtin's Quantity schema.
func isQuantity(s *schema.Structural) bool {
	return s.XIntOrString && s.ValueValidation != nil && s.ValueValidation.Pattern == QuantityPattern
}

// convert returns x as the decoder leaves it for a node of schema s:
// byte arrays as base64 (bytesOf), quantities canonical (quantity).
func (c *checker) convert(x any, s *schema.Structural) any {
	if s != nil && x != nil && isQuantity(s) {
		if c.abort != nil {
			return x
		}
		return c.quantity(x)
	}
	return c.bytesOf(x, s)
}

// intOrString is intstr.IntOrString.UnmarshalJSON: a string, or
// json.Unmarshal into an int32.
func (c *checker) intOrString(x any) {
	if _, ok := x.(string); ok {
		return
	}
	var i int32
	if err := json.Unmarshal([]byte(literal(x)), &i); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			err = c.unmarshalError(ute.Value, ute.Type.String())
		}
		c.setAbort(err)
	}
}

// time is metav1.Time.UnmarshalJSON: json.Unmarshal into a string, then
// time.Parse with RFC 3339; with micro, metav1.MicroTime.UnmarshalJSON,
// published with the same format, which parses with metav1.RFC3339Micro and
// so requires exactly six fractional digits (events.k8s.io's eventTime).
func (c *checker) time(x any, micro bool) {
	str, ok := x.(string)
	if !ok {
		c.setAbort(c.unmarshalError(jsonKind(x), "string"))
		return
	}
	layout := time.RFC3339
	if micro {
		layout = metav1.RFC3339Micro
	}
	if _, err := time.Parse(layout, str); err != nil {
		c.setAbort(err)
	}
}

// format is the node's format ("" without one).
func format(s *schema.Structural) string {
	if s.ValueValidation == nil {
		return ""
	}
	return s.ValueValidation.Format
}
