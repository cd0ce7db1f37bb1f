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
	"kdv.dev/builtin/internal/gates"
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
// k8s.io/api v0.36), and only those with a removal release. A version a
// newer module deleted before its computed removal (an alpha version
// replaced early, such as resource.k8s.io/v1alpha3 in v0.32) is removed
// at the release of the first newer source that lacks it: no apiserver
// serves a version its k8s.io/api has no types for.
//
// The releases are computed as k8s.io/code-generator's
// prerelease-lifecycle-gen computes them: in a prerelease (alpha or beta)
// version, deprecated defaults to introduced + 3 minors and removed to
// deprecated + 3; a GA version has only what its tags say. Each package's
// zz_generated.prerelease-lifecycle.go, that generator's output which the
// apiserver compiles, must agree with the result, or BuildLifecycle fails:
// the data is what the apiserver's deprecation filter reads. Methods
// written by hand in the package's other files (k8s.io/api core/v1
// lifecycle.go) complete the generated ones, as they do in the compiled
// type; a tagged type without any method is left out, with a note on
// stderr.
func BuildLifecycle(sources []LifecycleSource) ([]byte, error) {
	seen := map[schema.GroupVersionKind]bool{}
	var kinds []datafile.LifecycleKind
	var names []string
	newer := map[string]string{} // module path -> the version read last
	for _, src := range sources {
		path, version, _ := strings.Cut(src.Module, "@")
		lacking := newer[path] // the oldest newer release lacking what is new here
		older := lacking != ""
		newer[path] = version
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
					if older {
						gone, err := stagingRelease(lacking)
						if err != nil {
							return nil, fmt.Errorf("%s: %w", src.Module, err)
						}
						if k.Removed == "" || gates.VersionLess(gone, k.Removed) {
							k.Removed = gone
						}
					}
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
		// the package's GroupName constant
		if g, ok := stringConsts([]*ast.File{f})["GroupName"]; ok {
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
	fromCode := map[string]*lifecycleMethods{}
	if err := readLifecycleMethods(generated, fromCode); err != nil {
		return nil, err
	}
	// Methods written by hand next to the generated ones (k8s.io/api
	// core/v1 lifecycle.go: ComponentStatus deprecated in 1.19, Endpoints
	// in 1.33): the compiled type has both sets, the apiserver reads both.
	byHand := map[string]*lifecycleMethods{}
	for _, f := range files {
		if err := readLifecycleMethods(f, byHand); err != nil {
			return nil, err
		}
	}
	for name, tl := range fromTags {
		gm, ok := fromCode[name]
		if !ok {
			if _, ok := byHand[name]; !ok {
				// Tagged, but no methods: the apiserver has no
				// lifecycle for it, nor does kdv.
				fmt.Fprintf(os.Stderr, "genlifecycle: %s %s: tagged, but has no APILifecycle methods: left out\n", label, name)
			}
			continue
		}
		if want := gm.masked(tl); gm.tl != want {
			return nil, fmt.Errorf("type %s: the tags give %+v, zz_generated.prerelease-lifecycle.go %+v", name, want, gm.tl)
		}
	}
	for name := range fromCode {
		if _, ok := fromTags[name]; !ok {
			return nil, fmt.Errorf("type %s: in zz_generated.prerelease-lifecycle.go without tags", name)
		}
	}
	var out []datafile.LifecycleKind
	for name, hm := range byHand {
		if gm, ok := fromCode[name]; ok {
			if gm.has&hm.has != 0 {
				return nil, fmt.Errorf("type %s: a method both generated and written by hand", name)
			}
			fromCode[name] = &lifecycleMethods{tl: gm.merge(hm), has: gm.has | hm.has}
		} else {
			fromCode[name] = hm
		}
	}
	for name, m := range fromCode {
		tl := m.tl
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
	return out, nil
}

// lifecycleMethods are the APILifecycle* methods of one type: their values
// and which exist.
type lifecycleMethods struct {
	tl  typeLifecycle
	has uint8 // hasIntroduced | ...
}

const (
	hasIntroduced = 1 << iota
	hasDeprecated
	hasRemoved
	hasReplacement
)

// masked returns tl with the values of the methods m lacks cleared.
func (m *lifecycleMethods) masked(tl typeLifecycle) typeLifecycle {
	if m.has&hasIntroduced == 0 {
		tl.introduced = release{}
	}
	if m.has&hasDeprecated == 0 {
		tl.deprecated = release{}
	}
	if m.has&hasRemoved == 0 {
		tl.removed = release{}
	}
	if m.has&hasReplacement == 0 {
		tl.replacement = schema.GroupVersionKind{}
	}
	return tl
}

// merge returns m's values completed with o's methods.
func (m *lifecycleMethods) merge(o *lifecycleMethods) typeLifecycle {
	tl := m.tl
	if o.has&hasIntroduced != 0 {
		tl.introduced = o.tl.introduced
	}
	if o.has&hasDeprecated != 0 {
		tl.deprecated = o.tl.deprecated
	}
	if o.has&hasRemoved != 0 {
		tl.removed = o.tl.removed
	}
	if o.has&hasReplacement != 0 {
		tl.replacement = o.tl.replacement
	}
	return tl
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

// readLifecycleMethods reads the APILifecycle* methods of a file into out,
// by receiver type. A method whose body is not one return of constants is
// an error: its value would be unknown.
func readLifecycleMethods(f *ast.File, out map[string]*lifecycleMethods) error {
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 || !strings.HasPrefix(fn.Name.Name, "APILifecycle") {
			continue
		}
		star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		id, ok := star.X.(*ast.Ident)
		if !ok {
			continue
		}
		if fn.Body == nil || len(fn.Body.List) != 1 {
			return fmt.Errorf("%s.%s: not a single return", id.Name, fn.Name.Name)
		}
		ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
		if !ok {
			return fmt.Errorf("%s.%s: not a single return", id.Name, fn.Name.Name)
		}
		m := out[id.Name]
		if m == nil {
			m = &lifecycleMethods{}
		}
		var err error
		switch fn.Name.Name {
		case "APILifecycleIntroduced":
			m.tl.introduced, err = returnedRelease(ret)
			m.has |= hasIntroduced
		case "APILifecycleDeprecated":
			m.tl.deprecated, err = returnedRelease(ret)
			m.has |= hasDeprecated
		case "APILifecycleRemoved":
			m.tl.removed, err = returnedRelease(ret)
			m.has |= hasRemoved
		case "APILifecycleReplacement":
			m.tl.replacement, err = returnedGVK(ret)
			m.has |= hasReplacement
		default:
			return fmt.Errorf("%s.%s: unknown lifecycle method", id.Name, fn.Name.Name)
		}
		if err != nil {
			return fmt.Errorf("%s.%s: %w", id.Name, fn.Name.Name, err)
		}
		out[id.Name] = m
	}
	return nil
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

// APIVersions are the k8s.io/api (and k8s.io/kube-aggregator) releases of
// the embedded Kubernetes releases 1.30 to 1.37, newest first: the sources
// of builtin/data/lifecycle.json.
var APIVersions = []string{"v0.37.2", "v0.36.6", "v0.35.10", "v0.34.4", "v0.33.13", "v0.32.13", "v0.31.14", "v0.30.14"}

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

// stagingRelease returns the Kubernetes release "1.Y" of a staging module
// version "v0.Y.Z".
func stagingRelease(v string) (string, error) {
	var y, z int
	if _, err := fmt.Sscanf(v, "v0.%d.%d", &y, &z); err != nil {
		return "", fmt.Errorf("version %q is not v0.Y.Z", v)
	}
	return fmt.Sprintf("1.%d", y), nil
}
