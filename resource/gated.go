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

// gatedSet holds the gated fields of a kind that applyGates acts on or
// warns about (gate off, or a status the level warns about) as a tree of
// their steps, so that one walk of an object visits them all, and only
// the parts of the object they are in.
type gatedSet struct {
	fields []gatedField
	root   *gatedNode
}

// gatedNode is one step of the tree: its property children (keys sorted,
// for the warnings' order), items and map values, and the field ending
// here, if any (index + 1 into gatedSet.fields).
type gatedNode struct {
	keys          []string
	props         map[string]*gatedNode
	items, values *gatedNode
	field         int
}

// newGatedSet returns the set of the fields applyGates needs, nil when
// none.
func newGatedSet(all []gatedField) *gatedSet {
	g := &gatedSet{root: &gatedNode{}}
	for _, f := range all {
		if f.off == "" && !f.warn {
			continue // kept, nothing to say
		}
		g.fields = append(g.fields, f)
		n := g.root
		for _, step := range f.steps {
			switch step {
			case stepItems:
				if n.items == nil {
					n.items = &gatedNode{}
				}
				n = n.items
			case stepValues:
				if n.values == nil {
					n.values = &gatedNode{}
				}
				n = n.values
			default:
				c := n.props[step]
				if c == nil {
					if n.props == nil {
						n.props = map[string]*gatedNode{}
					}
					c = &gatedNode{}
					n.props[step] = c
					n.keys = append(n.keys, step)
					slices.Sort(n.keys)
				}
				n = c
			}
		}
		n.field = len(g.fields)
	}
	if len(g.fields) == 0 {
		return nil
	}
	return g
}

// present returns the paths, as apply words them, of the fields set in
// obj.
func (g *gatedSet) present(obj map[string]any) map[string]bool {
	w := gatedWalk{g: g, mode: walkPresent}
	w.node(obj, g.root)
	return w.present
}

// apply does what PrepareForCreate and PrepareForUpdate do with the gated
// fields of obj (old is nil on create), and returns the warnings: a field
// whose gate is off is dropped (said when present lists it: it was in the
// input, not set by defaulting), unless old uses it, the question the
// strategies' "...InUse(oldSpec)" helpers ask; a field kept whose status
// the level asks about is said to be alpha or beta.
func (g *gatedSet) apply(obj, old map[string]any, present map[string]bool) []string {
	w := gatedWalk{g: g, present: present}
	if old != nil {
		w.mode, w.used = walkInUse, make([]bool, len(g.fields))
		w.node(old, g.root)
	}
	w.mode = walkApply
	w.node(obj, g.root)
	return w.warnings
}

// Modes of gatedWalk.
const (
	walkApply = iota
	walkPresent
	walkInUse
)

// gatedWalk is one walk of an object along a gatedSet's tree. It keeps the
// path as segments and words it only for a warning or a present field:
// validating an object that sets no gated field allocates nothing.
type gatedWalk struct {
	g    *gatedSet
	mode int
	segs []pathSeg
	// present: walkPresent fills it, walkApply reads it.
	present map[string]bool
	// used: walkInUse marks the fields old sets; walkApply keeps them.
	used     []bool
	warnings []string
}

// pathSeg is a property name, or an index or map key (bracketed).
type pathSeg struct {
	key     string
	index   int
	bracket bool
}

func (w *gatedWalk) path() string {
	var b strings.Builder
	for i, s := range w.segs {
		switch {
		case !s.bracket:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		case s.key != "":
			b.WriteString("[" + s.key + "]")
		default:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		}
	}
	return b.String()
}

// node visits x, the value at tree node n.
func (w *gatedWalk) node(x any, n *gatedNode) {
	if len(w.segs) > maxGatedDepth {
		return
	}
	if n.items != nil {
		l, _ := x.([]any)
		for j, it := range l {
			w.segs = append(w.segs, pathSeg{index: j, bracket: true})
			w.node(it, n.items)
			w.segs = w.segs[:len(w.segs)-1]
		}
	}
	if n.values != nil {
		if m, _ := x.(map[string]any); len(m) > 0 {
			for _, k := range sortedProps(m) {
				w.segs = append(w.segs, pathSeg{key: k, bracket: true})
				w.node(m[k], n.values)
				w.segs = w.segs[:len(w.segs)-1]
			}
		}
	}
	if len(n.keys) == 0 {
		return
	}
	m, ok := x.(map[string]any)
	if !ok {
		return
	}
	for _, k := range n.keys {
		v, ok := m[k]
		if !ok {
			continue
		}
		c := n.props[k]
		w.segs = append(w.segs, pathSeg{key: k})
		if c.field == 0 || !w.at(m, k, v, c.field-1) {
			w.node(v, c)
		}
		w.segs = w.segs[:len(w.segs)-1]
	}
}

// at handles one occurrence of field i, m[key] = v, and reports whether
// it dropped it.
func (w *gatedWalk) at(m map[string]any, key string, v any, i int) bool {
	f := &w.g.fields[i]
	switch w.mode {
	case walkPresent:
		if v != nil {
			if w.present == nil {
				w.present = map[string]bool{}
			}
			w.present[w.path()] = true
		}
	case walkInUse:
		w.used[i] = w.used[i] || v != nil
	case walkApply:
		keptByOld := w.used != nil && w.used[i]
		switch {
		case f.off != "" && !keptByOld:
			if v != nil && len(w.present) > 0 {
				if p := w.path(); w.present[p] {
					w.warnings = append(w.warnings, fmt.Sprintf("%s: dropped: %s; the apiserver drops this field before validating (on update it keeps it when the old object uses it)", p, f.why))
				}
			}
			delete(m, key)
			return true
		case f.warn && v != nil && len(w.present) > 0:
			if p := w.path(); w.present[p] {
				how := "feature gate " + f.gates
				if keptByOld {
					how = f.why + "; kept because the old object uses it"
				}
				w.warnings = append(w.warnings, fmt.Sprintf("%s: %s field (%s): it may change or go away in a later release", p, f.status, how))
			}
		}
	}
	return false
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
