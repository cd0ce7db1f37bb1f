package idl

import (
	"bufio"
	"bytes"
	"fmt"
	"go/token"
	"strings"
)

// Overlay is a rule overlay: tags for the types and fields of one Go
// package that live outside its source. kdv declares the hand-written
// validation and Go defaulters of the Kubernetes built-in types this way
// (DESIGN.md "Rule overlay"); Load merges an overlay's tags with those of
// the package's comments, after them.
//
// The file format, one entry per line:
//
//	package k8s.io/api/core/v1
//
//	source k8s.io/kubernetes pkg/apis/core/v1/defaults.go SetDefaults_Container
//	Container.terminationMessagePath +default="/dev/termination-log"
//	Container.terminationMessagePolicy +default="File"
//	PodSpec +validationRule="..."
//
// "package" names the Go package (once, first). "source" names the code
// the entries below it mirror; every entry needs one. "releases 1.30-1.33"
// (or "1.34-", "-1.33") limits the entries below it, up to the next source
// line, to those Kubernetes releases, for code that differs between them
// (ForRelease selects; without it an entry applies to every release). An
// entry is a type name, optionally ".<json field name>", then one tag in
// any syntax ParseTag reads. Blank lines and lines starting with "#" are
// comments.
type Overlay struct {
	// Package is the Go package path the overlay applies to.
	Package string
	// Name is the file name, for positions.
	Name    string
	entries []*overlayEntry
}

type overlayEntry struct {
	typ, field string
	tag        *Tag
	// from and to bound the Kubernetes minor releases the entry applies
	// to (0: unbounded), from a "releases" line.
	from, to int
}

// OverlayEntry is one entry of an overlay: the tag declared on a type
// (Field "") or on one of its fields (by JSON name). Tag.Source is the
// entry's source line; Tag.Pos its position in the overlay file.
type OverlayEntry struct {
	Type, Field string
	Tag         *Tag
}

// Entries returns the overlay's entries in file order (for tools that
// report on the overlay, e.g. the coverage table of the rules).
func (o *Overlay) Entries() []OverlayEntry {
	out := make([]OverlayEntry, len(o.entries))
	for i, e := range o.entries {
		out[i] = OverlayEntry{Type: e.typ, Field: e.field, Tag: e.tag}
	}
	return out
}

// ParseOverlay parses an overlay file (see Overlay). Errors name the file
// and line.
func ParseOverlay(name string, data []byte) (*Overlay, error) {
	o := &Overlay{Name: name}
	source := ""
	from, to := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		pos := token.Position{Filename: name, Line: line}
		fail := func(format string, args ...any) (*Overlay, error) {
			return nil, fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...))
		}
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
			continue
		case strings.HasPrefix(text, "package "):
			if o.Package != "" {
				return fail("second package line")
			}
			o.Package = strings.TrimSpace(strings.TrimPrefix(text, "package "))
			continue
		case strings.HasPrefix(text, "source "):
			source = strings.TrimSpace(strings.TrimPrefix(text, "source "))
			from, to = 0, 0
			continue
		case strings.HasPrefix(text, "releases "):
			var err error
			if from, to, err = parseReleases(strings.TrimSpace(strings.TrimPrefix(text, "releases "))); err != nil {
				return fail("%v", err)
			}
			continue
		}
		if o.Package == "" {
			return fail("an entry before the package line")
		}
		if source == "" {
			return fail("an entry without a source line naming the code it mirrors")
		}
		target, tagText, ok := strings.Cut(text, " ")
		if !ok {
			return fail("want <Type>[.<field>] <tag>, got %q", text)
		}
		typ, field, _ := strings.Cut(target, ".")
		if typ == "" || !isIdentBegin(rune(typ[0])) {
			return fail("bad type name %q", target)
		}
		t, err := ParseTag(strings.TrimSpace(tagText), pos)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return fail("%q carries no schema meaning", strings.TrimSpace(tagText))
		}
		for c := t; c != nil; c = c.Payload {
			c.Source = source
		}
		o.entries = append(o.entries, &overlayEntry{typ: typ, field: field, tag: t, from: from, to: to})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if o.Package == "" {
		return nil, fmt.Errorf("%s: no package line", name)
	}
	return o, nil
}

