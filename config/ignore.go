package config

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Match reports whether name, a slash-separated path relative to a
// configuration file's directory, matches the ignore glob pattern. The
// syntax is path.Match's per segment, with gitignore's conventions for the
// rest, since that is what repositories already write:
//
//   - "**" as a whole segment matches any number of segments, none included
//     ("**/testdata/**", "charts/**/tests/*.yaml");
//   - a pattern without "/" (but a trailing one) matches a name at any depth
//     ("*.tmpl.yaml" is "**/*.tmpl.yaml"); a leading "/" or "./" anchors it
//     to the configuration file's directory ("/vendor/");
//   - a pattern with a "/" elsewhere is always relative to that directory;
//   - a trailing "/" matches only directories (dir true).
//
// A matching directory is not walked, so everything under it is ignored too.
func Match(pattern, name string, dir bool) bool {
	anchored := strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "./")
	pattern = strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
	if strings.HasSuffix(pattern, "/") {
		if !dir {
			return false
		}
		pattern = strings.TrimSuffix(pattern, "/")
	}
	if !anchored && !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

// matchSegments matches pattern segments against name segments, "**"
// standing for any number of name segments. It fills the usual dynamic
// programming table (can pat[i:] match name[j:]?), so that patterns with
// many "**" cost len(pat) × len(name), never a backtracking explosion.
func matchSegments(pat, name []string) bool {
	// ok[j] is row i+1 of the table while row i is computed.
	ok := make([]bool, len(name)+1)
	ok[len(name)] = true // the empty pattern matches only the empty name
	row := make([]bool, len(name)+1)
	for i := len(pat) - 1; i >= 0; i-- {
		if pat[i] == "**" {
			// pat[i:] matches name[j:] when pat[i+1:] matches name[k:] for some k >= j.
			row[len(name)] = ok[len(name)]
			for j := len(name) - 1; j >= 0; j-- {
				row[j] = ok[j] || row[j+1]
			}
		} else {
			row[len(name)] = false
			for j := len(name) - 1; j >= 0; j-- {
				m, _ := path.Match(pat[i], name[j])
				row[j] = m && ok[j+1]
			}
		}
		ok, row = row, ok
	}
	return ok[0]
}

// checkGlob reports a malformed ignore glob (an unclosed "[", say), which
// would otherwise match nothing without a word.
func checkGlob(pattern string) error {
	p := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/"), "/")
	if p == "" {
		return errors.New("empty pattern")
	}
	for _, seg := range strings.Split(p, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("malformed glob: %v", err)
		}
	}
	return nil
}

// Ignored is a file or directory an Ignorer ignored, and why.
type Ignored struct {
	Path   string
	Reason string
}

// Ignorer decides which input paths are not read: those whose path matches
// one of the --ignore-filename-pattern regular expressions (files only,
// matched anywhere in the path as walked, as kubeconform matches them), and
// those matched by a configuration file's ignore globs (files and
// directories, relative to the file's directory; a file under an ignored
// directory is ignored even when given by name). It records what it
// ignored, for the caller to report.
type Ignorer struct {
	patterns []*regexp.Regexp
	file     *File
	ignored  []Ignored
}

// NewIgnorer compiles the --ignore-filename-pattern regular expressions;
// file may be nil. A pattern that does not compile is an error naming it.
func NewIgnorer(patterns []string, file *File) (*Ignorer, error) {
	ig := &Ignorer{file: file}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("invalid --ignore-filename-pattern %q: %v", p, err)
		}
		ig.patterns = append(ig.patterns, re)
	}
	return ig, nil
}

// Active reports whether the Ignorer can ignore anything at all.
func (ig *Ignorer) Active() bool {
	return ig != nil && (len(ig.patterns) > 0 || ig.file != nil && len(ig.file.Ignore) > 0)
}

// Ignore reports whether the file or directory p (as walked) is not to be
// read, and records it when so. It has manifest.Options.Ignore's shape.
func (ig *Ignorer) Ignore(p string, dir bool) bool {
	if why := ig.reason(p, dir); why != "" {
		ig.ignored = append(ig.ignored, Ignored{Path: p, Reason: why})
		return true
	}
	return false
}

// Ignored returns what Ignore ignored, in the order it was asked.
func (ig *Ignorer) Ignored() []Ignored { return ig.ignored }

func (ig *Ignorer) reason(p string, dir bool) string {
	if !dir {
		for _, re := range ig.patterns {
			if re.MatchString(p) {
				// As written: %q would double a regular expression's backslashes.
				return `matches --ignore-filename-pattern "` + re.String() + `"`
			}
		}
	}
	if ig.file == nil || len(ig.file.Ignore) == 0 {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(ig.file.Dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "" // outside the configuration's directory: its globs do not speak of it
	}
	rel = filepath.ToSlash(rel)
	// The path itself, then each directory above it: a file given by name
	// under an ignored directory is ignored as the walk would have ignored it.
	isDir := dir
	for name := rel; name != "."; name, isDir = path.Dir(name), true {
		for _, g := range ig.file.Ignore {
			if Match(g, name, isDir) {
				return fmt.Sprintf("matches %q (ignore in %s)", g, ig.file.Path)
			}
		}
	}
	return ""
}
