package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"kdv.dev/idl"
	"kdv.dev/schema"
)

// Options configure generation.
type Options struct {
	// StandardOnly leaves out the extensions the apiserver does not
	// publish (x-kubernetes-api-lifecycle); the tags that would produce
	// them are reported instead.
	StandardOnly bool
	// CRD selects controller-gen's conventions instead of openapi-gen's:
	// no enforced zero-value defaults for non-pointer fields.
	CRD bool
	// NoStringZeroDefaults leaves out openapi-gen's enforced default ""
	// of non-pointer string fields, so that a missing required string is
	// reported as "Required value" as the apiserver's hand-written
	// validation does after decoding it to "" (package builtin uses it;
	// numeric, boolean and {} zero defaults stay: their Go zero values are
	// usually accepted).
	NoStringZeroDefaults bool
	// StripZero publishes x-kubernetes-strip-zero on optional (omitempty)
	// fields, and fields with a non-zero default, of non-pointer string,
	// number, boolean, slice and map types:
	// Go decoding gives their zero value ("", 0, false, [], {}) the same
	// value as an absent field, so the Go defaulters and hand-written
	// validation of built-in types treat it as unset (KEP-4153
	// "Zero-Valued Primitive Fields", optional zero fields). Package
	// builtin uses it; other required fields are left alone, since
	// whether the apiserver requires them non-zero is hand-written.
	StripZero bool
	// ListUniqueFromTags publishes x-kubernetes-list-unique: false on every
	// set or map list (+listType, the server-side apply merge strategy)
	// whose uniqueness no validation-gen tag (+k8s:listType, +k8s:unique,
	// outside +k8s:alpha/+k8s:beta/+k8s:ifEnabled) declares: the apiserver
	// validates built-in types with hand-written code, which leaves
	// duplicate env names or container ports to warnings, and with
	// validation-gen's generated code, which enforces only those tags
	// (k8s.io/apimachinery pkg/api/validate ValSliceUnique). Package
	// builtin uses it.
	ListUniqueFromTags bool
	// DeclarativeRatcheting publishes x-kubernetes-ratcheting: true on the
	// properties of validation-gen value validations (+k8s: tags of the
	// types, not of a rule overlay) that no +k8s:alpha or +k8s:beta wraps:
	// where validation-gen decides, it skips unchanged values on update,
	// unlike the hand-written checks. Package builtin sets it for 1.37 on.
	DeclarativeRatcheting bool
}

// Kind is one API kind found in a package: a struct with an inline
// metav1.TypeMeta.
type Kind struct {
	Group, Version, Kind string
	// Definition is the kind's components.schemas name.
	Definition string
	// Namespaced is false for types tagged +genclient:nonNamespaced or
	// +kubebuilder:resource:scope=Cluster.
	Namespaced bool
	// Type is the Go type.
	Type *idl.Type
}

// Document is one group-version's OpenAPI v3 document.
type Document struct {
	Group, Version string
	// Package is the Go import path the group-version came from.
	Package string
	// Schemas are components.schemas: the package's types and every
	// definition they reference.
	Schemas map[string]*schema.Props
	// Kinds are the package's kinds, sorted by name.
	Kinds []Kind
}

// GroupVersion returns "group/version", or "version" for the core group.
func (d *Document) GroupVersion() string {
	if d.Group == "" {
		return d.Version
	}
	return d.Group + "/" + d.Version
}

// MarshalJSON writes the document in the shape of the apiserver's
// /openapi/v3/apis/<group>/<version> (paths left empty).
func (d *Document) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]any{"title": "Kubernetes", "version": "unversioned"},
		"paths":   map[string]any{},
		"components": map[string]any{
			"schemas": d.Schemas,
		},
	})
}

// Result is the output of Generate.
type Result struct {
	Documents []*Document
	Report    *Report
}

