package gendata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"kdv.dev/builtin/internal/gates"
)

// KubernetesVersion is the k8s.io/kubernetes release whose versioned
// feature specs builtin/data/featuregates.json holds first. Its specs
// describe every release it can emulate (as kube-apiserver
// --emulated-version reads them), but a gate deleted before it is unknown
// to it: OlderKubernetesVersions add those.
const KubernetesVersion = "v1.37.2"

// OlderKubernetesVersions are older k8s.io/kubernetes releases whose
// versioned specs fill in gates KubernetesVersion no longer has (mostly GA
// gates removed after their lock period, such as
// ServiceTrafficDistribution, alpha in 1.30), for the embedded releases
// 1.30 to 1.34. 1.32 is the first with every gate versioned; gates removed
// before it were GA (locked on) by 1.30.
var OlderKubernetesVersions = []string{"v1.34.4", "v1.32.13"}

// FeatureGateSources returns KubernetesVersion and OlderKubernetesVersions,
// newest first: the sources of builtin/data/featuregates.json.
func FeatureGateSources() []string {
	return append([]string{KubernetesVersion}, OlderKubernetesVersions...)
}

// FeatureGatesFrom reads the versioned feature specs of k8s.io/kubernetes
// at each of versions (newest first) and merges them: a gate's specs are
// the union of every source's specs by Version, the newest source's spec
// winning where two give the same Version, sorted by Version. Source
// names every version read.
func FeatureGatesFrom(versions []string) (*gates.Data, error) {
	var out *gates.Data
	for _, v := range versions {
		d, err := FeatureGates(v)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = d
			continue
		}
		out.Source += ", " + d.Source
		for name, specs := range d.Gates {
			out.Gates[name] = mergeSpecs(out.Gates[name], specs)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("no k8s.io/kubernetes version to read feature gates from")
	}
	return out, nil
}

// mergeSpecs adds the specs of older at versions newer does not give.
func mergeSpecs(newer, older []gates.Spec) []gates.Spec {
	have := map[string]bool{}
	for _, s := range newer {
		have[s.Version] = true
	}
	out := slices.Clone(newer)
	for _, s := range older {
		if !have[s.Version] {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b gates.Spec) int {
		switch {
		case gates.VersionLess(a.Version, b.Version):
			return -1
		case gates.VersionLess(b.Version, a.Version):
			return 1
		}
		return 0
	})
	return out
}

// gatesVar is the map of k8s.io/kubernetes pkg/features/kube_features.go
// that holds every gate the kube-apiserver knows, its own and (through
// selectors such as genericfeatures.X) those of the staging modules.
const gatesVar = "defaultVersionedKubernetesFeatureGates"

// FeatureGates reads the versioned feature specs of k8s.io/kubernetes at
// version from its Go source (module cache, downloaded when missing; the
// module is read, never imported) and returns them.
func FeatureGates(version string) (*gates.Data, error) {
	dir, err := ModuleDir("k8s.io/kubernetes", version)
	if err != nil {
		return nil, err
	}
	// Staging modules (k8s.io/apiserver, ...) are released as v0.<minor>.<patch>
	// with k8s.io/kubernetes v1.<minor>.<patch>.
	staging := "v0." + strings.TrimPrefix(version, "v1.")
	return parseFeatureGates(filepath.Join(dir, "pkg", "features"), "k8s.io/kubernetes@"+version, func(importPath string) (string, error) {
		mod, sub, ok := stagingModule(importPath)
		if !ok {
			return "", fmt.Errorf("%s: not a k8s.io staging module", importPath)
		}
		d, err := ModuleDir(mod, staging)
		if err != nil {
			return "", err
		}
		return filepath.Join(d, sub), nil
	})
}

// stagingModule splits "k8s.io/apiserver/pkg/features" into the module
// "k8s.io/apiserver" and the directory "pkg/features".
func stagingModule(importPath string) (mod, sub string, ok bool) {
	rest, ok := strings.CutPrefix(importPath, "k8s.io/")
	if !ok {
		return "", "", false
	}
	name, sub, _ := strings.Cut(rest, "/")
	return "k8s.io/" + name, sub, true
}

// BuildFeatureGates returns builtin/data/featuregates.json for the gates:
// one gate a line, sorted by name, for readable diffs.
func BuildFeatureGates(d *gates.Data) ([]byte, error) {
	var buf bytes.Buffer
	src, _ := json.Marshal(d.Source)
	fmt.Fprintf(&buf, "{\"source\":%s,\"gates\":{\n", src)
	names := make([]string, 0, len(d.Gates))
	for n := range d.Gates {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		k, _ := json.Marshal(n)
		v, err := json.Marshal(d.Gates[n])
		if err != nil {
			return nil, err
		}
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(&buf, "%s:%s%s\n", k, v, sep)
	}
	buf.WriteString("}}\n")
	return buf.Bytes(), nil
}

