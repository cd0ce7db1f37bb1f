// Package formats validates named string formats ("format: uuid",
// "+k8s:format=k8s-short-name", "+format=dns1123label") as Kubernetes does.
//
// A validator looks a format up once, when it compiles a schema, and then
// checks values with the returned *Checker:
//
//	reg := formats.ForVersion(37)
//	c, ok := reg.Lookup(schema.Format) // ok == false: the apiserver ignores this format
//	...
//	if !c.Valid(s) { errs = append(errs, c.Errors(fldPath, s)...) }
//
// Valid is the hot path (no allocation for most formats, see the benchmarks);
// Errors builds the apiserver's field errors and is only called on failure.
//
// # Families
//
// Four families of names exist; Lookup decides per name which one applies.
//
// OpenAPI formats (Family OpenAPI) are the ones k8s.io/kube-openapi's
// strfmt.Default registers and the apiextensions-apiserver keeps in CRD
// schemas (supportedVersionedFormats in
// k8s.io/apiextensions-apiserver/pkg/apiserver/validation/formats.go, all since
// 1.0): bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3,
// uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor,
// byte, password, date, duration, datetime. Names are compared after removing
// every '-' (go-openapi's name normalization), so "date-time" is "datetime"
// and "u-u-i-d" is "uuid". A failing value is reported as kube-openapi's
// InvalidType error mapped by the apiextensions-apiserver to field.TypeInvalid:
//
//	spec.x: Invalid value: "abc": spec.x in body must be of type uuid: "abc"
//
// The format name in the detail is spelled as in the schema (TypeDetail).
//
// Kubernetes CRD formats (Family KubernetesCRD) are k8s-short-name and
// k8s-long-name, also registered in strfmt.Default but kept in CRD schemas only
// from compatibility version 1.34. The apiserver's compatibility version is
// its minor version minus one (component-base NewEffectiveVersion), so a 1.34
// apiserver still ignores them and 1.35 and later enforce them. They report the
// same "must be of type k8s-short-name" detail as the OpenAPI family.
//
// Every other format in a CRD schema is removed before validation
// (StripUnsupportedFormatsPostProcessorForVersion) and draws the warning
// UnrecognizedFormatWarning when the CRD is written; Registry.Recognized
// mirrors that decision, including the integer (int32, int64) and number
// (float, double) formats.
//
// validation-gen formats (Family ValidationGen) are the +k8s:format payloads
// k8s.io/code-generator v0.37.2 cmd/validation-gen accepts:
// k8s-extended-resource-name, k8s-label-key, k8s-label-value, k8s-long-name,
// k8s-long-name-caseless, k8s-path-segment-name, k8s-prefixed-label-key,
// k8s-resource-fully-qualified-name, k8s-resource-pool-name, k8s-short-name,
// k8s-uuid. (validation-gen documents k8s-ip but rejects it at v0.37.2 as an
// "unsupported validation format"; there is no k8s-cidr.) Checking and errors
// are delegated to k8s.io/apimachinery/pkg/api/validate (ShortName, LongName,
// LabelKey, ...), so messages, error types and origins are validation-gen's,
// e.g. `Invalid value: "A": a lowercase RFC 1123 label must consist of ...`
// with origin "format=k8s-short-name".
//
// KEP-4153 aliases (Family KEPAlias) are the names KEP-4153 (declarative
// validation) proposes for +format=, checked with k8s.io/apimachinery's
// util/validation functions, one field.Invalid per message, origin
// "format=<name>":
//
//	dns1123subdomain  IsDNS1123Subdomain
//	dns1123label      IsDNS1123Label
//	dns1035label      IsDNS1035Label
//	qualifiedname     IsQualifiedName (label key syntax)
//	labelvalue        IsValidLabelValue
//
// The KEP lists IP and CIDR only as CEL library functions, not as formats, so
// no ip or cidr alias exists.
//
// # Enforcement
//
// By default a Registry enforces exactly what the apiserver enforces for a
// custom resource: OpenAPI and Kubernetes CRD formats recognized at the
// version, nothing else. Options.Extended additionally enforces the
// validation-gen and KEP-4153 names the apiserver would ignore (kdv-extended
// behaviour). Options.Declarative is for built-in types, whose formats come
// from +k8s:format tags and are checked by validation-gen code: validation-gen
// names are always enforced with validation-gen's errors, even k8s-short-name
// and k8s-long-name, and it implies Extended.
package formats
