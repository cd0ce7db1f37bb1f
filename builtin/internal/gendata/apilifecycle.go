package gendata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema"
)

// LifecycleSource is one module tree of API packages for BuildLifecycle.
type LifecycleSource struct {
	// Module is "path@version", for the data's source line.
	Module string
	// Root is the module's directory; Pattern the package directories
	// under it, as filepath.Glob matches them ("*/*" for k8s.io/api).
	Root, Pattern string
}

// ModuleDir returns the directory of module path@version in the module
// cache, downloading it when the cache lacks it (go mod download).
func ModuleDir(path, version string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", path+"@"+version).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", path, version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", err
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", path, version, m.Error)
	}
	return m.Dir, nil
}

// BuildLifecycle reads the +k8s:prerelease-lifecycle-gen tags of every
// package of sources that enables the generator
// (+k8s:prerelease-lifecycle-gen=true in its doc comment) and returns
// data/lifecycle.json. Sources come newest first: a kind takes its entry
// from the first source that has it, so older sources only add the
// group-versions newer modules deleted (autoscaling/v2beta2 is gone from
// k8s.io/api v0.36), and only those with a removal release.
//
// The releases are computed as k8s.io/code-generator's
// prerelease-lifecycle-gen computes them: in a prerelease (alpha or beta)
// version, deprecated defaults to introduced + 3 minors and removed to
// deprecated + 3; a GA version has only what its tags say. Each package's
// zz_generated.prerelease-lifecycle.go, that generator's output which the
// apiserver compiles, must agree with the result, or BuildLifecycle fails:
// the data is what the apiserver's deprecation filter reads. A tagged type
// the generated file lacks is left out, with a note on stderr.
func BuildLifecycle(sources []LifecycleSource) ([]byte, error) {
	seen := map[schema.GroupVersionKind]bool{}
	var kinds []datafile.LifecycleKind
	var names []string
	read := "" // the modules read so far
	for _, src := range sources {
		path, _, _ := strings.Cut(src.Module, "@")
		older := strings.Contains(read, " "+path+"@")
		read += " " + src.Module
		names = append(names, strings.Replace(src.Module, "@", " ", 1))
		dirs, err := filepath.Glob(filepath.Join(src.Root, src.Pattern))
		if err != nil {
			return nil, err
		}
		sort.Strings(dirs)
		for _, dir := range dirs {
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				continue
			}
			rel, _ := filepath.Rel(src.Root, dir)
			ks, err := packageLifecycle(dir, src.Module+"/"+filepath.ToSlash(rel))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", src.Module+"/"+filepath.ToSlash(rel), err)
			}
			for _, k := range ks {
				// An older module adds only versions with a removal
				// release: a GA kind a newer module deleted (core/v1
				// PodStatusResult, gone in v0.37) is no longer a kind at
				// all, and its old entry would say it is served.
				if older && k.Removed == "" {
					continue
				}
				if !seen[k.GroupVersionKind] {
					seen[k.GroupVersionKind] = true
					kinds = append(kinds, k)
				}
			}
		}
	}
	sort.Slice(kinds, func(i, j int) bool {
		a, b := kinds[i], kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	// One kind a line, so that a regeneration's diff reads as a list of
	// changed kinds.
	var buf bytes.Buffer
	src, _ := json.Marshal(strings.Join(names, ", "))
	fmt.Fprintf(&buf, "{\"source\":%s,\"kinds\":[\n", src)
	for i, k := range kinds {
		b, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
		if i < len(kinds)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]}\n")
	return buf.Bytes(), nil
}

const lifecycleTag = "+k8s:prerelease-lifecycle-gen"

// release is a major.minor release; the zero value is none.
type release struct{ major, minor int }

func (r release) String() string {
	if r == (release{}) {
		return ""
	}
	return fmt.Sprintf("%d.%d", r.major, r.minor)
}

func parseRelease(s string) (release, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ".")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
		return release{}, fmt.Errorf("release %q is not major.minor", s)
	}
	return release{x, y}, nil
}

// typeLifecycle is what prerelease-lifecycle-gen knows of one type.
type typeLifecycle struct {
	introduced, deprecated, removed release
	replacement                     schema.GroupVersionKind
}

