// Package coverage measures how much of k8s.io/kubernetes's hand-written
// validation kdv's rule overlay declares: it lists every error call site
// (field.Invalid, field.Required, ...) of the validation functions reachable
// from a kind's Validate* entry points and matches each to the overlay rules
// that cite its function. The results are the coverage tables of issue 12
// (bench/COVERAGE.md: Pods and workloads) and issue 13
// (bench/COVERAGE-OTHER.md: every other served kind), the measure of
// progress of the built-in rules.
//
// Matching is by data, not by hand: a site is declared when an overlay
// entry whose source line names the site's function produces an error of
// the same type on the same field (the site's last Child name; the rule's
// field, fieldPath or unique key) with the same detail when both give a
// literal one. Sites that data cannot say are listed with a reason in an
// exceptions file. Errors built in other packages (apimachinery's
// ValidateLabelSelector, ValidateNonnegativeField, ...) are counted at the
// call of the error constructor only when it is in the scanned packages.
package coverage

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/idl"
)

// fieldPkg is the import path of the field error constructors.
const fieldPkg = "k8s.io/apimachinery/pkg/util/validation/field"

// constructors maps field's error constructors to the error type they build.
var constructors = map[string]string{
	"Invalid": "Invalid", "Required": "Required", "Duplicate": "Duplicate",
	"NotFound": "NotFound", "NotSupported": "NotSupported", "Forbidden": "Forbidden",
	"TooLong": "TooLong", "TooLongMaxLength": "TooLong", "TooMany": "TooMany",
	"TypeInvalid": "TypeInvalid",
}

// Site is one error call site of the hand-written validation.
type Site struct {
	Package string // import path suffix, e.g. pkg/apis/core/validation
	File    string // base name
	Line    int
	Func    string // enclosing function (method: Recv.Name)
	Type    string // error type: Invalid, Required, ...
	Field   string // the last Child name of the error's path, "" when none
	Detail  string // the detail when a string literal or a Sprintf format, else ""
	// Helper is the apimachinery helper that builds the error, when the
	// site is a call of one (ValidateNonnegativeField, ...).
	Helper string
	// Rule is the overlay entry declaring the site ("file:line"), or "".
	Rule string
	// Exception is why the site is not declarable, or "".
	Exception string
	// Category is the exception's category (Categories), or "".
	Category string
}

// Rule is what one overlay entry declares, for matching.
type Rule struct {
	Funcs []string // functions its source line cites
	// Package is the directory of the k8s.io/kubernetes file its source
	// line cites (pkg/apis/admissionregistration/validation), "" when it
	// cites another module: functions of the same name in two packages
	// (convertCELErrorToValidationError) are different sites.
	Package string
	Type    string // error type it reports
	Field   string // field it reports on ("" = the type's own path)
	Message string // its message, "" when none
	// Computed is true for a rule whose message is a messageExpression:
	// it may be any detail.
	Computed bool
	Pos      string // overlay file:line
}

// Scope names the packages to scan and the entry points of the kinds in
// scope; functions are followed through calls within the packages.
type Scope struct {
	// Packages are directories relative to the k8s.io/kubernetes module
	// root, each with its import path suffix.
	Packages []string
	// Roots are "<package>.<Func>" entry points.
	Roots []string
	// Whole are packages (of Packages) every function of which is an
	// entry point: packages whose kinds are all in scope.
	Whole []string
	// Dirs maps packages of other modules, named in Packages by import
	// path (k8s.io/kube-aggregator/pkg/apis/apiregistration/validation),
	// to their directories.
	Dirs map[string]string
}