// ForRelease returns the overlay with only the entries that apply to
// Kubernetes 1.<minor> (those without a "releases" line, and those whose
// range holds it).
func (o *Overlay) ForRelease(minor int) *Overlay {
	out := &Overlay{Package: o.Package, Name: o.Name}
	for _, e := range o.entries {
		if (e.from == 0 || minor >= e.from) && (e.to == 0 || minor <= e.to) {
			out.entries = append(out.entries, e)
		}
	}
	return out
}

// parseReleases reads "1.30-1.33", "1.34-" or "-1.33" into minor bounds
// (0: unbounded).
func parseReleases(s string) (from, to int, err error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok || lo == "" && hi == "" {
		return 0, 0, fmt.Errorf("releases %q: want 1.X-1.Y, 1.X- or -1.Y", s)
	}
	minor := func(v string) (int, error) {
		var m int
		if _, err := fmt.Sscanf(v, "1.%d", &m); err != nil || fmt.Sprintf("1.%d", m) != v || m <= 0 {
			return 0, fmt.Errorf("releases %q: %q is not a release 1.X", s, v)
		}
		return m, nil
	}
	if lo != "" {
		if from, err = minor(lo); err != nil {
			return 0, 0, err
		}
	}
	if hi != "" {
		if to, err = minor(hi); err != nil {
			return 0, 0, err
		}
	}
	if from != 0 && to != 0 && from > to {
		return 0, 0, fmt.Errorf("releases %q: an empty range", s)
	}
	return from, to, nil
}

// overlayIndex finds the overlay tags of a type or field.
type overlayIndex map[string][]*overlayEntry

func overlayKey(pkg, typ, field string) string { return pkg + "\x00" + typ + "\x00" + field }

func newOverlayIndex(overlays []*Overlay) overlayIndex {
	idx := overlayIndex{}
	for _, o := range overlays {
		for _, e := range o.entries {
			k := overlayKey(o.Package, e.typ, e.field)
			idx[k] = append(idx[k], e)
		}
	}
	return idx
}

// overlayTags returns the overlay tags of pkg.typ (field "") or of its
// field with that JSON name, marking them used.
func (u *Universe) overlayTags(pkg, typ, field string) []*Tag {
	var out []*Tag
	for _, e := range u.overlay[overlayKey(pkg, typ, field)] {
		u.overlayUsed[e] = true
		out = append(out, e.tag)
	}
	return out
}

// applyOverlay adds the overlay tags of t and of its struct fields.
func (u *Universe) applyOverlay(t *Type) {
	if len(u.overlay) == 0 {
		return
	}
	t.Tags = append(t.Tags, u.overlayTags(t.Package, t.Name, "")...)
	if t.Underlying == nil || t.Underlying.Kind != Struct {
		return
	}
	for _, f := range t.Underlying.Fields {
		if f.Skip || f.Inline {
			continue
		}
		f.Tags = append(f.Tags, u.overlayTags(t.Package, t.Name, f.JSONName)...)
	}
}

// unusedOverlay reports the entries of overlays for root packages that
// matched no type or field (a misspelt name, or a field this version of the
// package does not have yet), as warnings: they are published nowhere.
func (u *Universe) unusedOverlay(overlays []*Overlay) {
	for _, o := range overlays {
		if p := u.packages[o.Package]; p == nil || !p.Root {
			continue
		}
		for _, e := range o.entries {
			if u.overlayUsed[e] {
				continue
			}
			target := e.typ
			if e.field != "" {
				target += "." + e.field
			}
			u.warnings = append(u.warnings, fmt.Errorf("%s: overlay entry for %s.%s matches no type or field: %s", e.tag.Pos, o.Package, target, e.tag.Text))
		}
	}
}
