package openapi

import (
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"sort"
)

// Report says what generation did with every tag: published (as an OpenAPI
// keyword, an x-kubernetes-* extension or a CEL rule) or reported with the
// reason it could not be published. Nothing is dropped silently.
type Report struct {
	// Tags counts by canonical tag name (every element of a chain counts).
	Tags map[string]*TagCount
	// Unpublished lists each reported tag with its position and reason.
	Unpublished []Unpublished
	// Seen counts, by "file:line", how often each tag line was handled
	// (published or reported), so tests can prove no tag was skipped.
	Seen map[string]int
	// Empty lists the root packages that produced nothing, with the
	// reason, in package order: a wrong pattern or a missing +groupName
	// would otherwise give no output and no word.
	Empty []EmptyPackage
}

// EmptyPackage is a root package that produced no document or CRD.
type EmptyPackage struct {
	Path   string // import path
	Reason string
}

// TagCount counts one tag name's uses.
type TagCount struct {
	Published int
	Reported  int
	// Reasons counts the reported uses by reason.
	Reasons map[string]int
}

// Unpublished is one tag that is not in the generated schema.
type Unpublished struct {
	Pos    token.Position
	Tag    string // as written
	Site   string // "pkg.Type.field"
	Reason string
}

func newReport() *Report { return &Report{Tags: map[string]*TagCount{}, Seen: map[string]int{}} }

func posKey(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }

func (r *Report) count(name string) *TagCount {
	c := r.Tags[name]
	if c == nil {
		c = &TagCount{Reasons: map[string]int{}}
		r.Tags[name] = c
	}
	return c
}

func (r *Report) published(name string) { r.count(name).Published++ }

func (r *Report) reported(name string, pos token.Position, text, site, reason string) {
	c := r.count(name)
	c.Reported++
	c.Reasons[reason]++
	r.Unpublished = append(r.Unpublished, Unpublished{Pos: pos, Tag: text, Site: site, Reason: reason})
}

// WriteDetails prints every unpublished tag (file base name and line, site,
// tag, reason), in generation order.
func (r *Report) WriteDetails(w io.Writer) {
	for _, u := range r.Unpublished {
		fmt.Fprintf(w, "%s:%d: %s: %s: %s\n", filepath.Base(u.Pos.Filename), u.Pos.Line, u.Site, u.Tag, u.Reason)
	}
}

// Write prints the per-tag counts and the reasons, sorted by tag name.
func (r *Report) Write(w io.Writer) {
	names := make([]string, 0, len(r.Tags))
	for n := range r.Tags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := r.Tags[n]
		fmt.Fprintf(w, "%-22s published %5d  reported %5d\n", n, c.Published, c.Reported)
		reasons := make([]string, 0, len(c.Reasons))
		for k := range c.Reasons {
			reasons = append(reasons, k)
		}
		sort.Strings(reasons)
		for _, k := range reasons {
			fmt.Fprintf(w, "    %5d  %s\n", c.Reasons[k], k)
		}
	}
}