// packageLifecycle returns the lifecycle of the types of one package, or
// nothing when the package does not enable prerelease-lifecycle-gen.
func packageLifecycle(dir, label string) ([]datafile.LifecycleKind, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var generated *ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		switch {
		case name == "zz_generated.prerelease-lifecycle.go":
			generated = f
		case !strings.HasPrefix(name, "zz_generated"):
			files = append(files, f)
		}
	}
	enabled, group, hasGroup := false, "", false
	for _, f := range files {
		for _, cg := range f.Comments {
			// The package's tags sit above its package clause.
			if cg.End() < f.Package && hasLine(cg, lifecycleTag+"=true") {
				enabled = true
			}
		}
		if g, ok := groupName(f); ok {
			group, hasGroup = g, true
		}
	}
	if !enabled {
		return nil, nil
	}
	if !hasGroup {
		return nil, fmt.Errorf("no GroupName constant")
	}
	version := filepath.Base(dir)
	prerelease := strings.Contains(version, "alpha") || strings.Contains(version, "beta")
	fromTags := map[string]typeLifecycle{}
	for _, f := range files {
		for i, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE || len(g.Specs) != 1 {
				continue
			}
			from := f.Package
			if i > 0 {
				from = f.Decls[i-1].End()
			}
			name := g.Specs[0].(*ast.TypeSpec).Name.Name
			tl, tagged, err := tagLifecycle(commentsBetween(f, from, g.Pos()), prerelease)
			if err != nil {
				return nil, fmt.Errorf("type %s: %w", name, err)
			}
			if tagged {
				fromTags[name] = tl
			}
		}
	}
	if generated == nil {
		return nil, fmt.Errorf("no zz_generated.prerelease-lifecycle.go")
	}
	fromCode, err := generatedLifecycle(generated)
	if err != nil {
		return nil, err
	}
	var out []datafile.LifecycleKind
	for name, tl := range fromTags {
		gl, ok := fromCode[name]
		if !ok {
			// Tagged, but the generator emitted no methods (core/v1
			// ComponentStatus, whose doc comment says "Deprecated:"):
			// the apiserver has no lifecycle for it, nor does kdv.
			fmt.Fprintf(os.Stderr, "genlifecycle: %s %s: tagged, but not in zz_generated.prerelease-lifecycle.go: left out\n", label, name)
			continue
		}
		if gl != tl {
			return nil, fmt.Errorf("type %s: the tags give %+v, zz_generated.prerelease-lifecycle.go %+v", name, tl, gl)
		}
		k := datafile.LifecycleKind{
			GroupVersionKind: schema.GroupVersionKind{Group: group, Version: version, Kind: name},
			Introduced:       tl.introduced.String(),
			Deprecated:       tl.deprecated.String(),
			Removed:          tl.removed.String(),
		}
		if tl.replacement != (schema.GroupVersionKind{}) {
			r := tl.replacement
			k.Replacement = &r
		}
		out = append(out, k)
	}
	for name := range fromCode {
		if _, ok := fromTags[name]; !ok {
			return nil, fmt.Errorf("type %s: in zz_generated.prerelease-lifecycle.go without tags", name)
		}
	}
	return out, nil
}

// tagLifecycle computes a type's lifecycle from its comment lines as
// prerelease-lifecycle-gen does.
func tagLifecycle(lines []string, prerelease bool) (typeLifecycle, bool, error) {
	var tl typeLifecycle
	tagged := false
	for _, line := range lines {
		rest, ok := strings.CutPrefix(line, lifecycleTag+":")
		if !ok {
			continue
		}
		tagged = true
		key, val, _ := strings.Cut(rest, "=")
		var err error
		switch key {
		case "introduced":
			tl.introduced, err = parseRelease(val)
		case "deprecated":
			tl.deprecated, err = parseRelease(val)
		case "removed":
			tl.removed, err = parseRelease(val)
		case "replacement":
			p := strings.Split(val, ",")
			if len(p) != 3 {
				return tl, true, fmt.Errorf("replacement %q is not group,version,kind", val)
			}
			tl.replacement = schema.GroupVersionKind{Group: p[0], Version: p[1], Kind: p[2]}
		default:
			err = fmt.Errorf("unknown tag %s:%s", lifecycleTag, key)
		}
		if err != nil {
			return tl, true, err
		}
	}
	if !tagged {
		return tl, false, nil
	}
	if tl.introduced == (release{}) {
		return tl, true, fmt.Errorf("%s:introduced is missing", lifecycleTag)
	}
	if prerelease {
		if tl.deprecated == (release{}) {
			tl.deprecated = release{tl.introduced.major, tl.introduced.minor + 3}
		}
		if tl.removed == (release{}) {
			tl.removed = release{tl.deprecated.major, tl.deprecated.minor + 3}
		}
	}
	return tl, true, nil
}

