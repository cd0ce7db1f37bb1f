package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Document is one Kubernetes object read from a source: a YAML document, a JSON value, or an
// item of an expanded List.
type Document struct {
	// File is the path as given (or as found under a given directory), "-" for stdin.
	File string
	// Index is the 0-based index of the document within File, counting only documents that
	// are not empty, comment-only or null (the ones kubectl would send). Items of a List share
	// the List's Index.
	Index int
	// Item is the index within an expanded List (kind List, or any kind ending in "List",
	// with an items array), -1 if the document is not a List item.
	Item int
	// Line is the 1-based line of the document's first content (its first line that is not
	// blank or a comment), or of the List item's first line.
	Line int
	// Raw is the document's bytes as written (CRLF and comments kept). Items of a List share
	// the List document's Raw.
	Raw []byte
	// Object is the decoded value: map[string]any, []any, string, bool, int64, float64 and
	// nil, as the apiserver's unstructured decoding produces. Nil when Err != nil.
	Object map[string]any
	// Err is the decode error for this document, an *Error naming file, index and line.
	Err error

	pos    *positions // shared by a List and its items; nil for error documents without source
	prefix string     // field path of a List item within its document, "items[i]"
}

// Options bound what the reader accepts. The zero value is valid and means the defaults.
type Options struct {
	// MaxDocumentBytes is the largest accepted document in bytes; 0 means
	// DefaultMaxDocumentBytes, negative means no limit.
	MaxDocumentBytes int
	// MaxExpandedBytes bounds the size of a YAML document after alias expansion (the sum of
	// the scalar lengths it expands to); 0 means DefaultMaxExpandedBytes, negative no limit.
	MaxExpandedBytes int
}

// DefaultMaxDocumentBytes is 3 MiB, the kube-apiserver's default MaxRequestBodyBytes
// (k8s.io/apiserver/pkg/server/config.go): larger objects are refused with
// "Request entity too large: limit is 3145728".
const DefaultMaxDocumentBytes = 3 * 1024 * 1024

// DefaultMaxExpandedBytes bounds alias expansion to 64 MiB, far above any object etcd can
// store (1.5 MiB by default) yet small enough to decode quickly.
const DefaultMaxExpandedBytes = 64 * 1024 * 1024

func (o Options) maxDoc() int {
	if o.MaxDocumentBytes == 0 {
		return DefaultMaxDocumentBytes
	}
	return o.MaxDocumentBytes
}

func (o Options) maxExpanded() int {
	if o.MaxExpandedBytes == 0 {
		return DefaultMaxExpandedBytes
	}
	return o.MaxExpandedBytes
}

// GVK returns the group, version and kind named by the object's apiVersion and kind (empty
// parts when absent or not strings), as schema.FromAPIVersionAndKind does.
func (d *Document) GVK() schema.GroupVersionKind {
	apiVersion, _ := d.Object["apiVersion"].(string)
	kind, _ := d.Object["kind"].(string)
	return schema.FromAPIVersionAndKind(apiVersion, kind)
}

// Extensions are the file name endings read when walking a directory: kubectl's
// FileExtensions (k8s.io/cli-runtime/pkg/resource).
var Extensions = []string{".json", ".yaml", ".yml"}

// Read reads every path in order: "-" reads stdin, a directory is walked recursively in
// lexical order (files with one of Extensions only), any other path is read as a file.
//
// Problems inside a file never stop reading: they become documents with Err set. A path
// that cannot be read (missing, unreadable, stdin failing) is skipped and reported in the
// returned error, which joins one *Error (Index -1) per such path; documents from the other
// paths are returned all the same. Callers should report both, and treat a non-nil error
// as "input unreadable" (kdv exits 2).
func Read(paths []string, stdin io.Reader, opts Options) ([]Document, error) {
	var docs []Document
	var errs []error
	for _, p := range paths {
		err := walk(p, func(name string) error {
			data, err := readSource(name, stdin)
			if err != nil {
				return err
			}
			docs = appendAll(docs, name, data, opts)
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return docs, errors.Join(errs...)
}

// Files returns the files Read would read for the given paths, in the same order ("-" stays
// "-"). The error names the first path that does not exist or cannot be walked.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if err := walk(p, func(name string) error { out = append(out, name); return nil }); err != nil {
			return out, err
		}
	}
	return out, nil
}

