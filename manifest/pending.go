package manifest

import (
	"os"

	"bytes"
	"errors"
	"io"
)

// Pending is one document of a source as ReadPending splits it, not yet decoded. Decoding
// it later, next to the work that uses the object, lets a caller drop each object as soon
// as it is done with it instead of holding every object of the input at once (which makes
// the garbage collector's marking grow with the input).
type Pending struct {
	src  int // which source, for numbering
	file string
	c    chunk
	opts Options
	// notManifest is set for a file recognized as not holding manifests: it is one Pending,
	// which decodes to one Document saying so.
	notManifest string
	via         string  // Document.Via
	template    string  // Document.Template of a rendered Helm template, whose lines are kept
	origin      *source // the source document of a built object
	srcLine     int     // the source document's line
}

// ReadPending reads paths (and stdin for "-") as Read does and splits every source into
// documents without decoding them. Decode each with Decode, then call Number to give the
// decoded documents the Index that Read would have given them. The error is Read's: one
// *Error per path that cannot be read; the other paths' documents are returned all the same.
func ReadPending(paths []string, stdin io.Reader, opts Options) ([]Pending, error) {
	var out []Pending
	var errs []error
	src := 0
	sources := map[string][]Document{} // source files of built objects, parsed once
	var built func(dir string) (bool, error)
	if opts.Build != nil && !opts.StrictInputs {
		built = func(dir string) (bool, error) {
			handled, objs, err := opts.Build(dir)
			if !handled {
				return false, nil
			}
			for _, b := range objs {
				out = appendBuilt(out, src, b, sources, opts)
				src++
			}
			return true, err
		}
	}
	for _, p := range paths {
		err := walkBuilding(p, nil, opts.Ignore, built, func(name string) error {
			data, err := readPeeking(name, stdin, opts.Split)
			if err != nil {
				return err
			}
			if why := notManifestInput(name, data, opts); why != "" {
				out = append(out, Pending{src: src, file: name, opts: opts, notManifest: why})
			} else {
				out = appendPending(out, src, name, data, opts)
			}
			src++
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// File is the path of the document's source, as Document.File.
func (p *Pending) File() string { return p.file }

// Via is the file that built the document (a kustomization or a chart's Chart.yaml, as
// Document.Via), "" for a document read from a file as written.
func (p *Pending) Via() string { return p.via }

// Mentions reports whether the document's text contains s. It is a cheap filter before
// decoding: a document that does not mention "CustomResourceDefinition" cannot be one.
func (p *Pending) Mentions(s string) bool { return bytes.Contains(p.c.raw, []byte(s)) }

// Decode decodes the document as Read does: nil for an empty, comment-only or null
// document, one Document, a List's items, or an empty non-nil slice for a List without
// items. Index is 0 until Number is called. It is safe to call from several goroutines
// on different Pendings.
func (p *Pending) Decode() []Document {
	if p.notManifest != "" {
		return []Document{{File: p.file, Item: -1, NotManifest: p.notManifest}}
	}
	docs := decodeChunk(p.file, p.c, p.opts)
	if p.via != "" {
		for i := range docs {
			docs[i].Via, docs[i].src = p.via, p.origin
			if p.template != "" {
				docs[i].Template = p.template
				if e, ok := docs[i].Err.(*Error); ok {
					e.Msg += " (in the output of " + p.template + ")"
				}
				continue
			}
			docs[i].Line = p.srcLine
			if e, ok := docs[i].Err.(*Error); ok {
				// A decode error of built output has no line in any file.
				e.Line, e.Column = p.srcLine, 0
				e.Msg += " (in the output of " + p.via + ")"
			}
		}
	}
	return docs
}

// appendBuilt appends the documents of one built object, named after its source file
// (parsed once into sources) or, without one, after the file that built it.
func appendBuilt(out []Pending, src int, b Built, sources map[string][]Document, opts Options) []Pending {
	file, line := b.Via, 1
	var s *source
	if b.Template != "" {
		if b.File != "" {
			file = b.File
		}
		n := len(out)
		out = appendPending(out, src, file, b.Data, opts)
		for i := n; i < len(out); i++ {
			out[i].via, out[i].template = b.Via, b.Template
		}
		return out
	}
	if b.File != "" {
		docs, ok := sources[b.File]
		if !ok {
			if data, err := readSource(b.File, nil); err == nil {
				docs = Parse(b.File, data, Options{StrictInputs: true})
			}
			sources[b.File] = docs
		}
		file = b.File
		if d := sourceOf(b.Data, docs); d != nil {
			s, line = &source{doc: d}, d.Line
		}
	}
	n := len(out)
	out = appendPending(out, src, file, b.Data, opts)
	for i := n; i < len(out); i++ {
		out[i].via, out[i].origin, out[i].srcLine = b.Via, s, line
	}
	return out
}

// notManifestInput returns why the file called name, holding data, is not read as
// manifests ("" when it is, and always with opts.StrictInputs).
func notManifestInput(name string, data []byte, opts Options) string {
	if opts.StrictInputs {
		return ""
	}
	if why := notManifestFile(name); why != "" {
		return why
	}
	return notManifestText(name, data)
}

// Number sets Index (and the Index of each document's *Error) on decoded, where
// decoded[i] holds what pending[i].Decode returned: per source, documents that decoded
// to nil take no index, as in Read.
func Number(pending []Pending, decoded [][]Document) {
	index, src := 0, -1
	for i := range pending {
		if pending[i].src != src {
			index, src = 0, pending[i].src
		}
		if i >= len(decoded) || decoded[i] == nil {
			continue
		}
		setIndex(decoded[i], index)
		index++
	}
}

// peekBytes is how much of a large file readPeeking gives to the Split hook
// before reading the rest.
const peekBytes = 64 << 10

// readPeeking reads the source name as readSource does. When hook is set
// and name is a regular file larger than twice peekBytes, it first reads
// peekBytes and calls hook with each document wholly inside them, so that
// work on the first documents' kinds starts while the rest of the file is
// read (reading 8 MB takes tens of milliseconds where each fresh page
// costs a fault). Those documents reach hook again when the whole file is
// split.
func readPeeking(name string, stdin io.Reader, hook func(*Pending)) ([]byte, error) {
	if hook == nil || name == "-" {
		return readSource(name, stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// as os.ReadFile: one more byte than the size (a file that grew is
	// read to its end by readAllInto's growth), 512 when the size is not
	// known
	size := int64(0)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	data := make([]byte, 0, max(size+1, 512))
	if size <= 2*peekBytes {
		return readAllInto(f, data)
	}
	n, err := io.ReadFull(f, data[:peekBytes])
	if err != nil {
		return nil, err
	}
	var chunks []chunk
	split(data[:n], func(c chunk) bool {
		chunks = append(chunks, c)
		return true
	})
	for i := 0; i+1 < len(chunks); i++ { // the last may be cut off
		p := Pending{file: name, c: chunks[i]}
		hook(&p)
	}
	rest, err := readAllInto(f, data[:n])
	if err != nil {
		return nil, err
	}
	return rest, nil
}

// readAllInto appends the rest of r to buf, as io.ReadAll would.
func readAllInto(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
