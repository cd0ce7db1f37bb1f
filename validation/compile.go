package validation

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"kdv.dev/formats"
	"kdv.dev/schema"
	"kdv.dev/value"
)

// node is one compiled schema: the structural node or a junctor clause,
// with everything kube-openapi's SchemaValidator derives per validation
// computed once.
type node struct {
	types    []string // spec.Schema.Type: one type, integer+string, or none
	typeStr  string   // strings.Join(types, ",") for messages
	nullable bool
	format   string           // format after the apiserver's stripping
	checker  *formats.Checker // nil: the format validator does not apply
	typeVal  bool             // the type validator applies
	numType  string           // integer or number when types has exactly that one
	numFmt   string           // int32/int64/float/double when consistent with numType

	maximum, minimum, multipleOf *float64
	exclMax, exclMin             bool
	// whether each bound fits the numeric type (IsValueValidAgainstRange)
	maximumInRange, minimumInRange, multipleOfInRange bool
	maxLength, minLength                              *int64
	pattern                                           string
	re                                                *regexp.Regexp
	reErr                                             error
	maxItems, minItems                                *int64
	uniqueItems                                       bool
	enum                                              []any
	enumStr                                           string // fmt %v of enum, for messages
	enumStrings                                       map[string]bool
	maxProps, minProps                                *int64
	required                                          []string

	allOf, anyOf, oneOf []*node
	not                 *node
	junctors            bool
	// junctorsBelow: a junctor clause that has junctors itself or below.
	// anyOf and oneOf probe clauses without (validating the one whose
	// errors they report again costs at most the clause's size); clauses
	// with are validated once, with their errors.
	junctorsBelow bool

	props           []prop // sorted by name
	propIdx         map[string]int
	additional      *node // additionalProperties schema
	additionalFalse bool  // additionalProperties: false
	items           *node

	// structural-only information
	embedded bool
	listType string
	mapKeys  []string
	// itemGo is the internal Go layout of a built-in kind's list-map
	// items: the hand-written duplicate check of such a list (Service
	// ports) prints the key struct, as encoding/json prints it.
	itemGo    *schema.GoStruct
	notUnique bool // x-kubernetes-list-unique: false, list type not enforced
	// uniqueKeys are x-kubernetes-unique-key's keys (several separated
	// by ";"), each a property or a tuple of them ("key,effect").
	uniqueKeys []string
	// everyRepeat reports each repeat in a set, not only the second
	// occurrence of a value (built-in kinds; see lpath.array).
	everyRepeat bool
	// skipOnUpdate: x-kubernetes-skip-update-validation, nothing at or
	// below this node is validated on update.
	skipOnUpdate bool
	// skipAlways: x-kubernetes-skip-validation, nothing at or below this
	// node is validated.
	skipAlways bool
	// fixed: errors of this node's keywords are not ratcheted on update
	// (x-kubernetes-ratcheting false here or inherited, the default of
	// built-in kinds; schema.XRatcheting).
	fixed bool
	// plainEqual: an unchanged list is one deep-equal to the old, in
	// order (built-in kinds: the hand-written update checks compare with
	// equality.Semantic.DeepEqual, and validation-gen skips an unchanged
	// field the same way), not CachedDeepEqual's correlation of map-list
	// items, which cannot match an item without its keys.
	plainEqual  bool
	xerr        map[string]schema.ValidationError
	metaBelow   bool // this node or a descendant is an embedded resource
	listBelow   bool // this node or a descendant is a set or map list
	itemsIsList bool // Items type is array (for map list correlation)
	isArray     bool
}

type prop struct {
	name string
	n    *node
}

type compiler struct {
	formats            *formats.Registry
	depth              int
	untypedIntOrString bool // see Options.UntypedIntOrString
	builtIn            bool // see Options.BuiltIn
	// ratchets is x-kubernetes-ratcheting of the node being compiled,
	// inherited from its parents (schema.Structural.Ratchets).
	ratchets bool
	// patterns holds the compiled patterns: one pattern is often on many
	// nodes (a built-in kind's quantities), and a Regexp is safe for
	// concurrent use.
	patterns map[string]compiledPattern
}

type compiledPattern struct {
	re  *regexp.Regexp
	err error
}

// regexp compiles pattern once per compiler.
func (c *compiler) regexp(pattern string) (*regexp.Regexp, error) {
	if p, ok := c.patterns[pattern]; ok {
		return p.re, p.err
	}
	re, err := regexp.Compile(pattern)
	if c.patterns == nil {
		c.patterns = map[string]compiledPattern{}
	}
	c.patterns[pattern] = compiledPattern{re, err}
	return re, err
}

const maxSchemaDepth = 10000