// Generate turns the root packages of u into one OpenAPI v3 document per
// group-version, following kube-openapi's openapi-gen conventions (see the
// package doc). The group comes from the package's +groupName tag (empty
// for the core group), the version from +versionName or the package name.
// Errors (bad defaults, unsupported types) are returned joined; the Result
// is complete apart from them.
func Generate(u *idl.Universe, opts Options) (*Result, error) {
	g := newGen(u, opts)
	res := &Result{Report: g.report}
	for _, p := range u.Packages {
		group, version, ok := groupVersion(u, p)
		if !ok {
			res.Report.Empty = append(res.Report.Empty, EmptyPackage{p.Path, "not an API package: no +groupName tag and no GroupName constant"})
			continue
		}
		doc := &Document{Group: group, Version: version, Package: p.Path, Schemas: map[string]*schema.Props{}}
		var roots []string
		for _, t := range p.Types {
			if !g.isStruct(t) {
				continue
			}
			roots = append(roots, g.def(t))
			if k, ok := g.kind(t, group, version); ok {
				doc.Kinds = append(doc.Kinds, k)
			}
		}
		if group == "" && version == "v1" {
			// metav1's kinds, registered into every group version by
			// metav1.AddToGroupVersion; published with the core group.
			for _, n := range metaKinds {
				if mt := u.Lookup(strings.TrimSuffix(metav1, "."), n); mt != nil {
					roots = append(roots, g.def(mt))
					doc.Kinds = append(doc.Kinds, Kind{Group: group, Version: version, Kind: n, Definition: DefinitionName(mt.Package, n), Namespaced: false, Type: mt})
				}
			}
		}
		sort.Slice(doc.Kinds, func(i, j int) bool { return doc.Kinds[i].Kind < doc.Kinds[j].Kind })
		for _, k := range doc.Kinds {
			d := g.defs[k.Definition]
			if d.Extra == nil {
				d.Extra = map[string]any{}
			}
			d.Extra["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": k.Group, "kind": k.Kind, "version": k.Version}}
		}
		for _, name := range g.closure(roots) {
			doc.Schemas[name] = g.defs[name]
		}
		res.Documents = append(res.Documents, doc)
	}
	// Tags of named non-struct types reach the schema where a field uses
	// the type; report those of types no field uses.
	for _, p := range u.Packages {
		for _, t := range p.Types {
			if g.isStruct(t) {
				continue
			}
			for _, tg := range t.Tags {
				if g.report.Seen[posKey(tg.Pos)] == 0 {
					g.report.Seen[posKey(tg.Pos)]++
					g.report1(tg, &tagSite{owner: t.ID()}, "type is not used by any generated field; its tags have no schema to apply to")
				}
			}
		}
	}
	sort.SliceStable(res.Documents, func(i, j int) bool {
		a, b := res.Documents[i], res.Documents[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		return a.Version < b.Version
	})
	return res, errors.Join(g.errs...)
}

// groupVersion reads a package's +groupName and +versionName; without
// +groupName, a GroupName string constant (k8s.io/api's register.go) names
// the group. Packages with neither are not API packages (false).
func groupVersion(u *idl.Universe, p *idl.Package) (group, version string, ok bool) {
	version = p.Name
	if c := u.Const(p.Path, "GroupName"); c != nil {
		if s, isStr := c.Value.(string); isStr {
			group, ok = s, true
		}
	}
	for _, t := range p.Tags {
		switch t.Name {
		case "groupName":
			group, ok = t.Value, true
		case "versionName":
			version = t.Value
		}
	}
	return group, version, ok
}

// kind reports whether t is a kind: an exported struct with an inline
// metav1.TypeMeta.
func (g *gen) kind(t *idl.Type, group, version string) (Kind, bool) {
	hasTypeMeta := false
	_, fields := structOf(t)
	for _, f := range fields {
		if f.Inline && f.Type.Kind == idl.Named && f.Type.Named.ID() == metav1+"TypeMeta" {
			hasTypeMeta = true
		}
	}
	if !hasTypeMeta {
		return Kind{}, false
	}
	k := Kind{Group: group, Version: version, Kind: t.Name, Definition: DefinitionName(t.Package, t.Name), Namespaced: true, Type: t}
	for _, tg := range t.Tags {
		switch tg.Name {
		case "nonNamespaced":
			k.Namespaced = false
		case "resource":
			if v, _ := tg.Arg("scope"); v == "Cluster" {
				k.Namespaced = false
			}
		}
	}
	return k, true
}

