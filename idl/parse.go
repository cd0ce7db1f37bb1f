package idl

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseTag parses one comment line that starts with "+" (leading space
// allowed) into the tag model. It returns nil, nil for tags of other code
// generators that carry no schema meaning (+k8s:deepcopy-gen, +genclient:
// method, +protobuf..., +kubebuilder:object:generate, ...). An unknown or
// malformed tag is a *TagError with pos.
func ParseTag(line string, pos token.Position) (*Tag, error) {
	text := strings.TrimSpace(line)
	if !strings.HasPrefix(text, "+") {
		return nil, &TagError{Pos: pos, Text: text, Msg: "not a tag"}
	}
	body := text[1:]
	name := body[:nameEnd(body)]
	fail := func(format string, args ...any) (*Tag, error) {
		return nil, &TagError{Pos: pos, Text: text, Msg: fmt.Sprintf(format, args...)}
	}
	var t *Tag
	var err error
	switch {
	case name == "":
		return fail("tag name must start with a letter")
	case strings.HasPrefix(name, "k8s:"):
		short := strings.TrimPrefix(name, "k8s:")
		if _, ok := k8sNames[short]; !ok {
			if hasAnyPrefix(short, k8sIgnored) {
				return nil, nil
			}
			return fail("unknown tag +k8s:%s", short)
		}
		t, err = parseK8s(body)
	case strings.HasPrefix(name, "kubebuilder:"):
		t, err = parseKubebuilder(strings.TrimPrefix(body, "kubebuilder:"))
		if t == nil && err == nil {
			return nil, nil
		}
	case strings.HasPrefix(name, "lifecycle:"):
		t, err = parseLifecycle(strings.TrimPrefix(body, "lifecycle:"))
	default:
		if _, ok := plainNames[name]; !ok {
			if hasAnyPrefix(name, plainIgnored) || strings.HasPrefix(name, "protobuf") {
				return nil, nil
			}
			return fail("unknown tag +%s", name)
		}
		t, err = parsePlain(name, body[len(name):])
	}
	if err != nil {
		return fail("%v", err)
	}
	for c := t; c != nil; c = c.Payload {
		c.Pos, c.Text = pos, text
	}
	if err := t.check(); err != nil {
		return fail("%v", err)
	}
	return t, nil
}

// nameEnd returns the length of the tag name at the start of s: a letter or
// underscore, then letters, digits, "_", "-", ".", ":".
func nameEnd(s string) int {
	if r, _ := utf8.DecodeRuneInString(s); !isIdentBegin(r) {
		return 0
	}
	for i, r := range s {
		if !isTagNameInterior(r) {
			return i
		}
	}
	return len(s)
}

// parsePlain parses "+name", "+name=value" (the value is everything after
// "=", as gengo's ExtractCommentTags takes it) and the KEP-4153
// "+validationRule=\"expr\",message=...,reason=...,field=..." form.
// firstArg names the leading positional argument of the KEP-4153 tags that
// take "value,key=value,..." arguments: +validationRule="expr",message=...
// and +validationError="minimum",message=....
var firstArg = map[string]string{"validationRule": "rule", "validationError": "keyword"}

func parsePlain(name, rest string) (*Tag, error) {
	t := &Tag{Name: plainNames[name], Syntax: SyntaxPlain}
	if rest == "" {
		return t, nil
	}
	if rest[0] != '=' {
		return nil, fmt.Errorf("unexpected %q after tag name", rest[:1])
	}
	rest = strings.TrimSpace(rest[1:])
	if first, ok := firstArg[t.Name]; ok {
		parts, err := splitArgs(rest)
		if err != nil {
			return nil, err
		}
		for i, p := range parts {
			k, v, hasEq := strings.Cut(p, "=")
			if i == 0 && (!hasEq || strings.HasPrefix(strings.TrimSpace(p), "\"") || strings.HasPrefix(strings.TrimSpace(p), "`")) {
				k, v = first, p
			} else if !hasEq {
				return nil, fmt.Errorf("argument %q: want key=value", p)
			}
			k = strings.TrimSpace(k)
			if k == "field" {
				k = "fieldPath"
			}
			uv, vt, err := unquote(v)
			if err != nil {
				return nil, err
			}
			if vt == ValueRaw {
				vt = ValueString
			}
			t.Args = append(t.Args, Arg{Name: k, Value: uv, Type: vt})
		}
		return t, nil
	}
	v, vt, err := unquote(rest)
	if err != nil && t.Name != "default" && t.Name != "example" {
		return nil, err
	}
	if t.Name == "default" || t.Name == "example" {
		v, vt = rest, ValueRaw
	}
	t.Value, t.ValueType = v, vt
	if name == "nameFormat" || name == "format" {
		t.Value = formatAlias(t.Value)
	}
	return t, nil
}

// formatAlias maps KEP-4153's format names to the validation-gen names the
// apiserver's format checkers use.
func formatAlias(v string) string {
	switch v {
	case "dns1123label", "dns-label":
		return "k8s-short-name"
	case "dns1123subdomain", "dns-subdomain":
		return "k8s-long-name"
	}
	return v
}

// parseKubebuilder parses a controller-tools marker after "+kubebuilder:".
func parseKubebuilder(body string) (*Tag, error) {
	name := body[:nameEnd(body)]
	rest := body[len(name):]
	// Marker names may carry the first argument after a colon:
	// "resource:scope=Cluster", "validation:XValidation:rule=...".
	canon, argText, found := "", "", false
	var items int
	full := name
	for strings.HasPrefix(full, "validation:items:") {
		items++
		full = "validation:" + strings.TrimPrefix(full, "validation:items:")
	}
	try := func(n string) bool {
		if c, ok := kubebuilderNames[n]; ok {
			canon = c
			return true
		}
		if v, ok := strings.CutPrefix(n, "validation:"); ok {
			if c, ok := kubebuilderValidation[v]; ok {
				canon = c
				return true
			}
		}
		return false
	}
	if try(full) {
		found = true
		argText = rest
	} else {
		// longest registered prefix followed by ":" args
		parts := strings.Split(full, ":")
		for i := len(parts) - 1; i > 0; i-- {
			if try(strings.Join(parts[:i], ":")) {
				found = true
				argText = ":" + strings.Join(parts[i:], ":") + rest
				break
			}
		}
	}
	if !found {
		if hasAnyPrefix(name, kubebuilderIgnored) {
			return nil, nil
		}
		return nil, fmt.Errorf("unknown marker +kubebuilder:%s", name)
	}
	t := &Tag{Name: canon, Syntax: SyntaxKubebuilder}
	spec := canonical[canon]
	switch {
	case strings.HasPrefix(argText, ":"):
		if spec.args != aNamed {
			return nil, fmt.Errorf("marker takes no named arguments")
		}
		args, err := namedArgs(argText[1:])
		if err != nil {
			return nil, err
		}
		t.Args = args
	case strings.HasPrefix(argText, "="):
		v := strings.TrimSpace(argText[1:])
		switch {
		case canon == "enum" || canon == "exactlyOneOf" || canon == "atMostOneOf" || canon == "atLeastOneOf":
			list, err := SplitList(v)
			if err != nil {
				return nil, err
			}
			for _, e := range list {
				t.Args = append(t.Args, Arg{Value: e, Type: ValueString})
			}
		case spec.value == vRaw:
			t.Value, t.ValueType = v, ValueRaw
		case spec.args == aNamed:
			// anonymous single argument, e.g. XValidation's rule is never
			// anonymous, but resource:path is; reject.
			return nil, fmt.Errorf("marker needs named arguments (name:arg=value,...)")
		default:
			uv, vt, err := unquote(v)
			if err != nil {
				return nil, err
			}
			t.Value, t.ValueType = uv, vt
		}
	case argText != "":
		return nil, fmt.Errorf("unexpected %q after marker name", argText[:1])
	}
	for i := 0; i < items; i++ {
		t = &Tag{Name: "eachVal", Syntax: SyntaxKubebuilder, ValueType: ValueTag, Payload: t}
	}
	return t, nil
}

// namedArgs parses "a=1,b=\"x\",c={x,y}" (controller-tools argument syntax).
func namedArgs(s string) ([]Arg, error) {
	parts, err := splitArgs(s)
	if err != nil {
		return nil, err
	}
	var args []Arg
	for _, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		k = strings.TrimSpace(k)
		if !ok {
			// a flag argument: "name" means name=true
			v = "true"
		}
		if k == "" {
			return nil, fmt.Errorf("empty argument name in %q", s)
		}
		uv, vt, err := unquote(v)
		if err != nil {
			return nil, err
		}
		if vt == ValueRaw {
			vt = ValueString
		}
		args = append(args, Arg{Name: k, Value: uv, Type: vt})
	}
	return args, nil
}

