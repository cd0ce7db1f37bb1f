package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A large file's first documents reach the Split hook before the file is
// read whole (while ReadPending reads the rest), then again with every
// document in order; what is read is the file as written, large or small,
// from one open.
func TestReadPeekingLargeFile(t *testing.T) {
	var b bytes.Buffer
	for i := 0; b.Len() < 3*peekBytes; i++ {
		kind := []string{"Deployment", "Service", "ConfigMap"}[i%3]
		fmt.Fprintf(&b, "apiVersion: v1\nkind: %s\nmetadata:\n  name: doc-%d\n  annotations: {note: %q}\n---\n", kind, i, bytes.Repeat([]byte("x"), 200))
	}
	name := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	pending, err := ReadPending([]string{name}, nil, Options{Split: func(p *Pending) {
		if gvk, ok := p.SniffGVK(); ok {
			kinds = append(kinds, gvk.Kind)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	docs := len(pending)
	peeked := len(kinds) - docs
	// the first 64 KiB hold about 64Ki/280 whole documents, the last one
	// cut off
	if peeked < 200 || peeked > peekBytes/250 {
		t.Errorf("%d documents given before reading the whole file, %d in all (%d documents)", peeked, len(kinds), docs)
	}
	for i := 0; i < peeked; i++ {
		if kinds[i] != kinds[peeked+i] {
			t.Fatalf("peeked document %d is a %s, the file's is a %s", i, kinds[i], kinds[peeked+i])
		}
	}
	if data, err := readPeeking(name, nil, func(*Pending) {}); err != nil || !bytes.Equal(data, b.Bytes()) {
		t.Errorf("read %d bytes (%v), the file has %d", len(data), err, b.Len())
	}
	// a small file is read at once: each document reaches the hook once
	small := filepath.Join(t.TempDir(), "small.yaml")
	if err := os.WriteFile(small, b.Bytes()[:4096], 0o644); err != nil {
		t.Fatal(err)
	}
	kinds = nil
	pending, err = ReadPending([]string{small}, nil, Options{Split: func(p *Pending) { kinds = append(kinds, "") }})
	if err != nil || len(kinds) != len(pending) {
		t.Errorf("small file: %d calls for %d documents (%v)", len(kinds), len(pending), err)
	}
	if data, err := readPeeking(small, nil, func(*Pending) {}); err != nil || !bytes.Equal(data, b.Bytes()[:4096]) {
		t.Errorf("small file: read %d bytes (%v), it has 4096", len(data), err)
	}
	// a directory is an error, as os.ReadFile says
	if _, err := readPeeking(t.TempDir(), nil, func(*Pending) {}); err == nil {
		t.Error("read a directory without an error")
	}
}
