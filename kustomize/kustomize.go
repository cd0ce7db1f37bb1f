// Package kustomize builds Kustomize kustomizations in-process, offline, for
// validation: each built object comes with the kustomization it was built by
// and the file it came from (kustomize's origin annotations), so that an
// error can point at the file a person edits.
//
// It imports sigs.k8s.io/kustomize/api, which no other runtime package
// needs; cmd/kdv hands [Build] to manifest.Options.Build.
package kustomize

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"kdv.dev/manifest"
)

// FileNames are the names kustomize looks for in a kustomization directory,
// in its order (konfig.RecognizedKustomizationFileNames).
var FileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// originKey is kustomize's origin annotation (utils.OriginAnnotationKey).
const originKey = "config.kubernetes.io/origin"

// File returns the kustomization file in dir, or "" when dir holds none.
func File(dir string) string {
	return manifest.FirstFile(dir, FileNames...)
}

// Build builds the kustomization in dir, as `kustomize build dir` does with
// its default options (no plugins, no Helm, files only under the
// kustomization's root), and returns one manifest.Built per object in
// kustomize's output order. handled is false when dir holds no kustomization.
//
// Kustomizations that need the network (remote bases or resources: URLs,
// git repositories) are an error naming the kustomization and the remote
// reference, found before building: kdv never fetches anything.
func Build(dir string) (handled bool, objs []manifest.Built, err error) {
	kfile := File(dir)
	if kfile == "" {
		return false, nil, nil
	}
	if err := checkOffline(kfile, map[string]bool{}, true); err != nil {
		return true, nil, err
	}
	abs, err := filepath.Abs(kfile)
	if err != nil {
		return true, nil, err
	}
	fs := &originFS{FileSystem: filesys.MakeFsOnDisk(), kustomization: abs}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, dir)
	if err != nil {
		return true, nil, fmt.Errorf("kustomize build: %w", err)
	}
	for _, r := range m.Resources() {
		b := manifest.Built{Via: kfile}
		if o, err := r.GetOrigin(); err == nil && o != nil {
			b.File = originFile(dir, o)
		}
		if !fs.userOrigin {
			// Added by kdv for the line mapping; not part of what the
			// user's build sends to the apiserver.
			if err := r.SetOrigin(nil); err != nil {
				return true, nil, err
			}
		}
		data, err := r.AsYAML()
		if err != nil {
			return true, nil, fmt.Errorf("kustomize build: %s: %w", r.CurId(), err)
		}
		b.Data = data
		objs = append(objs, b)
	}
	return true, objs, nil
}

// originFile is the local file an object came from, relative to where dir
// is, or "" for a generated object or one from a remote repository.
func originFile(dir string, o *resource.Origin) string {
	if o.Repo != "" || o.Path == "" || o.ConfiguredIn != "" {
		return ""
	}
	return filepath.Join(dir, o.Path)
}

// originFS is the disk with the top kustomization read as if it listed
// buildMetadata: [originAnnotations], which makes kustomize record where
// every object comes from (it reads that option from the top kustomization
// only).
type originFS struct {
	filesys.FileSystem
	kustomization string // absolute path of the top kustomization file
	userOrigin    bool   // the kustomization asks for origin annotations itself
}

// ReadFile implements filesys.FileSystem.
func (f *originFS) ReadFile(path string) ([]byte, error) {
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || filepath.Clean(path) != f.kustomization {
		return data, err
	}
	var k map[string]any
	if yaml.Unmarshal(data, &k) != nil || k == nil {
		return data, nil // kustomize reports the problem itself
	}
	meta, _ := k["buildMetadata"].([]any)
	for _, m := range meta {
		if m == "originAnnotations" {
			f.userOrigin = true
			return data, nil
		}
	}
	k["buildMetadata"] = append(meta, "originAnnotations")
	return yaml.Marshal(k)
}

// remoteFields are the kustomization fields that name other kustomizations
// or resource files, which may be remote.
var remoteFields = []string{"resources", "bases", "components"}

// checkOffline returns an error naming the first remote reference of the
// kustomization file kfile or of the local kustomizations it includes.
// seen guards against cycles, which kustomize reports itself. The errors of
// the top kustomization (top) are not prefixed with its name: the caller
// names its directory.
func checkOffline(kfile string, seen map[string]bool, top bool) error {
	if seen[kfile] {
		return nil
	}
	seen[kfile] = true
	data, err := os.ReadFile(kfile)
	if err != nil {
		return err
	}
	var k map[string]any
	if yaml.Unmarshal(data, &k) != nil {
		return nil // kustomize reports the syntax error with its own words
	}
	dir := filepath.Dir(kfile)
	var errs []error
	for _, field := range remoteFields {
		list, _ := k[field].([]any)
		for i, e := range list {
			ref, _ := e.(string)
			if isRemote(ref) {
				errs = append(errs, fmt.Errorf("%s[%d]: %q is remote; kdv builds kustomizations offline: vendor it and refer to the local copy", field, i, ref))
				continue
			}
			if sub := File(filepath.Join(dir, ref)); sub != "" {
				if err := checkOffline(sub, seen, false); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	if len(errs) > 0 && !top {
		return fmt.Errorf("%s: %w", kfile, errors.Join(errs...))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

// isRemote reports whether a resources entry is fetched rather than read:
// a URL, an scp-like git address, or a host-qualified repository path as
// kustomize's git.NewRepoSpecFromURL accepts them ("github.com/org/repo").
func isRemote(ref string) bool {
	switch {
	case strings.Contains(ref, "://"), strings.HasPrefix(ref, "git@"), strings.Contains(ref, "?ref="), strings.Contains(ref, "?version="):
		return true
	}
	host, _, _ := strings.Cut(ref, "/")
	switch host {
	case "github.com", "gitlab.com", "bitbucket.org":
		return true
	}
	return false
}
