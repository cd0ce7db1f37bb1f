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

// duplicates turns go-yaml v2's strict errors (duplicate keys) into one error at the first
// repeated key, with each message's line moved from the value go-yaml names to the key.
func duplicates(errs []string, c chunk, pos *positions) *decodeError {
	var de decodeError
	msgs := make([]string, len(errs))
	for i, e := range errs {
		m, line := absLine(e, c.line)
		col, path := 0, ""
		if sub := dupRe.FindStringSubmatch(e); sub != nil {
			rel, _ := strconv.Atoi(sub[1])
			if p, l, cl, ok := pos.dupKey(rel, sub[2]); ok {
				line, col, path = l, cl, p
				m = fmt.Sprintf("line %d: key %s already set in map", line, sub[2])
			}
		}
		if i == 0 {
			de.line, de.col, de.path = line, col, path
			m = strings.TrimPrefix(m, yamlLineRe.FindString(m))
		}
		msgs[i] = m
	}
	de.msg = strings.Join(msgs, "; ")
	return &de
}

// decodeYAML decodes one YAML document as the apiserver's strict YAML serializer does:
// sigs.k8s.io/yaml.YAMLToJSONStrict (go-yaml v2, duplicate keys rejected), then JSON into
// interface{} with ints preserved (k8s.io/apimachinery/pkg/util/json.Unmarshal). Documents in
// the simple subset of YAML that manifests are mostly written in take a fast path
// (internal/fastyaml) that produces the same value; everything else, and every error, comes
// from the decoders above.
func decodeYAML(c chunk, pos *positions, maxExpanded int) (any, *decodeError) {
	if mayExpand(c.raw, maxExpanded) {
		if root := pos.node(); root != nil && expandsBeyond(root, maxExpanded) {
			line, _ := pos.abs(root)
			return nil, &decodeError{line: line, msg: excessiveAliasing(maxExpanded)}
		}
	}
	if v, ok := fastyaml.Decode(c.raw); ok {
		return v, nil // the common subset, decoded to the same value without go-yaml
	}
	j, err := sigsyaml.YAMLToJSONStrict(c.raw)
	if err != nil {
		var te *yamlv2.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			return nil, duplicates(te.Errors, c, pos)
		}
		msg, line := absLine(err.Error(), c.line)
		return nil, &decodeError{line: line, msg: msg}
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &v); err != nil {
		return nil, &decodeError{msg: "json: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	return v, nil
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

// decodeJSON decodes one JSON value as the apiserver's strict JSON serializer does
// (sigs.k8s.io/json.UnmarshalStrict with DisallowDuplicateFields, ints preserved).
func decodeJSON(raw []byte) (any, *decodeError) {
	var v any
	strict, err := kjson.UnmarshalStrict(raw, &v, kjson.DisallowDuplicateFields)
	if err != nil {
		return nil, &decodeError{msg: "json: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if len(strict) == 0 {
		return v, nil
	}
	var de decodeError
	msgs := make([]string, len(strict))
	for i, e := range strict {
		msgs[i] = e.Error()
		if i == 0 {
			if fp, ok := e.(interface{ FieldPath() string }); ok {
				de.path = fp.FieldPath()
			}
		}
	}
	de.msg = strings.Join(msgs, "; ")
	return nil, &de
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
