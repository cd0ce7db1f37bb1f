package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode"
)

// chunk is one document's bytes before decoding.
type chunk struct {
	raw  []byte
	line int    // 1-based file line of raw[0]
	col  int    // 1-based column of raw[0] (JSON streams may hold several values on a line)
	json bool   // raw is one JSON value from a JSON stream
	err  string // when set, the chunk is this error at line (raw is unused)
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// split cuts a whole file into chunks, calling yield for each until it returns false.
// It mirrors yaml.NewYAMLOrJSONDecoder: JSON stream when the content starts with '{',
// YAMLReader's "---" splitting otherwise.
func split(data []byte, yield func(chunk) bool) {
	data = bytes.TrimPrefix(data, bom)
	if isJSONBuffer(data) && splitJSON(data, yield) {
		return
	}
	splitYAML(data, 0, 1, 1, yield)
}

// isJSONBuffer is apimachinery's IsJSONBuffer: the first non-space byte is '{'. Like
// NewYAMLOrJSONDecoder, only the first 4096 bytes are looked at.
func isJSONBuffer(data []byte) bool {
	if len(data) > 4096 {
		data = data[:4096]
	}
	return bytes.HasPrefix(bytes.TrimLeftFunc(data, unicode.IsSpace), []byte("{"))
}

// splitYAML mirrors k8s.io/apimachinery/pkg/util/yaml.YAMLReader.Read: a line starting with
// "---" is a separator; only spaces and a comment may follow it. It splits data[from:],
// where from is at file position line:col.
func splitYAML(data []byte, from, line, col int, yield func(chunk) bool) {
	start, startLine, startCol := from, line, col
	for pos := from; pos < len(data); line++ {
		eol := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if eol >= 0 {
			eol += pos
			next = eol + 1
		} else {
			eol = len(data)
		}
		if bytes.HasPrefix(data[pos:eol], []byte("---")) {
			if pos > start && !yield(chunk{raw: data[start:pos], line: startLine, col: startCol}) {
				return
			}
			rest := bytes.TrimSpace(data[pos+3 : eol])
			if len(rest) > 0 && rest[0] != '#' {
				if !yield(chunk{line: line, err: "invalid Yaml document separator: " + string(rest)}) {
					return
				}
			}
			start, startLine, startCol = next, line+1, 1
		}
		pos = next
	}
	if start < len(data) {
		yield(chunk{raw: data[start:], line: startLine, col: startCol})
	}
}

// splitJSON cuts a stream of JSON values the way YAMLOrJSONDecoder does. It returns false,
// having yielded nothing, when the first value is not valid JSON, so that the caller reads
// the data as YAML instead. When the second value fails, the rest (after the first value and
// any spaces up to and including a newline) is read as YAML, as YAMLOrJSONDecoder switches
// while the stream is still ambiguous; that is how `{...}` followed by `---` and YAML
// documents works. A later syntax error ends the stream with an error chunk: JSON cannot be
// resynchronised.
func splitJSON(data []byte, yield func(chunk) bool) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	lc := lineCounter{data: data, line: 1, lineStart: 0}
	firstEnd := 0
	for n := 0; ; n++ {
		var raw json.RawMessage
		start := skipSpace(data, int(dec.InputOffset()))
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			if n == 0 {
				return false
			}
			if n == 1 {
				from := firstEnd
				for from < len(data) && (data[from] == ' ' || data[from] == '\t' || data[from] == '\r') {
					from++
				}
				if from < len(data) && data[from] == '\n' {
					from++
				}
				line, col := lc.at(from)
				splitYAML(data, from, line, col, yield)
				return true
			}
			off := start
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				off = int(syn.Offset)
			}
			line, _ := lc.at(off)
			yield(chunk{line: line, err: "json: " + err.Error()})
			return true
		}
		end := int(dec.InputOffset())
		if n == 0 {
			firstEnd = end
		}
		line, col := lc.at(start)
		if !yield(chunk{raw: data[start:end], line: line, col: col, json: true}) {
			return true
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// lineCounter turns increasing byte offsets into 1-based lines and columns.
type lineCounter struct {
	data      []byte
	pos       int // offset counted up to
	line      int // line at pos
	lineStart int // offset of the first byte of line
}

func (c *lineCounter) at(off int) (line, col int) {
	if off > len(c.data) {
		off = len(c.data)
	}
	for c.pos < off {
		i := bytes.IndexByte(c.data[c.pos:off], '\n')
		if i < 0 {
			c.pos = off
			break
		}
		c.pos += i + 1
		c.line++
		c.lineStart = c.pos
	}
	return c.line, off - c.lineStart + 1
}
