package builtin

//go:generate go run ./internal/cmd/genlifecycle -out data/lifecycle.json

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema"
)

// lifecycleJSON is generated from the +k8s:prerelease-lifecycle-gen tags
// of k8s.io/api and k8s.io/kube-aggregator v0.37.2 down to v0.30.14
// (gendata.APIVersions; the older ones for the group-versions newer
// modules deleted), checked
// against their zz_generated.prerelease-lifecycle.go.
//
//go:embed data/lifecycle.json
var lifecycleJSON []byte

// Release is a Kubernetes major.minor release; the zero value is none.
type Release struct{ Major, Minor int }

// IsZero reports whether r is none.
func (r Release) IsZero() bool { return r == Release{} }

// String returns "1.22", or "" for none.
func (r Release) String() string {
	if r.IsZero() {
		return ""
	}
	return fmt.Sprintf("%d.%d", r.Major, r.Minor)
}

// after reports whether r is a release after 1.<minor>.
func (r Release) after(minor int) bool {
	return r.Major > 1 || r.Major == 1 && r.Minor > minor
}

// Lifecycle is the lifecycle of one built-in kind of one API version, as
// the apiserver knows it: the APILifecycleIntroduced, Deprecated, Removed
// and Replacement methods k8s.io/code-generator's prerelease-lifecycle-gen
// writes from the type's +k8s:prerelease-lifecycle-gen tags (in alpha and
// beta versions deprecated defaults to introduced + 3 minors and removed
// to deprecated + 3; GA versions have only what their tags say).
type Lifecycle struct {
	GVK schema.GroupVersionKind
	// Introduced, Deprecated and Removed are the releases the version of
	// the kind appeared in, was deprecated in and stops being served in;
	// zero when none.
	Introduced, Deprecated, Removed Release
	// Replacement is the kind to use instead; zero when none.
	Replacement schema.GroupVersionKind
}

// DeprecatedIn reports whether the kind is deprecated in Kubernetes
// 1.<minor>, as k8s.io/apiserver's deprecation.IsDeprecated decides it: a
// deprecation release at or before it. It is true for removed versions too.
func (l Lifecycle) DeprecatedIn(minor int) bool {
	return !l.Deprecated.IsZero() && !l.Deprecated.after(minor)
}

// RemovedIn reports whether Kubernetes 1.<minor> no longer serves the
// kind: a removal release at or before it, as k8s.io/apiserver's
// ResourceExpirationEvaluator decides for a released (not alpha) server
// without KUBE_APISERVER_SERVE_REMOVED_APIS_FOR_ONE_RELEASE.
func (l Lifecycle) RemovedIn(minor int) bool {
	return !l.Removed.IsZero() && !l.Removed.after(minor)
}

// NotYetIn reports whether the kind was introduced after Kubernetes
// 1.<minor>, which therefore does not serve it.
func (l Lifecycle) NotYetIn(minor int) bool {
	return !l.Introduced.IsZero() && l.Introduced.after(minor)
}

// WarningMessage is the apiserver's deprecation warning for the kind
// (k8s.io/apiserver pkg/endpoints/deprecation WarningMessage), e.g.
// "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+;
// use batch/v1 CronJob"; "" when the kind has no deprecation release.
func (l Lifecycle) WarningMessage() string {
	if l.Deprecated.IsZero() {
		return ""
	}
	msg := fmt.Sprintf("%s %s is deprecated in v%s+", groupVersion(l.GVK), l.GVK.Kind, l.Deprecated)
	if !l.Removed.IsZero() {
		msg += fmt.Sprintf(", unavailable in v%s+", l.Removed)
	}
	if l.Replacement != (schema.GroupVersionKind{}) {
		msg += fmt.Sprintf("; use %s %s", groupVersion(l.Replacement), l.Replacement.Kind)
	}
	return msg
}

// RemovedMessage says that the kind is no longer served and what replaces
// it, e.g. `extensions/v1beta1 Ingress was removed in v1.22; use
// networking.k8s.io/v1 Ingress (no matches for kind "Ingress" in version
// "extensions/v1beta1")`: the parenthesis is what kubectl answers when the
// apiserver does not serve a kind (meta.NoKindMatchError).
func (l Lifecycle) RemovedMessage() string {
	msg := fmt.Sprintf("%s %s was removed in v%s", groupVersion(l.GVK), l.GVK.Kind, l.Removed)
	if l.Replacement != (schema.GroupVersionKind{}) {
		msg += fmt.Sprintf("; use %s %s", groupVersion(l.Replacement), l.Replacement.Kind)
	}
	return msg + fmt.Sprintf(" (no matches for kind %q in version %q)", l.GVK.Kind, groupVersion(l.GVK))
}

// groupVersion is "group/version", or "version" for the core group.
func groupVersion(g schema.GroupVersionKind) string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

var lifecycles = sync.OnceValues(func() (map[schema.GroupVersionKind]Lifecycle, error) {
	var d datafile.Lifecycle
	if err := json.Unmarshal(lifecycleJSON, &d); err != nil {
		return nil, fmt.Errorf("data/lifecycle.json: %w", err)
	}
	m := make(map[schema.GroupVersionKind]Lifecycle, len(d.Kinds))
	for _, k := range d.Kinds {
		l := Lifecycle{GVK: k.GroupVersionKind}
		var err error
		for _, f := range []struct {
			s   string
			dst *Release
		}{{k.Introduced, &l.Introduced}, {k.Deprecated, &l.Deprecated}, {k.Removed, &l.Removed}} {
			if *f.dst, err = parseRelease(f.s); err != nil {
				return nil, fmt.Errorf("data/lifecycle.json: %s: %w", k.GroupVersionKind, err)
			}
		}
		if k.Replacement != nil {
			l.Replacement = *k.Replacement
		}
		m[k.GroupVersionKind] = l
	}
	return m, nil
})

func parseRelease(s string) (Release, error) {
	if s == "" {
		return Release{}, nil
	}
	a, b, ok := strings.Cut(s, ".")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Release{}, fmt.Errorf("release %q is not major.minor", s)
	}
	return Release{x, y}, nil
}

// APILifecycle returns the lifecycle of a built-in kind of an API version,
// for every kind whose type k8s.io/api (v0.35 to v0.37) or
// k8s.io/kube-aggregator carries with +k8s:prerelease-lifecycle-gen tags,
// removed versions included (extensions/v1beta1 Ingress, removed in 1.22).
// The data is decoded on first use. Versions without tags (rbac/v1alpha1,
// node/v1alpha1, ...) and kinds whose types k8s.io/api no longer carries
// (policy/v1beta1 PodSecurityPolicy) are not known.
func APILifecycle(gvk schema.GroupVersionKind) (Lifecycle, bool) {
	m, err := lifecycles()
	if err != nil {
		return Lifecycle{}, false
	}
	l, ok := m[gvk]
	return l, ok
}

// APILifecycles returns every known lifecycle, sorted by group, version and
// kind. It fails only if the embedded data is corrupt.
func APILifecycles() ([]Lifecycle, error) {
	m, err := lifecycles()
	if err != nil {
		return nil, err
	}
	out := make([]Lifecycle, 0, len(m))
	for _, l := range m {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Lifecycle) int {
		return cmp.Or(cmp.Compare(a.GVK.Group, b.GVK.Group), cmp.Compare(a.GVK.Version, b.GVK.Version), cmp.Compare(a.GVK.Kind, b.GVK.Kind))
	})
	return out, nil
}