// walk calls fn for "-", a file, or each matching file under a directory.
func walk(p string, fn func(string) error) error {
	fileErr := func(name string, err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &Error{File: name, Index: -1, Item: -1, Msg: err.Error()}
	}
	if p == "-" {
		if err := fn(p); err != nil {
			return fileErr(p, err)
		}
		return nil
	}
	info, err := os.Stat(p)
	if err != nil {
		return fileErr(p, err)
	}
	if !info.IsDir() {
		if err := fn(p); err != nil {
			return fileErr(p, err)
		}
		return nil
	}
	var errs []error
	err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fileErr(name, err))
			return nil
		}
		if d.IsDir() || !hasExtension(name) {
			return nil
		}
		if err := fn(name); err != nil {
			errs = append(errs, fileErr(name, err))
		}
		return nil
	})
	if err != nil {
		errs = append(errs, fileErr(p, err))
	}
	return errors.Join(errs...)
}

func hasExtension(name string) bool {
	ext := filepath.Ext(name)
	for _, e := range Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

func readSource(name string, stdin io.Reader) ([]byte, error) {
	if name != "-" {
		return os.ReadFile(name)
	}
	if stdin == nil {
		return nil, errors.New("no stdin")
	}
	return io.ReadAll(stdin)
}

// ReadStream reads all of r as one source called name (use "-" for stdin) and returns its
// documents. The error is only r's read error; decoding problems are in the documents.
func ReadStream(name string, r io.Reader, opts Options) ([]Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: name, Index: -1, Item: -1, Msg: err.Error()}
	}
	return appendAll(nil, name, data, opts), nil
}

// Parse returns the documents of data, read as a source called name.
func Parse(name string, data []byte, opts Options) []Document {
	return appendAll(nil, name, data, opts)
}

func appendAll(docs []Document, name string, data []byte, opts Options) []Document {
	for d := range Documents(name, data, opts) {
		docs = append(docs, d)
	}
	return docs
}

// Documents iterates over the documents of data, read as a source called name, decoding each
// only when the loop reaches it. It is what Parse, ReadStream and Read use.
func Documents(name string, data []byte, opts Options) iter.Seq[Document] {
	return func(yield func(Document) bool) {
		r := reader{file: name, opts: opts, yield: yield}
		split(data, r.chunk)
	}
}

// reader decodes the chunks of one source.
type reader struct {
	file  string
	opts  Options
	index int
	yield func(Document) bool
}

// chunk decodes one chunk and yields its documents; false stops splitting.
func (r *reader) chunk(c chunk) bool {
	if c.err != "" {
		return r.emitErr(nil, c.line, c.line, "", c.err)
	}
	first := firstContentLine(c)
	if first == 0 {
		return true // empty or comments only: skipped like kubectl
	}
	if max := r.opts.maxDoc(); max > 0 && len(c.raw) > max {
		return r.emitErr(nil, first, first, "", fmt.Sprintf("Request entity too large: limit is %d (document is %d bytes)", max, len(c.raw)))
	}
	pos := &positions{raw: c.raw, line: c.line, col: c.col}
	var obj any
	var derr *decodeError
	if c.json {
		obj, derr = decodeJSON(c.raw)
	} else {
		obj, derr = decodeYAML(c, pos, r.opts.maxExpanded())
	}
	if derr != nil {
		line := derr.line
		if line == 0 && derr.path != "" {
			line, _ = pos.lookup(derr.path)
		}
		if line == 0 {
			line = first
		}
		return r.emitErr(pos, first, line, derr.path, derr.msg)
	}
	if obj == nil {
		return true // null document: skipped like kubectl
	}
	m, ok := obj.(map[string]any)
	if !ok {
		return r.emitErr(pos, first, first, "", notObject(obj))
	}
	d := Document{File: r.file, Index: r.index, Item: -1, Line: first, Raw: c.raw, Object: m, pos: pos}
	r.index++
	items, isList := listItems(m)
	if !isList {
		return r.yield(d)
	}
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
		} else {
			id.Err = &Error{File: r.file, Index: d.Index, Item: i, Line: id.Line, Msg: notObject(it)}
		}
		if !r.yield(id) {
			return false
		}
	}
	return true
}

// emitErr yields an error document starting at docLine, with an error at errLine, and
// advances the index.
func (r *reader) emitErr(pos *positions, docLine, errLine int, path, msg string) bool {
	d := Document{File: r.file, Index: r.index, Item: -1, Line: docLine, pos: pos,
		Err: &Error{File: r.file, Index: r.index, Item: -1, Line: errLine, Path: path, Msg: msg}}
	if pos != nil {
		d.Raw = pos.raw
	}
	r.index++
	return r.yield(d)
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
