package validation

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// reportedPath is one x-kubernetes-reported-at: errors whose field is from,
// or below it, are reported with from replaced by to.
type reportedPath struct{ from, to string }

// reportedPaths collects the x-kubernetes-reported-at of the properties
// reached from the root s through properties only (a property under a
// list item or a map value has no single path to replace), outermost first.
func reportedPaths(s *schema.Structural, at string, out []reportedPath) []reportedPath {
	if s == nil {
		return out
	}
	for name, p := range s.Properties {
		path := name
		if at != "" {
			path = at + "." + name
		}
		if to := p.ReportedAt(); to != "" {
			out = append(out, reportedPath{from: path, to: to})
		}
		out = reportedPaths(&p, path, out)
	}
	return out
}

// reportAt moves each error at or below a property with
// x-kubernetes-reported-at to the path it names. The first (outermost)
// matching property wins. A moved error is a copy: errors may be shared
// (cached by the validators), and the validator is used concurrently.
func reportAt(errs field.ErrorList, paths []reportedPath) {
	for i, e := range errs {
		for _, r := range paths {
			rest, ok := strings.CutPrefix(e.Field, r.from)
			if ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
				moved := *e
				moved.Field = r.to + rest
				errs[i] = &moved
				break
			}
		}
	}
}
