package schema

import (
	"strconv"
	"strings"
)

// jpath is a JSON path built lazily while descending a schema: each step
// points to its parent, so descending costs one small allocation (often
// none: steps that do not escape stay on the stack), and the text is built
// only when an error needs it. Building the full text at every node instead
// costs memory quadratic in the depth (about 1 GB for a schema 5,000 levels
// deep).
//
// The text is the one the decoders always used: keys joined with dots
// ("properties.a.items"), indexes in brackets ("allOf[0]"), and for the
// resolver, map keys in brackets ("properties[a]").
type jpath struct {
	parent *jpath
	seg    string // the key, or the bracketed part without brackets
	index  int
	kind   jpathKind
}

type jpathKind uint8

const (
	jpKey     jpathKind = iota // ".seg" (just "seg" at the root)
	jpIndex                    // "[index]"
	jpBracket                  // "[seg]"
	jpRaw                      // "seg" verbatim: a prefix such as `components.schemas["A"]`
)

// rawPath starts a path with text that is used as is.
func rawPath(s string) *jpath { return &jpath{seg: s, kind: jpRaw} }

// key appends ".k".
func (p *jpath) key(k string) *jpath { return &jpath{parent: p, seg: k, kind: jpKey} }

// idx appends "[i]".
func (p *jpath) idx(i int) *jpath { return &jpath{parent: p, index: i, kind: jpIndex} }

// bracket appends "[k]".
func (p *jpath) bracket(k string) *jpath { return &jpath{parent: p, seg: k, kind: jpBracket} }

// String materializes the path; for errors only.
func (p *jpath) String() string {
	var segs []*jpath
	for q := p; q != nil; q = q.parent {
		segs = append(segs, q)
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		q := segs[i]
		switch q.kind {
		case jpKey:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(q.seg)
		case jpIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(q.index))
			b.WriteByte(']')
		case jpBracket:
			b.WriteByte('[')
			b.WriteString(q.seg)
			b.WriteByte(']')
		case jpRaw:
			b.WriteString(q.seg)
		}
	}
	return b.String()
}
