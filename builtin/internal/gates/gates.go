// Package gates holds the Kubernetes feature-gate data kdv generates from
// k8s.io/kubernetes's versioned feature specs, and what both the generator
// (builtin/internal/gendata) and the runtime (package builtin) do with it:
// the spec in force at a release, a field's KEP-2558 lifecycle from its
// gates, and the feature gates field descriptions name. It imports only
// kdv.dev/schema, so runtime packages may use it.
package gates

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"kdv.dev/schema"
)

// Stages of a gate, as component-base's featuregate.prerelease values
// (ALPHA, BETA, "" for GA, DEPRECATED, PRE-ALPHA), spelt in lower case.
const (
	Alpha      = "alpha"
	Beta       = "beta"
	GA         = "ga"
	Deprecated = "deprecated"
	// PreAlpha is the stage of a gate at a release before its first spec:
	// off, and not settable (featureSpecAtEmulationAndMinCompatVersion).
	PreAlpha = "prealpha"
)

// Spec is one featuregate.FeatureSpec of a gate's VersionedSpecs: from
// Version on (until the next spec), the gate has this default and stage.
type Spec struct {
	Version       string `json:"version"`
	Default       bool   `json:"default"`
	PreRelease    string `json:"preRelease"`
	LockToDefault bool   `json:"lockToDefault,omitempty"`
	// MinCompatibilityVersion, when set, makes the spec apply only to a
	// server whose minimum compatibility version (by default the release
	// before its emulation version) is at least this.
	MinCompatibilityVersion string `json:"minCompatibilityVersion,omitempty"`
}

// Data is the content of builtin/data/featuregates.json.
type Data struct {
	// Source names the k8s.io/kubernetes version the specs come from.
	Source string `json:"source"`
	// Gates maps a gate's name to its specs, in source order (ascending
	// versions).
	Gates map[string][]Spec `json:"gates"`
}

// At returns the spec of specs in force in Kubernetes 1.<minor>, as
// component-base's featureSpecAtEmulationAndMinCompatVersion picks it for
// a server emulating that release (minimum compatibility version: the
// release before): the last spec whose Version is not after it and whose
// MinCompatibilityVersion, if any, is not after 1.<minor-1>. None: a
// PreAlpha spec, off.
func At(specs []Spec, minor int) Spec {
	for i := len(specs) - 1; i >= 0; i-- {
		s := specs[i]
		if ma, mi := parse(s.Version); ma > 1 || ma == 1 && mi > minor {
			continue
		}
		if s.MinCompatibilityVersion != "" {
			if ma, mi := parse(s.MinCompatibilityVersion); ma > 1 || ma == 1 && mi > minor-1 {
				continue
			}
		}
		return s
	}
	return Spec{Version: "0.0", PreRelease: PreAlpha}
}

// parse returns major and minor of "X.Y"; -1, -1 when malformed.
func parse(v string) (int, int) {
	a, b, ok := strings.Cut(v, ".")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return -1, -1
	}
	return x, y
}

// Introduced returns the release a gate's feature entered as alpha or beta
// ("v1.31"), from its first spec; "" when the first spec is GA or
// deprecated (the "1.0" placeholder of gates older than versioned specs).
func Introduced(specs []Spec) string {
	if len(specs) == 0 || (specs[0].PreRelease != Alpha && specs[0].PreRelease != Beta) {
		return ""
	}
	return "v" + specs[0].Version
}

// rank orders statuses from most to least mature; a field guarded by
// several gates takes the least mature (as generate/openapi merges tags).
var rank = map[string]int{"": 0, Beta: 2, Alpha: 3, Deprecated: 4}

// status is the KEP-2558 status of a field whose gate has the stage: GA
// is no status (a stable field), PreAlpha is alpha.
func status(stage string) string {
	switch stage {
	case GA:
		return ""
	case PreAlpha:
		return Alpha
	}
	return stage
}

