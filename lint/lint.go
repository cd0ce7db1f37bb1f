// Package lint reviews Go API types as an API reviewer would, from kdv's tag
// model: for the versions of one group (k8s.io/api style: autoscaling/v1
// and autoscaling/v2; or the versions of one CRD), it reports fields whose
// validation differs between versions, each with the file and line of the
// field in both versions, and on every version the single-version checks of
// the API conventions (a required field with a default, an enum without
// values, a list without listType on CRD-style APIs, a map list without
// keys, and on CRD-style APIs a transition rule on a field that cannot be
// correlated with oldSelf and a CEL rule over its cost budget: those are
// the apiserver's checks of a CRD's schema, which built-in types do not go
// through).
//
// The schemas compared are the ones kdv generates (package generate/openapi,
// the code behind kdv gen): every tag syntax is already resolved to its
// meaning there, so "+k8s:maxLength=10" in v1 and
// "+kubebuilder:validation:MaxLength=10" in v2 agree. Differences are
// found with kdv compat's schema comparison (compat.CompareSchemas) between
// consecutive versions, keeping only fields both versions have: a field
// that exists in one version only is the reason for a new version, not a
// disagreement.
//
// Intended differences are silenced by an exception file (ParseExceptions).
package lint

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/compat"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
	"kdv.dev/schema"
)

// Finding is one thing the linter reports.
type Finding struct {
	// Object is the kind as group/Kind ("autoscaling/HorizontalPodAutoscaler",
	// "core/Pod" for the core group), or, for type-level checks, the group
	// and Go type name ("autoscaling/MetricSourceType").
	Object string `json:"object"`
	// Versions are the API versions concerned: two for a cross-version
	// difference (older first), one for a single-version check.
	Versions []string `json:"versions"`
	// Path is the field path ("spec.metrics[*].type"), with [*] for list
	// items and {*} for map values; empty for the object itself.
	Path string `json:"path,omitempty"`
	// Check is a stable id: "differs:<compat kind>" (e.g.
	// "differs:max-tightened") for cross-version differences, or one of
	// the single-version checks ("required-with-default", "enum-no-values",
	// "list-no-list-type", "map-list-no-keys", "oldself-uncorrelatable",
	// "rule-cost", "rule-invalid").
	Check string `json:"check"`
	// Message says what is wrong, in one line.
	Message string `json:"message"`
	// Positions are "file:line" of the field (or type) in each version, in
	// the order of Versions; "" where it could not be found.
	Positions []string `json:"positions"`
	// Excepted is the reason from the exception file that silences the
	// finding, if one does.
	Excepted string `json:"excepted,omitempty"`
}

// Key is what an exception file names: "<object> <path> <check>", or
// "<object> <check>" when the path is empty.
func (f Finding) Key() string {
	if f.Path == "" {
		return f.Object + " " + f.Check
	}
	return f.Object + " " + f.Path + " " + f.Check
}

// String renders the finding as a report line: "<positions>: <object>
// <versions> <path>: <check>: <message>".
func (f Finding) String() string {
	var pos []string
	for _, p := range f.Positions {
		if p != "" {
			pos = append(pos, p)
		}
	}
	s := f.Object + " " + strings.Join(f.Versions, "→")
	if f.Path != "" {
		s += " " + f.Path
	}
	s += ": " + f.Check + ": " + f.Message
	if len(pos) > 0 {
		s = strings.Join(pos, ", ") + ": " + s
	}
	return s
}

// Options configure Run.
type Options struct {
	// KubernetesMinor is the Kubernetes version whose CEL environment and
	// cost limits the rule checks use; 0 means the newest kdv knows.
	KubernetesMinor int
}

// version is one API version of a kind, with its schema and Go type.
type version struct {
	name   string
	s      *schema.Structural
	typ    *idl.Type
	crd    bool // the schema is a CRD version's (CRD-style API)
	pkgDir string
}

// Run lints the root packages of u: schemas are generated as kdv gen
// openapi does (and, for packages with +kubebuilder:object:root kinds, as
// kdv gen crd does), then compared across versions and checked one by one.
// Findings are sorted by object, path and check. The error joins what could
// not be generated or compared; the findings cover the rest.
func Run(u *idl.Universe, opts Options) ([]Finding, error) {
	kinds, errs := versionsOf(u)
	var out []Finding
	for _, gk := range sortedKinds(kinds) {
		vs := kinds[gk]
		sort.SliceStable(vs, func(i, j int) bool { return versionLess(vs[i].name, vs[j].name) })
		for i := 1; i < len(vs); i++ {
			out = append(out, differences(gk, vs[i-1], vs[i])...)
		}
		for _, v := range vs {
			out = append(out, checkVersion(gk, v, opts)...)
		}
	}
	out = append(out, tagChecks(u)...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		return strings.Join(a.Versions, " ") < strings.Join(b.Versions, " ")
	})
	return out, errors.Join(errs...)
}

