package manifest

import (
	"bytes"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SniffGVK returns the group, version and kind that a YAML document names on its
// top-level apiVersion and kind lines, read from its text without decoding it, and false
// when the text does not say plainly: a JSON document, flow style, a quoted, tagged,
// aliased or block value, a missing line, or a List. It is a hint for starting work the
// document's kind will need (Registry.Prepare in kdv.dev/resource) while the rest of the
// input is read; what the document is comes from decoding it (Document.GVK).
func (p *Pending) SniffGVK() (schema.GroupVersionKind, bool) {
	if p.notManifest != "" || p.c.json || p.c.err != "" {
		return schema.GroupVersionKind{}, false
	}
	var apiVersion, kind string
	for rest := p.c.raw; len(rest) > 0 && (apiVersion == "" || kind == ""); {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		switch {
		case bytes.HasPrefix(line, []byte("apiVersion:")) && apiVersion == "":
			apiVersion = plainValue(line[len("apiVersion:"):])
			if apiVersion == "" {
				return schema.GroupVersionKind{}, false
			}
		case bytes.HasPrefix(line, []byte("kind:")) && kind == "":
			kind = plainValue(line[len("kind:"):])
			if kind == "" {
				return schema.GroupVersionKind{}, false
			}
		}
	}
	if apiVersion == "" || kind == "" || strings.HasSuffix(kind, "List") {
		return schema.GroupVersionKind{}, false
	}
	return schema.FromAPIVersionAndKind(apiVersion, kind), true
}

// plainValue is the value after a mapping key's colon when it is a plain scalar
// of the characters an apiVersion or kind holds (letters, digits, '.', '-', '/'),
// with an optional comment after it; "" otherwise.
func plainValue(v []byte) string {
	v = bytes.TrimRight(v, "\r")
	if i := bytes.Index(v, []byte(" #")); i >= 0 {
		v = v[:i]
	}
	v = bytes.Trim(v, " \t")
	if len(v) == 0 {
		return ""
	}
	for _, c := range v {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '/':
		default:
			return ""
		}
	}
	return string(v)
}
