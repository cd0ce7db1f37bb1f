package manifest

import (
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
}

// ReadPending reads paths (and stdin for "-") as Read does and splits every source into
// documents without decoding them. Decode each with Decode, then call Number to give the
// decoded documents the Index that Read would have given them. The error is Read's: one
// *Error per path that cannot be read; the other paths' documents are returned all the same.
func ReadPending(paths []string, stdin io.Reader, opts Options) ([]Pending, error) {
	var out []Pending
	var errs []error
	src := 0
	for _, p := range paths {
		err := walk(p, nil, func(name string) error {
			data, err := readSource(name, stdin)
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
	return decodeChunk(p.file, p.c, p.opts)
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