// parseLifecycle parses KEP-2558's
// "+lifecycle:<component>:minVersion=v1.20,status=alpha,featureGate=Name".
func parseLifecycle(body string) (*Tag, error) {
	comp, rest, ok := strings.Cut(body, ":")
	if !ok || comp == "" {
		return nil, fmt.Errorf("want +lifecycle:<component>:minVersion=...,status=...,featureGate=...")
	}
	args, err := namedArgs(rest)
	if err != nil {
		return nil, err
	}
	t := &Tag{Name: "lifecycle", Syntax: SyntaxLifecycle, Args: append([]Arg{{Name: "component", Value: comp, Type: ValueString}}, args...)}
	for _, a := range args {
		switch a.Name {
		case "status":
			if !slices.Contains([]string{"alpha", "beta", "stable", "deprecated"}, a.Value) {
				return nil, fmt.Errorf("status %q: want alpha, beta, stable or deprecated", a.Value)
			}
		case "minVersion":
			if !strings.HasPrefix(a.Value, "v") {
				return nil, fmt.Errorf("minVersion %q: want a version like v1.20", a.Value)
			}
		}
	}
	return t, nil
}

// check validates a parsed tag (and its payload chain) against its spec and
// maps validation-gen names to canonical ones.
func (t *Tag) check() error {
	for c := t; c != nil; c = c.Payload {
		if c.Syntax == SyntaxK8s {
			n, ok := k8sNames[c.Name]
			if !ok {
				return fmt.Errorf("unknown tag +k8s:%s", c.Name)
			}
			c.Name = n
		}
		spec, ok := canonical[c.Name]
		if !ok {
			return fmt.Errorf("internal: no spec for tag %q", c.Name)
		}
		if err := c.checkSpec(spec); err != nil {
			return fmt.Errorf("%s: %v", c.Name, err)
		}
	}
	return nil
}

