package schema

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// CheckDocument parses one YAML or JSON document and checks it as a
// CustomResourceDefinition create. name (file name, and document index if
// any) prefixes the returned error, which is set when the document cannot
// be checked at all: malformed YAML, not a CRD, a removed CRD API version,
// or fields of the wrong type. A CRD without schemas is not an error here:
// Check reports `spec.versions[0].schema.openAPIV3Schema: Required value`,
// as the apiserver does.
func CheckDocument(name string, doc []byte, opts CheckOptions) (field.ErrorList, []string, error) {
	crd, err := ParseCRD(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	errs, warnings := Check(crd, opts)
	return errs, warnings, nil
}
