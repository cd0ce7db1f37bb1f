package schema

import (
	"encoding/json"
	"fmt"
	sigsjson "sigs.k8s.io/json"
)

// CRD is an apiextensions.k8s.io/v1 CustomResourceDefinition as far as kdv
// needs it: names, scope and every version's schema. The JSON shape is the
// v1 API's (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1).
type CRD struct {
	APIVersion string      `json:"apiVersion"`
	Kind       string      `json:"kind"`
	Metadata   CRDMetadata `json:"metadata"`
	Spec       CRDSpec     `json:"spec"`

	// unknown are the strict-decoding warnings for the fields that
	// apiextensions.k8s.io/v1 does not define, when parsed is set (by
	// ParseCRD, from the document itself).
	unknown []string
	parsed  bool
}

// CRDMetadata is the part of a CRD's ObjectMeta kdv reads.
type CRDMetadata struct {
	Name         string            `json:"name,omitempty"`
	GenerateName string            `json:"generateName,omitempty"`
	Namespace    string            `json:"namespace,omitempty"`
	Finalizers   []string          `json:"finalizers,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
}

// CRDSpec is a CRD's spec.
type CRDSpec struct {
	Group                 string         `json:"group"`
	Names                 CRDNames       `json:"names"`
	Scope                 string         `json:"scope"`
	Versions              []CRDVersion   `json:"versions"`
	Conversion            map[string]any `json:"conversion,omitempty"`
	PreserveUnknownFields bool           `json:"preserveUnknownFields,omitempty"`
}

// CRDNames are a CRD's resource and kind names.
type CRDNames struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// CRDVersion is one entry of spec.versions.
type CRDVersion struct {
	Name                     string           `json:"name"`
	Served                   bool             `json:"served"`
	Storage                  bool             `json:"storage"`
	Deprecated               bool             `json:"deprecated,omitempty"`
	DeprecationWarning       *string          `json:"deprecationWarning,omitempty"`
	Schema                   *CRDValidation   `json:"schema,omitempty"`
	Subresources             *CRDSubresources `json:"subresources,omitempty"`
	AdditionalPrinterColumns []map[string]any `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []map[string]any `json:"selectableFields,omitempty"`
}

// CRDValidation holds a version's openAPIV3Schema.
type CRDValidation struct {
	OpenAPIV3Schema *Props `json:"openAPIV3Schema,omitempty"`
}

// CRDSubresources are a version's status and scale subresources.
type CRDSubresources struct {
	Status *struct{}       `json:"status,omitempty"`
	Scale  *map[string]any `json:"scale,omitempty"`
}

// IsCRD reports whether apiVersion and kind name a CustomResourceDefinition
// of any API version.
func IsCRD(apiVersion, kind string) bool {
	return kind == "CustomResourceDefinition" &&
		(apiVersion == "apiextensions.k8s.io/v1" || apiVersion == "apiextensions.k8s.io/v1beta1")
}

// ParseCRD decodes one CRD document (YAML or JSON). It fails for documents
// that are not apiextensions.k8s.io/v1 CRDs; v1beta1, removed in Kubernetes
// 1.22, gets an error saying so.
func ParseCRD(doc []byte) (*CRD, error) {
	j, err := yamlToJSON(doc)
	if err != nil {
		return nil, err
	}
	c, err := parseCRDJSON(j)
	if err != nil {
		return nil, err
	}
	if generic, err := decodeGeneric(j); err == nil {
		c.unknown, c.parsed = unknownCRDFields(generic), true
	}
	return c, nil
}

// parseCRDJSON decodes a CRD from JSON after checking its apiVersion and kind.
func parseCRDJSON(j []byte) (*CRD, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(j, &head); err != nil {
		return nil, err
	}
	switch {
	case head.Kind != "CustomResourceDefinition":
		return nil, fmt.Errorf("not a CustomResourceDefinition: apiVersion %q, kind %q", head.APIVersion, head.Kind)
	case head.APIVersion == "apiextensions.k8s.io/v1beta1":
		return nil, fmt.Errorf("apiextensions.k8s.io/v1beta1 CustomResourceDefinitions are not supported (removed in Kubernetes 1.22); convert to apiextensions.k8s.io/v1")
	case head.APIVersion != "apiextensions.k8s.io/v1":
		return nil, fmt.Errorf("unsupported CustomResourceDefinition apiVersion %q, want apiextensions.k8s.io/v1", head.APIVersion)
	}
	var c CRD
	// Case-sensitive field names, as the apiserver's decoder.
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(j, &c); err != nil {
		return nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
	}
	return &c, nil
}

// ParseCRDObject decodes a CRD already decoded to unstructured form
// (map[string]any as manifest produces), with the same checks and
// unknown-field warnings as ParseCRD; the object is not parsed as YAML again.
func ParseCRDObject(obj map[string]any) (*CRD, error) {
	if c, ok := parseCRDObjectDirect(obj); ok {
		return c, nil
	}
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	c, err := parseCRDJSON(j)
	if err != nil {
		return nil, err
	}
	c.unknown, c.parsed = unknownCRDFields(obj), true
	return c, nil
}

// Version returns the spec.versions entry with the given name, or nil.
func (c *CRD) Version(name string) *CRDVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

// Structural converts the version's openAPIV3Schema to a structural schema.
// It returns an error when the version has no schema or the schema holds
// keywords no structural schema can; run Check for the full verdict.
func (v *CRDVersion) Structural() (*Structural, error) {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("version %q has no schema.openAPIV3Schema", v.Name)
	}
	s, err := NewStructural(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	dropBuiltInExtensions(s)
	return s, nil
}
