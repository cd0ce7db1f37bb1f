// Package fastyaml decodes the common, simple subset of YAML that Kubernetes manifests are
// written in, producing exactly the value that the apiserver's strict YAML decoding produces
// (sigs.k8s.io/yaml.YAMLToJSONStrict, which is go-yaml v2 plus a JSON round trip, followed by
// sigs.k8s.io/json's int-preserving decoding), several times faster and with a fraction of
// the allocations.
//
// It is conservative: whenever the input uses anything outside the subset, or anything whose
// meaning it is not certain of, it gives up and the caller falls back to the full decoder,
// which stays the only source of errors. Supported: block mappings and sequences (including
// "- key: v" and sequences at their parent key's indentation), plain, single- and
// double-quoted scalars (also over several lines), literal and folded block scalars,
// one-line flow collections, comments, a leading "---" and CRLF line breaks. Anchors,
// aliases, tags, merge keys, complex keys, block scalar indentation indicators, tabs
// outside block scalars and comments, directives, lone carriage returns, duplicate keys,
// timestamps, NaN and infinities make it give up. Giving up on duplicate keys keeps its values
// those of kubectl's non-strict decoding (YAMLToJSON) as well, which differs from the strict
// one only there, and leaves the caller's warnings about them to the full decoder.
package fastyaml

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds nesting; deeper documents go to the full decoder, which has its own bound.
const maxDepth = 1000

// maxKey is the longest key accepted; go-yaml rejects simple keys over 1024 characters.
const maxKey = 1000

// failure is the panic value that unwinds the parser when it gives up.
type failure struct{}

// fail gives up on the document.
func fail() { panic(failure{}) }

// Decode decodes one YAML document (the text between two "---" lines, which may itself start
// with a "---" line) into map[string]any, []any, string, int64, float64, bool or nil, exactly
// as sigs.k8s.io/yaml.YAMLToJSONStrict followed by sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts would. ok is false when the document is outside the
// supported subset or invalid; the caller must then use the full decoder. Decode never
// returns an error of its own.
func Decode(raw []byte) (v any, ok bool) {
	if bytes.IndexByte(raw, '\r') >= 0 {
		// CRLF line breaks read as LF ones everywhere (go-yaml's read_line); a lone CR is a
		// line break of its own to go-yaml, which is left to it.
		if bytes.Count(raw, []byte("\r")) != bytes.Count(raw, []byte("\r\n")) {
			return nil, false
		}
		raw = bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	}
	if !clean(raw) {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(failure); !is {
				panic(r)
			}
			v, ok = nil, false
		}
	}()
	p := &parser{src: raw}
	p.advance()
	if p.eof {
		return nil, true
	}
	p.started = true
	if p.ind == 0 && isMarker(p.text, '-') {
		if rest := trimLeft(p.text[3:]); len(rest) > 0 && rest[0] != '#' {
			return nil, false // "--- value" or "--- |"
		}
		p.advance()
		if p.eof {
			return nil, true
		}
	}
	n := p.ind
	if isSeqEntry(p.text) {
		v = p.sequence(n)
	} else {
		v = p.mapping(n)
	}
	if !p.eof {
		return nil, false
	}
	return v, true
}

// parser walks the document line by line. The current line is the next one with content
// (blank and comment-only lines are skipped); for "- item" and "- key: v" the current line
// is narrowed to the text after the dash, at its own column.
type parser struct {
	src     []byte
	next    int    // offset of the line after the current one
	ind     int    // column of text; -1 at the end
	text    []byte // current line from column ind, without its line break
	eof     bool
	started bool // past the first content line: a "---" line is no longer a header
	depth   int
}

