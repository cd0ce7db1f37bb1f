package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "go.yaml.in/yaml/v3"
	"kdv.dev/manifest/internal/fastyaml"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// decodeError is a document's decode failure before it is tied to a file and index.
type decodeError struct {
	line, col int    // absolute position, 0 when unknown
	path      string // field path when known
	msg       string
}

// warning is a document's non-fatal decode finding (a repeated key) before it is tied to a
// document: its absolute position when known, field path when known, and message without
// a line.
type warning struct {
	line, col int
	path      string
	msg       string
}

// text is the warning as Document.Warnings holds it: the line of the repeated key first,
// then what kubectl does about it.
func (w warning) text() string {
	return fmt.Sprintf("line %d: %s; the last value is used, as kubectl sends it", w.line, w.msg)
}

// allDuplicates reports whether every one of go-yaml v2's strict errors is a repeated key,
// the only strict check that decoding into interface{} makes.
func allDuplicates(errs []string) bool {
	for _, e := range errs {
		if !dupRe.MatchString(e) {
			return false
		}
	}
	return true
}

// duplicates turns go-yaml v2's strict errors (repeated keys, all matching dupRe) into
// warnings at the repeated keys: go-yaml names the line of the value, dupKeys finds the key.
func duplicates(errs []string, c chunk, pos *positions) []warning {
	ws := make([]warning, len(errs))
	wants := make([]dupWant, len(errs))
	for i, e := range errs {
		sub := dupRe.FindStringSubmatch(e)
		rel, _ := strconv.Atoi(sub[1])
		wants[i] = dupWant{rel, sub[2]}
		ws[i] = warning{line: c.line + rel - 1, msg: "key " + sub[2] + " already set in map"}
	}
	for i, f := range pos.dupKeys(wants) {
		if f.ok {
			ws[i].line, ws[i].col, ws[i].path = f.line, f.col, f.path
		}
	}
	return ws
}