// closure returns the definitions reachable from roots, sorted.
func (g *gen) closure(roots []string) []string {
	seen := map[string]bool{}
	var visit func(n string)
	visit = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, d := range g.refs[n] {
			visit(d)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// gen holds generation state shared by all documents.
type gen struct {
	u      *idl.Universe
	opts   Options
	report *Report
	defs   map[string]*schema.Props
	refs   map[string][]string // definition -> definitions it references
	cur    []string            // definitions being built (innermost last)
	items  map[itemKey]*itemUnionAcc
	dirPkg map[string]string // source directory -> package path
	errs   []error
	// wrapped is the lifecycle tag (alpha, beta, ifEnabled) whose payload
	// is being applied, "" outside one.
	wrapped string
}

func newGen(u *idl.Universe, opts Options) *gen {
	return &gen{u: u, opts: opts, report: newReport(), defs: map[string]*schema.Props{}, refs: map[string][]string{}, dirPkg: map[string]string{}}
}

func (g *gen) errorf(pos fmt.Stringer, format string, args ...any) {
	g.errs = append(g.errs, fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...)))
}

// isStruct reports whether t is (through named and alias chains) a struct
// or a well-known type published as a definition.
func (g *gen) isStruct(t *idl.Type) bool {
	for {
		if wellKnown(t.ID()) != nil {
			return !inlineWellKnown(t.ID())
		}
		r := t.Underlying
		if r == nil {
			return false
		}
		switch r.Kind {
		case idl.Struct:
			return true
		case idl.Named:
			t = r.Named
		default:
			return false
		}
	}
}

// structOf follows a named chain to the struct declaration, returning the
// chain's types (t first) whose tags apply to the definition.
func structOf(t *idl.Type) (chain []*idl.Type, fields []*idl.Field) {
	for {
		chain = append(chain, t)
		r := t.Underlying
		if r.Kind == idl.Struct {
			return chain, r.Fields
		}
		t = r.Named
	}
}

// def returns the definition name of a struct or well-known type, building
// the definition on first use.
func (g *gen) def(t *idl.Type) string {
	for t.Alias && t.Underlying.Kind == idl.Named {
		t = t.Underlying.Named
	}
	name := DefinitionName(t.Package, t.Name)
	if len(g.cur) > 0 {
		parent := g.cur[len(g.cur)-1]
		if !containsStr(g.refs[parent], name) && parent != name {
			g.refs[parent] = append(g.refs[parent], name)
		}
	}
	if _, ok := g.defs[name]; ok {
		return name
	}
	if wk := wellKnown(t.ID()); wk != nil {
		wk.Description = g.doc(t.Doc, t.Comments)
		g.defs[name] = wk
		return name
	}
	p := &schema.Props{}
	g.defs[name] = p // registered first: recursive types refer to it
	g.dirPkg[dirOf(t.Pos.Filename)] = t.Package
	g.cur = append(g.cur, name)
	chain, fields := structOf(t)
	*p = *g.structSchema(t.ID(), fields, chain)
	p.Description = g.doc(t.Doc, t.Comments)
	g.cur = g.cur[:len(g.cur)-1]
	return name
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Definition returns a generated definition by name (for tests and
// resolution).
func (r *Result) Definition(name string) *schema.Props {
	for _, d := range r.Documents {
		if p, ok := d.Schemas[name]; ok {
			return p
		}
	}
	return nil
}

func siteName(owner, field string) string {
	if field == "" {
		return owner
	}
	return owner + "." + field
}

// metaKinds are the kinds metav1.AddToGroupVersion registers (the options
// types and the discovery and status types the apiserver serves).
var metaKinds = []string{"APIGroup", "APIGroupList", "APIResourceList", "APIVersions", "CreateOptions", "DeleteOptions", "GetOptions", "ListOptions", "PatchOptions", "Status", "UpdateOptions", "WatchEvent"}
