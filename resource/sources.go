package resource

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
	kdvschema "kdv.dev/schema"
)

// LoadCRDs reads CustomResourceDefinitions from files and directories
// (--crds; "-" reads stdin) and registers every served version. Documents that are not
// CRDs are ignored; a document that cannot be read or converted is an
// error naming its file and line, and the others are still registered. It
// returns the number of CRDs registered.
func LoadCRDs(reg *Registry, paths []string, stdin io.Reader) (int, error) {
	docs, err := manifest.Read(paths, stdin, manifest.Options{})
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	// Parsing a CRD into its typed form is most of the start-up cost of
	// --crds; CRDs are parsed in parallel and registered in input order.
	type parsed struct {
		crd *kdvschema.CRD
		err error
	}
	out := make([]*parsed, len(docs))
	parallel(len(docs), runtime.GOMAXPROCS(0), func(i int) {
		if d := &docs[i]; isCRDDocument(d) {
			crd, err := kdvschema.ParseCRDObject(d.Object)
			out[i] = &parsed{crd, err}
		}
	})
	n := 0
	for i := range docs {
		d := &docs[i]
		if d.Err != nil {
			errs = append(errs, d.Err)
			continue
		}
		if out[i] == nil {
			continue
		}
		loc := fmt.Sprintf("%s:%d", d.File, d.Line)
		crd, err := out[i].crd, out[i].err
		if err == nil {
			err = reg.AddCRD(crd, loc)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", loc, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// LoadOpenAPIDir reads every OpenAPI v3 document (.json, .yaml, .yml) below
// dir (--schemas) and registers the kinds they define. namespaced reports a
// kind's scope, which OpenAPI documents do not carry (nil: namespaced).
func LoadOpenAPIDir(reg *Registry, dir string, namespaced func(schema.GroupVersionKind) bool) (int, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".json", ".yaml", ".yml":
			if !d.IsDir() {
				files = append(files, path)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	sort.Strings(files)
	var errs []error
	kinds := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		doc, err := kdvschema.LoadOpenAPIDocument(f, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := reg.AddOpenAPI(doc, namespaced); err != nil {
			errs = append(errs, err)
			continue
		}
		kinds += len(doc.GVKs())
	}
	return kinds, errors.Join(errs...)
}
