package idl

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Options configure Load.
type Options struct {
	// Dir is the directory the patterns are resolved in ("" = current).
	Dir string
	// BuildFlags are passed to the go command (e.g. "-tags=x").
	BuildFlags []string
	// Overlays are rule overlays (ParseOverlay) whose tags are merged with
	// those of the packages' comments. Entries for root packages that
	// match nothing are warnings (Universe.Warnings).
	Overlays []*Overlay
}

// Universe is the result of Load: the root packages and every declared
// type reachable from them, converted on demand.
type Universe struct {
	// Packages are the root packages, sorted by path.
	Packages []*Package

	fset     *token.FileSet
	pkgs     map[string]*packages.Package // every loaded package by path
	types    map[*types.TypeName]*Type
	idxs     map[string]*astIndex
	packages map[string]*Package
	errs     []error
	warnings []error
	// overlay indexes Options.Overlays; overlayUsed marks the entries
	// that matched.
	overlay     overlayIndex
	overlayUsed map[*overlayEntry]bool
}

// Load loads the Go packages matching patterns (go list patterns such as
// "k8s.io/api/..." or "./api/v1") with golang.org/x/tools/go/packages and
// builds the model of their exported types with their doc comments and
// tags. Types of dependencies are converted when a root type refers to
// them. Every unknown or malformed tag is reported in the returned error
// (file:line each); the Universe is still returned for inspection.
func Load(opts Options, patterns ...string) (*Universe, error) {
	cfg := &packages.Config{
		// Without NeedDeps, dependencies come from export data (fast); the
		// few dependency files that declare referenced types are parsed
		// for their comments on demand.
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:        opts.Dir,
		BuildFlags: opts.BuildFlags,
		Tests:      false,
		Fset:       token.NewFileSet(),
		// Function bodies carry no API information; dropping them before
		// type checking makes loading k8s.io/api (whose generated.pb.go
		// files are mostly method bodies) several times faster.
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
			if f != nil {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok {
						if fd.Recv == nil && fd.Name.Name == "init" {
							fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace}
						} else {
							fd.Body = nil
						}
					}
				}
			}
			return f, err
		},
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	u := &Universe{
		pkgs:     map[string]*packages.Package{},
		types:    map[*types.TypeName]*Type{},
		idxs:     map[string]*astIndex{},
		packages: map[string]*Package{},
		fset:     cfg.Fset,

		overlay:     newOverlayIndex(opts.Overlays),
		overlayUsed: map[*overlayEntry]bool{},
	}
	var loadErrs []error
	for _, p := range roots {
		u.pkgs[p.PkgPath] = p
	}
	for _, p := range roots {
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && bodyless(e.Msg) {
				continue // consequences of dropping function bodies
			}
			if e.Pos == "" {
				// packages.Error writes a missing position as "-".
				loadErrs = append(loadErrs, fmt.Errorf("%s: %s", p.PkgPath, e.Msg))
				continue
			}
			loadErrs = append(loadErrs, fmt.Errorf("%s: %s", p.PkgPath, e))
		}
	}
	if len(loadErrs) > 0 {
		return nil, errors.Join(loadErrs...)
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].PkgPath < roots[j].PkgPath })
	for _, p := range roots {
		u.pkg(p.PkgPath) // indexes the package's syntax
	}
	for _, p := range roots {
		pkg := u.pkg(p.PkgPath)
		pkg.Root = true
		u.Packages = append(u.Packages, pkg)
		if p.Types == nil {
			continue
		}
		scope := p.Types.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			pkg.Types = append(pkg.Types, u.typeOf(tn))
		}
	}
	u.unusedOverlay(opts.Overlays)
	return u, errors.Join(u.errs...)
}

// bodyless reports whether a type error only follows from dropped
// function bodies (imports and variables that only bodies used).
func bodyless(msg string) bool {
	return strings.Contains(msg, "imported and not used") || strings.Contains(msg, "imported as") && strings.Contains(msg, "and not used") ||
		strings.Contains(msg, "declared and not used") || strings.Contains(msg, "missing function body")
}

// Warnings returns the unknown or malformed tags found in dependency
// packages (not matched by the load patterns); they are skipped.
func (u *Universe) Warnings() []error { return u.warnings }

// rootFile reports whether file belongs to a root package.
func (u *Universe) rootFile(file string) bool {
	for _, p := range u.pkgs {
		for _, f := range p.CompiledGoFiles {
			if f == file {
				return true
			}
		}
		for _, f := range p.GoFiles {
			if f == file {
				return true
			}
		}
	}
	return false
}

