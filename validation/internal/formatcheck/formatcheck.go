// Package formatcheck resolves OpenAPI string formats to checkers for the
// validator. It is the seam between kdv.dev/validation and the formats the
// apiserver knows: which formats survive for a Kubernetes version
// (apiextensions-apiserver pkg/apiserver/validation/formats.go) and how each
// is checked (kube-openapi pkg/validation/strfmt, the registry the apiserver
// validates with).
package formatcheck

import (
	"strings"

	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

// Checker reports whether a string conforms to a format.
type Checker func(s string) bool

// Registry resolves format names to checkers.
type Registry interface {
	// Lookup returns the checker for a format name, or nil when the
	// registry does not know the format (the apiserver then skips it).
	Lookup(name string) Checker
}

// Default is the registry the validator uses: kube-openapi's strfmt.Default,
// the same registry the apiserver passes to its schema validator.
var Default Registry = strfmtRegistry{}

type strfmtRegistry struct{}

func (strfmtRegistry) Lookup(name string) Checker {
	if !strfmt.Default.ContainsName(name) {
		return nil
	}
	return func(s string) bool { return strfmt.Default.Validates(name, s) }
}

// supported lists the string formats CRD schemas may use and the minor
// version of Kubernetes that introduced them; others are dropped before
// validation (formats.go supportedVersionedFormats). Names are normalized
// without dashes, as go-openapi does.
var supported = map[string]int{
	"bsonobjectid": 0, "uri": 0, "email": 0, "hostname": 0, "ipv4": 0, "ipv6": 0,
	"cidr": 0, "mac": 0, "uuid": 0, "uuid3": 0, "uuid4": 0, "uuid5": 0, "isbn": 0,
	"isbn10": 0, "isbn13": 0, "creditcard": 0, "ssn": 0, "hexcolor": 0, "rgbcolor": 0,
	"byte": 0, "password": 0, "date": 0, "duration": 0, "datetime": 0,
	"k8sshortname": 34, "k8slongname": 34,
}

// Effective returns the format the apiserver keeps for a schema node of the
// given types at a Kubernetes minor version, "" when it strips it
// (StripUnsupportedFormatsPostProcessorForVersion): string formats must be
// supported at that version, integer formats int32/int64, number formats
// float/double, and formats on other types are dropped.
func Effective(types []string, format string, minor int) string {
	if format == "" {
		return ""
	}
	t := ""
	if len(types) == 1 {
		t = types[0]
	}
	switch t {
	case "", "string":
		since, ok := supported[strings.ReplaceAll(format, "-", "")]
		if !ok || minor < since {
			return ""
		}
		return format
	case "integer":
		if format == "int32" || format == "int64" {
			return format
		}
	case "number":
		if format == "float" || format == "double" {
			return format
		}
	}
	return ""
}
