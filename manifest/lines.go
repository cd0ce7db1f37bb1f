package manifest

import (
	"strconv"
	"strings"
	"sync"

	yamlv3 "go.yaml.in/yaml/v3"
)

// positions maps field paths of one document to lines in its file. The YAML node tree
// (go.yaml.in/yaml/v3, which parses JSON too) is built on first use only, so reading stays
// cheap when no report needs a line.
type positions struct {
	raw  []byte
	line int // file line of raw[0]
	col  int // file column of raw[0]

	once sync.Once
	root *yamlv3.Node // the document's content node; nil when it does not parse
}

// node returns the parsed content node, parsing on first call.
func (p *positions) node() *yamlv3.Node {
	p.once.Do(func() {
		var doc yamlv3.Node
		if err := yamlv3.Unmarshal(p.raw, &doc); err != nil {
			return
		}
		if doc.Kind == yamlv3.DocumentNode && len(doc.Content) > 0 {
			p.root = doc.Content[0]
		}
	})
	return p.root
}

// abs converts a node's document-relative position into a file line and column.
func (p *positions) abs(n *yamlv3.Node) (line, col int) {
	line, col = n.Line+p.line-1, n.Column
	if n.Line == 1 {
		col += p.col - 1
	}
	return line, col
}

// lookup returns the file position of the deepest node on path that exists (the key of a
// mapping entry, or a sequence item), or 0, 0 when the document does not parse.
func (p *positions) lookup(path string) (line, col int) {
	best, _, _ := p.walk(path)
	if best == nil {
		return 0, 0
	}
	return p.abs(best)
}

// find returns the value node at path and its mapping key (nil for a sequence item or the
// root), or nil when path does not exist whole.
func (p *positions) find(path string) (val, key *yamlv3.Node) {
	best, val, rest := p.walk(path)
	if best == nil || rest != "" {
		return nil, nil
	}
	if best != val {
		key = best
	}
	return deref(val), key
}

// walk follows path from the root: the deepest node reached (a key or a sequence item),
// its value node, and what is left of path; nil when the document does not parse.
func (p *positions) walk(path string) (best, val *yamlv3.Node, rest string) {
	n := p.node()
	if n == nil {
		return nil, nil, path
	}
	best = n
	for steps := 0; path != "" && steps < 100000; steps++ {
		n = deref(n)
		path = strings.TrimPrefix(path, ".")
		var key, val *yamlv3.Node
		var rest string
		switch n.Kind {
		case yamlv3.MappingNode:
			key, val, rest = matchKey(n, path, 0)
		case yamlv3.SequenceNode:
			if i, r, ok := parseIndex(path); ok && i < len(n.Content) {
				val, rest = n.Content[i], r
			}
		}
		if val == nil {
			break
		}
		if key != nil {
			best = key
		} else {
			best = val
		}
		n, path = val, rest
	}
	return best, n, strings.TrimPrefix(path, ".")
}

// matchKey finds the mapping entry named at the start of path, either as "[key]" (the
// field.Path form for map keys) or as a field name followed by '.', '[' or the end. Names
// may contain dots, so the longest matching key wins; among equal keys the last wins, as
// it is the one the decoder keeps.
func matchKey(m *yamlv3.Node, path string, depth int) (key, val *yamlv3.Node, rest string) {
	bracket := strings.HasPrefix(path, "[")
	best := -1
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if len(k) < best {
			continue
		}
		var ok bool
		var r string
		if bracket {
			if strings.HasPrefix(path[1:], k+"]") {
				ok, r = true, path[len(k)+2:]
			}
		} else if strings.HasPrefix(path, k) {
			r = path[len(k):]
			ok = r == "" || r[0] == '.' || r[0] == '['
		}
		if ok {
			best, key, val, rest = len(k), m.Content[i], m.Content[i+1], r
		}
	}
	if key == nil && depth < 100 {
		// Merge keys ("<<: *base" or "<<: [*a, *b]"): fields not set here come from the
		// merged mappings, as go-yaml decodes them.
		for i := 0; i+1 < len(m.Content) && key == nil; i += 2 {
			if m.Content[i].Tag != "!!merge" {
				continue
			}
			v := deref(m.Content[i+1])
			sources := []*yamlv3.Node{v}
			if v.Kind == yamlv3.SequenceNode {
				sources = v.Content
			}
			for _, src := range sources {
				if src = deref(src); src.Kind == yamlv3.MappingNode {
					if key, val, rest = matchKey(src, path, depth+1); key != nil {
						break
					}
				}
			}
		}
	}
	return key, val, rest
}

