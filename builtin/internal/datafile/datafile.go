// Package datafile defines the format of package builtin's embedded data
// files (data/v1.<minor>.json.gz): gendata writes them, builtin reads them.
// It is apart from gendata so that reading a data file does not link the
// generator (kdv.dev/generate/openapi, kdv.dev/idl, go/packages).
package datafile

import "kdv.dev/schema"

// Data is the decoded form of one data/v1.<minor>.json.gz file.
type Data struct {
	// Minor is the Kubernetes minor version; Source the module versions
	// (k8s.io/api, k8s.io/kube-aggregator) the data was generated from.
	Minor  int    `json:"minor"`
	Source string `json:"source"`
	// Kinds are every kind with its definition name, sorted by group,
	// version, kind.
	Kinds []Kind `json:"kinds"`
	// Schemas are the published definitions of all group-versions
	// (components.schemas), $refs unresolved.
	Schemas map[string]*schema.Props `json:"schemas"`
}

// Kind is one built-in kind.
type Kind struct {
	schema.GroupVersionKind
	// Namespaced is false for cluster-scoped kinds (the
	// +genclient:nonNamespaced tags of k8s.io/api; see gendata.Build).
	Namespaced bool `json:"namespaced"`
	// Definition is the components.schemas name of the kind's schema.
	Definition string `json:"definition"`
}