// Errors returns the tag errors found so far (including those found while
// converting dependency types after Load returned).
func (u *Universe) Errors() []error { return u.errs }

// Package returns the package with the given import path (root or
// dependency), or nil when it was not loaded.
func (u *Universe) Package(path string) *Package {
	if u.typesPkg(path) == nil {
		return nil
	}
	return u.pkg(path)
}

// Lookup returns the declared type pkgPath.name from any loaded package, or
// nil.
func (u *Universe) Lookup(pkgPath, name string) *Type {
	tp := u.typesPkg(pkgPath)
	if tp == nil {
		return nil
	}
	tn, ok := tp.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return nil
	}
	return u.typeOf(tn)
}

// Const returns the package-level constant pkgPath.name, or nil.
func (u *Universe) Const(pkgPath, name string) *Const {
	tp := u.typesPkg(pkgPath)
	if tp == nil {
		return nil
	}
	c, ok := tp.Scope().Lookup(name).(*types.Const)
	if !ok {
		return nil
	}
	return u.constOf(c)
}

// typesPkg finds a loaded package (root or imported by one) by path.
func (u *Universe) typesPkg(path string) *types.Package {
	if p, ok := u.pkgs[path]; ok && p.Types != nil {
		return p.Types
	}
	for _, p := range u.pkgs {
		if p.Types == nil {
			continue
		}
		for _, imp := range p.Types.Imports() {
			if imp.Path() == path {
				return imp
			}
		}
	}
	return nil
}

func (u *Universe) pkg(path string) *Package {
	if p, ok := u.packages[path]; ok {
		return p
	}
	lp := u.pkgs[path]
	p := &Package{Path: path}
	if lp != nil {
		p.Name = lp.Name
		if len(lp.GoFiles) > 0 {
			p.Dir = lp.GoFiles[0][:strings.LastIndex(lp.GoFiles[0], "/")+1]
			p.Dir = strings.TrimSuffix(p.Dir, "/")
		}
	}
	u.packages[path] = p
	if lp != nil {
		for i, f := range lp.Syntax {
			if i >= len(lp.CompiledGoFiles) {
				break
			}
			idx := u.idxs[lp.CompiledGoFiles[i]]
			if idx == nil {
				idx = u.indexFile(lp.CompiledGoFiles[i], lp.Fset, f)
			}
			for _, g := range idx.pkgComments {
				p.Tags = append(p.Tags, u.tagsIn(g, idx.fset)...)
			}
		}
	}
	return p
}

// astIndex finds declarations' syntax by position.
type astIndex struct {
	fset        *token.FileSet
	typeSpecs   map[posKey]*ast.TypeSpec
	typeDocs    map[posKey][]*ast.CommentGroup // doc, then second-closest
	fields      map[posKey]*ast.Field
	consts      map[posKey]*ast.CommentGroup
	pkgComments []*ast.CommentGroup
}

// posKey is file and line: dependencies come from export data, which keeps
// lines but not columns.
type posKey struct {
	file string
	line int
}

func (u *Universe) key(pos token.Pos) posKey {
	p := u.fset.Position(pos)
	return posKey{p.Filename, p.Line}
}

// index returns the syntax index of one source file, parsing it on first
// use when the loader kept no syntax for it (dependencies are loaded from
// export data, so only the few files that declare referenced types are
// parsed).
func (u *Universe) index(file string) *astIndex {
	if idx, ok := u.idxs[file]; ok {
		return idx
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		af = nil
	}
	return u.indexFile(file, fset, af)
}

func (u *Universe) indexFile(file string, fset *token.FileSet, f *ast.File) *astIndex {
	idx := &astIndex{
		fset:      fset,
		typeSpecs: map[posKey]*ast.TypeSpec{},
		typeDocs:  map[posKey][]*ast.CommentGroup{},
		fields:    map[posKey]*ast.Field{},
		consts:    map[posKey]*ast.CommentGroup{},
	}
	u.idxs[file] = idx
	if f == nil {
		return idx
	}
	k := func(pos token.Pos) posKey {
		p := fset.Position(pos)
		return posKey{p.Filename, p.Line}
	}
	for _, cg := range f.Comments {
		if cg.End() < f.Package {
			idx.pkgComments = append(idx.pkgComments, cg)
		}
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				idx.typeSpecs[k(s.Name.Pos())] = s
				doc := s.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				docs := []*ast.CommentGroup{doc}
				if doc != nil {
					docs = append(docs, secondClosest(fset, f, doc))
				}
				idx.typeDocs[k(s.Name.Pos())] = docs
				indexFields(s.Type, idx, k)
			case *ast.ValueSpec:
				doc := s.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				for _, n := range s.Names {
					idx.consts[k(n.Pos())] = doc
				}
			}
		}
	}
	return idx
}