// advance loads the next line with content.
func (p *parser) advance() {
	for p.next < len(p.src) {
		start := p.next
		end := len(p.src)
		if i := bytes.IndexByte(p.src[start:], '\n'); i >= 0 {
			end = start + i
			p.next = end + 1
		} else {
			p.next = end
		}
		line := p.src[start:end]
		i := 0
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) || line[i] == '#' {
			continue
		}
		text := line[i:]
		if bytes.IndexByte(text, '\t') >= 0 {
			fail() // tabs are blanks in some places and content in others
		}
		if i == 0 {
			if (isMarker(text, '-') && p.started) || isMarker(text, '.') ||
				bytes.HasPrefix(text, []byte("---")) && !isMarker(text, '-') || text[0] == '%' {
				fail() // a second document, a document end, or a directive
			}
		}
		p.ind, p.text = i, text
		return
	}
	p.eof, p.ind, p.text = true, -1, nil
}

// isMarker reports whether t starts with a document marker ("---" or "...") followed by a
// blank or the end of the line.
func isMarker(t []byte, c byte) bool {
	return len(t) >= 3 && t[0] == c && t[1] == c && t[2] == c && (len(t) == 3 || t[3] == ' ')
}

// isSeqEntry reports whether t starts a block sequence entry ("-" then a blank or the end).
func isSeqEntry(t []byte) bool {
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		fail()
	}
}

// mapping parses a block mapping whose keys are at column n, starting at the current line.
func (p *parser) mapping(n int) map[string]any {
	p.enter()
	m := make(map[string]any)
	for {
		k, rest, ok := splitKey(p.text)
		if !ok {
			fail()
		}
		key := keyString(k)
		if _, dup := m[key]; dup {
			fail() // a duplicate, or two keys that become the same string
		}
		m[key] = p.value(n, rest, true)
		if p.ind < n {
			break
		}
		if p.ind > n || isSeqEntry(p.text) {
			fail()
		}
	}
	p.depth--
	return m
}

// sequence parses a block sequence whose dashes are at column n, starting at the current line.
func (p *parser) sequence(n int) []any {
	p.enter()
	s := make([]any, 0, 4)
	for {
		t := p.text
		i := 1
		for i < len(t) && t[i] == ' ' {
			i++
		}
		rest, col := t[i:], p.ind+i
		var item any
		switch {
		case len(rest) == 0 || rest[0] == '#':
			item = p.value(n, nil, false)
		case isSeqEntry(rest):
			p.ind, p.text = col, rest
			item = p.sequence(col)
		default:
			if _, _, ok := splitKey(rest); ok {
				p.ind, p.text = col, rest
				item = p.mapping(col)
			} else {
				item = p.value(n, rest, false)
			}
		}
		s = append(s, item)
		if p.ind != n || !isSeqEntry(p.text) {
			if p.ind > n {
				fail()
			}
			break
		}
	}
	p.depth--
	return s
}

// value parses the value that follows a key's ':' or a sequence entry's '-' inside a
// collection at column n: rest is the rest of that line, empty when the
// value is on the following lines. inMap allows a sequence at column n (a mapping's value
// may be a sequence indented like the mapping's keys).
func (p *parser) value(n int, rest []byte, inMap bool) any {
	if len(rest) == 0 || rest[0] == '#' {
		p.advance()
		switch {
		case p.ind > n:
			if isSeqEntry(p.text) {
				return p.sequence(p.ind)
			}
			if _, _, ok := splitKey(p.text); ok {
				return p.mapping(p.ind)
			}
			return p.scalar(n, p.text) // a scalar on the lines below
		case inMap && p.ind == n && isSeqEntry(p.text):
			return p.sequence(n)
		}
		return nil
	}
	return p.scalar(n, rest)
}

// scalar parses the scalar that starts at rest, the rest of the current line, as the value
// of an entry of a collection at column n.
func (p *parser) scalar(n int, rest []byte) any {
	var v any
	var tail []byte
	switch rest[0] {
	case '|', '>':
		return p.block(n, rest)
	case '"', '\'':
		v, tail = p.quoted(n, rest)
	case '[', '{':
		var end int
		v, end = flow(rest, 0, p.depth)
		tail = rest[end:]
	default:
		if !plainStart(rest) {
			fail()
		}
		v = jsonValue(resolve(p.plain(n, rest)))
	}
	checkTail(tail)
	p.advance()
	if p.ind > n {
		fail() // bad indentation
	}
	return v
}

