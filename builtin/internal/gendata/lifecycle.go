package gendata

import (
	"os"
	"strconv"
	"strings"

	"kdv.dev/idl"
)

// servedAt reports whether the apiserver of Kubernetes 1.<minor> serves a
// kind of an API version, from the +k8s:prerelease-lifecycle-gen tags of
// its type (introduced, deprecated, removed). They only bind prerelease
// (alpha and beta) versions; GA types carry an introduced tag too and are
// always served, as are types without tags. As prerelease-lifecycle-gen computes it, deprecated defaults to
// introduced + 3 minor versions and removed to deprecated + 3; the kind is
// gone from the release named by removed on (k8s.io/code-generator
// cmd/prerelease-lifecycle-gen, APILifecycleRemoved).
func servedAt(t *idl.Type, version string, minor int) bool {
	if t == nil || !(strings.Contains(version, "alpha") || strings.Contains(version, "beta")) {
		return true
	}
	introduced, deprecated, removed := -1, -1, -1
	// The tags sit in the doc comment or, in most of k8s.io/api, in the
	// comment block above it, which idl does not keep for tags of other
	// generators; read both from the source.
	lines := append(commentBlockAbove(t.Pos.Filename, t.Pos.Line), t.Comments...)
	for _, line := range lines {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "//"))
		rest, ok := strings.CutPrefix(line, "+k8s:prerelease-lifecycle-gen:")
		if !ok {
			continue
		}
		key, val, _ := strings.Cut(rest, "=")
		m := minorOf(val)
		switch key {
		case "introduced":
			introduced = m
		case "deprecated":
			deprecated = m
		case "removed":
			removed = m
		}
	}
	if introduced < 0 && deprecated < 0 && removed < 0 {
		return true
	}
	if deprecated < 0 && introduced >= 0 {
		deprecated = introduced + 3
	}
	if removed < 0 && deprecated >= 0 {
		removed = deprecated + 3
	}
	return removed < 0 || minor < removed
}

var sources = map[string][]string{}

// commentBlockAbove returns the comment lines (and blank lines) right above
// line (1-based) of file, up to the previous declaration.
func commentBlockAbove(file string, line int) []string {
	if file == "" {
		return nil
	}
	src, ok := sources[file]
	if !ok {
		b, err := os.ReadFile(file)
		if err == nil {
			src = strings.Split(string(b), "\n")
		}
		sources[file] = src
	}
	var out []string
	for i := line - 2; i >= 0 && i < len(src); i-- {
		l := strings.TrimSpace(src[i])
		if l != "" && !strings.HasPrefix(l, "//") {
			break
		}
		out = append(out, l)
	}
	return out
}

// minorOf returns Y of "X.Y", or -1.
func minorOf(v string) int {
	_, y, ok := strings.Cut(strings.TrimSpace(v), ".")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(y)
	if err != nil {
		return -1
	}
	return n
}
