package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Extensions are the file name endings read when walking a directory: kubectl's
// FileExtensions (k8s.io/cli-runtime/pkg/resource).
var Extensions = []string{".json", ".yaml", ".yml"}

// Files returns the files Read would read for the given paths, in the same order ("-" stays
// "-"). The error joins one *Error (Index -1) per path that does not exist or cannot be
// walked, as Read's does; the files found under the other paths are returned all the same.
func Files(paths []string) ([]string, error) {
	return FilesMatching(paths, nil)
}

// FilesMatching is Files with match choosing the files taken under a directory (files given
// by name are always taken); nil means names ending in one of Extensions.
func FilesMatching(paths []string, match func(name string) bool) ([]string, error) {
	var out []string
	var errs []error
	for _, p := range paths {
		if err := walk(p, match, func(name string) error { out = append(out, name); return nil }); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// walk calls fn for "-", a file, or each matching file under a directory, in lexical order.
//
// Symbolic links are followed, to directories too, as find -L does: a link is what it points
// to, so that a directory of manifests given as (or containing) a link is read, not silently
// taken for an empty file. A link back to a directory being walked (one of its ancestors) is
// a file system loop: it is reported, as find -L reports it, and not entered again; the walk
// goes on. Only regular files are read under a directory (a named pipe there would block the
// read forever); a path given by name is read whatever it is, so that `kdv validate <(helm
// template ...)` works.
//
// The error joins one *Error (Index -1) per problem: p missing, a directory that cannot be
// listed, a loop, a file that is not regular, or a directory holding no file match accepts
// (nil: one of Extensions) at all, which is almost always a wrong path rather than an empty
// input. fn's errors are wrapped with the file name.
func walk(p string, match func(string) bool, fn func(string) error) error {
	return walkBuilding(p, match, nil, nil, fn)
}

// walkBuilding is walk with build asked first about every directory, the one given
// included: when it handles one (a kustomization directory, which it builds), the
// directory is not walked; its error is reported with the directory's name. ignore
// (Options.Ignore), when set, is asked first about every file and directory, the path
// given included: what it ignores is neither read, built nor walked, and counts as found
// (a directory whose files are all ignored is not "a directory holding no file").
func walkBuilding(p string, match func(string) bool, ignore func(string, bool) bool, build func(dir string) (bool, error), fn func(string) error) error {
	if match == nil {
		match = hasExtension
	}
	if p == "-" {
		if err := fn(p); err != nil {
			return fileErr(p, err)
		}
		return nil
	}
	info, err := os.Stat(p)
	if err != nil {
		return fileErr(p, err)
	}
	if ignore != nil && ignore(p, info.IsDir()) {
		return nil
	}
	if !info.IsDir() {
		if err := fn(p); err != nil {
			return fileErr(p, err)
		}
		return nil
	}
	w := &walker{match: match, fn: fn, build: build, ignore: ignore}
	w.dir(p, []ancestor{{p, info}})
	if w.found == 0 {
		w.errs = append(w.errs, &Error{File: p, Index: -1, Item: -1,
			Msg: "no " + strings.Join(Extensions, ", ") + " file in this directory or below"})
	}
	return errors.Join(w.errs...)
}

// ancestor is a directory on the path from a walk's root to the directory being read.
type ancestor struct {
	name string
	info fs.FileInfo
}

// walker is the state of one walk below a directory.
type walker struct {
	match func(string) bool
	fn    func(string) error
	build func(dir string) (bool, error)
	// ignore is Options.Ignore: nil, or true for a path not to read (the file) or walk
	// (the directory).
	ignore func(name string, dir bool) bool
	found  int // files taken, or ignored
	errs   []error
}

// dir walks the directory named by the last of ancestors.
func (w *walker) dir(name string, ancestors []ancestor) {
	if w.build != nil {
		if handled, err := w.build(name); handled {
			w.found++
			if err != nil {
				w.errs = append(w.errs, &Error{File: name, Index: -1, Item: -1, Msg: err.Error()})
			}
			return
		}
	}
	// os.ReadDir sorts by name, as filepath.WalkDir does; on error it returns the entries
	// read so far, which are still walked.
	entries, err := os.ReadDir(name)
	if err != nil {
		w.errs = append(w.errs, fileErr(name, err))
	}
	for _, e := range entries {
		full := filepath.Join(name, e.Name())
		mode := e.Type()
		var info fs.FileInfo
		if mode&fs.ModeSymlink != 0 || mode.IsDir() {
			// The target's type and identity; os.Stat follows links.
			if info, err = os.Stat(full); err != nil {
				if w.match(full) {
					// A dangling link with a manifest's name: the user expects it read.
					w.found++
					w.errs = append(w.errs, fileErr(full, err))
				}
				continue
			}
			mode = info.Mode().Type()
		}
		switch {
		case w.ignore != nil && (mode.IsDir() || w.match(full)) && w.ignore(full, mode.IsDir()):
			w.found++ // the user chose not to read it: the directory is not empty for that
		case mode.IsDir():
			if a, loop := loopsTo(ancestors, info); loop {
				w.errs = append(w.errs, &Error{File: full, Index: -1, Item: -1,
					Msg: fmt.Sprintf("file system loop detected: %s is the same directory as %s; not walked again", full, a.name)})
				continue
			}
			w.dir(full, append(ancestors[:len(ancestors):len(ancestors)], ancestor{full, info}))
		case !w.match(full):
		case !mode.IsRegular():
			w.found++ // there is one, just not readable: no "no file" error on top
			w.errs = append(w.errs, &Error{File: full, Index: -1, Item: -1,
				Msg: fmt.Sprintf("not a regular file (%s); files in a directory are read only when regular, give it by name to read it", typeName(mode))})
		default:
			w.found++
			if err := w.fn(full); err != nil {
				w.errs = append(w.errs, fileErr(full, err))
			}
		}
	}
}

// loopsTo returns the ancestor that info is the same directory as, if any.
func loopsTo(ancestors []ancestor, info fs.FileInfo) (ancestor, bool) {
	for _, a := range ancestors {
		if os.SameFile(a.info, info) {
			return a, true
		}
	}
	return ancestor{}, false
}

// typeName names a non-regular file type for messages.
func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	default:
		return "mode " + m.String()
	}
}

// fileErr is err as an *Error about a whole file; a *fs.PathError's path is dropped, the
// *Error names the file already.
func fileErr(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{File: name, Index: -1, Item: -1, Msg: err.Error()}
}

func hasExtension(name string) bool {
	ext := filepath.Ext(name)
	for _, e := range Extensions {
		if ext == e {
			return true
		}
	}
	return false
}
