package manifest

import (
	"errors"
	"io"
	"os"

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
	// Warnings are what decoding accepted but the author should fix: each repeated key (YAML)
	// or field (JSON), "line N: key "x" already set in map; the last value is used, as
	// kubectl sends it", sorted by line (at most 100, then one counting the rest). The
	// apiserver's strict decoding rejects repeated keys, but kubectl decodes the file itself
	// and sends JSON in which only the last value is left, so the object is decoded (and
	// validated) that way. A List item carries the warnings inside it and those outside every
	// item. Nil when there are none or Err is set.
	Warnings []string
	// NotManifest says why the document, or its whole file, is not a Kubernetes object but
	// something that repositories keep next to manifests (a Helm values file, a CI workflow,
	// a kustomization, a top-level list), e.g. "Helm values file"; empty otherwise, and
	// always with Options.StrictInputs. A file recognized by its name or text is one
	// Document with only File, Index, Item and NotManifest set. Mappings are decoded as
	// usual whatever they hold: NotManifestObject judges them.
	NotManifest string
	// Via is the file that built the document when it was not read from File as written
	// but built (Options.Build): the kustomization file or the chart's Chart.yaml. File is
	// then the source file the object comes from (or Via when it has none), Raw the object
	// as built, and Line and Position are lines of the source file: a field's own line when
	// the build left its value unchanged, else the object's first line there. A document
	// rendered from a Helm template (Template set) keeps the lines of the template's
	// rendered output instead.
	Via string
	// Template is the Helm template the document was rendered from, as named by the
	// "# Source: chart/templates/x.yaml" comment `helm template` writes before it, or as
	// rendered in-process (Built.Template); lines stay those of the rendered output.
	Template string

	src    *source    // the source document of a built one
	pos    *positions // shared by a List and its items; nil for error documents without source
	prefix string     // field path of a List item within its document, "items[i]"
}

// Options bound what the reader accepts. The zero value is valid and means the defaults.
type Options struct {
	// MaxDocumentBytes is the largest accepted document in bytes; 0 means
	// DefaultMaxDocumentBytes, negative means no limit.
	MaxDocumentBytes int
	// MaxExpandedBytes bounds the size of a YAML document with anchors after alias
	// expansion, counted as the length of every scalar plus 16 bytes per node; 0 means
	// DefaultMaxExpandedBytes, negative no limit.
	MaxExpandedBytes int
	// StrictInputs reads every file and document as a manifest, as kubectl does: files and
	// documents that would be recognized as something else (see Document.NotManifest) are
	// then decoded like any other and fail as kubectl fails them.
	StrictInputs bool
	// Build, when set, is asked about every directory met while walking (and every
	// directory given): a directory it handles is built (a kustomization) and the objects
	// built are read instead of the directory's files.
	Build BuildFunc
	// Ignore, when set, is asked about every path Read and ReadPending meet (paths given,
	// except "-", and, under a directory, every subdirectory and every file with one of
	// Extensions, before it is read): true means the file is not read, or the directory
	// not built nor walked, and nothing is reported for it. The caller says what it
	// ignored (kdv counts it in its summary); Ignore is called from one goroutine, in walk
	// order.
	Ignore func(path string, dir bool) bool
	// Split, when set, is called by ReadPending with each document as it is split from
	// its source (files as written and built objects alike), in input order, from the
	// goroutine that called ReadPending, before ReadPending returns: a caller can start
	// work on the document's kind (Pending.SniffGVK) while the rest of the input is
	// read. p is valid only during the call. The first documents of a large file are
	// given once more before the file is read whole (from its first 64 KiB), so that
	// such work starts earlier still.
	Split func(p *Pending)
}

// DefaultMaxDocumentBytes is 3 MiB, the kube-apiserver's default MaxRequestBodyBytes
// (k8s.io/apiserver/pkg/server/config.go): larger objects are refused with
// "Request entity too large: limit is 3145728". The apiserver measures the request body
// (the JSON kubectl sends, one request per List item); the reader measures the document as
// written, which is what can be checked before decoding.
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

// Read reads every path in order: "-" reads stdin, a directory is walked recursively in
// lexical order (regular files with one of Extensions only), following symbolic links as
// find -L does, any other path is read as a file.
//
// Problems inside a file never stop reading: they become documents with Err set. A path
// that cannot be read (missing, unreadable, stdin failing), a directory holding no file with
// one of Extensions, a file system loop of symbolic links, are reported in the returned
// error, which joins one *Error (Index -1) per such problem; documents from the other paths
// and files are returned all the same. Callers should report both, and treat a non-nil error
// as "input unreadable" (kdv exits 2).
func Read(paths []string, stdin io.Reader, opts Options) ([]Document, error) {
	pending, err := ReadPending(paths, stdin, opts)
	return decodeAll(pending), err
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
	return Parse(name, data, opts), nil
}

// Parse returns the documents of data, read as a source called name. Large inputs are
// decoded on all CPUs; the order is that of the source.
func Parse(name string, data []byte, opts Options) []Document {
	return decodeAll(appendPending(nil, 0, name, data, opts))
}
