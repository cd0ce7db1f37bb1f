package manifest

import (
	"bytes"
	"cmp"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Documents iterates over the documents of data, read as a source called name, decoding each
// only when the loop reaches it (on one goroutine; Parse uses all CPUs).
func Documents(name string, data []byte, opts Options) iter.Seq[Document] {
	return func(yield func(Document) bool) {
		index := 0
		split(data, func(c chunk) bool {
			docs := decodeChunk(name, c, opts)
			if docs == nil {
				return true
			}
			setIndex(docs, index)
			index++
			for _, d := range docs {
				if !yield(d) {
					return false
				}
			}
			return true
		})
	}
}

// appendPending appends the documents of data, source number src called
// file, undecoded; src numbers the sources so that indexes restart per source.
func appendPending(out []Pending, src int, file string, data []byte, opts Options) []Pending {
	split(data, func(c chunk) bool {
		out = append(out, Pending{src: src, file: file, c: c, opts: opts})
		if opts.Split != nil {
			opts.Split(&out[len(out)-1])
		}
		return true
	})
	return out
}

// Decoding is spread over goroutines when there is enough work: a goroutine per
// parallelDocs chunks or parallelBytes bytes, up to GOMAXPROCS.
const (
	parallelDocs  = 32
	parallelBytes = 256 << 10
)

// decodeAll decodes pending, in parallel when there is much of it, and numbers the
// documents of each source in order.
func decodeAll(pending []Pending) []Document {
	results := make([][]Document, len(pending))
	size := 0
	for i := range pending {
		size += len(pending[i].c.raw)
	}
	workers := min(runtime.GOMAXPROCS(0), len(pending), 1+len(pending)/parallelDocs+size/parallelBytes)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pending) {
					return
				}
				results[i] = pending[i].Decode()
			}
		})
	}
	wg.Wait()
	Number(pending, results)
	n := 0
	for _, r := range results {
		n += len(r)
	}
	docs := make([]Document, 0, n)
	for _, r := range results {
		docs = append(docs, r...)
	}
	return docs
}

// emptyList is what a List without items decodes to: no documents, yet not nil, so that
// it takes an index.
var emptyList = []Document{}

// setIndex numbers a chunk's documents (and their errors) with the document index.
func setIndex(docs []Document, index int) {
	for i := range docs {
		docs[i].Index = index
		if e, ok := docs[i].Err.(*Error); ok {
			e.Index = index
		}
	}
}

// decodeChunk decodes one chunk into its documents with Index 0: none for an empty or null
// document (nil) or an empty List (emptyList), one, or a List's items.
func decodeChunk(file string, c chunk, opts Options) []Document {
	if c.err != "" {
		return errDoc(file, nil, c.line, c.line, "", c.err)
	}
	first := firstContentLine(c)
	if first == 0 {
		return nil // empty or comments only: skipped like kubectl
	}
	if max := opts.maxDoc(); max > 0 && len(c.raw) > max {
		return errDoc(file, nil, first, first, "", fmt.Sprintf("Request entity too large: limit is %d (document is %d bytes)", max, len(c.raw)))
	}
	pos := &positions{raw: c.raw, line: c.line, col: c.col}
	var obj any
	var warns []warning
	var derr *decodeError
	if c.json {
		obj, warns, derr = decodeJSON(c.raw, pos)
	} else {
		obj, warns, derr = decodeYAML(c, pos, opts.maxExpanded())
	}
	if derr != nil {
		line, col := derr.line, derr.col
		if line == 0 && derr.path != "" {
			line, col = pos.lookup(derr.path)
		}
		if line == 0 {
			line = first
		}
		docs := errDoc(file, pos, first, line, derr.path, derr.msg)
		docs[0].Err.(*Error).Column = col
		return docs
	}
	if obj == nil {
		return nil // null document: skipped like kubectl
	}
	m, ok := obj.(map[string]any)
	if !ok {
		if why := notManifestValue(obj); why != "" && !opts.StrictInputs {
			return []Document{{File: file, Item: -1, Line: first, Raw: c.raw, NotManifest: why, pos: pos}}
		}
		return errDoc(file, pos, first, first, "", notObject(obj))
	}
	warns = sortWarnings(warns, first)
	d := Document{File: file, Item: -1, Line: first, Raw: c.raw, Object: m, pos: pos, Template: helmSource(c.raw)}
	items, isList := listItems(m)
	if !isList {
		d.Warnings = warningTexts(warns, "")
		return []Document{d}
	}
	if len(items) == 0 {
		return emptyList
	}
	docs := make([]Document, len(items))
	for i, it := range items {
		id := d
		id.Item = i
		id.prefix = fmt.Sprintf("items[%d]", i)
		id.Object = nil
		id.Line, _ = pos.lookup(id.prefix)
		if id.Line == 0 {
			id.Line = first
		}
		if im, ok := it.(map[string]any); ok {
			id.Object = im
			id.Warnings = warningTexts(warns, id.prefix)
		} else {
			id.Err = &Error{File: file, Item: i, Line: id.Line, Msg: notObject(it)}
		}
		docs[i] = id
	}
	return docs
}