func (t *Tag) checkSpec(s tagSpec) error {
	switch s.args {
	case aNone:
		if len(t.Args) > 0 {
			return fmt.Errorf("takes no arguments")
		}
	case aOne:
		if len(t.Args) != 1 || t.Args[0].Name != "" {
			return fmt.Errorf("takes exactly one positional argument")
		}
	case aNamed:
		for _, a := range t.Args {
			if a.Name == "" {
				return fmt.Errorf("arguments must be named (%s)", strings.Join(s.names, ", "))
			}
			if a.Name == "component" && t.Name == "lifecycle" {
				continue
			}
			if !slices.Contains(s.names, a.Name) {
				return fmt.Errorf("unknown argument %q (want %s)", a.Name, strings.Join(s.names, ", "))
			}
		}
		for _, n := range s.need {
			if _, ok := t.Arg(n); !ok {
				return fmt.Errorf("missing argument %q", n)
			}
		}
	}
	has := t.ValueType != ValueNone
	switch s.value {
	case vNone:
		if has {
			return fmt.Errorf("takes no value")
		}
	case vOptBool:
		if has && t.Value != "true" && t.Value != "false" {
			return fmt.Errorf("value %q: want true or false", t.Value)
		}
	case vInt:
		if !has {
			return fmt.Errorf("needs an integer value")
		}
		if _, err := strconv.ParseInt(strings.TrimSpace(t.Value), 0, 64); err != nil {
			return fmt.Errorf("value %q is not an integer", t.Value)
		}
	case vNumber:
		if !has {
			return fmt.Errorf("needs a numeric value")
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(t.Value), 64); err != nil {
			if _, err := strconv.ParseInt(strings.TrimSpace(t.Value), 0, 64); err != nil {
				return fmt.Errorf("value %q is not a number", t.Value)
			}
		}
	case vString, vRaw:
		if !has || t.ValueType == ValueTag {
			return fmt.Errorf("needs a value")
		}
		if len(s.allowed) > 0 && !slices.Contains(s.allowed, t.Value) {
			return fmt.Errorf("value %q: want one of %s", t.Value, strings.Join(s.allowed, ", "))
		}
	case vTag:
		if t.ValueType != ValueTag {
			return fmt.Errorf("needs a chained tag value (=+k8s:...)")
		}
	}
	if t.ValueType == ValueTag && s.value != vTag {
		return fmt.Errorf("does not take a chained tag")
	}
	return nil
}
