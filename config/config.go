// Package config reads kdv's configuration file, .kdv.yaml: defaults for the
// flags of `kdv validate` and `kdv check` and paths not to read, so that a
// repository configures kdv once instead of in every script, hook and CI job.
//
//	# .kdv.yaml, at the repository's root
//	kubernetes-version: "1.35"     # any flag of validate or check, by its long name
//	crds: [config/crd/]            # paths resolve against this file's directory
//	skip: [Secret]
//	summary: false
//	ignore:                        # globs relative to this file's directory
//	  - vendor/
//	  - "**/testdata/**"
//
// Flags given on the command line win over the file. A key that is not a
// flag of either command is an error naming the file, line and key, as is a
// value of the wrong shape (a list for a flag that takes one value). The
// package knows nothing of the commands: the caller says which keys exist
// (Load's known) and which flags hold paths (File.Resolve), and applies the
// settings to its flags.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Name is the file name Find looks for.
const Name = ".kdv.yaml"

// IgnoreKey is the key holding the ignore globs; it is no flag.
const IgnoreKey = "ignore"

// MaxBytes bounds the size of a configuration file (1 MiB): a configuration
// is a few lines, and anything far larger is a wrong file.
const MaxBytes = 1 << 20

// File is a loaded configuration file.
type File struct {
	// Path is the file as found or given.
	Path string
	// Dir is the absolute directory of Path: relative paths in the file
	// (flag values that are paths, ignore globs) are relative to it.
	Dir string
	// Settings are the flag defaults, in file order.
	Settings []Setting
	// Ignore are the ignore globs as written (see Match), in file order.
	Ignore []string
}

// Setting is one flag default of a configuration file.
type Setting struct {
	// Name is the flag's long name, the key.
	Name string
	// Values are the value as written for a scalar (one element) or each
	// item of a list, in order.
	Values []string
	// List reports whether the value was written as a YAML list.
	List bool
	// Line is the key's 1-based line, for messages.
	Line int
}

// Error is a problem with a configuration file, at a line when known.
type Error struct {
	File string
	Line int // 0: the whole file
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Find looks for Name in dir and each of its parents up to the file system
// root, and returns the first found ("" when there is none). A Name that is
// not a regular file (a directory, say) is an error rather than skipped:
// whoever put it there meant something.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, Name)
		info, err := os.Stat(p)
		switch {
		case err == nil && !info.Mode().IsRegular():
			return "", &Error{File: p, Msg: "not a regular file"}
		case err == nil:
			return p, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", &Error{File: p, Msg: err.Error()}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and checks the configuration file at path. keys are the flags
// the file may set; every other key but IgnoreKey is an error, with a
// suggestion when a known key is close. Every problem found is returned,
// joined; the File is nil then.
func Load(path string, keys []string) (*File, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	f := &File{Path: path, Dir: filepath.Dir(abs)}
	root, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return f, nil // an empty file, or only comments, sets nothing
	}
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if root.Kind != yaml.MappingNode {
		fail(root.Line, "want a mapping of flag names to values, found %s", kindName(root))
		return nil, errors.Join(errs...)
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			fail(k.Line, "want a flag name as key, found %s", kindName(k))
			continue
		}
		key := k.Value
		if first, ok := seen[key]; ok {
			fail(k.Line, "key %q repeated (first at line %d)", key, first)
			continue
		}
		seen[key] = k.Line
		if key != IgnoreKey && !slices.Contains(keys, key) {
			msg := fmt.Sprintf("unknown key %q: not a flag of kdv validate or kdv check", key)
			if s := closest(key, append(slices.Clone(keys), IgnoreKey)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			fail(k.Line, "%s", msg)
			continue
		}
		values, list, err := scalars(v)
		if err != nil {
			fail(v.Line, "%s: %v", key, err)
			continue
		}
		if key == IgnoreKey {
			for _, g := range values {
				if err := checkGlob(g); err != nil {
					fail(v.Line, "%s: %q: %v", key, g, err)
				}
			}
			f.Ignore = append(f.Ignore, values...)
			continue
		}
		f.Settings = append(f.Settings, Setting{Name: key, Values: values, List: list, Line: k.Line})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return f, nil
}

// Resolve returns p, a path written in the file, as a path usable from the
// working directory: "-" and absolute paths as they are, relative ones
// joined to Dir and, when possible, made relative to the working directory
// again, so that messages name files as the user sees them.
func (f *File) Resolve(p string) string {
	if p == "-" || p == "" || filepath.IsAbs(p) {
		return p
	}
	abs := filepath.Join(f.Dir, filepath.FromSlash(p))
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil {
			return rel
		}
	}
	return abs
}

// readBounded reads at most MaxBytes of path, and fails beyond.
func readBounded(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	defer fh.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(fh, MaxBytes+1)); err != nil {
		return nil, err
	}
	if buf.Len() > MaxBytes {
		return nil, fmt.Errorf("larger than %d bytes: not a configuration file", MaxBytes)
	}
	return buf.Bytes(), nil
}

// parse decodes data into its one YAML document's root node; nil when the
// file holds no document.
func parse(path string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, &Error{File: path, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, &Error{File: path, Line: more.Line, Msg: "more than one YAML document; a configuration is one mapping"}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	return root, nil
}

// scalars returns the text of a scalar value, or of each item of a list of
// scalars. Null, mappings, nested lists and aliases are errors: no flag
// takes them.
func scalars(v *yaml.Node) (values []string, list bool, err error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil, false, errors.New("no value (write the value, or leave the key out)")
		}
		return []string{v.Value}, false, nil
	case yaml.SequenceNode:
		values = []string{}
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				return nil, true, fmt.Errorf("line %d: want a string, number or boolean as list item, found %s", item.Line, kindName(item))
			}
			values = append(values, item.Value)
		}
		return values, true, nil
	}
	return nil, false, fmt.Errorf("want a value or a list of values, found %s", kindName(v))
}

// kindName names a node's kind for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias (*" + n.Value + ")"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "nothing"
}

// closest returns the candidate nearest to key by edit distance when it is
// near enough to be a typo (at most a third of its length), else "".
func closest(key string, candidates []string) string {
	best, bestD := "", len(key)/3+1
	for _, c := range candidates {
		if d := distance(key, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, bytewise; keys are
// short flag names, so the quadratic table is tiny.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