func indexFields(e ast.Expr, idx *astIndex, k func(token.Pos) posKey) {
	ast.Inspect(e, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 {
				idx.fields[k(f.Type.Pos())] = f
				// an embedded *T or pkg.T has its object at the name
				ast.Inspect(f.Type, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						idx.fields[k(id.Pos())] = f
					}
					return true
				})
			}
			for _, n := range f.Names {
				idx.fields[k(n.Pos())] = f
			}
		}
		return true
	})
}

// secondClosest returns the comment group that ends on the line before a
// blank line above doc (gengo's SecondClosestCommentLines), or nil.
func secondClosest(fset *token.FileSet, f *ast.File, doc *ast.CommentGroup) *ast.CommentGroup {
	line := fset.Position(doc.Pos()).Line
	for _, cg := range f.Comments {
		if fset.Position(cg.End()).Line == line-2 {
			return cg
		}
	}
	return nil
}

// tags parses the tag lines of a comment group; errors are recorded.
func (u *Universe) tags(cg *ast.CommentGroup) []*Tag {
	return u.tagsIn(cg, nil)
}

func (u *Universe) tagsIn(cg *ast.CommentGroup, fset *token.FileSet) []*Tag {
	if cg == nil {
		return nil
	}
	var out []*Tag
	for _, c := range cg.List {
		if !strings.HasPrefix(c.Text, "//") {
			continue
		}
		line := strings.TrimSpace(c.Text[2:])
		if !strings.HasPrefix(line, "+") || len(line) < 2 || !isIdentBegin(rune(line[1])) {
			continue
		}
		var pos token.Position
		if fset != nil {
			pos = fset.Position(c.Pos())
		} else {
			pos = u.fset.Position(c.Pos())
		}
		t, err := ParseTag(line, pos)
		if err != nil {
			if u.rootFile(pos.Filename) {
				u.errs = append(u.errs, err)
			} else {
				// Dependencies may use markers of tools kdv does not know;
				// their tags are the dependency author's business.
				u.warnings = append(u.warnings, err)
			}
			continue
		}
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// typeOf converts a declared type, memoized (recursive types are fine: the
// *Type is registered before its underlying type is converted).
func (u *Universe) typeOf(tn *types.TypeName) *Type {
	if t, ok := u.types[tn]; ok {
		return t
	}
	pkgPath := ""
	if tn.Pkg() != nil {
		pkgPath = tn.Pkg().Path()
	}
	t := &Type{Package: pkgPath, Name: tn.Name(), Alias: tn.IsAlias(), Pos: u.fset.Position(tn.Pos())}
	u.types[tn] = t
	if pkgPath == "" { // error, comparable
		t.Underlying = &TypeRef{Kind: Interface, Text: tn.Name()}
		return t
	}
	k := u.key(tn.Pos())
	idx := u.index(k.file)
	if docs, ok := idx.typeDocs[k]; ok {
		t.Comments = commentLines(docs[0])
		t.Doc = Description(t.Comments)
		for _, d := range docs {
			t.Tags = append(t.Tags, u.tagsIn(d, idx.fset)...)
		}
	}
	switch {
	case tn.IsAlias():
		t.Underlying = u.ref(types.Unalias(tn.Type()), idx, true)
		if a, ok := tn.Type().(*types.Alias); ok {
			t.Underlying = u.ref(a.Rhs(), idx, true)
		}
	default:
		named, ok := tn.Type().(*types.Named)
		if !ok {
			t.Underlying = u.ref(tn.Type(), idx, true)
			break
		}
		// "type A B" refers to B by name: keep the chain so B's tags apply.
		if spec, ok := idx.typeSpecs[k]; ok {
			if rhs := u.pkgs[pkgPath]; rhs != nil && rhs.TypesInfo != nil {
				if tv, ok := rhs.TypesInfo.Types[spec.Type]; ok {
					t.Underlying = u.ref(tv.Type, idx, true)
					break
				}
			}
		}
		t.Underlying = u.ref(named.Underlying(), idx, true)
	}
	// enum values: constants of this type declared in its package
	if pkg := tn.Pkg(); pkg != nil {
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			if c, ok := scope.Lookup(n).(*types.Const); ok && types.Identical(c.Type(), tn.Type()) {
				t.Consts = append(t.Consts, u.constOf(c))
			}
		}
		sort.SliceStable(t.Consts, func(i, j int) bool {
			a, b := t.Consts[i].Pos, t.Consts[j].Pos
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			return a.Offset < b.Offset
		})
	}
	u.applyOverlay(t)
	return t
}

func (u *Universe) constOf(c *types.Const) *Const {
	out := &Const{Name: c.Name(), Pos: u.fset.Position(c.Pos())}
	v := c.Val()
	switch v.Kind() {
	case constant.String:
		out.Value = constant.StringVal(v)
	case constant.Int:
		if i, ok := constant.Int64Val(v); ok {
			out.Value = i
		}
	case constant.Float:
		f, _ := constant.Float64Val(v)
		out.Value = f
	case constant.Bool:
		out.Value = constant.BoolVal(v)
	}
	if c.Pkg() != nil {
		k := u.key(c.Pos())
		if doc := u.index(k.file).consts[k]; doc != nil {
			out.Doc = Description(commentLines(doc))
		}
	}
	return out
}

// ref converts a type expression. top is set when converting a
// declaration's right-hand side (so a struct there is the type's own).
func (u *Universe) ref(t types.Type, idx *astIndex, top bool) *TypeRef {
	switch t := t.(type) {
	case *types.Alias:
		return &TypeRef{Kind: Named, Named: u.typeOf(t.Obj()), Text: t.String()}
	case *types.Named:
		return &TypeRef{Kind: Named, Named: u.typeOf(t.Obj()), Text: t.String()}
	case *types.Basic:
		name := t.Name()
		switch t.Kind() {
		case types.Byte:
			name = "uint8"
		case types.Rune:
			name = "int32"
		}
		return &TypeRef{Kind: Basic, Basic: name, Text: t.String()}
	case *types.Pointer:
		return &TypeRef{Kind: Pointer, Elem: u.ref(t.Elem(), idx, false), Text: t.String()}
	case *types.Slice:
		return &TypeRef{Kind: Slice, Elem: u.ref(t.Elem(), idx, false), Text: t.String()}
	case *types.Array:
		return &TypeRef{Kind: Array, Elem: u.ref(t.Elem(), idx, false), Len: t.Len(), Text: t.String()}
	case *types.Map:
		return &TypeRef{Kind: Map, Key: u.ref(t.Key(), idx, false), Elem: u.ref(t.Elem(), idx, false), Text: t.String()}
	case *types.Interface:
		return &TypeRef{Kind: Interface, Text: t.String()}
	case *types.Struct:
		r := &TypeRef{Kind: Struct, Text: "struct"}
		for i := 0; i < t.NumFields(); i++ {
			r.Fields = append(r.Fields, u.field(t.Field(i), t.Tag(i), idx))
		}
		return r
	}
	return &TypeRef{Kind: Unsupported, Text: t.String()}
}

func (u *Universe) field(v *types.Var, tag string, idx *astIndex) *Field {
	f := &Field{Name: v.Name(), JSONName: v.Name(), Embedded: v.Embedded(), Pos: u.fset.Position(v.Pos())}
	f.Type = u.ref(v.Type(), idx, false)
	if js, ok := reflect.StructTag(tag).Lookup("json"); ok {
		name, opts, _ := strings.Cut(js, ",")
		if name == "-" && opts == "" {
			f.Skip = true
		}
		if name != "" && name != "-" {
			f.JSONName = name
		} else if name == "" && f.Embedded {
			f.Inline = true
		}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.OmitEmpty = true
			case "omitzero":
				f.OmitZero = true
			case "inline":
				f.Inline = true
			}
		}
	} else if f.Embedded {
		f.Inline = true
	}
	if !v.Exported() && !f.Embedded {
		f.Skip = true
	}
	if af, ok := idx.fields[u.key(v.Pos())]; ok {
		f.Comments = commentLines(af.Doc)
		f.Doc = Description(f.Comments)
		f.Tags = u.tagsIn(af.Doc, idx.fset)
	}
	return f
}