// line returns the line starting at offset pos and the offset of the next one.
func (p *parser) line(pos int) (line []byte, next int) {
	if i := bytes.IndexByte(p.src[pos:], '\n'); i >= 0 {
		return p.src[pos : pos+i], pos + i + 1
	}
	return p.src[pos:], len(p.src)
}

// plain returns the text of the plain scalar that starts at rest, on the current line,
// folding the lines it continues on: lines indented more than n (the column of the
// collection it is in), as go-yaml's yaml_parser_scan_plain_scalar reads them. It leaves
// p.next at the first line after the scalar.
func (p *parser) plain(n int, rest []byte) []byte {
	end, comment := plainEnd(rest)
	if comment {
		return rest[:end]
	}
	var b []byte
	breaks := 0
	pos := p.next
	for pos < len(p.src) {
		line, next := p.line(pos)
		sp := skipBlanks(line, 0)
		if sp == len(line) {
			breaks++
			pos = next
			continue
		}
		if sp <= n || line[sp] == '#' {
			break
		}
		if bytes.IndexByte(line, '\t') >= 0 {
			fail()
		}
		c := line[sp:]
		e, comment := plainEnd(c)
		if b == nil {
			b = append(make([]byte, 0, 2*end), rest[:end]...)
		}
		b = fold(b, breaks)
		b = append(b, c[:e]...)
		breaks, pos = 0, next
		if comment {
			break
		}
	}
	p.next = pos
	if b == nil {
		return rest[:end]
	}
	return b
}

// fold joins the lines of a multi-line scalar: one line break becomes a space, and each empty
// line between two lines a line feed.
func fold(b []byte, breaks int) []byte {
	if breaks == 0 {
		return append(b, ' ')
	}
	for range breaks {
		b = append(b, '\n')
	}
	return b
}

// quoted decodes the quoted scalar that starts at rest, on the current line, and returns it
// with the rest of the line it ends on. It may go on on the following lines if they are
// indented more than n (go-yaml v2 does not require it, but it is the sensible layout; other
// layouts go to the full decoder), folded as go-yaml's yaml_parser_scan_flow_scalar does. It
// leaves p.next at the line after the one the scalar ends on.
func (p *parser) quoted(n int, rest []byte) (string, []byte) {
	q := rest[0]
	b, end, keep := quotedSegment(rest, 1, q, nil)
	if end >= 0 {
		return string(b), rest[end:]
	}
	escaped := end == escapedBreak
	b = b[:keep]
	breaks := 0
	for pos := p.next; pos < len(p.src); {
		line, next := p.line(pos)
		if bytes.IndexByte(line, '\t') >= 0 {
			fail()
		}
		sp := skipBlanks(line, 0)
		if sp == len(line) {
			breaks++
			pos = next
			continue
		}
		if sp <= n {
			fail()
		}
		if escaped {
			for range breaks {
				b = append(b, '\n')
			}
		} else {
			b = fold(b, breaks)
		}
		b, end, keep = quotedSegment(line, sp, q, b)
		if end >= 0 {
			p.next = next
			return string(b), line[end:]
		}
		escaped = end == escapedBreak
		b, breaks, pos = b[:keep], 0, next
	}
	fail() // not closed
	return "", nil
}

// checkTail accepts what may follow a scalar on its line: blanks and a comment.
func checkTail(t []byte) {
	i := 0
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if i < len(t) && (i == 0 || t[i] != '#') {
		fail()
	}
}