// Analyze scans the packages of scope under root (the k8s.io/kubernetes
// module directory) and returns the error sites of the functions reachable
// from the roots, in package, file and line order.
func Analyze(root string, scope Scope) ([]Site, error) {
	type fn struct {
		pkg  string
		decl *ast.FuncDecl
		file *ast.File
		fset *token.FileSet
	}
	funcs := map[string]*fn{} // "<pkg>.<name>"
	imports := map[*ast.File]map[string]string{}
	fset := token.NewFileSet()
	for _, pkg := range scope.Packages {
		dir := filepath.Join(root, pkg)
		if d, ok := scope.Dirs[pkg]; ok {
			dir = d
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			n := e.Name()
			if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
			if err != nil {
				return nil, err
			}
			imp := map[string]string{}
			for _, is := range f.Imports {
				p, _ := strconv.Unquote(is.Path.Value)
				name := p[strings.LastIndex(p, "/")+1:]
				if is.Name != nil {
					name = is.Name.Name
				}
				imp[name] = p
			}
			imports[f] = imp
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				funcs[pkg+"."+funcName(fd)] = &fn{pkg: pkg, decl: fd, file: f, fset: fset}
			}
		}
	}
	// reachable functions, following calls to functions of the scanned
	// packages (by name in the same package, by import path across them)
	seen := map[string]bool{}
	queue := append([]string(nil), scope.Roots...)
	for k, f := range funcs {
		for _, w := range scope.Whole {
			if f.pkg == w {
				queue = append(queue, k)
			}
		}
	}
	sort.Strings(queue[len(scope.Roots):])
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		f := funcs[k]
		if f == nil || seen[k] {
			continue
		}
		seen[k] = true
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if _, ok := helpers[x.Name]; ok {
					return true
				}
				if _, ok := funcs[f.pkg+"."+x.Name]; ok {
					queue = append(queue, f.pkg+"."+x.Name)
				}
			case *ast.SelectorExpr:
				if _, ok := helpers[x.Sel.Name]; ok {
					return true
				}
				if id, ok := x.X.(*ast.Ident); ok {
					p := imports[f.file][id.Name]
					for _, sp := range scope.Packages {
						if strings.HasSuffix(p, "/"+sp) {
							queue = append(queue, sp+"."+x.Sel.Name)
						}
					}
				}
			}
			return true
		})
	}
	var sites []Site
	for k := range seen {
		f := funcs[k]
		fieldAlias := ""
		for a, p := range imports[f.file] {
			if p == fieldPkg {
				fieldAlias = a
			}
		}
		if fieldAlias == "" {
			continue
		}
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if h, name, ok := helperCall(call); ok && len(call.Args) > h.pathArg {
				// a call of an apimachinery helper that builds the error
				pos := f.fset.Position(call.Pos())
				sites = append(sites, Site{Package: f.pkg, File: filepath.Base(pos.Filename), Line: pos.Line, Func: funcName(f.decl), Type: h.typ, Field: lastChild(call.Args[h.pathArg]), Detail: h.detail, Helper: name})
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok || id.Name != fieldAlias {
				return true
			}
			typ, ok := constructors[sel.Sel.Name]
			if !ok || len(call.Args) == 0 {
				return true
			}
			pos := f.fset.Position(call.Pos())
			s := Site{Package: f.pkg, File: filepath.Base(pos.Filename), Line: pos.Line, Func: funcName(f.decl), Type: typ, Field: lastChild(call.Args[0])}
			if d := detailArg(sel.Sel.Name, call.Args); d != nil {
				s.Detail = literalOrFormat(d)
			}
			sites = append(sites, s)
			return true
		})
	}
	sort.Slice(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return sites, nil
}

// helper is an apimachinery validation helper whose call is an error site.
type helper struct {
	typ, detail string
	pathArg     int
}

// helpers are the helpers counted at their call: they build one error at
// the path they are given (core's wrappers of them are not followed).
var helpers = map[string]helper{
	"ValidateNonnegativeField": {"Invalid", "must be greater than or equal to 0", 1},
	"ValidateImmutableField":   {"Invalid", "field is immutable", 2},
}

// helperCall reports whether call calls one of helpers (by name, directly
// or through a package).
func helperCall(call *ast.CallExpr) (helper, string, bool) {
	name := ""
	switch f := call.Fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	h, ok := helpers[name]
	return h, name, ok
}

// funcName is a function's name, Recv.Name for methods.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// lastChild returns the name of the last .Child("x") in a path expression
// (fldPath.Child("spec").Child("replicas") gives "replicas"), "" when the
// path ends otherwise (Index, a variable).
func lastChild(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch sel.Sel.Name {
	case "Child":
		if len(call.Args) == 0 {
			return ""
		}
		if lit, ok := call.Args[len(call.Args)-1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			// Child("ordinals.start") names the path ordinals.start
			return s[strings.LastIndex(s, ".")+1:]
		}
	case "Index", "Key":
		return lastChild(sel.X)
	}
	return ""
}

