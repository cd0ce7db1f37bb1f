package datafile

import "kdv.dev/schema"

// Lifecycle is the decoded form of data/lifecycle.json: the release in
// which each built-in kind's API version was introduced, deprecated and
// removed, and its replacement, from the +k8s:prerelease-lifecycle-gen
// tags of k8s.io/api and k8s.io/kube-aggregator.
type Lifecycle struct {
	// Source names the module versions read, newest first; a kind takes
	// its entry from the newest that carries it.
	Source string `json:"source"`
	// Kinds are sorted by group, version, kind.
	Kinds []LifecycleKind `json:"kinds"`
}

// LifecycleKind is the lifecycle of one kind of one API version. Releases
// are "major.minor" ("1.22"); empty means none (a GA kind is never
// deprecated by default, and a kind without a removal release is served
// for ever).
type LifecycleKind struct {
	schema.GroupVersionKind
	Introduced  string                   `json:"introduced,omitempty"`
	Deprecated  string                   `json:"deprecated,omitempty"`
	Removed     string                   `json:"removed,omitempty"`
	Replacement *schema.GroupVersionKind `json:"replacement,omitempty"`
}
