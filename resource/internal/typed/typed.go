// Package typed checks an unstructured built-in object the way the
// apiserver's JSON decoder checks it while decoding the request body into
// the kind's Go type (k8s.io/apimachinery runtime/serializer/json with
// sigs.k8s.io/json, a fork of encoding/json): JSON types against Go types,
// integer widths, base64 of []byte fields, and the UnmarshalJSON methods of
// resource.Quantity, intstr.IntOrString and metav1.Time. Custom resources
// are decoded as unstructured JSON and never fail this way.
//
// The Go types come from the kind's structural schema (type, format,
// x-kubernetes-int-or-string, the Quantity form of package builtin) and, for
// the names in messages, from the definitions the schema was published as.
package typed

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"kdv.dev/schema"
)

// Steps into items and map values, as builtin.DefinitionAt takes them.
const (
	Items  = "[]"
	Values = "{}"
)

// QuantityPattern is the pattern of package builtin's Quantity schema
// (x-kubernetes-int-or-string, a canonical string after Check): the regular expression
// resource.ParseQuantity requires of strings.
const QuantityPattern = `^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`

// Types names the Go types of the schema nodes reached by steps from the
// root, for the decoder's messages.
type Types struct {
	// Definition names the definition (such as
	// "io.k8s.api.apps.v1.DeploymentSpec") the node was published as, ""
	// for inline nodes (builtin.DefinitionAt).
	Definition func(steps []string) string
	// GoType names the node's Go type and the embedded structs a property
	// is promoted through (builtin.GoType); nil or ok false: the type is
	// named from the schema.
	GoType func(steps []string) (typ string, embedded []string, ok bool)
}

// Check returns the error the apiserver's decoder returns for obj, an
// object of the kind whose structural schema is s, or nil when it decodes.
// Like encoding/json it keeps the first type error and goes on, but stops at
// the first error of an UnmarshalJSON method (Quantity, IntOrString, Time),
// which is then the error. Object keys are visited in sorted order, which is
// the order of the body kubectl sends (it converts YAML to JSON through Go
// maps). A JSON array of bytes where a []byte belongs is replaced in obj by
// its base64 string, and a null item or map value by the zero value of its
// type, as the apiserver stores them.
//
// Errors read as the decoder's: `json: cannot unmarshal string into Go
// struct field DeploymentSpec.spec.replicas of type int32`, `quantities must
// match the regular expression ...`, `illegal base64 data at input byte 4`.
// Go types and embedded structs come from Types (for built-in kinds, the
// Go field table of package builtin's data); without it, types are named
// from the schema.
func Check(obj map[string]any, s *schema.Structural, types Types) error {
	// The first pass visits keys in map order, which costs no sorting;
	// only when it finds an error does a second pass, in the sorted order
	// kubectl sends keys in, find the one the decoder reports first. Its
	// normalisations (nulls to zero values, byte arrays to base64) do not
	// change what the second pass finds: null is never a type error.
	return NewChecker(s, types).Check(obj)
}

// Checker is Check for one kind, with the schema indexed once (its nodes'
// properties by pointer) for the objects it checks. It is safe for
// concurrent use.
type Checker struct {
	root  *node
	types Types
}

// NewChecker returns the Checker of the kind whose structural schema is s.
func NewChecker(s *schema.Structural, types Types) *Checker {
	return &Checker{root: &node{s: s}, types: types}
}

// Check is the package's Check for obj.
func (k *Checker) Check(obj map[string]any) error {
	_, err := k.CheckClean(obj)
	return err
}

// CheckClean is Check, and also reports whether obj, as Check leaves it,
// holds nothing the apiserver's pruning would change (pruning.Prune with obj
// as resource root, then pruning.PruneNonNullableNullsWithoutDefaults): no
// field outside its object's properties, no null, and no object or list
// below a node the check does not walk into (x-kubernetes-preserve-unknown-
// fields, embedded resources, raw JSON, objects without properties, lists
// without items). The walk is the one Check makes anyway, so a caller that
// skips pruning when clean saves two walks of a typical object. clean is
// conservative (false says only that pruning must run) and false with an
// error.
func (k *Checker) CheckClean(obj map[string]any) (clean bool, err error) {
	c := &checker{types: k.types, unordered: true}
	c.object(obj, k.root)
	if c.abort == nil && c.saved == nil {
		return !c.dirty, nil
	}
	c = &checker{types: k.types}
	c.object(obj, k.root)
	if c.abort != nil {
		return false, &Error{Err: c.abort, Field: c.abortAt}
	}
	if c.saved != nil {
		return false, &Error{Err: c.saved, Field: c.savedAt}
	}
	return false, nil
}

