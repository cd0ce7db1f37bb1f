package schema

import (
	"fmt"
	"sort"
	"strings"
)

// supportedStringFormats are the normalized (dashes removed) string formats
// the apiserver validates in CRD schemas (apiextensions-apiserver
// pkg/apiserver/validation/formats.go supportedVersionedFormats, 1.34+).
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true,
	"rgbcolor": true, "byte": true, "password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// UnrecognizedFormat reports whether the apiserver ignores format on a node
// of type typ (and warns about it on CRD create). It mirrors
// GetUnrecognizedFormats in apiextensions-apiserver pkg/apiserver/validation
// at the newest compatibility version.
func UnrecognizedFormat(typ, format string) bool { return UnrecognizedFormatAt(0, typ, format) }

// UnrecognizedFormatAt is UnrecognizedFormat for Kubernetes 1.minor
// (0: newest): k8s-short-name and k8s-long-name exist from 1.34
// (supportedVersionedFormats).
func UnrecognizedFormatAt(minor int, typ, format string) bool {
	if format == "" {
		return false
	}
	switch typ {
	case "", "string":
		n := strings.ReplaceAll(format, "-", "")
		if minor > 0 && minor < 34 && (n == "k8sshortname" || n == "k8slongname") {
			return true
		}
		return !supportedStringFormats[n]
	case "integer":
		return format != "int32" && format != "int64"
	case "number":
		return format != "float" && format != "double"
	default:
		return true
	}
}

// dedup keeps the first occurrence of each warning, as the apiserver's
// warning recorder does.
func dedup(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// formatWarnings mirrors getUnrecognizedFormatsInCRD of the CRD strategy.
func formatWarnings(c *internalCRD, minor int) []string {
	var ws []string
	visit := func(p *Props) {
		walkProps(p, func(s *Props) {
			if UnrecognizedFormatAt(minor, s.Type, s.Format) {
				ws = append(ws, fmt.Sprintf("unrecognized format %q", s.Format))
			}
		})
	}
	visit(c.validation)
	for _, v := range c.versions {
		visit(v.schema)
	}
	return dedup(ws)
}

// setWarnings mirrors getNonScalarListTypeSetWarnings (sorted, unique).
func setWarnings(c *internalCRD) []string {
	seen := map[string]bool{}
	check := func(s *Props) {
		if s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
			switch t := s.Items.Schema.Type; t {
			case "object", "array":
				seen[fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", t)] = true
			}
		}
	}
	walkProps(c.validation, check)
	for _, v := range c.versions {
		walkProps(v.schema, check)
	}
	return sortedKeys(seen)
}

// unknownFieldWarnings lists the fields apiextensions.k8s.io/v1 does not
// define with the paths the apiserver's strict decoder prints (sorted, map
// keys joined with dots): from the document for CRDs from ParseCRD
// (unknownCRDFields), else the schemas' kdv extensions and Props.Extra keys.
func unknownFieldWarnings(crd *CRD) []string {
	if crd.parsed {
		return append([]string{}, crd.unknown...)
	}
	var ws []string
	for i, v := range crd.Spec.Versions {
		if v.Schema == nil {
			continue
		}
		unknownFields(v.Schema.OpenAPIV3Schema, fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), &ws)
	}
	sort.Strings(ws)
	return ws
}

func unknownFields(p *Props, path string, out *[]string) {
	if p == nil {
		return
	}
	var keys []string
	for k := range p.Extra {
		keys = append(keys, k)
	}
	if p.XAPILifecycle != nil {
		keys = append(keys, "x-kubernetes-api-lifecycle")
	}
	if p.XUnions != nil {
		keys = append(keys, "x-kubernetes-unions")
	}
	if p.XValidationErrors != nil {
		keys = append(keys, "x-kubernetes-validation-errors")
	}
	if p.XStripZero {
		keys = append(keys, "x-kubernetes-strip-zero")
	}
	if p.XListUnique != nil {
		keys = append(keys, "x-kubernetes-list-unique")
	}
	if p.XUniqueKey != "" {
		keys = append(keys, "x-kubernetes-unique-key")
	}
	sort.Strings(keys)
	for _, k := range keys {
		*out = append(*out, fmt.Sprintf("unknown field %q", path+"."+k))
	}
	if p.Items != nil {
		unknownFields(p.Items.Schema, path+".items", out)
		for i := range p.Items.Schemas {
			unknownFields(&p.Items.Schemas[i], fmt.Sprintf("%s.items[%d]", path, i), out)
		}
	}
	for _, j := range []struct {
		name string
		list []Props
	}{{"allOf", p.AllOf}, {"anyOf", p.AnyOf}, {"oneOf", p.OneOf}} {
		for i := range j.list {
			unknownFields(&j.list[i], fmt.Sprintf("%s.%s[%d]", path, j.name, i), out)
		}
	}
	unknownFields(p.Not, path+".not", out)
	for _, m := range []struct {
		name string
		m    map[string]Props
	}{{"properties", p.Properties}, {"patternProperties", p.PatternProperties}, {"definitions", p.Definitions}} {
		for _, k := range sortedKeys(m.m) {
			v := m.m[k]
			unknownFields(&v, path+"."+m.name+"."+k, out)
		}
	}
	if p.AdditionalProperties != nil {
		unknownFields(p.AdditionalProperties.Schema, path+".additionalProperties", out)
	}
	if p.AdditionalItems != nil {
		unknownFields(p.AdditionalItems.Schema, path+".additionalItems", out)
	}
	for _, k := range sortedKeys(p.Dependencies) {
		unknownFields(p.Dependencies[k].Schema, path+".dependencies."+k, out)
	}
}