// Split returns the gate names of a featureGate value ("A" or "A,B").
func Split(featureGate string) []string {
	var out []string
	for g := range strings.SplitSeq(featureGate, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// FieldLifecycle returns the KEP-2558 entry {minVersion, status,
// featureGate} of a field guarded by the gates of featureGate in
// Kubernetes 1.<minor>: status is the least mature stage of its gates
// (alpha, beta, deprecated; none once all are GA), minVersion the latest
// release one of its gates was introduced in. unknown lists the gates
// absent from d; they do not count.
func (d *Data) FieldLifecycle(featureGate string, minor int) (l schema.Lifecycle, unknown []string) {
	l.FeatureGate = featureGate
	for _, g := range Split(featureGate) {
		specs, ok := d.Gates[g]
		if !ok {
			unknown = append(unknown, g)
			continue
		}
		if st := status(At(specs, minor).PreRelease); rank[st] > rank[l.Status] {
			l.Status = st
		}
		if in := Introduced(specs); in != "" && VersionLess(l.MinVersion, in) {
			l.MinVersion = in
		}
	}
	return l, unknown
}

// VersionLess reports whether release a is before b ("1.X" or "v1.X");
// "" is before any.
func VersionLess(a, b string) bool {
	if a == "" {
		return b != ""
	}
	a1, a2 := parse(strings.TrimPrefix(a, "v"))
	b1, b2 := parse(strings.TrimPrefix(b, "v"))
	return a1 < b1 || a1 == b1 && a2 < b2
}

// gateWord matches a gate named before "feature", "feature gate" or
// "featuregate" ("the EmptyDirVolumeMode featuregate", "ProbeTerminationGracePeriod
// feature gate", "HPAScaleToZero beta feature"), or after "feature gate"
// ("requires feature gate TaintTolerationComparisonOperators").
var gateWord = regexp.MustCompile("`?\\b([A-Z][A-Za-z0-9]+)`?\\s+(?:alpha |beta )?(?:feature(?:[- ]?gate| flag)?)\\b|\\bfeature[- ]?gates?\\s+`?([A-Z][A-Za-z0-9]+)\\b")

// fieldSentence matches the sentences of k8s.io/api field comments that
// say the field itself needs a gate ("This is an alpha field and requires
// enabling the X feature gate.", "(Alpha) Using this field requires the X
// feature gate to be enabled.", "The X feature gate must be enabled to use
// this field.", "This field is only available when the X feature gate is
// enabled."), as opposed to a value of the field or a behaviour needing
// one ("Lt and Gt perform numeric comparisons (requires feature gate X)",
// "This field is mutable if X feature gate is enabled").
var fieldSentence = regexp.MustCompile(`^(?:\((?:Alpha|Beta)\)\s+)?(?:This is an? (?:optional, )?(?:alpha|beta) field|This requires the|This field (?:is (?:alpha|beta)(?:-level)?(?: and)? (?:requires|is only honored by servers that enable)|requires|is (?:only )?available (?:only )?when|is used only when|is only honored by servers that enable)|Using (?:this|the) field requires|Requires the)\b|\bto use this field\b`)

// GatesInDescription returns the gates a field description names: those
// of sentences saying that the field needs them (field), and every gate
// named at all (named), each once, in order.
func GatesInDescription(desc string) (field, named []string) {
	text := strings.Join(strings.Fields(desc), " ")
	for sentence := range strings.SplitSeq(text, ". ") {
		for _, m := range gateWord.FindAllStringSubmatch(sentence, -1) {
			g := m[1] + m[2]
			if g == "This" || g == "The" || g == "Alpha" || g == "Beta" {
				continue
			}
			if !slices.Contains(named, g) {
				named = append(named, g)
			}
			if fieldSentence.MatchString(sentence) && !slices.Contains(field, g) {
				field = append(field, g)
			}
		}
	}
	return field, named
}

// Annotate publishes, in schemas (OpenAPI definitions by name), the
// lifecycle of every gated field in Kubernetes 1.<minor>: a field whose
// x-kubernetes-api-lifecycle names gates (from +featureGate and +lifecycle
// tags) gets their status and minVersion (an explicit minVersion stays);
// a property whose description says that it needs a gate d knows gets the
// entry too. notes say, sorted, which gates named that way or by tags d
// does not know (a gate that graduated and was removed: the field is
// stable); those fields are left as they are.
func (d *Data) Annotate(schemas map[string]*schema.Props, minor int) (notes []string) {
	seen := map[string]bool{}
	note := func(n string) {
		if !seen[n] {
			seen[n] = true
			notes = append(notes, n)
		}
	}
	var walk func(name string, p *schema.Props, depth int)
	walk = func(name string, p *schema.Props, depth int) {
		if p == nil || depth > 64 {
			return
		}
		if cur, ok := p.XAPILifecycle["kubernetes"]; ok && cur.FeatureGate != "" {
			l, unknown := d.FieldLifecycle(cur.FeatureGate, minor)
			for _, g := range unknown {
				note(name + ": feature gate " + g + " (tag) is not in " + d.Source)
			}
			if len(unknown) < len(Split(cur.FeatureGate)) {
				if cur.MinVersion != "" {
					l.MinVersion = cur.MinVersion
				}
				p.XAPILifecycle["kubernetes"] = l
			}
		}
		for _, k := range sortedKeys(p.Properties) {
			q := p.Properties[k]
			pname := name + "." + k
			if _, ok := q.XAPILifecycle["kubernetes"]; !ok {
				field, _ := GatesInDescription(q.Description)
				var known []string
				for _, g := range field {
					if _, ok := d.Gates[g]; ok {
						known = append(known, g)
					} else {
						note(pname + ": feature gate " + g + " (description) is not in " + d.Source)
					}
				}
				if len(known) > 0 {
					if q.XAPILifecycle == nil {
						q.XAPILifecycle = map[string]schema.Lifecycle{}
					}
					q.XAPILifecycle["kubernetes"] = schema.Lifecycle{FeatureGate: strings.Join(known, ",")}
				}
			}
			walk(pname, &q, depth+1)
			p.Properties[k] = q
		}
		if p.Items != nil {
			walk(name+"[]", p.Items.Schema, depth+1)
			for i := range p.Items.Schemas {
				walk(name+"[]", &p.Items.Schemas[i], depth+1)
			}
		}
		if p.AdditionalProperties != nil {
			walk(name+"{}", p.AdditionalProperties.Schema, depth+1)
		}
		for i := range p.AllOf {
			walk(name, &p.AllOf[i], depth+1)
		}
	}
	for _, name := range sortedKeys(schemas) {
		walk(name, schemas[name], 0)
	}
	slices.Sort(notes)
	return notes
}

// sortedKeys returns the keys of m in order (determinism of the notes).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