// Error is a decoding error and where it happened.
type Error struct {
	// Err is the decoder's error.
	Err error
	// Field is the path of the value it is about, in field.Path's form
	// ("spec.containers[0].ports[1].containerPort"), for line numbers.
	Field string
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

type checker struct {
	types Types
	// unordered visits object keys in map order (see Check).
	unordered bool
	steps     []string  // schema steps from the root
	field     []string  // JSON field names from the root (the decoder's FieldStack)
	path      []pathSeg // path segments, rendered for errors only
	saved     error     // first type error
	abort     error     // an UnmarshalJSON error: decoding stops
	// savedAt and abortAt are the paths of saved and abort.
	savedAt, abortAt string
	// dirty: the object holds something pruning would change, or a value
	// the check does not walk into (see CheckClean).
	dirty bool
}

// composite marks the object dirty when x, a value the check does not walk
// into, is an object or a list, which pruning might change.
func (c *checker) composite(x any) {
	switch x.(type) {
	case map[string]any, []any:
		c.dirty = true
	}
}

// pathSeg is one step of the path of the value being checked: a
// property, a map key or a list index.
type pathSeg struct {
	kind byte // '.' property, '{' map key, '[' index
	name string
	idx  int
}

// at renders the path in field.Path's form.
func (c *checker) at() string {
	var b strings.Builder
	for i, g := range c.path {
		switch g.kind {
		case '.':
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(g.name)
		case '{':
			b.WriteString("[" + g.name + "]")
		default:
			b.WriteString("[" + strconv.Itoa(g.idx) + "]")
		}
	}
	return b.String()
}

// node is a schema node with its children indexed by pointer, built on
// first visit (Structural's Properties holds values, whose copy per key
// would dominate the check's time).
type node struct {
	s      *schema.Structural
	once   sync.Once
	props  map[string]*node
	items  *node
	values *node
}

func (n *node) children() *node {
	n.once.Do(func() {
		s := n.s
		if s.Properties != nil {
			n.props = make(map[string]*node, len(s.Properties))
			for k := range s.Properties {
				p := s.Properties[k]
				n.props[k] = &node{s: &p}
			}
		}
		if s.Items != nil {
			n.items = &node{s: s.Items}
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil {
			n.values = &node{s: ap.Structural}
		}
	})
	return n
}

func (c *checker) setAbort(err error) {
	c.abort, c.abortAt = err, c.at()
}

// typeError is the decoder's UnmarshalTypeError.
// rawJSON reports whether the value at the current steps decodes into a
// runtime.RawExtension, whose UnmarshalJSON keeps any JSON value as raw
// bytes (k8s.io/apimachinery pkg/runtime/extension.go): its schema's type
// object (as upstream publishes it) is a validation of the value, checked
// after decoding, not a decoding error. Only asked of a non-object value.
func (c *checker) rawJSON() bool {
	return c.types.Definition != nil && strings.HasSuffix(c.types.Definition(c.steps), ".pkg.runtime.RawExtension")
}

func (c *checker) typeError(value string, s *schema.Structural) {
	if c.saved != nil {
		return
	}
	c.saved, c.savedAt = c.unmarshalError(value, c.goType(s, c.steps)), c.at()
}

// unmarshalError is the decoder's UnmarshalTypeError for a JSON value
// (kind, or "number <literal>") that cannot go into Go type typ, with the
// decoder's error context (the innermost struct and the JSON field path).
// UnmarshalJSON methods that decode with encoding/json (IntOrString, Time)
// get the same context.
func (c *checker) unmarshalError(value, typ string) error {
	if len(c.field) == 0 {
		return fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", value, typ)
	}
	return fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", value, c.structName(), c.fieldPath(), typ)
}

// fieldPath is the decoder's FieldStack: the JSON names of the property
// steps, each after the Go names of the embedded structs it is promoted
// through.
func (c *checker) fieldPath() string {
	var parts []string
	for i, st := range c.steps {
		if st == Items || st == Values {
			continue
		}
		if c.types.GoType != nil {
			if _, embedded, ok := c.types.GoType(c.steps[:i+1]); ok {
				parts = append(parts, embedded...)
			}
		}
		parts = append(parts, st)
	}
	return strings.Join(parts, ".")
}

// structName is the Go name of the struct holding the current field (the
// decoder's errorContext.Struct, which items and map values leave alone):
// the definition of the node above the last property step.
func (c *checker) structName() string {
	i := len(c.steps) - 1
	for i > 0 && (c.steps[i] == Items || c.steps[i] == Values) {
		i--
	}
	name := c.types.Definition(c.steps[:i])
	return name[strings.LastIndex(name, ".")+1:]
}

// goType names the Go type of s at steps as reflect.Type.String does.
func (c *checker) goType(s *schema.Structural, steps []string) string {
	if c.types.GoType != nil {
		if typ, _, ok := c.types.GoType(steps); ok {
			return typ
		}
	}
	if def := c.types.Definition(steps); def != "" {
		parts := strings.Split(def, ".")
		if len(parts) >= 2 {
			return parts[len(parts)-2] + "." + parts[len(parts)-1]
		}
		return def
	}
	switch s.Type {
	case "string":
		if format(s) == "byte" {
			return "[]uint8"
		}
		return "string"
	case "integer":
		if f := format(s); f == "int32" || f == "uint8" {
			return f
		}
		return "int64"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	case "array":
		if s.Items != nil {
			return "[]" + c.goType(s.Items, append(steps[:len(steps):len(steps)], Items))
		}
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			return "map[string]" + c.goType(s.AdditionalProperties.Structural, append(steps[:len(steps):len(steps)], Values))
		}
	}
	return "interface {}"
}

// jsonKind is how the decoder names a JSON value's kind in type errors.
func jsonKind(x any) string {
	switch x.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "number"
}

// literal is the JSON text kubectl sends for a value (encoding/json).
func literal(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

func (c *checker) value(x any, n *node) {
	if c.abort != nil {
		return
	}
	if x == nil {
		c.dirty = true // null pruning may remove it
		return         // null decodes into every Go type
	}
	if n == nil {
		c.composite(x)
		return
	}
	s := n.s
	if s.XPreserveUnknownFields || s.XEmbeddedResource {
		c.composite(x) // pruning's own rules below
	}
	switch {
	case isQuantity(s):
		c.composite(x)
		return // checked and made canonical by convert
	case s.XIntOrString:
		c.composite(x)
		c.intOrString(x)
		return
	case s.Type == "":
		c.composite(x)
		return // RawExtension, FieldsV1, ... take any JSON
	case s.Type == "string" && format(s) == "date-time":
		// date-time values are rare in manifests: the Go type is
		// looked up only for them
		c.time(x, c.goType(s, c.steps) == "v1.MicroTime")
		return
	}
	switch s.Type {
	case "object":
		m, ok := x.(map[string]any)
		if !ok {
			if c.rawJSON() {
				c.composite(x)
				return
			}
			c.typeError(jsonKind(x), s)
			return
		}
		c.object(m, n)
	case "array":
		l, ok := x.([]any)
		if !ok {
			c.typeError(jsonKind(x), s)
			return
		}
		c.list(l, n)
	case "string":
		str, ok := x.(string)
		if !ok {
			c.typeError(jsonKind(x), s)
			return
		}
		switch format(s) {
		case "byte":
			// encoding/json decodes []byte with base64.StdEncoding, which
			// skips \r and \n; its error is kept as is.
			if _, err := base64.StdEncoding.DecodeString(str); err != nil && c.saved == nil {
				c.saved, c.savedAt = err, c.at()
			}
		}
	case "integer":
		switch v := x.(type) {
		case int64:
			if format(s) != "int32" || (v >= math.MinInt32 && v <= math.MaxInt32) {
				return
			}
			c.typeError("number "+strconv.FormatInt(v, 10), s)
		case float64, int, int32:
			lit := literal(x)
			bits := 64
			if format(s) == "int32" {
				bits = 32
			}
			if _, err := strconv.ParseInt(lit, 10, bits); err != nil {
				c.typeError("number "+lit, s)
			}
		default:
			c.typeError(jsonKind(x), s)
		}
	case "number":
		if k := jsonKind(x); k != "number" {
			c.typeError(k, s)
		}
	case "boolean":
		if _, ok := x.(bool); !ok {
			c.typeError(jsonKind(x), s)
		}
	}
}

func (c *checker) list(l []any, n *node) {
	items := n.children().items
	if items == nil {
		if len(l) > 0 {
			c.dirty = true
		}
		return
	}
	c.steps = append(c.steps, Items)
	for i := range l {
		c.path = append(c.path, pathSeg{kind: '[', idx: i})
		l[i] = zeroForNull(c.convert(l[i], items.s), items.s)
		c.value(l[i], items)
		c.path = c.path[:len(c.path)-1]
	}
	c.steps = c.steps[:len(c.steps)-1]
}

// zeroForNull returns x, or for a null item or map value the zero value
// of its type: the decoder starts every item and map value from the Go
// zero value, so verbs: [get, null] is ["get", ""] to the apiserver and
// stored so. Lists of lists, int-or-strings, quantities and untyped values
// keep their null.
func zeroForNull(x any, s *schema.Structural) any {
	if x == nil && s != nil && isQuantity(s) {
		return "0" // Quantity.UnmarshalJSON(null) is the zero quantity
	}
	if x != nil || s == nil || s.XIntOrString {
		return x
	}
	switch s.Type {
	case "string":
		if format(s) == "byte" {
			return x
		}
		return ""
	case "integer":
		return int64(0)
	case "number":
		return float64(0)
	case "boolean":
		return false
	case "object":
		return map[string]any{}
	}
	return x
}

// bytesOf returns x unchanged, except for a JSON array where a []byte
// belongs: encoding/json decodes it item by item into uint8s, and the
// apiserver stores the bytes as base64, so a valid array becomes that
// base64 string. An item that is not a uint8 is a type error.
func (c *checker) bytesOf(x any, s *schema.Structural) any {
	l, ok := x.([]any)
	if !ok || s == nil || s.Type != "string" || format(s) != "byte" {
		return x
	}
	b := make([]byte, len(l))
	// errors are about an item: a uint8
	c.steps = append(c.steps, Items)
	defer func() { c.steps = c.steps[:len(c.steps)-1] }()
	for i, it := range l {
		switch it.(type) {
		case int64, float64, int, int32:
			lit := literal(it)
			n, err := strconv.ParseUint(lit, 10, 8)
			if err != nil {
				c.typeError("number "+lit, &schema.Structural{Generic: schema.Generic{Type: "integer"}, ValueValidation: &schema.ValueValidation{Format: "uint8"}})
				return x
			}
			b[i] = byte(n)
		default:
			if it != nil {
				c.typeError(jsonKind(it), &schema.Structural{Generic: schema.Generic{Type: "integer"}, ValueValidation: &schema.ValueValidation{Format: "uint8"}})
				return x
			}
		}
	}
	return base64.StdEncoding.EncodeToString(b)
}

func (c *checker) object(m map[string]any, n *node) {
	n.children()
	if n.props == nil && n.values == nil {
		if len(m) > 0 {
			c.dirty = true
		}
		return
	}
	if c.unordered {
		for k := range m {
			if c.member(m, n, k) {
				return
			}
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if c.member(m, n, k) {
			return
		}
	}
}

// member checks m[k], a property or (without properties) a map value,
// and reports whether decoding stopped.
func (c *checker) member(m map[string]any, n *node, k string) bool {
	if n.props == nil {
		// map keys do not enter the decoder's field path
		v := n.values
		c.steps, c.path = append(c.steps, Values), append(c.path, pathSeg{kind: '{', name: k})
		m[k] = zeroForNull(c.convert(m[k], v.s), v.s)
		c.value(m[k], v)
		c.steps, c.path = c.steps[:len(c.steps)-1], c.path[:len(c.path)-1]
		return false
	}
	p, ok := n.props[k]
	if !ok {
		c.dirty = true // unknown: pruning removes it
		return false
	}
	c.steps, c.field, c.path = append(c.steps, k), append(c.field, k), append(c.path, pathSeg{kind: '.', name: k})
	m[k] = c.convert(m[k], p.s)
	c.value(m[k], p)
	c.steps, c.field, c.path = c.steps[:len(c.steps)-1], c.field[:len(c.field)-1], c.path[:len(c.path)-1]
	return c.abort != nil
}