// generatedLifecycle reads the APILifecycle* methods of a
// zz_generated.prerelease-lifecycle.go file by receiver type.
func generatedLifecycle(f *ast.File) (map[string]typeLifecycle, error) {
	out := map[string]typeLifecycle{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil || len(fn.Body.List) != 1 {
			continue
		}
		star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		id, ok := star.X.(*ast.Ident)
		ret, ok2 := fn.Body.List[0].(*ast.ReturnStmt)
		if !ok || !ok2 {
			continue
		}
		tl := out[id.Name]
		var err error
		switch fn.Name.Name {
		case "APILifecycleIntroduced":
			tl.introduced, err = returnedRelease(ret)
		case "APILifecycleDeprecated":
			tl.deprecated, err = returnedRelease(ret)
		case "APILifecycleRemoved":
			tl.removed, err = returnedRelease(ret)
		case "APILifecycleReplacement":
			tl.replacement, err = returnedGVK(ret)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", id.Name, fn.Name.Name, err)
		}
		out[id.Name] = tl
	}
	return out, nil
}

func returnedRelease(ret *ast.ReturnStmt) (release, error) {
	if len(ret.Results) != 2 {
		return release{}, fmt.Errorf("not return major, minor")
	}
	var n [2]int
	for i, r := range ret.Results {
		lit, ok := r.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return release{}, fmt.Errorf("not return major, minor")
		}
		v, err := strconv.Atoi(lit.Value)
		if err != nil {
			return release{}, err
		}
		n[i] = v
	}
	return release{n[0], n[1]}, nil
}

func returnedGVK(ret *ast.ReturnStmt) (schema.GroupVersionKind, error) {
	var g schema.GroupVersionKind
	if len(ret.Results) != 1 {
		return g, fmt.Errorf("not return schema.GroupVersionKind{...}")
	}
	lit, ok := ret.Results[0].(*ast.CompositeLit)
	if !ok {
		return g, fmt.Errorf("not return schema.GroupVersionKind{...}")
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return g, fmt.Errorf("unkeyed field")
		}
		k, ok1 := kv.Key.(*ast.Ident)
		v, ok2 := kv.Value.(*ast.BasicLit)
		if !ok1 || !ok2 || v.Kind != token.STRING {
			return g, fmt.Errorf("field is not a string literal")
		}
		s, err := strconv.Unquote(v.Value)
		if err != nil {
			return g, err
		}
		switch k.Name {
		case "Group":
			g.Group = s
		case "Version":
			g.Version = s
		case "Kind":
			g.Kind = s
		}
	}
	return g, nil
}

// commentsBetween returns the lines, "//" and spaces trimmed, of the
// comment groups of f between from and to: a type's doc comment and the
// tag block above it, which go/parser does not attach to the type when a
// blank line separates them (as in most of k8s.io/api).
func commentsBetween(f *ast.File, from, to token.Pos) []string {
	var out []string
	for _, cg := range f.Comments {
		if cg.Pos() <= from || cg.End() >= to {
			continue
		}
		for _, c := range cg.List {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
		}
	}
	return out
}

func hasLine(cg *ast.CommentGroup, line string) bool {
	for _, c := range cg.List {
		if strings.TrimSpace(strings.TrimPrefix(c.Text, "//")) == line {
			return true
		}
	}
	return false
}

// groupName returns the package's GroupName constant.
func groupName(f *ast.File) (string, bool) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name != "GroupName" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						return s, true
					}
				}
			}
		}
	}
	return "", false
}

// LifecycleSources returns the sources of BuildLifecycle for k8s.io/api
// and k8s.io/kube-aggregator (released together, with the same version
// numbers) at each of versions, newest first.
func LifecycleSources(versions []string) ([]LifecycleSource, error) {
	var out []LifecycleSource
	for _, v := range versions {
		v = strings.TrimSpace(v)
		for _, m := range []struct{ path, pattern string }{
			{"k8s.io/api", "*/*"},
			{"k8s.io/kube-aggregator", "pkg/apis/apiregistration/*"},
		} {
			dir, err := ModuleDir(m.path, v)
			if err != nil {
				return nil, err
			}
			out = append(out, LifecycleSource{Module: m.path + "@" + v, Root: dir, Pattern: m.pattern})
		}
	}
	return out, nil
}