// decodeYAML decodes one YAML document as kubectl decodes it before sending it as JSON:
// sigs.k8s.io/yaml.YAMLToJSON (go-yaml v2, a repeated key keeps its last value), then JSON
// into interface{} with ints preserved (k8s.io/apimachinery/pkg/util/json.Unmarshal). The
// apiserver's own strict YAML decoding (YAMLToJSONStrict) runs first: it is the same
// decoding except that it rejects repeated keys, which become warnings here (kubectl's JSON
// no longer holds them, so the apiserver accepts the object). Documents in the simple subset
// of YAML that manifests are mostly written in take a fast path (internal/fastyaml) that
// produces the same value and gives up on any repeated key; everything else, and every
// error and warning, comes from the decoders above.
func decodeYAML(c chunk, pos *positions, maxExpanded int) (any, []warning, *decodeError) {
	if mayExpand(c.raw, maxExpanded) {
		if root := pos.node(); root != nil && expandsBeyond(root, maxExpanded) {
			line, _ := pos.abs(root)
			return nil, nil, &decodeError{line: line, msg: excessiveAliasing(maxExpanded)}
		}
	}
	if v, ok := fastyaml.Decode(c.raw); ok {
		return v, nil, nil // the common subset, decoded to the same value without go-yaml
	}
	var warns []warning
	j, err := sigsyaml.YAMLToJSONStrict(c.raw)
	if err != nil {
		var te *yamlv2.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			if !allDuplicates(te.Errors) {
				return nil, nil, typeErrors(te.Errors, c)
			}
			warns = duplicates(te.Errors, c, pos)
			j, err = sigsyaml.YAMLToJSON(c.raw)
		}
		if err != nil {
			msg, line := absLine(err.Error(), c.line)
			return nil, nil, &decodeError{line: line, msg: msg}
		}
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &v); err != nil {
		return nil, nil, &decodeError{msg: "json: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	return v, warns, nil
}

// typeErrors is the error of go-yaml v2 type errors other than repeated keys (which
// decoding into interface{} does not produce today): each message with its line made
// absolute, the first one's line as the error's.
func typeErrors(errs []string, c chunk) *decodeError {
	var de decodeError
	msgs := make([]string, len(errs))
	for i, e := range errs {
		m, line := absLine(e, c.line)
		if i == 0 {
			de.line = line
			m = strings.TrimPrefix(m, yamlLineRe.FindString(m))
		}
		msgs[i] = m
	}
	de.msg = strings.Join(msgs, "; ")
	return &de
}

// mayExpand reports whether the alias expansion bound limit applies and raw may have
// aliases, the cheap test before parsing raw again to measure its expansion.
func mayExpand(raw []byte, limit int) bool {
	return limit > 0 && bytes.IndexByte(raw, '*') >= 0 && mayHaveAnchor(raw)
}

// expandsBeyond reports whether the document root, once its aliases are expanded, is larger
// than limit bytes as sizer counts them.
func expandsBeyond(root *yamlv3.Node, limit int) bool {
	s := sizer{limit: limit, memo: map[*yamlv3.Node]int{}}
	return s.size(root) > limit
}

func excessiveAliasing(limit int) string {
	return fmt.Sprintf("yaml: document contains excessive aliasing: expands to more than %d bytes", limit)
}

// CheckAliasExpansion applies Read's alias expansion bound (Options.MaxExpandedBytes) to one
// YAML document that is decoded elsewhere, such as the OpenAPI documents and CRDs that
// package kdv.dev/schema loads from bytes with sigs.k8s.io/yaml: go-yaml's own alias ratio
// check lets aliases of a large value through (a 1 MB document can expand to 1 GiB). It
// returns an error, with Read's message, when raw's first document expands to more than
// limit bytes; limit 0 means DefaultMaxExpandedBytes, negative no limit. A document without
// anchors costs a byte scan; one that does not parse is left to the caller's decoder, which
// reports the syntax error.
func CheckAliasExpansion(raw []byte, limit int) error {
	limit = Options{MaxExpandedBytes: limit}.maxExpanded()
	if !mayExpand(raw, limit) {
		return nil
	}
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(raw, &doc); err != nil || doc.Kind != yamlv3.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	if expandsBeyond(doc.Content[0], limit) {
		return errors.New(excessiveAliasing(limit))
	}
	return nil
}

// mayHaveAnchor reports whether raw may define a YAML anchor, so that the alias expansion
// bound (a second parse, with go-yaml v3) runs only then. It looks for an '&' where a node
// can start: at the start of the text or after a space, tab, line break, '[', '{', ',' or
// ':' (which covers line starts after indentation, "- &a", "? &a", "k: &a", "!tag &a" and
// flow collections), followed by a character of go-yaml v2's anchor names ([0-9A-Za-z_-],
// its is_alpha; an anchor without one is a syntax error, so nothing is expanded). It has no
// false negatives: go-yaml only scans an anchor at a token start, which is always one of
// those positions; '&' inside a plain or quoted scalar ("A &B") may be a false positive,
// which only costs time, while "A & B" and CEL's "a && b" are not.
func mayHaveAnchor(raw []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '&')
		if j < 0 {
			return false
		}
		i += j
		if i+1 >= len(raw) {
			return false
		}
		if c := raw[i+1]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-') {
			i++
			continue
		}
		if i == 0 {
			return true
		}
		switch raw[i-1] {
		case ' ', '\t', '\n', '\r', '[', '{', ',', ':':
			return true
		case 0xBF, 0x85, 0xA8, 0xA9:
			// The last byte of a byte order mark, or of NEL, LS and PS, which go-yaml v2
			// reads as line breaks.
			return true
		}
		i++
	}
}