func (c *compiler) structural(s *schema.Structural) (*node, error) {
	if s == nil {
		return nil, nil
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxSchemaDepth {
		return nil, fmt.Errorf("schema nested deeper than %d levels", maxSchemaDepth)
	}
	defer func(r bool) { c.ratchets = r }(c.ratchets)
	c.ratchets = s.Ratchets(c.ratchets)
	n := &node{fixed: !c.ratchets}
	types := typesOf(s.Type, s.XIntOrString && !c.untypedIntOrString)
	if err := c.values(n, types, s.Nullable, s.ValueValidation); err != nil {
		return nil, err
	}
	n.embedded = s.XEmbeddedResource
	if s.XListType != nil {
		n.listType = *s.XListType
	}
	n.mapKeys = s.XListMapKeys
	if c.builtIn && s.Items != nil {
		n.itemGo = s.Items.Go
	}
	n.notUnique = s.XListUnique != nil && !*s.XListUnique
	if s.XUniqueKey != "" {
		n.uniqueKeys = strings.Split(s.XUniqueKey, ";")
	}
	n.everyRepeat = c.builtIn
	n.plainEqual = c.builtIn
	n.skipOnUpdate = s.SkipsUpdateValidation()
	n.skipAlways = s.SkipsValidation()
	n.xerr = s.XValidationErrors
	n.isArray = s.Type == "array"
	var err error
	if n.items, err = c.structural(s.Items); err != nil {
		return nil, err
	}
	if err := compileProps(n, s.Properties, c.structural); err != nil {
		return nil, err
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Structural != nil {
			if n.additional, err = c.structural(ap.Structural); err != nil {
				return nil, err
			}
		} else if !ap.Bool {
			n.additionalFalse = true
		}
	}
	n.metaBelow = n.embedded
	n.listBelow = !n.notUnique && (n.listType == "set" || n.listType == "map") || len(n.uniqueKeys) > 0
	n.eachChild(func(ch *node) {
		n.metaBelow = n.metaBelow || ch.metaBelow
		n.listBelow = n.listBelow || ch.listBelow
	})
	return n, nil
}

// eachChild calls f with the items, additionalProperties and property
// nodes of n (those that are set).
func (n *node) eachChild(f func(*node)) {
	if n.items != nil {
		f(n.items)
	}
	if n.additional != nil {
		f(n.additional)
	}
	for _, p := range n.props {
		f(p.n)
	}
}

func (c *compiler) nested(v *schema.NestedValueValidation) (*node, error) {
	if v == nil {
		return nil, nil
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxSchemaDepth {
		return nil, fmt.Errorf("schema nested deeper than %d levels", maxSchemaDepth)
	}
	n := &node{fixed: !c.ratchets}
	// Junctor clauses are not structural, but the apiserver validates
	// whatever they hold, types included.
	types := typesOf(v.ForbiddenGenerics.Type, v.ForbiddenExtensions.XIntOrString && !c.untypedIntOrString)
	vv := v.ValueValidation
	if err := c.values(n, types, v.ForbiddenGenerics.Nullable, &vv); err != nil {
		return nil, err
	}
	var err error
	if n.items, err = c.nested(v.Items); err != nil {
		return nil, err
	}
	if err := compileProps(n, v.Properties, c.nested); err != nil {
		return nil, err
	}
	if n.additional, err = c.nested(v.AdditionalProperties); err != nil {
		return nil, err
	}
	n.junctorsBelow = n.junctors
	n.eachChild(func(ch *node) { n.junctorsBelow = n.junctorsBelow || ch.junctorsBelow })
	return n, nil
}

// effectiveFormat is the format the apiserver keeps on a node
// (StripUnsupportedFormatsPostProcessorForVersion): recognized at the
// registry's version for the node's single type, or "" when stripped. A
// registry with Extended keeps the extra string formats it enforces.
func (c *compiler) effectiveFormat(types []string, format string) string {
	t := ""
	if len(types) == 1 {
		t = types[0]
	}
	if format == "" {
		return ""
	}
	if c.formats.Recognized(t, format) {
		return format
	}
	if c.formats.Options().Extended && (t == "" || t == "string") {
		if _, ok := c.formats.Lookup(format); ok {
			return format
		}
	}
	return ""
}

func typesOf(t string, intOrString bool) []string {
	if intOrString {
		return []string{"integer", "string"}
	}
	if t == "" {
		return nil
	}
	return []string{t}
}

// values compiles the value validations shared by structural nodes and
// junctor clauses.
func (c *compiler) values(n *node, types []string, nullable bool, vv *schema.ValueValidation) error {
	n.types = types
	n.typeStr = strings.Join(types, ",")
	n.nullable = nullable
	if vv == nil {
		vv = &schema.ValueValidation{}
	}
	n.format = c.effectiveFormat(types, vv.Format)
	if n.format != "" {
		if ch, ok := c.formats.Lookup(n.format); ok {
			n.checker = ch
		}
		if c.builtIn && (n.format == "byte" || n.format == "date-time") {
			// Go-typed decoding owns these ([]byte, metav1.Time): the
			// apiserver's declarative validation does not check them
			// (kdv.dev/resource decodes built-in kinds first).
			n.checker = nil
		}
	}
	n.typeVal = len(types) > 0 || n.format != ""
	if len(types) == 1 {
		switch types[0] {
		case "integer":
			n.numType = "integer"
			if n.format == "int32" || n.format == "int64" {
				n.numFmt = n.format
			}
		case "number":
			n.numType = "number"
			if n.format == "float" || n.format == "double" {
				n.numFmt = n.format
			}
		}
	}
	n.maximum, n.exclMax = vv.Maximum, vv.ExclusiveMaximum
	n.minimum, n.exclMin = vv.Minimum, vv.ExclusiveMinimum
	n.multipleOf = vv.MultipleOf
	inRange := func(b *float64) bool { return b == nil || floatInRange(*b, n.numType, n.numFmt) }
	n.maximumInRange, n.minimumInRange, n.multipleOfInRange = inRange(n.maximum), inRange(n.minimum), inRange(n.multipleOf)
	n.maxLength, n.minLength = vv.MaxLength, vv.MinLength
	n.pattern = vv.Pattern
	if vv.Pattern != "" {
		n.re, n.reErr = c.regexp(vv.Pattern)
	}
	n.maxItems, n.minItems, n.uniqueItems = vv.MaxItems, vv.MinItems, vv.UniqueItems
	if len(vv.Enum) > 0 {
		n.enum = make([]any, len(vv.Enum))
		allStrings := true
		for i, e := range vv.Enum {
			n.enum[i] = e.Object
			if _, ok := e.Object.(string); !ok {
				allStrings = false
			}
		}
		n.enumStr = fmt.Sprintf("%v", n.enum)
		if allStrings {
			n.enumStrings = make(map[string]bool, len(n.enum))
			for _, e := range n.enum {
				n.enumStrings[e.(string)] = true
			}
		}
	}
	n.maxProps, n.minProps = vv.MaxProperties, vv.MinProperties
	n.required = vv.Required
	var err error
	for _, j := range []struct {
		in  []schema.NestedValueValidation
		out *[]*node
	}{{vv.AllOf, &n.allOf}, {vv.AnyOf, &n.anyOf}, {vv.OneOf, &n.oneOf}} {
		for i := range j.in {
			cn, err := c.nested(&j.in[i])
			if err != nil {
				return err
			}
			*j.out = append(*j.out, cn)
		}
	}
	if n.not, err = c.nested(vv.Not); err != nil {
		return err
	}
	n.junctors = len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 || n.not != nil
	return nil
}

// hasType reports whether t is among the node's types (StringOrArray.Contains).
func (n *node) hasType(t string) bool {
	for _, x := range n.types {
		if x == t {
			return true
		}
	}
	return false
}

// enumValues renders the allowed values as the apiserver's NotSupported
// error lists them: strings as is, anything else as JSON.
func (n *node) enumValues() []string {
	out := make([]string, 0, len(n.enum))
	for _, e := range n.enum {
		if s, ok := e.(string); ok {
			out = append(out, s)
		} else {
			b, _ := json.Marshal(e)
			out = append(out, string(b))
		}
	}
	return out
}

// enumMatch mirrors kube-openapi's basicCommonValidator: a value matches an
// enum value when it converts (Go conversion rules) to the enum value's type
// and is then deeply equal. null never matches.
func (n *node) enumMatch(v value.Value) bool {
	k := v.Kind()
	if k == value.KindString && n.enumStrings != nil {
		return n.enumStrings[v.Str()]
	}
	for _, e := range n.enum {
		switch ev := e.(type) {
		case nil:
			continue
		case string:
			switch k {
			case value.KindString:
				if v.Str() == ev {
					return true
				}
			case value.KindInt:
				// reflect converts integers to strings as runes
				// (reflect.cvtIntString).
				x, r := v.Int(), "\uFFFD"
				if int64(rune(x)) == x {
					r = string(rune(x))
				}
				if r == ev {
					return true
				}
			}
		case bool:
			if k == value.KindBool && v.Bool() == ev {
				return true
			}
		case int64:
			switch k {
			case value.KindInt:
				if v.Int() == ev {
					return true
				}
			case value.KindFloat:
				if int64(v.Float()) == ev {
					return true
				}
			}
		case float64:
			switch k {
			case value.KindInt:
				if float64(v.Int()) == ev {
					return true
				}
			case value.KindFloat:
				if v.Float() == ev {
					return true
				}
			}
		case map[string]any:
			if k == value.KindMap && value.Equal(v, value.Of(ev)) {
				return true
			}
		case []any:
			if k == value.KindList && value.Equal(v, value.Of(ev)) {
				return true
			}
		}
	}
	return false
}

// compileProps compiles the properties of a structural or junctor schema
// into n, in sorted name order.
func compileProps[S any](n *node, props map[string]S, compile func(*S) (*node, error)) error {
	if len(props) == 0 {
		return nil
	}
	n.propIdx = make(map[string]int, len(props))
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := props[k]
		pn, err := compile(&p)
		if err != nil {
			return err
		}
		n.propIdx[k] = len(n.props)
		n.props = append(n.props, prop{k, pn})
	}
	return nil
}
