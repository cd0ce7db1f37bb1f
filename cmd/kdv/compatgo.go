package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"kdv.dev/compat"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
)

// loadCompatSide reads one side of kdv compat: CRD and OpenAPI files and
// directories through compat.Load, Go packages (see isGoPackageArg) through
// kdv's generator. The Go loading lives here, not in compat, so that compat
// stays free of idl and generate (it links into validating programs).
func loadCompatSide(arg string, stdin io.Reader, stderr io.Writer) (*compat.API, error) {
	if !isGoPackageArg(arg) {
		return compat.Load([]string{arg}, stdin)
	}
	api, err := loadGoAPI(arg, stderr)
	if api == nil {
		api = compat.NewAPI()
	}
	return api, err
}

// isGoPackageArg says whether a compat argument names Go packages: "-" and
// existing files are manifests; a pattern ending in /... is a Go package
// pattern, and so is a missing path that looks like an import path (not
// starting with . or /, no .yaml, .yml or .json extension, a first element
// that is not a local directory), so that a mistyped file name is reported
// as missing; a directory is a Go package when it holds .go files and no
// .yaml, .yml or .json file directly.
func isGoPackageArg(arg string) bool {
	if arg == "-" {
		return false
	}
	if strings.HasSuffix(arg, "/...") || arg == "..." {
		return true
	}
	fi, err := os.Stat(arg)
	if err != nil {
		switch strings.ToLower(filepath.Ext(arg)) {
		case ".yaml", ".yml", ".json":
			return false
		}
		if strings.HasPrefix(arg, ".") || filepath.IsAbs(arg) {
			return false
		}
		first, _, _ := strings.Cut(filepath.ToSlash(arg), "/")
		_, err := os.Stat(first)
		return err != nil
	}
	if !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(arg)
	if err != nil {
		return false
	}
	goFiles := false
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".go":
			goFiles = goFiles || !e.IsDir()
		case ".yaml", ".yml", ".json":
			return false
		}
	}
	return goFiles
}

// loadGoAPI generates the CRDs of Go packages in memory, as kdv gen crd
// does (with kdv's k8s.io/api overlay); packages without CRD kinds give
// their OpenAPI documents instead, as kdv gen openapi does. A directory
// (or dir/...) outside the current module is loaded from its own module:
// go list runs in it.
func loadGoAPI(pattern string, stderr io.Writer) (*compat.API, error) {
	opts := idl.Options{}
	if p, ok := localPattern(pattern); ok {
		opts.Dir, pattern = p.dir, p.pattern
	}
	overlays, err := loadOverlays(nil, true)
	if err != nil {
		return nil, err
	}
	opts.Overlays = overlays
	u, err := idl.Load(opts, pattern)
	if err != nil {
		return nil, fmt.Errorf("loading Go packages %s: %w", pattern, err)
	}
	for _, w := range u.Warnings() {
		fmt.Fprintln(stderr, "kdv: warning:", w)
	}
	if len(u.Packages) == 0 {
		return nil, fmt.Errorf("%s: not a file or directory, and no Go package matches it%s", pattern, moduleHint())
	}
	src := "Go packages " + pattern
	if opts.Dir != "" {
		src = "Go packages " + filepath.Join(opts.Dir, pattern)
	}
	api := compat.NewAPI()
	crds, _, err := openapi.CRDs(u, openapi.Options{CRD: true})
	if err != nil {
		return nil, fmt.Errorf("%s: generating CRDs: %w", src, err)
	}
	var errs []error
	for _, c := range crds {
		if err := api.AddCRD(c, src+" (kdv gen crd):0"); err != nil {
			errs = append(errs, err)
		}
	}
	if len(crds) > 0 {
		return api, errors.Join(errs...)
	}
	res, err := openapi.Generate(u, openapi.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: generating OpenAPI: %w", src, err)
	}
	for _, d := range res.Documents {
		b, err := json.Marshal(d)
		if err == nil {
			err = api.AddOpenAPI(src+" (kdv gen openapi "+d.GroupVersion()+")", b)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", src, d.GroupVersion(), err))
		}
	}
	if len(api.Kinds) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no CRD or kind generated (no +groupName, no kind)", src))
	}
	return api, errors.Join(errs...)
}

type goPattern struct{ dir, pattern string }

// localPattern turns a directory pattern (dir, dir/...) into the directory
// go list runs in and the pattern relative to it, so that a checkout in
// another module (an old release next to the working tree) loads from its
// own go.mod.
func localPattern(pattern string) (goPattern, bool) {
	base, rec := strings.CutSuffix(pattern, "/...")
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return goPattern{}, false
	}
	p := "."
	if rec {
		p = "./..."
	}
	return goPattern{dir: base, pattern: p}, true
}