// objectName names a kind as group/Kind, "core" for the core group.
func objectName(group, kind string) string {
	if group == "" {
		group = "core"
	}
	return group + "/" + kind
}

// versionsOf generates the schemas of every kind of the root packages, by
// group/Kind.
func versionsOf(u *idl.Universe) (map[string][]*version, []error) {
	var errs []error
	res, err := openapi.Generate(u, openapi.Options{})
	if err != nil {
		errs = append(errs, err)
	}
	crdSchemas := map[schema.GroupVersionKind]*schema.Structural{}
	if crds, _, err := openapi.CRDs(u, openapi.Options{CRD: true}); err == nil {
		for _, c := range crds {
			for i := range c.Spec.Versions {
				v := &c.Spec.Versions[i]
				s, err := v.Structural()
				if err != nil {
					errs = append(errs, fmt.Errorf("CRD %s version %s: %w", c.Metadata.Name, v.Name, err))
					continue
				}
				crdSchemas[schema.GroupVersionKind{Group: c.Spec.Group, Version: v.Name, Kind: c.Spec.Names.Kind}] = s
			}
		}
	} else {
		errs = append(errs, err)
	}
	out := map[string][]*version{}
	if res == nil {
		return out, errs
	}
	for _, d := range res.Documents {
		var doc *schema.Document
		for _, k := range d.Kinds {
			gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
			v := &version{name: k.Version, typ: k.Type}
			if p := u.Package(d.Package); p != nil {
				v.pkgDir = p.Dir
			}
			if s, ok := crdSchemas[gvk]; ok {
				v.s, v.crd = s, true
			} else {
				if doc == nil {
					b, err := d.MarshalJSON()
					if err == nil {
						doc, err = schema.LoadOpenAPIDocument(d.Package, b)
					}
					if err != nil {
						errs = append(errs, fmt.Errorf("%s: %w", d.Package, err))
						break
					}
				}
				s, _, err := doc.SchemaForGVK(gvk)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %s: %w", d.Package, gvk, err))
					continue
				}
				v.s = s
			}
			if isListKind(k.Kind, v.s) {
				continue
			}
			name := objectName(k.Group, k.Kind)
			out[name] = append(out[name], v)
		}
	}
	return out, errs
}

// isListKind says a kind is a list of another (FooList with items): its
// items are the other kind's objects, linted there; linting them again
// would repeat every finding, and the unbounded items list would inflate
// every rule's estimated cost.
func isListKind(kind string, s *schema.Structural) bool {
	if !strings.HasSuffix(kind, "List") || s == nil {
		return false
	}
	_, ok := s.Properties["items"]
	return ok
}

func sortedKinds(m map[string][]*version) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// differences reports the fields both versions have whose validation
// differs (compat's schema comparison, minus fields only one version has).
func differences(obj string, a, b *version) []Finding {
	var out []Finding
	for _, c := range compat.CompareSchemas(obj, b.name, a.s, b.s) {
		switch c.Kind {
		case "field-added", "field-removed":
			continue
		}
		out = append(out, Finding{
			Object:    obj,
			Versions:  []string{a.name, b.name},
			Path:      c.Path,
			Check:     "differs:" + c.Kind,
			Message:   c.Message,
			Positions: []string{position(a, c.Path), position(b, c.Path)},
		})
	}
	return out
}

// versionLess orders Kubernetes API versions by release: v1 < v2beta1 <
// v2beta2 < v2 (major, then alpha < beta < GA, then the minor number);
// names that are not Kubernetes versions come after, alphabetically.
func versionLess(a, b string) bool {
	ka, oka := versionKey(a)
	kb, okb := versionKey(b)
	if oka != okb {
		return oka
	}
	if !oka {
		return a < b
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

// versionKey is (major, stability 0 alpha/1 beta/2 GA, minor).
func versionKey(v string) ([3]int, bool) {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return [3]int{}, false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return [3]int{}, false
	}
	rest = rest[i:]
	stab := 2
	switch {
	case rest == "":
		return [3]int{major, 2, 0}, true
	case strings.HasPrefix(rest, "alpha"):
		stab, rest = 0, rest[len("alpha"):]
	case strings.HasPrefix(rest, "beta"):
		stab, rest = 1, rest[len("beta"):]
	default:
		return [3]int{}, false
	}
	minor, err := strconv.Atoi(rest)
	if err != nil {
		return [3]int{}, false
	}
	return [3]int{major, stab, minor}, true
}
