package resource

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kdv.dev/builtin"
	"kdv.dev/schema"
)

// Levels of Options.LifecycleWarnings: which fields in use, and kept,
// get a warning for their maturity.
const (
	// LifecycleWarnAlpha warns about alpha fields (the default).
	LifecycleWarnAlpha = "alpha"
	// LifecycleWarnBeta warns about alpha and beta fields.
	LifecycleWarnBeta = "beta"
	// LifecycleWarnNone warns about neither.
	LifecycleWarnNone = "none"
)

// gatedField is a field of a built-in kind guarded by feature gates: its
// schema carries x-kubernetes-api-lifecycle {kubernetes: {featureGate:
// G[,G2], status: ...}}. When a gate is off, the apiserver's strategies
// drop the field before validation on create, and on update unless the
// old object already uses it (the API-change guide's dropDisabledFields,
// e.g. k8s.io/kubernetes pkg/api/pod/util.go dropDisabledFields), so kdv
// does the same instead of validating a value the apiserver never sees.
type gatedField struct {
	// steps are property names, Items ("[]") and Values ("{}").
	steps []string
	gates string
	// status is the field's KEP-2558 status in the release: alpha, beta,
	// deprecated or "" (GA).
	status string
	// off names the first of its gates that is off in the cluster
	// modelled, "" when all are on; why says why it is off.
	off, why string
	// warn: the field's status is one Options.LifecycleWarnings asks to
	// warn about when the field is in use and kept.
	warn bool
}

const (
	stepItems  = "[]"
	stepValues = "{}"
)

// maxGatedDepth bounds the schema walk (built-in schemas are trees of a few
// thousand nodes; recursion is cut by their resolution).
const maxGatedDepth = 64

// gatedFields lists the gated fields of s, parents before the fields
// under them, with their gates' state in Kubernetes 1.<minor> under fg. A
// gate the kube-apiserver does not know (a tag naming a gate that
// graduated and was removed) counts as on, unless the field says alpha.
func gatedFields(s *schema.Structural, minor int, fg builtin.FeatureGates, level string) []gatedField {
	var out []gatedField
	var walk func(s *schema.Structural, steps []string)
	walk = func(s *schema.Structural, steps []string) {
		if s == nil || len(steps) > maxGatedDepth {
			return
		}
		if l, ok := s.XAPILifecycle["kubernetes"]; ok && l.FeatureGate != "" && len(steps) > 0 && steps[len(steps)-1] != stepItems && steps[len(steps)-1] != stepValues {
			f := gatedField{steps: append([]string(nil), steps...), gates: l.FeatureGate, status: l.Status}
			f.off, f.why = offGate(l, minor, fg)
			f.warn = l.Status == "alpha" && level != LifecycleWarnNone || l.Status == "beta" && level == LifecycleWarnBeta
			out = append(out, f)
		}
		for _, k := range sortedProps(s.Properties) {
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

// offGate returns the first gate of l that is off in Kubernetes 1.<minor>
// under fg and why, or "".
func offGate(l schema.Lifecycle, minor int, fg builtin.FeatureGates) (gate, why string) {
	for _, g := range splitGates(l.FeatureGate) {
		spec, known := builtin.FeatureGate(g, minor)
		if !known {
			if l.Status == "alpha" {
				return g, fmt.Sprintf("feature gate %s is alpha, off by default", g)
			}
			continue
		}
		if fg.Enabled(g, minor) {
			continue
		}
		if on, set := fg.Setting(g); set && !on {
			return g, fmt.Sprintf("feature gate %s is off (--feature-gates)", g)
		}
		return g, fmt.Sprintf("feature gate %s is %s, off by default in Kubernetes 1.%d", g, stageWord(spec.Stage), minor)
	}
	return "", ""
}

func stageWord(stage string) string {
	switch stage {
	case builtin.StagePreAlpha:
		return "pre-alpha (not in this release yet)"
	case builtin.StageGA:
		return "GA"
	}
	return stage
}

// gatedPresent returns the paths, as dropGated words them, of the gated
// fields set in obj.
func gatedPresent(obj map[string]any, fields []gatedField) map[string]bool {
	var out map[string]bool
	for _, f := range fields {
		visitGated(obj, f.steps, func(path string, m map[string]any, key string) {
			if m[key] != nil {
				if out == nil {
					out = map[string]bool{}
				}
				out[path] = true
			}
		})
	}
	return out
}

// inUse reports whether obj sets the field anywhere, the question the
// strategies' "...InUse(oldSpec)" helpers ask before dropping it.
func inUse(obj map[string]any, f gatedField) bool {
	used := false
	visitGated(obj, f.steps, func(_ string, m map[string]any, key string) {
		used = used || m[key] != nil
	})
	return used
}

// applyGates does what PrepareForCreate and PrepareForUpdate do with the
// gated fields of obj (old is nil on create), and returns the warnings:
// a field whose gate is off is dropped (said when present lists it: it was
// in the input, not set by defaulting), unless old uses it; a field kept
// whose status the level asks about is said to be alpha or beta.
func applyGates(obj, old map[string]any, fields []gatedField, present map[string]bool) []string {
	var warnings []string
	for _, f := range fields {
		keep := f.off == ""
		keptByOld := !keep && old != nil && inUse(old, f)
		visitGated(obj, f.steps, func(path string, m map[string]any, key string) {
			v, ok := m[key]
			if !ok {
				return
			}
			switch {
			case !keep && !keptByOld:
				if v != nil && present[path] {
					warnings = append(warnings, fmt.Sprintf("%s: dropped: %s; the apiserver drops this field before validating (on update it keeps it when the old object uses it)", path, f.why))
				}
				delete(m, key)
			case f.warn && v != nil && present[path]:
				how := "feature gate " + f.gates
				if keptByOld {
					how = f.why + "; kept because the old object uses it"
				}
				warnings = append(warnings, fmt.Sprintf("%s: %s field (%s): it may change or go away in a later release", path, f.status, how))
			}
		})
	}
	return warnings
}

// visitGated calls fn with the path, parent map and key of every
// occurrence of the field in obj.
func visitGated(obj map[string]any, steps []string, fn func(path string, m map[string]any, key string)) {
	var visit func(x any, i int, path string)
	visit = func(x any, i int, path string) {
		if i >= len(steps) {
			return
		}
		switch step := steps[i]; step {
		case stepItems:
			l, _ := x.([]any)
			for j, it := range l {
				visit(it, i+1, path+"["+strconv.Itoa(j)+"]")
			}
		case stepValues:
			m, _ := x.(map[string]any)
			for _, k := range sortedProps(m) {
				visit(m[k], i+1, path+"["+k+"]")
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
			if i < len(steps)-1 {
				visit(v, i+1, p)
				return
			}
			fn(p, m, step)
		}
	}
	visit(obj, 0, "")
}

// splitGates returns the gates of a featureGate value ("A" or "A,B").
func splitGates(featureGate string) []string {
	var out []string
	for g := range strings.SplitSeq(featureGate, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// sortedProps returns the keys of m in order (deterministic warnings).
func sortedProps[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
