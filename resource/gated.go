package resource

import (
	"fmt"
	"strconv"

	"kdv.dev/schema"
)

// gatedField is a field of a feature whose gate is off by default: its
// schema carries x-kubernetes-api-lifecycle {kubernetes: {status: alpha,
// featureGate: G}} (alpha features are off unless a cluster enables them).
// The apiserver's strategies drop such a field before validation on
// create, and on update unless the old object already uses it (the
// API-change guide's dropDisabledFields, e.g. k8s.io/kubernetes
// pkg/api/pod/util.go dropDisabledFields), so kdv does the same instead of
// validating a value the apiserver never sees.
type gatedField struct {
	// steps are property names, Items ("[]") and Values ("{}").
	steps []string
	gate  string
}

const (
	stepItems  = "[]"
	stepValues = "{}"
)

// maxGatedDepth bounds the schema walk (built-in schemas are trees of a few
// thousand nodes; recursion is cut by their resolution).
const maxGatedDepth = 64

// gatedFields lists the alpha-gated fields of s.
func gatedFields(s *schema.Structural) []gatedField {
	var out []gatedField
	var walk func(s *schema.Structural, steps []string)
	walk = func(s *schema.Structural, steps []string) {
		if s == nil || len(steps) > maxGatedDepth {
			return
		}
		if l, ok := s.XAPILifecycle["kubernetes"]; ok && l.Status == "alpha" && l.FeatureGate != "" && len(steps) > 0 {
			out = append(out, gatedField{steps: append([]string(nil), steps...), gate: l.FeatureGate})
			return
		}
		for k := range s.Properties {
			p := s.Properties[k]
			walk(&p, append(steps, k))
		}
		walk(s.Items, append(steps, stepItems))
		if ap := s.AdditionalProperties; ap != nil {
			walk(ap.Structural, append(steps, stepValues))
		}
	}
	walk(s, nil)
	return out
}

// dropGated removes from obj the values of the gated fields and returns a
// warning for each: `<path>: dropped: feature gate <G> is alpha, off by
// default; the apiserver drops this field before validating`. The
// apiserver keeps such a field on update when the old object uses it; an
// old object stored under the same (default) gates cannot, so kdv drops it
// from both.
func dropGated(obj map[string]any, fields []gatedField) []string {
	var warnings []string
	for _, f := range fields {
		var visit func(x any, i int, path string)
		visit = func(x any, i int, path string) {
			switch step := f.steps[i]; step {
			case stepItems:
				l, _ := x.([]any)
				for j, it := range l {
					visit(it, i+1, path+"["+strconv.Itoa(j)+"]")
				}
			case stepValues:
				m, _ := x.(map[string]any)
				for k, v := range m {
					visit(v, i+1, path+"["+k+"]")
				}
			default:
				m, ok := x.(map[string]any)
				if !ok {
					return
				}
				v, ok := m[step]
				if !ok {
					return
				}
				p := step
				if path != "" {
					p = path + "." + step
				}
				if i < len(f.steps)-1 {
					visit(v, i+1, p)
					return
				}
				if v != nil {
					warnings = append(warnings, fmt.Sprintf("%s: dropped: feature gate %s is alpha, off by default; the apiserver drops this field before validating", p, f.gate))
				}
				delete(m, step)
			}
		}
		visit(obj, 0, "")
	}
	return warnings
}
