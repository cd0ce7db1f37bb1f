package formats

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Family says where a format name comes from and so which errors it reports.
// See the package documentation.
type Family int

const (
	// OpenAPI formats are kube-openapi strfmt's, enforced in CRD schemas since 1.0.
	OpenAPI Family = iota + 1
	// KubernetesCRD formats are k8s-short-name and k8s-long-name as strfmt
	// registers them, enforced in CRD schemas from compatibility version 1.34.
	KubernetesCRD
	// ValidationGen formats are the +k8s:format payloads of validation-gen.
	ValidationGen
	// KEPAlias formats are the +format names proposed by KEP-4153.
	KEPAlias
	// HandWritten formats are kdv's names for checks of k8s.io/kubernetes's
	// hand-written validation that data cannot say (k8s-cron-schedule,
	// k8s-time-zone), reporting its errors; enforced like ValidationGen.
	HandWritten
)

// String returns the family's name as used in documentation and reports.
func (f Family) String() string {
	switch f {
	case OpenAPI:
		return "openapi"
	case KubernetesCRD:
		return "kubernetes-crd"
	case ValidationGen:
		return "validation-gen"
	case KEPAlias:
		return "kep-4153"
	case HandWritten:
		return "hand-written"
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// Checker checks string values against one format. It is safe for concurrent
// use and should be obtained once per schema node (Registry.Lookup).
type Checker struct {
	name   string
	family Family
	valid  func(string) bool
	// errs builds the ValidationGen and KEPAlias errors; nil for the strfmt
	// families, whose single error is built by Errors.
	errs func(fldPath *field.Path, value string) field.ErrorList
}

// Name returns the format name as it was looked up (spelled as in the schema).
func (c *Checker) Name() string { return c.name }

// Family returns the family whose semantics and messages the checker uses.
func (c *Checker) Family() Family { return c.family }

// Valid reports whether s conforms to the format. It is the hot path: for the
// OpenAPI family it allocates nothing except for uri, email, ipv4 and cidr
// (whose kube-openapi semantics are those of net/url, net/mail and
// k8s.io/utils/net parsers, called as they are) and Scala-style durations
// ("3 days", after time.ParseDuration has failed); for the other families it
// costs what the k8s.io/apimachinery validator costs on a valid value (label
// keys, resource pool names and extended resource names allocate there).
func (c *Checker) Valid(s string) bool { return c.valid(s) }

// Errors returns the errors the apiserver reports for value at fldPath, or nil
// when the value is valid.
//
// OpenAPI and KubernetesCRD: one field.TypeInvalid (rendered "Invalid value")
// with BadValue value and detail TypeDetail(fldPath.String(), Name(), value),
// as apiextensions-apiserver's kubeOpenAPIResultToFieldErrors builds it from
// kube-openapi's InvalidType error. The apiserver's field path and the name in
// its detail are the same kube-openapi path string (e.g. "spec.items[0].id"),
// so fldPath must render that way; a nil fldPath renders as "".
//
// ValidationGen: exactly what k8s.io/apimachinery/pkg/api/validate returns
// (types, bad values, details and origins). KEPAlias: one field.Invalid per
// message of the util/validation function, origin "format=<name>".
func (c *Checker) Errors(fldPath *field.Path, value string) field.ErrorList {
	if c.errs != nil {
		return c.errs(fldPath, value)
	}
	if c.valid(value) {
		return nil
	}
	path := ""
	if fldPath != nil {
		path = fldPath.String()
	}
	return field.ErrorList{field.TypeInvalid(fldPath, value, TypeDetail(path, c.name, value))}
}

// TypeDetail returns the detail kube-openapi writes for a value failing a
// format check: errors.InvalidType(name, "body", format, value), i.e.
// `<path> in body must be of type <format>: "<value>"` (typeFailWithData, the
// value quoted with %q). The apiextensions-apiserver reports it as
// `<path>: Invalid value: "<value>": <detail>`.
func TypeDetail(path, format, value string) string {
	return fmt.Sprintf("%s in body must be of type %s: %q", path, format, value)
}

// UnrecognizedFormatWarning returns the warning the apiserver returns when a
// CRD is created or updated with a format it does not recognize (one per
// occurrence, in schema order; on update only for formats the old CRD did not
// already use): `unrecognized format "<format>"`, as in
// apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go.
func UnrecognizedFormatWarning(format string) string {
	return fmt.Sprintf("unrecognized format %q", format)
}

// UnrecognizedFormatWarnings returns the warnings of a CRD write, as the CRD
// strategy's WarningsOnCreate and WarningsOnUpdate build them: one warning per
// entry of unrecognized (the formats Registry.Recognized rejects, in schema
// order, duplicates kept), except, on update, formats that the old CRD's
// schemas already used unrecognized (oldUnrecognized; nil on create).
func UnrecognizedFormatWarnings(unrecognized, oldUnrecognized []string) []string {
	old := make(map[string]bool, len(oldUnrecognized))
	for _, f := range oldUnrecognized {
		old[f] = true
	}
	var out []string
	for _, f := range unrecognized {
		if !old[f] {
			out = append(out, UnrecognizedFormatWarning(f))
		}
	}
	return out
}
