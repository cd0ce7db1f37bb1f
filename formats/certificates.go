package formats

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The certificates.k8s.io checks no data can say: a signer name's syntax
// (its label errors name a segment, not the whole value) and a trust
// bundle's PEM and X.509 content.
func init() {
	handWrittenFormats["k8s-signer-name"] = &namedFormat{
		valid: func(s string) bool { return len(signerNameErrors(nil, s)) == 0 },
		errs:  signerNameErrors,
	}
	handWrittenFormats["k8s-trust-bundle"] = &namedFormat{
		valid: func(s string) bool { return len(trustBundleErrors(nil, s)) == 0 },
		errs:  trustBundleErrors,
	}
}

// signerNameErrors is k8s.io/kubernetes pkg/apis/core/validation/names.go
// ValidateSignerName for a non-empty name: exactly one "/", a domain of at
// least two DNS-1123 labels (at most 253 bytes), a path of DNS-1123
// subdomains separated by dots, at most 571 bytes in all. The empty name,
// which that function reports as Required, is left to the schema's
// required and valid here (a ClusterTrustBundle's signerName is optional).
func signerNameErrors(fldPath *field.Path, signerName string) field.ErrorList {
	if signerName == "" {
		return nil
	}
	var el field.ErrorList
	segments := strings.Split(signerName, "/")
	if len(segments) != 2 {
		return append(el, field.Invalid(fldPath, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'"))
	}
	maxDomainSegmentLength := utilvalidation.DNS1123SubdomainMaxLength
	if len(segments[0]) > maxDomainSegmentLength {
		el = append(el, field.TooLong(fldPath, "" /*unused*/, maxDomainSegmentLength))
	}
	domainLabels := strings.Split(segments[0], ".")
	for _, lbl := range domainLabels {
		if errs := utilvalidation.IsDNS1123Label(lbl); len(errs) > 0 {
			for _, err := range errs {
				el = append(el, field.Invalid(fldPath, segments[0], fmt.Sprintf("validating label %q: %s", lbl, err)))
			}
			break
		}
	}
	if len(domainLabels) < 2 {
		el = append(el, field.Invalid(fldPath, segments[0], "should be a domain with at least two segments separated by dots"))
	}
	for _, lbl := range strings.Split(segments[1], ".") {
		if errs := utilvalidation.IsDNS1123Subdomain(lbl); len(errs) > 0 {
			for _, err := range errs {
				el = append(el, field.Invalid(fldPath, segments[1], fmt.Sprintf("validating label %q: %s", lbl, err)))
			}
			break
		}
	}
	maxPathSegmentLength := utilvalidation.DNS1123SubdomainMaxLength + utilvalidation.DNS1123LabelMaxLength + 1
	maxSignerNameLength := maxDomainSegmentLength + maxPathSegmentLength + 1
	if len(signerName) > maxSignerNameLength {
		el = append(el, field.TooLong(fldPath, "" /*unused*/, maxSignerNameLength))
	}
	return el
}

// maxTrustBundleSize is k8s.io/kubernetes pkg/apis/certificates
// MaxTrustBundleSize.
const maxTrustBundleSize = 1 * 1024 * 1024

// omittedValue is the bad value validateTrustBundle reports: the bundle
// itself is never printed.
const omittedValue = "<value omitted>"

// trustBundleErrors is k8s.io/kubernetes pkg/apis/certificates/validation
// validateTrustBundle: at most 1 MiB; every PEM block a CERTIFICATE
// without headers that parses as an X.509 CA certificate with valid basic
// constraints; then (only when every block is good) at least one block and
// no block twice. Text between blocks is ignored, as pem.Decode does. The
// apiserver lists duplicates in Go map order (random); kdv lists them in
// the order of their first index.
func trustBundleErrors(fldPath *field.Path, in string) field.ErrorList {
	if len(in) > maxTrustBundleSize {
		return field.ErrorList{field.TooLong(fldPath, "" /*unused*/, maxTrustBundleSize)}
	}
	var el field.ErrorList
	dedupe := map[string][]int{}
	var order []string
	rest := []byte(in)
	for i := 0; ; i++ {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("entry %d has bad block type: %v", i, b.Type)))
			continue
		}
		if len(b.Headers) != 0 {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("entry %d has PEM block headers", i)))
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("entry %d does not parse as X.509", i)))
			continue
		}
		if !cert.IsCA {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("entry %d does not have the CA bit set", i)))
			continue
		}
		if !cert.BasicConstraintsValid {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("entry %d has invalid basic constraints", i)))
			continue
		}
		k := string(b.Bytes)
		if _, seen := dedupe[k]; !seen {
			order = append(order, k)
		}
		dedupe[k] = append(dedupe[k], i)
	}
	if len(el) != 0 {
		return el
	}
	if len(dedupe) == 0 {
		return field.ErrorList{field.Invalid(fldPath, omittedValue, "at least one trust anchor must be provided")}
	}
	for _, k := range order {
		if indices := dedupe[k]; len(indices) > 1 {
			el = append(el, field.Invalid(fldPath, omittedValue, fmt.Sprintf("duplicate trust anchor (indices %v)", indices)))
		}
	}
	return el
}