// deref follows aliases.
func deref(n *yamlv3.Node) *yamlv3.Node {
	for hops := 0; n.Kind == yamlv3.AliasNode && n.Alias != nil && hops < 100; hops++ {
		n = n.Alias
	}
	return n
}

// parseIndex parses a leading "[N]".
func parseIndex(path string) (int, string, bool) {
	if !strings.HasPrefix(path, "[") {
		return 0, "", false
	}
	end := strings.IndexByte(path, ']')
	if end < 0 {
		return 0, "", false
	}
	i, err := strconv.Atoi(path[1:end])
	if err != nil || i < 0 {
		return 0, "", false
	}
	return i, path[end+1:], true
}

// LineOf returns the file line of the field at path, a field.Path string such as
// "spec.template.spec.containers[0].image" or "metadata.labels[app.kubernetes.io/name]",
// relative to the document (for a List item, relative to the item). The line is that of the
// field's key, or of the list item for an index. When the field does not exist, the line of
// its nearest existing ancestor is returned, and the document's Line when the source cannot
// be parsed for positions.
func (d *Document) LineOf(path string) int {
	line, _ := d.Position(path)
	return line
}

// Position is LineOf with the 1-based column as well (in bytes; 0 when unknown), for
// reports that mark regions (SARIF).
func (d *Document) Position(path string) (line, column int) {
	if d.pos == nil {
		return d.Line, 0
	}
	full := path
	if d.prefix != "" {
		switch {
		case path == "":
			full = d.prefix
		case strings.HasPrefix(path, "["):
			full = d.prefix + path
		default:
			full = d.prefix + "." + path
		}
	}
	if d.src != nil {
		// A built object is reported in its source file: at the field when the build left
		// it as written there, else at the object's start.
		if line, column = d.sourcePosition(full); line == 0 {
			return d.Line, 0
		}
		return line, column
	}
	line, column = d.pos.lookup(full)
	if line == 0 {
		return d.Line, 0
	}
	return line, column
}

// dupWant is a repeated key as go-yaml v2 reports it: the document-relative line of the
// entry's value, and v2's %#v of the key.
type dupWant struct {
	relLine int
	key     string
}

// dupFound is where a dupWant is: the entry's dotted field path (the form sigs.k8s.io/json
// uses for duplicate JSON fields) and the file position of its key; ok is false when the
// entry was not found.
type dupFound struct {
	path      string
	line, col int
	ok        bool
}

// dupKeys finds the mapping entries go-yaml v2 reports as duplicates, in one walk of the
// document however many there are (a document of repeated keys must not take quadratic
// time). v2 names the line of the entry's value (the line after the key when the value is
// a block), so an entry is the last one whose value starts on that line, preferring one
// whose key reads the reported key.
func (p *positions) dupKeys(wants []dupWant) []dupFound {
	found := make([]dupFound, len(wants))
	root := p.node()
	if root == nil {
		return found
	}
	type entry struct {
		key  *yamlv3.Node
		path string
	}
	type lineKey struct {
		line int
		key  string
	}
	onLine := map[int]*entry{}    // last entry whose value starts on a reported line
	byKey := map[lineKey]*entry{} // the same, for an entry whose key reads the reported key
	for _, w := range wants {
		key := w.key
		if s, err := strconv.Unquote(key); err == nil {
			key = s
		}
		onLine[w.relLine] = nil
		byKey[lineKey{w.relLine, key}] = nil
	}
	var walk func(n *yamlv3.Node, path string, depth int)
	walk = func(n *yamlv3.Node, path string, depth int) {
		if depth > 10000 {
			return
		}
		switch n.Kind {
		case yamlv3.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				child := k.Value
				if path != "" {
					child = path + "." + k.Value
				}
				if _, ok := onLine[v.Line]; ok {
					e := &entry{k, child}
					onLine[v.Line] = e
					if _, ok := byKey[lineKey{v.Line, k.Value}]; ok {
						byKey[lineKey{v.Line, k.Value}] = e
					}
				}
				walk(v, child, depth+1)
			}
		case yamlv3.SequenceNode:
			for i, c := range n.Content {
				walk(c, path+"["+strconv.Itoa(i)+"]", depth+1)
			}
		}
	}
	walk(root, "", 0)
	for i, w := range wants {
		key := w.key
		if s, err := strconv.Unquote(key); err == nil {
			key = s
		}
		e := byKey[lineKey{w.relLine, key}]
		if e == nil {
			e = onLine[w.relLine]
		}
		if e != nil {
			line, col := p.abs(e.key)
			found[i] = dupFound{e.path, line, col, true}
		}
	}
	return found
}