// Rules returns what the overlay entries declare, for matching: entries
// with a validation meaning (rules, value validations, formats, unique
// keys), each with the functions its source line cites.
func Rules(overlays []*idl.Overlay) []Rule {
	var out []Rule
	// the x-kubernetes-validation-errors overrides per package, type,
	// field and keyword, and the keywords the overlays declare: an
	// override applies to the property's keyword whichever overlay file
	// of the package declares either (a list's "uniqueKey" override to a
	// unique key added in another file)
	type key struct{ pkg, typ, field, kw string }
	over := map[key]*idl.Tag{}
	declared := map[key]bool{}
	for _, o := range overlays {
		for _, e := range o.Entries() {
			if e.Tag.Name == "validationError" {
				kw, _ := e.Tag.Arg("keyword")
				over[key{o.Package, e.Type, e.Field, kw}] = e.Tag
			}
			declared[key{o.Package, e.Type, e.Field, e.Tag.Name}] = true
		}
	}
	for _, o := range overlays {
		for _, e := range o.Entries() {
			t := e.Tag
			// a rule on the items of a list (validation:items:, eachVal)
			// declares what its payload declares
			for t.Name == "eachVal" && t.Payload != nil {
				t = t.Payload
			}
			r := Rule{Funcs: citedFuncs(t.Source), Package: citedPackage(t.Source), Field: e.Field, Pos: fmt.Sprintf("%s:%d", filepath.Base(o.Name), t.Pos.Line)}
			kw := t.Name
			switch t.Name {
			case "validationError":
				// The message of a keyword the schema has from the upstream
				// types (k8s.io/api's +required, +enum), not from the
				// overlay: the entry declares the site that keyword's
				// error mirrors. Overrides of the overlay's own keywords
				// are applied to those below.
				kw, _ = t.Arg("keyword")
				if declared[key{o.Package, e.Type, e.Field, kw}] {
					continue
				}
				switch kw {
				case "required":
					r.Type = "Required"
				case "enum":
					r.Type = "NotSupported"
				case "type":
					// every typed node has one (a RawExtension's object
					// type, which decoding leaves to validation)
					r.Type = "Invalid"
				default:
					continue
				}
			case "validationRule":
				r.Type = reasonType(argOr(t, "reason", ""))
				r.Message = argOr(t, "message", "")
				_, r.Computed = t.Arg("messageExpression")
				if _, ok := t.Arg("diff"); ok && r.Message != "" {
					// x-kubernetes-diff ends the message with a newline
					// and the diff of the old and new values, as the
					// hand-written "...%s\n%v" with diff.Diff does
					r.Message += "\n%v"
				}
				if fp := argOr(t, "fieldPath", ""); fp != "" {
					// "<value path> as <reported path>" reports at the
					// reported path (a trailing list index or map key
					// is not a Child)
					if i := strings.LastIndex(fp, " as ."); i >= 0 {
						fp = fp[i+len(" as"):]
						if j := strings.LastIndex(fp, "["); j > 0 && strings.HasSuffix(fp, "]") && !strings.HasSuffix(fp, "']") {
							fp = fp[:j]
						}
					}
					// a wildcard path (".clusterIPs[*]") reports at the item,
					// whose field is the list's; a map's keys (".options[@]")
					// at the key, whose field is the map's
					fp = strings.TrimSuffix(strings.TrimSuffix(fp, "[*]"), "[@]")
					// a map key (".annotations['a.b/c']") reports at the
					// map, whose field is the site's last Child
					if i := strings.Index(fp, "['"); i >= 0 && strings.HasSuffix(fp, "']") {
						fp = fp[:i]
					}
					r.Field = fp[strings.LastIndexAny(fp, ".'")+1:]
				}
			case "uniqueKey":
				// "nodePort+protocol" reports at the qualified key
				k, _, _ := strings.Cut(t.Value, "+")
				r.Type, r.Field = "Duplicate", k
			case "listType":
				// a set reports a repeated item as Duplicate at list[i]
				// (what the hand-written "seen" loops over scalars report);
				// maps and atomic lists check nothing
				if t.Value != "set" {
					continue
				}
				r.Type = "Duplicate"
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
				"minItems", "maxItems", "maxProperties", "pattern", "format", "enum", "multipleOf":
				r.Type = "Invalid"
				if t.Name == "enum" {
					r.Type = "NotSupported"
				}
				if t.Name == "maxLength" {
					r.Type = "TooLong"
				}
				// a map's size bound reports Too many, as a list's
				if t.Name == "maxItems" || t.Name == "maxProperties" {
					r.Type = "TooMany"
				}
			default:
				continue
			}
			if r.Message == "" {
				r.Message = impliedMessage[t.Name]
			}
			if v, ok := over[key{o.Package, e.Type, e.Field, kw}]; ok {
				if m, ok := v.Arg("message"); ok {
					r.Message = m
				}
				if rs, ok := v.Arg("reason"); ok {
					r.Type = reasonType(rs)
				}
			}
			if r.Message == r.Type+" value" || r.Message == "Required value" && r.Type == "Required" {
				r.Message = ""
			}
			out = append(out, r)
			if t.Name == "format" && r.Type == "Invalid" {
				// a named format is Go code mirroring its function,
				// length bound included (field.TooLong, as
				// k8s-trust-bundle's 1 MiB)
				tl := r
				tl.Type, tl.Message = "TooLong", ""
				out = append(out, tl)
			}
		}
	}
	return out
}