// decodeJSON decodes one JSON value as kubectl decodes it before sending it
// (k8s.io/apimachinery/pkg/util/json.Unmarshal: sigs.k8s.io/json, case-sensitive, ints
// preserved; a repeated field keeps its last value). It decodes with the apiserver's strict
// options (DisallowDuplicateFields), which fill in the same value and list the repeated
// fields besides: they become warnings at the repeated keys.
func decodeJSON(raw []byte, pos *positions) (any, []warning, *decodeError) {
	var v any
	strict, err := kjson.UnmarshalStrict(raw, &v, kjson.DisallowDuplicateFields)
	if err != nil {
		return nil, nil, &decodeError{msg: "json: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if len(strict) == 0 {
		return v, nil, nil
	}
	// sigs.k8s.io/json names each repeated path once (and at most 100 of them); the node
	// walk finds every repeat with its own position. When the two agree on the paths, one
	// warning per repeat comes from the walk; otherwise one per error, at the path's last key.
	if keys := repeatedKeys(pos); sameFields(keys, strict) {
		ws := make([]warning, len(keys))
		for i, k := range keys {
			ws[i].line, ws[i].col = pos.abs(k.key)
			ws[i].path, ws[i].msg = k.path, "duplicate field "+strconv.Quote(k.path)
		}
		return v, ws, nil
	}
	ws := make([]warning, len(strict))
	for i, e := range strict {
		ws[i].msg = e.Error()
		if fp, ok := e.(interface{ FieldPath() string }); ok {
			ws[i].path = fp.FieldPath()
			ws[i].line, ws[i].col = pos.lookup(ws[i].path)
		}
	}
	return v, ws, nil
}

// maxStrictErrors is how many distinct strict errors sigs.k8s.io/json keeps.
const maxStrictErrors = 100

// sameFields reports whether the repeated keys found by repeatedKeys name the same fields as
// sigs.k8s.io/json's strict errors (all of them, unless it stopped at maxStrictErrors).
func sameFields(keys []repeatedKey, strict []error) bool {
	if len(keys) == 0 {
		return false
	}
	found := make(map[string]bool, len(keys))
	for _, k := range keys {
		found[k.path] = true
	}
	for _, e := range strict {
		fp, ok := e.(interface{ FieldPath() string })
		if !ok || !found[fp.FieldPath()] {
			return false
		}
	}
	return len(strict) >= maxStrictErrors || len(found) == len(strict)
}

// repeatedKey is a mapping key that repeats an earlier key of its mapping.
type repeatedKey struct {
	path string // dotted field path, as sigs.k8s.io/json's strict errors name it
	key  *yamlv3.Node
}

// repeatedKeys lists the repeated keys of a JSON document in document order, nil when it does
// not parse for positions. Keys compare as the strings they decode to, as JSON's do.
func repeatedKeys(pos *positions) []repeatedKey {
	root := pos.node()
	if root == nil {
		return nil
	}
	var out []repeatedKey
	var walk func(n *yamlv3.Node, path string, depth int)
	walk = func(n *yamlv3.Node, path string, depth int) {
		if depth > 10000 {
			return
		}
		switch n.Kind {
		case yamlv3.MappingNode:
			seen := make(map[string]bool, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				child := k.Value
				if path != "" {
					child = path + "." + k.Value
				}
				if seen[k.Value] {
					out = append(out, repeatedKey{child, k})
				}
				seen[k.Value] = true
				walk(n.Content[i+1], child, depth+1)
			}
		case yamlv3.SequenceNode:
			for i, c := range n.Content {
				walk(c, path+"["+strconv.Itoa(i)+"]", depth+1)
			}
		}
	}
	walk(root, "", 0)
	return out
}

// nodeBytes is what each node counts for in the expanded size besides its text: decoding
// costs memory per node (interfaces, map entries) even for tiny scalars, and an alias of a
// list of a thousand one-letter scalars must not look cheap.
const nodeBytes = 16

// sizer estimates the size of a YAML node once aliases are expanded: the sum of its scalars'
// lengths plus nodeBytes per node, saturating just above limit.
type sizer struct {
	limit int
	memo  map[*yamlv3.Node]int
	depth int
}

func (s *sizer) size(n *yamlv3.Node) int {
	if n == nil {
		return 0
	}
	switch n.Kind {
	case yamlv3.AliasNode:
		if v, ok := s.memo[n.Alias]; ok {
			return v
		}
		s.memo[n.Alias] = 0 // a cycle counts as nothing; the YAML decoder rejects it
		v := s.size(n.Alias)
		s.memo[n.Alias] = v
		return v
	case yamlv3.ScalarNode:
		return len(n.Value) + nodeBytes
	}
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > 10000 {
		return s.limit + 1
	}
	total := nodeBytes
	for _, c := range n.Content {
		total += s.size(c)
		if total > s.limit {
			return s.limit + 1
		}
	}
	return total
}
