package resource

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
	kdvschema "kdv.dev/schema"
)

// LoadCRDs reads CustomResourceDefinitions from files and directories (--crds; "-" reads
// stdin) and registers every served version. Documents that are not CRDs are ignored (CRD
// directories often hold kustomizations too), but a path holding no CRD at all is an error.
//
// One bad source never stops the others: a path that cannot be read, a document that does
// not decode, a CRD that cannot be parsed or converted, is an error naming its file, line
// and reason, and everything else is still registered. The registry remembers each failure
// so that the objects it leaves without a schema say why: a CRD whose group and kind can be
// read rejects that kind, with the reason; otherwise (a YAML syntax error, an unreadable
// file) every kind left without a schema names the failure as a possible cause. It returns
// the number of CRDs registered and the errors joined.
func LoadCRDs(reg *Registry, paths []string, stdin io.Reader) (int, error) {
	var docs []manifest.Document
	var errs []error
	found := make([]bool, len(paths)) // a path holds a CRD document, or a broken one
	var from []int                    // docs[i] comes from paths[from[i]]
	for i, p := range paths {
		d, err := manifest.Read([]string{p}, stdin, manifest.Options{})
		if err != nil {
			errs = append(errs, err)
			eachError(err, func(e error) { reg.unloaded(describeFailure(e)) })
		}
		docs = append(docs, d...)
		for range d {
			from = append(from, i)
		}
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
			reg.unloaded(describeFailure(d.Err))
			found[from[i]] = true // it may have been one; its error says enough
			continue
		}
		if out[i] == nil {
			continue
		}
		found[from[i]] = true
		loc := fmt.Sprintf("%s:%d", d.File, d.Line)
		crd, err := out[i].crd, out[i].err
		if err == nil {
			err = reg.AddCRD(crd, loc)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", loc, err))
			why := fmt.Sprintf("the CustomResourceDefinition at %s could not be loaded: %v", loc, err)
			if gk, ok := crdGroupKind(d.Object); ok {
				reg.Reject(gk, why)
			} else {
				reg.unloaded(why)
			}
			continue
		}
		n++
	}
	for i, p := range paths {
		if !found[i] && !hasPathError(errs, p) {
			err := fmt.Errorf("%s: no CustomResourceDefinition found", p)
			errs = append(errs, err)
			reg.unloaded(fmt.Sprintf("%s holds no CustomResourceDefinition", p))
		}
	}
	return n, errors.Join(errs...)
}

// crdGroupKind reads spec.group and spec.names.kind of a CRD object that may not parse.
func crdGroupKind(obj map[string]any) (schema.GroupKind, bool) {
	spec, _ := obj["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ := spec["group"].(string)
	kind, _ := names["kind"].(string)
	return schema.GroupKind{Group: group, Kind: kind}, group != "" && kind != ""
}

// hasPathError reports whether errs already hold a problem with path p as a whole (it is
// missing, or a directory without manifests): "no CustomResourceDefinition" would repeat it.
func hasPathError(errs []error, p string) bool {
	has := false
	for _, err := range errs {
		eachError(err, func(e error) {
			var me *manifest.Error
			if errors.As(e, &me) && me.File == p && me.Index < 0 {
				has = true
			}
		})
	}
	return has
}

// eachError calls fn with every error joined in err (errors.Join, recursively).
func eachError(err error, fn func(error)) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			eachError(e, fn)
		}
		return
	}
	if err != nil {
		fn(err)
	}
}

// describeFailure words a source's read or decode error as the reason a kind may lack a
// schema: "<file>:<line> could not be loaded: <reason>".
func describeFailure(err error) string {
	var me *manifest.Error
	if !errors.As(err, &me) {
		return "a schema could not be loaded: " + err.Error()
	}
	loc := me.File
	switch {
	case me.Line > 0:
		loc += ":" + strconv.Itoa(me.Line)
	case me.Index >= 0:
		loc += fmt.Sprintf(" (document %d)", me.Index)
	}
	return loc + " could not be loaded: " + me.Msg
}

// LoadOpenAPIDir reads every OpenAPI v3 document (.json, .yaml, .yml, in any case) below
// dir (--schemas; a file is read whatever its name) and registers the kinds they define.
// namespaced reports a kind's scope, which OpenAPI documents do not carry (nil:
// namespaced). Directories are walked as manifest.Read walks them (symbolic links followed,
// loops reported). A document that cannot be read or loaded is an error naming its file,
// and the others are still registered; kinds left without a schema name the failures as a
// possible cause, as with LoadCRDs.
func LoadOpenAPIDir(reg *Registry, dir string, namespaced func(schema.GroupVersionKind) bool) (int, error) {
	files, err := manifest.FilesMatching([]string{dir}, func(name string) bool {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".json", ".yaml", ".yml":
			return true
		}
		return false
	})
	var errs []error
	if err != nil {
		errs = append(errs, err)
		eachError(err, func(e error) { reg.unloaded(describeFailure(e)) })
	}
	kinds := 0
	for _, f := range files {
		data, err := readOpenAPIFile(f)
		if err != nil {
			err = &manifest.Error{File: f, Index: -1, Item: -1, Msg: unwrapPath(err).Error()}
			errs = append(errs, err)
			reg.unloaded(describeFailure(err))
			continue
		}
		doc, err := kdvschema.LoadOpenAPIDocument(f, data)
		if err == nil {
			err = reg.AddOpenAPI(doc, namespaced)
		}
		if err != nil {
			errs = append(errs, err)
			reg.unloaded("the OpenAPI document " + err.Error())
			continue
		}
		kinds += len(doc.GVKs())
	}
	return kinds, errors.Join(errs...)
}

// MaxOpenAPIFileBytes bounds the size of one --schemas file. It is kdv's
// limit: an apiserver's whole /openapi/v3 document for a group-version is
// a few MB (api/v1 of Kubernetes 1.37 is 2.1 MB, the whole swagger.json
// about 4 MB), and a file is decoded whole, at several times its size.
const MaxOpenAPIFileBytes = 64 << 20

// errTooLarge is the error of a file over MaxOpenAPIFileBytes.
var errTooLarge = fmt.Errorf("larger than %d MiB (resource.MaxOpenAPIFileBytes)", MaxOpenAPIFileBytes>>20)

// readOpenAPIFile reads a --schemas file of at most MaxOpenAPIFileBytes,
// checking the size before reading (a regular file) and while reading
// (one that grows, or a named pipe given by name).
func readOpenAPIFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > MaxOpenAPIFileBytes {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxOpenAPIFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxOpenAPIFileBytes {
		return nil, errTooLarge
	}
	return data, nil
}

// unwrapPath drops a *fs.PathError's operation and path: the caller names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