// block parses a literal or folded block scalar whose header (from '|' or '>') is h, the
// value of an entry of a collection at column n, mirroring go-yaml's
// yaml_parser_scan_block_scalar.
func (p *parser) block(n int, h []byte) string {
	folded := h[0] == '>'
	chomp := 0 // clip
	i := 1
	if i < len(h) && (h[i] == '-' || h[i] == '+') {
		chomp = 1
		if h[i] == '-' {
			chomp = -1
		}
		i++
	}
	checkTail(h[i:]) // an indentation indicator (a digit) is not supported
	src, pos := p.src, p.next
	// Leading empty lines, then the first content line fixes the indentation.
	breaks, maxInd, firstInd, end := 0, 0, 0, false
	for {
		sp := 0
		for pos+sp < len(src) && src[pos+sp] == ' ' {
			sp++
		}
		maxInd = max(maxInd, sp)
		if pos+sp == len(src) {
			end = true
			break
		}
		if src[pos+sp] == '\t' {
			fail() // a tab in the indentation
		}
		if src[pos+sp] != '\n' {
			firstInd = sp
			break
		}
		breaks++
		pos += sp + 1
	}
	ind := max(maxInd, n+1, 1)
	if end || firstInd < ind {
		// An empty scalar: only its line breaks are kept, and only with "|+".
		p.next = pos
		p.advance()
		if chomp == 1 {
			return strings.Repeat("\n", breaks)
		}
		return ""
	}
	// The scalar is at most as long as its lines (and its leading breaks and
	// final line break): sized once, the buffer neither grows nor is copied
	// into the string.
	buf := make([]byte, 0, breaks+blockEnd(src, pos, ind)-pos+1)
	for range breaks {
		buf = append(buf, '\n')
	}
	trailing, nl, first, leadingBlank := 0, false, true, false
	for pos < len(src) {
		start := pos
		sp := 0
		for pos < len(src) && src[pos] == ' ' && sp < ind {
			pos++
			sp++
		}
		if sp < ind {
			if pos < len(src) && src[pos] == '\n' {
				trailing++
				pos++
				continue
			}
			if pos < len(src) && src[pos] == '\t' {
				fail()
			}
			pos = start // the first line after the scalar
			break
		}
		eol := len(src)
		if j := bytes.IndexByte(src[pos:], '\n'); j >= 0 {
			eol = pos + j
		}
		if eol == pos { // only the indentation: an empty line
			if eol == len(src) {
				break
			}
			trailing++
			pos++
			continue
		}
		blank := src[pos] == ' ' || src[pos] == '\t'
		switch {
		case first:
		case folded && !leadingBlank && !blank && nl:
			// Folding: a line break between two lines that do not start with a blank
			// becomes a space, or nothing when empty lines follow it.
			if trailing == 0 {
				buf = append(buf, ' ')
			}
		case nl:
			buf = append(buf, '\n')
		}
		leadingBlank = blank
		for range trailing {
			buf = append(buf, '\n')
		}
		trailing, first = 0, false
		buf = append(buf, src[pos:eol]...)
		nl = eol < len(src)
		pos = min(eol+1, len(src))
	}
	if chomp != -1 && nl {
		buf = append(buf, '\n')
	}
	if chomp == 1 {
		for range trailing {
			buf = append(buf, '\n')
		}
	}
	p.next = pos
	p.advance()
	if len(buf) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// blockEnd returns where the lines of a block scalar indented by ind that
// starts at pos end: at the first line indented less that is not empty
// (only spaces), or at the end of src.
func blockEnd(src []byte, pos, ind int) int {
	for pos < len(src) {
		sp := 0
		for pos+sp < len(src) && src[pos+sp] == ' ' && sp < ind {
			sp++
		}
		if sp < ind && pos+sp < len(src) && src[pos+sp] != '\n' {
			return pos
		}
		j := bytes.IndexByte(src[pos:], '\n')
		if j < 0 {
			return len(src)
		}
		pos += j + 1
	}
	return pos
}

// clean reports whether raw holds only characters whose reading is certain: printable
// characters as go-yaml's reader accepts them, line feeds and tabs; no carriage return, no
// byte order mark, no NEL, LS or PS (go-yaml's other line breaks) and valid UTF-8.
func clean(raw []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(raw); {
		// Eight bytes at a time while they are all printable ASCII: no byte with the high
		// bit, below 0x20 (line feeds and tabs take the slow way) or equal to 0x7F.
		if i+8 <= len(raw) {
			w := binary.LittleEndian.Uint64(raw[i:])
			del := w ^ 0x7F*ones
			if (w|(w-0x20*ones)|(del-ones)&^del)&highs == 0 {
				i += 8
				continue
			}
		}
		c := raw[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return false
		case r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029:
		case r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
		i += size
	}
	return true
}

func trimLeft(t []byte) []byte {
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	return t
}
