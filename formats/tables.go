package formats

import (
	"context"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/api/validate/content"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/formats/internal/openapifmt"
)

// crdFormat is one entry of apiextensions-apiserver's supportedVersionedFormats
// with the strfmt.Default validator registered under that name.
type crdFormat struct {
	name       string
	sinceMinor int // introducedVersion 1.<sinceMinor>
	family     Family
	valid      func(string) bool
}

// crdFormats mirrors supportedVersionedFormats (apiextensions-apiserver
// v0.37.2 pkg/apiserver/validation/formats.go).
var crdFormats = []crdFormat{
	{"bsonobjectid", 0, OpenAPI, openapifmt.IsBSONObjectID},
	{"uri", 0, OpenAPI, openapifmt.IsURI},
	{"email", 0, OpenAPI, openapifmt.IsEmail},
	{"hostname", 0, OpenAPI, openapifmt.IsHostname},
	{"ipv4", 0, OpenAPI, openapifmt.IsIPv4},
	{"ipv6", 0, OpenAPI, openapifmt.IsIPv6},
	{"cidr", 0, OpenAPI, openapifmt.IsCIDR},
	{"mac", 0, OpenAPI, openapifmt.IsMAC},
	{"uuid", 0, OpenAPI, func(s string) bool { return openapifmt.IsUUID(s, openapifmt.AnyUUID) }},
	{"uuid3", 0, OpenAPI, func(s string) bool { return openapifmt.IsUUID(s, openapifmt.UUID3) }},
	{"uuid4", 0, OpenAPI, func(s string) bool { return openapifmt.IsUUID(s, openapifmt.UUID4) }},
	{"uuid5", 0, OpenAPI, func(s string) bool { return openapifmt.IsUUID(s, openapifmt.UUID5) }},
	{"isbn", 0, OpenAPI, func(s string) bool { return openapifmt.IsISBN10(s) || openapifmt.IsISBN13(s) }},
	{"isbn10", 0, OpenAPI, openapifmt.IsISBN10},
	{"isbn13", 0, OpenAPI, openapifmt.IsISBN13},
	{"creditcard", 0, OpenAPI, openapifmt.IsCreditCard},
	{"ssn", 0, OpenAPI, openapifmt.IsSSN},
	{"hexcolor", 0, OpenAPI, openapifmt.IsHexColor},
	{"rgbcolor", 0, OpenAPI, openapifmt.IsRGBColor},
	{"byte", 0, OpenAPI, openapifmt.IsBase64},
	{"password", 0, OpenAPI, func(string) bool { return true }},
	{"date", 0, OpenAPI, openapifmt.IsDate},
	{"duration", 0, OpenAPI, openapifmt.IsDuration},
	{"datetime", 0, OpenAPI, openapifmt.IsDateTime},
	// strfmt.IsShortName / IsLongName: length limit plus the DNS-1123 label /
	// subdomain regular expression, which is exactly what apimachinery's
	// content.IsDNS1123Label / IsDNS1123Subdomain accept.
	{"k8s-short-name", 34, KubernetesCRD, func(s string) bool { return len(content.IsDNS1123Label(s)) == 0 }},
	{"k8s-long-name", 34, KubernetesCRD, func(s string) bool { return len(content.IsDNS1123Subdomain(s)) == 0 }},
}

// namedFormat is a validation-gen or KEP-4153 format: a validity test and the
// error builder that agrees with it.
type namedFormat struct {
	valid func(string) bool
	errs  func(fldPath *field.Path, value string) field.ErrorList
}

// validateFunc is the shape of k8s.io/apimachinery/pkg/api/validate's format
// validators as instantiated for string.
type validateFunc func(ctx context.Context, op operation.Operation, fldPath *field.Path, value, old *string) field.ErrorList

// fromValidate wraps an apimachinery validate.* function; validity is "no
// errors", so Valid and Errors can never disagree.
func fromValidate(fn validateFunc) *namedFormat {
	ctx := context.Background()
	return &namedFormat{
		valid: func(s string) bool { return len(fn(ctx, operation.Operation{}, nil, &s, nil)) == 0 },
		errs: func(fldPath *field.Path, value string) field.ErrorList {
			return fn(ctx, operation.Operation{Type: operation.Create}, fldPath, &value, nil)
		},
	}
}

// validationGenFormats mirrors getFormatValidationFunction in
// k8s.io/code-generator v0.37.2 cmd/validation-gen/validators/format.go.
var validationGenFormats = map[string]*namedFormat{
	"k8s-extended-resource-name":        fromValidate(validate.ExtendedResourceName[string]),
	"k8s-label-key":                     fromValidate(validate.LabelKey[string]),
	"k8s-label-value":                   fromValidate(validate.LabelValue[string]),
	"k8s-long-name":                     fromValidate(validate.LongName[string]),
	"k8s-long-name-caseless":            fromValidate(validate.LongNameCaseless[string]),
	"k8s-path-segment-name":             fromValidate(validate.PathSegmentName[string]),
	"k8s-prefixed-label-key":            fromValidate(validate.PrefixedLabelKey[string]),
	"k8s-resource-fully-qualified-name": fromValidate(validate.ResourceFullyQualifiedName[string]),
	"k8s-resource-pool-name":            fromValidate(validate.ResourcePoolName[string]),
	"k8s-short-name":                    fromValidate(validate.ShortName[string]),
	"k8s-uuid":                          fromValidate(validate.UUID[string]),
}

// fromMessages wraps a util/validation style function returning messages.
func fromMessages(name string, fn func(string) []string) *namedFormat {
	origin := "format=" + name
	return &namedFormat{
		valid: func(s string) bool { return len(fn(s)) == 0 },
		errs: func(fldPath *field.Path, value string) field.ErrorList {
			var errs field.ErrorList
			for _, msg := range fn(value) {
				errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin(origin))
			}
			return errs
		},
	}
}

// kepFormats are KEP-4153's format names (see the package documentation).
var kepFormats = map[string]*namedFormat{
	"dns1123subdomain": fromMessages("dns1123subdomain", utilvalidation.IsDNS1123Subdomain),
	"dns1123label":     fromMessages("dns1123label", utilvalidation.IsDNS1123Label),
	"dns1035label":     fromMessages("dns1035label", utilvalidation.IsDNS1035Label),
	"qualifiedname":    fromMessages("qualifiedname", utilvalidation.IsQualifiedName),
	"labelvalue":       fromMessages("labelvalue", utilvalidation.IsValidLabelValue),
	// portname is kdv's name for IANA_SVC_NAME (RFC 6335), the named ports
	// of containers, probes and Services (validation.IsValidPortName),
	// which no KEP-4153 or validation-gen format covers.
	"portname": fromMessages("portname", utilvalidation.IsValidPortName),
}