// parseFeatureGates reads gatesVar from the Go files of dir (the
// package's constants give the gate names), resolving selector keys
// (genericfeatures.X) through the file's imports and resolve, which
// returns the directory of an import path.
func parseFeatureGates(dir, source string, resolve func(importPath string) (string, error)) (*gates.Data, error) {
	fset := token.NewFileSet()
	files, err := parseDir(fset, dir)
	if err != nil {
		return nil, err
	}
	consts := stringConsts(files)
	var lit *ast.CompositeLit
	var file *ast.File
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name == gatesVar && i < len(vs.Values) {
						lit, _ = vs.Values[i].(*ast.CompositeLit)
						file = f
					}
				}
			}
		}
	}
	if lit == nil {
		return nil, fmt.Errorf("%s: no composite literal %s", dir, gatesVar)
	}
	imports := map[string]string{} // local name -> import path
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = p
	}
	pkgConsts := map[string]map[string]string{}
	d := &gates.Data{Source: source, Gates: map[string][]gates.Spec{}}
	pos := func(n ast.Node) string { return fset.Position(n.Pos()).String() }
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, fmt.Errorf("%s: not a key: value", pos(elt))
		}
		var name string
		switch k := kv.Key.(type) {
		case *ast.Ident:
			name, ok = consts[k.Name]
		case *ast.SelectorExpr:
			x, _ := k.X.(*ast.Ident)
			if x == nil || imports[x.Name] == "" {
				return nil, fmt.Errorf("%s: key %s: unknown package", pos(k), exprString(k))
			}
			path := imports[x.Name]
			if pkgConsts[path] == nil {
				pdir, err := resolve(path)
				if err != nil {
					return nil, err
				}
				pfiles, err := parseDir(token.NewFileSet(), pdir)
				if err != nil {
					return nil, err
				}
				pkgConsts[path] = stringConsts(pfiles)
			}
			name, ok = pkgConsts[path][k.Sel.Name]
		}
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: key %s: not a string constant", pos(kv.Key), exprString(kv.Key))
		}
		specs, err := parseSpecs(kv.Value, pos)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", name, pos(kv), err)
		}
		if _, dup := d.Gates[name]; dup {
			return nil, fmt.Errorf("%s: gate %s listed twice", pos(kv), name)
		}
		d.Gates[name] = specs
	}
	return d, nil
}

// parseSpecs reads a featuregate.VersionedSpecs literal: elements
// {Version: version.MustParse("1.35"), Default: true, PreRelease:
// featuregate.Beta, LockToDefault: true, MinCompatibilityVersion: ...}.
func parseSpecs(e ast.Expr, pos func(ast.Node) string) ([]gates.Spec, error) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("%s: specs are not a literal", pos(e))
	}
	var out []gates.Spec
	for _, elt := range lit.Elts {
		sl, ok := elt.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("%s: spec is not a literal", pos(elt))
		}
		var s gates.Spec
		for _, f := range sl.Elts {
			kv, ok := f.(*ast.KeyValueExpr)
			key, _ := kv.Key.(*ast.Ident)
			if !ok || key == nil {
				return nil, fmt.Errorf("%s: spec field is not key: value", pos(f))
			}
			var err error
			switch key.Name {
			case "Version":
				s.Version, err = mustParse(kv.Value)
			case "MinCompatibilityVersion":
				s.MinCompatibilityVersion, err = mustParse(kv.Value)
			case "Default":
				s.Default, err = boolLit(kv.Value)
			case "LockToDefault":
				s.LockToDefault, err = boolLit(kv.Value)
			case "PreRelease":
				s.PreRelease, err = preRelease(kv.Value)
			default:
				err = fmt.Errorf("unknown spec field %s", key.Name)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", pos(kv), err)
			}
		}
		if s.Version == "" || s.PreRelease == "" {
			return nil, fmt.Errorf("%s: spec without Version or PreRelease", pos(sl))
		}
		out = append(out, s)
	}
	return out, nil
}

// mustParse reads version.MustParse("1.35") (or MajorMinor(1, 35)).
func mustParse(e ast.Expr) (string, error) {
	call, ok := e.(*ast.CallExpr)
	if ok {
		switch exprString(call.Fun) {
		case "version.MustParse":
			if len(call.Args) == 1 {
				if b, ok := call.Args[0].(*ast.BasicLit); ok && b.Kind == token.STRING {
					v, err := strconv.Unquote(b.Value)
					major, minor, _ := strings.Cut(v, ".")
					minor, _, _ = strings.Cut(minor, ".")
					return major + "." + minor, err
				}
			}
		case "version.MajorMinor":
			if len(call.Args) == 2 {
				a, ok1 := call.Args[0].(*ast.BasicLit)
				b, ok2 := call.Args[1].(*ast.BasicLit)
				if ok1 && ok2 {
					return a.Value + "." + b.Value, nil
				}
			}
		}
	}
	return "", fmt.Errorf("version %s: want version.MustParse(\"X.Y\")", exprString(e))
}

func boolLit(e ast.Expr) (bool, error) {
	switch exprString(e) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%s: want true or false", exprString(e))
}

// preRelease maps featuregate.Alpha, Beta, GA, Deprecated to gates' stages.
func preRelease(e ast.Expr) (string, error) {
	switch exprString(e) {
	case "featuregate.Alpha":
		return gates.Alpha, nil
	case "featuregate.Beta":
		return gates.Beta, nil
	case "featuregate.GA":
		return gates.GA, nil
	case "featuregate.Deprecated":
		return gates.Deprecated, nil
	}
	return "", fmt.Errorf("PreRelease %s: want featuregate.Alpha, Beta, GA or Deprecated", exprString(e))
}

// exprString renders identifiers and selectors ("pkg.Name").
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// parseDir parses the non-test Go files of dir.
func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	return files, nil
}

// stringConsts returns the package's constants with string literal
// values (or conversions of one, featuregate.Feature("X")).
func stringConsts(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					v := vs.Values[i]
					// featuregate.Feature("X") is a conversion of "X".
					if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 {
						v = call.Args[0]
					}
					if b, ok := v.(*ast.BasicLit); ok && b.Kind == token.STRING {
						out[n.Name], _ = strconv.Unquote(b.Value)
					}
				}
			}
		}
	}
	return out
}