// maxWarnings bounds the warnings of one document: a generated file may repeat a key
// thousands of times, and one line per repeat would bury everything else in the report.
const maxWarnings = 100

// sortWarnings orders warnings by position (go-yaml reports a repeat inside a repeated
// value before the repeated key itself), giving those without a line the document's, and
// keeps the first maxWarnings followed by one that counts the others.
func sortWarnings(ws []warning, first int) []warning {
	for i := range ws {
		if ws[i].line == 0 {
			ws[i].line = first
		}
	}
	slices.SortStableFunc(ws, func(a, b warning) int {
		return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
	})
	if len(ws) > maxWarnings {
		more := warning{line: ws[maxWarnings].line, msg: fmt.Sprintf("%d more repeated keys from here on, not listed", len(ws)-maxWarnings)}
		ws = append(ws[:maxWarnings], more)
	}
	return ws
}

// warningTexts returns the texts of the warnings that concern the List item at prefix
// ("items[3]"): those inside it and those outside every item (a repeated "kind" concerns
// every item). With prefix "", all of them. Nil when there are none.
func warningTexts(ws []warning, prefix string) []string {
	var out []string
	for _, w := range ws {
		if prefix != "" && strings.HasPrefix(w.path, "items[") && !within(w.path, prefix) {
			continue
		}
		out = append(out, w.text())
	}
	return out
}

// within reports whether the field path is prefix or below it.
func within(path, prefix string) bool {
	rest, ok := strings.CutPrefix(path, prefix)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// errDoc is an error document starting at docLine, with an error at errLine.
func errDoc(file string, pos *positions, docLine, errLine int, path, msg string) []Document {
	d := Document{File: file, Item: -1, Line: docLine, pos: pos,
		Err: &Error{File: file, Item: -1, Line: errLine, Path: path, Msg: msg}}
	if pos != nil {
		d.Raw = pos.raw
	}
	return []Document{d}
}

// firstContentLine is the file line of the chunk's first line that is neither blank nor a
// comment, 0 if there is none.
func firstContentLine(c chunk) int {
	raw := c.raw
	for line := c.line; len(raw) > 0; line++ {
		l := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			l, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] != '#' {
			return line
		}
	}
	return 0
}

// listItems returns the items of a List: kind "List" or any kind ending in "List" whose
// items field is an array, as kubectl's unstructured decoding and FlattenListVisitor treat
// them. Only one level is expanded, as in kubectl.
func listItems(m map[string]any) ([]any, bool) {
	kind, _ := m["kind"].(string)
	if len(kind) < 4 || kind[len(kind)-4:] != "List" {
		return nil, false
	}
	items, ok := m["items"].([]any)
	return items, ok
}

// notObject is the message of sigs.k8s.io/json when a non-object is decoded into
// map[string]interface{}, the target of unstructured decoding.
func notObject(v any) string {
	kind := "object"
	switch v.(type) {
	case nil:
		// Decoding null succeeds; what fails next is apimachinery's kind check.
		return "Object 'Kind' is missing in 'null'"
	case []any:
		kind = "array"
	case string:
		kind = "string"
	case bool:
		kind = "bool"
	case int64, float64:
		kind = "number"
	}
	return "json: cannot unmarshal " + kind + " into Go value of type map[string]interface {}"
}