func argOr(t *idl.Tag, name, def string) string {
	if v, ok := t.Arg(name); ok {
		return v
	}
	return def
}

// impliedMessage is the detail a value validation's error carries when no
// x-kubernetes-validation-errors message overrides it (the part that
// matters for matching: which bound).
var impliedMessage = map[string]string{
	"minimum": "must be greater than or equal to %v", "maximum": "must be less than or equal to %v",
	"exclusiveMinimum": "must be greater than %v", "exclusiveMaximum": "must be less than %v",
}

// reasonType maps a rule's reason to the error type it reports.
func reasonType(reason string) string {
	r := strings.TrimPrefix(reason, "FieldValue")
	if r == "" {
		return "Invalid"
	}
	return r
}

// citedFuncs returns the function names a source line cites:
// "k8s.io/kubernetes pkg/apis/core/validation/validation.go F1, F2 (note)"
// gives F1 and F2.
func citedFuncs(source string) []string {
	if i := strings.Index(source, "("); i >= 0 {
		source = source[:i]
	}
	f := strings.Fields(source)
	if len(f) < 3 {
		return nil
	}
	var out []string
	for _, x := range f[2:] {
		x = strings.Trim(x, ",")
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// citedPackage returns the directory of the k8s.io/kubernetes file a
// source line cites ("k8s.io/kubernetes pkg/apis/core/validation/validation.go
// F" gives pkg/apis/core/validation), or "" for other modules.
func citedPackage(source string) string {
	f := strings.Fields(source)
	if len(f) < 2 || f[0] != "k8s.io/kubernetes" || !strings.HasSuffix(f[1], ".go") {
		return ""
	}
	return filepath.ToSlash(filepath.Dir(f[1]))
}

// Match marks each site declared by the first rule that cites its
// function (in its package, when the name is defined in several and the
// rule's source names a k8s.io/kubernetes file) with the same error type, field and (when both are literal)
// detail, or excepted by exceptions ("Func Type field" keys).
func Match(sites []Site, rules []Rule, exceptions map[string]Exception) {
	// functions of the same name in several packages: a rule declares the
	// one of the package its source cites (others are cited by name from
	// any package's file: core's helpers called by storage, ...)
	pkgs := map[string]map[string]bool{}
	for _, s := range sites {
		if pkgs[s.Func] == nil {
			pkgs[s.Func] = map[string]bool{}
		}
		pkgs[s.Func][s.Package] = true
	}
	for i := range sites {
		s := &sites[i]
		// a rule with a computed message declares a site only when no
		// rule with a literal one does (it matches any detail)
		for _, computed := range []bool{false, true} {
			for _, r := range rules {
				if r.Computed && r.Message == "" && !computed {
					continue
				}
				if r.Type != s.Type || !contains(r.Funcs, s.Func) {
					continue
				}
				if len(pkgs[s.Func]) > 1 && r.Package != "" && r.Package != s.Package {
					continue
				}
				if r.Field != "" && s.Field != "" && r.Field != s.Field {
					continue
				}
				if s.Detail != "" && r.Message != "" && !detailMatches(s.Detail, r.Message) {
					continue
				}
				s.Rule = r.Pos
				break
			}
			if s.Rule != "" {
				break
			}
		}
		if s.Rule == "" {
			if e, ok := exceptions[ExceptionKey(*s)]; ok {
				s.Exception, s.Category = e.Reason, e.Category
			}
		}
	}
}

// ExceptionKey is the key of a site in the exceptions file.
func ExceptionKey(s Site) string {
	f := s.Field
	if f == "" {
		f = "-"
	}
	return s.Func + " " + s.Type + " " + f
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
