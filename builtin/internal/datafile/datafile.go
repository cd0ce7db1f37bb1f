// Package datafile defines the format of package builtin's embedded data
// files (data/v1.<minor>.json, or .json.gz for the older releases): gendata writes them, builtin reads them.
// It is apart from gendata so that reading a data file does not link the
// generator (kdv.dev/generate/openapi, kdv.dev/idl, go/packages).
package datafile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"kdv.dev/schema"
)

// Data is the decoded form of one data/v1.<minor>.json(.gz) file.
type Data struct {
	// Minor is the Kubernetes minor version; Source the module versions
	// (k8s.io/api, k8s.io/kube-aggregator) the data was generated from.
	Minor  int    `json:"minor"`
	Source string `json:"source"`
	// Kinds are every kind with its definition name, sorted by group,
	// version, kind.
	Kinds []Kind `json:"kinds"`
	// Schemas are the published definitions of all group-versions
	// (components.schemas), $refs unresolved; with Base, only those that
	// differ from Base's.
	Schemas map[string]*schema.Props `json:"schemas"`
	// Base, when set, is the minor of another data file whose definitions
	// this release shares: Inherited names the definitions taken from it
	// as they are there (sorted), so the embedded releases store each
	// definition text once where it is identical (see Delta).
	Base      int      `json:"base,omitempty"`
	Inherited []string `json:"inherited,omitempty"`
	// GoFields describes, per struct definition and JSON property name,
	// the Go field behind the property, for the messages of the
	// apiserver's JSON decoder (kdv.dev/builtin GoField).
	GoFields map[string]map[string]GoField `json:"goFields,omitempty"`
	// GoLayouts are, per struct type (by definition name, published or
	// not), the fields encoding/json prints for the apiserver's internal
	// Go type, in order: what a struct-valued bad value of hand-written
	// validation prints (`Invalid value: {"Name":"","Protocol":"TCP",...}`).
	GoLayouts map[string][]GoSlot `json:"goLayouts,omitempty"`
}

// GoSlot is one field of a GoLayouts entry.
type GoSlot struct {
	// Name is the key printed: the Go name for k8s.io/api types (internal
	// types have no json tags), the json name for apimachinery types.
	// Empty when it is JSON with its first letter upper-cased.
	Name string `json:"n,omitempty"`
	// JSON is the property of the versioned object holding the value;
	// empty for a field the versioned type lacks (always the zero value).
	JSON string `json:"j,omitempty"`
	// Zero is the JSON of the field's zero value, printed when the
	// property is absent; empty means null, or the zero struct of Struct
	// when Value is set.
	Zero string `json:"z,omitempty"`
	// Struct is the definition of a struct (or pointer to struct) field,
	// Elem that of the items of a slice or the values of a map of structs.
	Struct string `json:"s,omitempty"`
	Elem   string `json:"e,omitempty"`
	// Value: a struct, not a pointer (absent prints its zero struct).
	Value bool `json:"v,omitempty"`
	// Splice: an embedded struct the versioned type keeps under JSON
	// (ObjectMeta under "metadata"): its fields print at this level.
	Splice bool `json:"m,omitempty"`
	// OmitEmpty: json's omitempty or omitzero (apimachinery types).
	OmitEmpty bool `json:"o,omitempty"`
}

// GoField is the Go side of one property of a struct definition.
type GoField struct {
	// Type is the field's Go type as reflect.Type.String writes it, with
	// pointers removed ("int32", "v1.PullPolicy", "[]v1.Container",
	// "v1.ResourceList"): the type the decoder names in its errors.
	Type string `json:"t"`
	// Elem is the Go type of the items of a slice or the values of a map
	// (pointers removed), "" otherwise.
	Elem string `json:"e,omitempty"`
	// Embedded are the Go names of the embedded structs (json:",inline")
	// the field is promoted through, outermost first ("VolumeSource" for
	// Volume's configMap): the decoder puts them in its field path.
	Embedded []string `json:"i,omitempty"`
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

// Delta rewrites full (a release's complete Data, Base unset) to share
// the definitions whose JSON text is the same in base, the raw
// definitions of the data file of release baseMinor: those move from
// Schemas to Inherited. The text compared is encoding/json's of each
// definition, the form both files are written in.
func Delta(full *Data, baseMinor int, base map[string]json.RawMessage) error {
	own := map[string]*schema.Props{}
	var inherited []string
	for name, p := range full.Schemas {
		b, ok := base[name]
		if ok {
			j, err := json.Marshal(p)
			if err != nil {
				return fmt.Errorf("definition %s: %w", name, err)
			}
			if bytes.Equal(j, b) {
				inherited = append(inherited, name)
				continue
			}
		}
		own[name] = p
	}
	sort.Strings(inherited)
	full.Schemas, full.Base, full.Inherited = own, baseMinor, inherited
	return nil
}
