package schema

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// CheckOptions configures Check.
type CheckOptions struct {
	// ValidateDefaults, when set, is called once per schema that passes
	// ValidateStructural, where the apiserver runs
	// structuraldefaulting.ValidateDefaults (defaults must validate and be
	// pruned). When it returns errors, ValidateSchema is not called, as the
	// apiserver then skips CEL. fldPath is the openAPIV3Schema path.
	ValidateDefaults func(s *Structural, fldPath *field.Path) field.ErrorList

	// ValidateSchema, when set, is called once per schema that is structural
	// (and whose defaults passed ValidateDefaults), where the apiserver
	// compiles x-kubernetes-validations rules; it returns CEL compile/cost
	// errors (and, if ValidateDefaults is unset, default errors). Errors of
	// rules on nodes that have schema errors at or below them are dropped,
	// as the apiserver does not compile those rules. Its errors follow the
	// schema errors, as the apiserver's CELErrors follow its SchemaErrors.
	// fldPath is the
	// openAPIV3Schema path (spec.validation.openAPIV3Schema when every
	// version has the same schema, see Check).
	ValidateSchema func(s *Structural, fldPath *field.Path) field.ErrorList

	// StrictUnknownFields makes fields that apiextensions.k8s.io/v1 does
	// not define errors (kubectl's default --validate=strict, where the
	// apiserver rejects the request while decoding with `strict decoding
	// error: unknown field "<path>", ...` and validates nothing else), one
	// Forbidden error per field, and Check then returns only those; without
	// it they are warnings (`unknown field "<path>"`, --validate=warn).
	StrictUnknownFields bool

	// KubernetesMinor is the 1.x apiserver version whose format support
	// decides "unrecognized format" warnings; 0 means the newest.
	KubernetesMinor int
}

// Check applies the rules the apiserver applies when a CustomResourceDefinition
// is created, returning the field errors it would reject the CRD with and the
// warnings it would send back.
//
// It mirrors ValidateCustomResourceDefinition (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation) on the internal object a v1 create
// produces: names defaulted (singular, listKind, conversion strategy None,
// status.storedVersions) and, as Convert_v1_CustomResourceDefinitionSpec_To_
// apiextensions_CustomResourceDefinitionSpec does, per-version schemas,
// subresources and printer columns that are identical in every version moved
// to the spec, so their errors carry spec.validation.openAPIV3Schema,
// spec.subresources and spec.additionalPrinterColumns paths, as the
// apiserver's do. Warnings are the unknown fields the apiserver's decoder
// reports (see StrictUnknownFields) and, when there is no error (the
// apiserver calls WarningsOnCreate only after validation passed), the CRD
// strategy's WarningsOnCreate: unrecognized formats and list-type set with
// non-scalar items.
//
// Where the apiserver iterates a Go map (schema properties), Check visits keys
// in sorted order, so its output is deterministic.
func Check(crd *CRD, opts CheckOptions) (field.ErrorList, []string) {
	if crd == nil {
		return field.ErrorList{field.Required(field.NewPath(""), "no CustomResourceDefinition")}, nil
	}
	c := newInternalCRD(crd)
	warnings := unknownFieldWarnings(crd)
	if opts.StrictUnknownFields && len(warnings) > 0 {
		// The apiserver rejects the request while decoding, before any
		// validation: these are the only errors.
		var allErrs field.ErrorList
		for _, w := range warnings {
			p := strings.TrimSuffix(strings.TrimPrefix(w, `unknown field "`), `"`)
			allErrs = append(allErrs, field.Forbidden(field.NewPath(p), "strict decoding error: "+w))
		}
		return allErrs, nil
	}
	var allErrs field.ErrorList
	allErrs = append(allErrs, validateCRDName(c)...)
	b := newErrBudget()
	allErrs = append(allErrs, validateCRDSpec(c, opts, b, field.NewPath("spec"))...)
	allErrs = append(allErrs, validateStoredVersions(c, field.NewPath("status").Child("storedVersions"))...)
	allErrs = append(allErrs, validateAPIApproval(crd)...)
	if crd.Spec.PreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec").Child("preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	if len(allErrs) > MaxCheckErrors {
		// Errors outside the schemas are few per field of the CRD, but
		// MaxCheckErrors holds for the whole list.
		b.dropped += len(allErrs) - MaxCheckErrors
		allErrs = allErrs[:MaxCheckErrors]
	}
	if e := b.notice(); e != nil {
		allErrs = append(allErrs, e)
	}
	// WarningsOnCreate runs only after validation passed (rest.BeforeCreate).
	if len(allErrs) == 0 {
		warnings = append(warnings, formatWarnings(c, opts.KubernetesMinor)...)
		warnings = append(warnings, setWarnings(c)...)
	}
	return allErrs, warnings
}

// validateCRDName validates the CRD's ObjectMeta as
// ValidateObjectMetaAccessor (apimachinery pkg/api/validation) does on
// create, with the CRD's name function: a DNS subdomain equal to
// spec.names.plural+"."+spec.group.
func validateCRDName(c *internalCRD) field.ErrorList {
	md := c.crd.Metadata
	nameFn := func(name string, prefix bool) []string {
		ret := genericvalidation.NameIsDNSSubdomain(name, prefix)
		if name != c.names.Plural+"."+c.crd.Spec.Group {
			ret = append(ret, `must be spec.names.plural+"."+spec.group`)
		}
		return ret
	}
	// metadata.namespace is not validated: for a cluster-scoped kind the
	// apiserver clears it before validation
	// (rest.EnsureObjectNamespaceMatchesRequestNamespace).
	meta := &metav1.ObjectMeta{Name: md.Name, GenerateName: md.GenerateName,
		Labels: md.Labels, Annotations: md.Annotations, Finalizers: md.Finalizers}
	return genericvalidation.ValidateObjectMetaAccessor(meta, false, nameFn, field.NewPath("metadata"))
}

func validateCRDSpec(c *internalCRD, opts CheckOptions, b *errBudget, fldPath *field.Path) field.ErrorList {
	spec := &c.crd.Spec
	allErrs := field.ErrorList{}
	if len(spec.Group) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("group"), ""))
	} else if errs := utilvalidation.IsDNS1123Subdomain(spec.Group); len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, strings.Join(errs, ",")))
	} else if len(strings.Split(spec.Group, ".")) < 2 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}
	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("scope"), spec.Scope, []string{"Cluster", "Namespaced"})...)

	// v1 always has preserveUnknownFields set (default false), so structural
	// schemas are required unless it is true; Check reports true below anyway.
	requireStructural := !spec.PreserveUnknownFields
	if c.validation == nil {
		for i, v := range c.versions {
			if v.schema == nil {
				allErrs = append(allErrs, field.Required(fldPath.Child("versions").Index(i).Child("schema").Child("openAPIV3Schema"), ""))
			}
		}
	}
	if c.hasSchemaWith(func(p *Props) bool { return p.Default != nil }) {
		requireStructural = true
		if spec.PreserveUnknownFields {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if c.hasSchemaWith(func(s *Props) bool {
		return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString || len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
	}) {
		requireStructural = true
	}

	storageFlagCount := 0
	seen := map[string]bool{}
	uniqueNames := true
	for i, v := range c.versions {
		vp := fldPath.Child("versions").Index(i)
		if v.Storage {
			storageFlagCount++
		}
		if seen[v.Name] {
			uniqueNames = false
		}
		seen[v.Name] = true
		if errs := utilvalidation.IsDNS1035Label(v.Name); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(vp.Child("name"), v.Name, strings.Join(errs, ",")))
		}
		for _, msg := range validateDeprecationWarning(v.Deprecated, v.DeprecationWarning) {
			allErrs = append(allErrs, field.Invalid(vp.Child("deprecationWarning"), jsonValue{v.DeprecationWarning}, msg))
		}
		if v.schema != nil {
			allErrs = append(allErrs, validateSchemaValidation(v.schema, c.statusEnabled(v), requireStructural, opts, b, vp.Child("schema"))...)
		}
		allErrs = append(allErrs, validateSubresources(v.subresources, vp.Child("subresources"))...)
		for j, col := range v.columns {
			allErrs = append(allErrs, validateColumn(col, vp.Child("additionalPrinterColumns").Index(j))...)
		}
		allErrs = append(allErrs, validateVersionSelectableFields(v.selectable, v.schema, vp)...)
	}
	if !uniqueNames {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), c.versionsValue(), "must contain unique version names"))
	}
	if storageFlagCount != 1 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), c.versionsValue(), "must have exactly one version marked as storage version"))
	}
	if c.version != "" {
		if errs := utilvalidation.IsDNS1035Label(c.version); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), c.version, strings.Join(errs, ",")))
		}
	}

	names := c.names
	if len(names.Plural) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "plural"), ""))
	}
	if len(names.Singular) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "singular"), ""))
	}
	if len(names.Kind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "kind"), ""))
	}
	if len(names.ListKind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "listKind"), ""))
	}
	allErrs = append(allErrs, validateNames(&names, fldPath.Child("names"))...)
	if c.validation != nil {
		allErrs = append(allErrs, validateSchemaValidation(c.validation, c.anyStatusEnabled(), requireStructural, opts, b, fldPath.Child("validation"))...)
	}
	allErrs = append(allErrs, validateSubresources(c.subresources, fldPath.Child("subresources"))...)
	for j, col := range c.columns {
		allErrs = append(allErrs, validateColumn(col, fldPath.Child("additionalPrinterColumns").Index(j))...)
	}
	if len(c.selectable) > 0 {
		allErrs = append(allErrs, validateSelectableFields(c.selectable, c.validation, fldPath)...)
	}
	allErrs = append(allErrs, validateConversion(spec.Conversion, spec.PreserveUnknownFields, fldPath)...)
	return allErrs
}

func validateEnumStrings(fldPath *field.Path, value string, accepted []string) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	if contains(accepted, value) {
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, value, accepted)}
}

// validateDeprecationWarning mirrors the apiserver's validateDeprecationWarning.
func validateDeprecationWarning(deprecated bool, w *string) []string {
	if !deprecated && w != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if w == nil {
		return nil
	}
	var errs []string
	if len(*w) > 256 {
		errs = append(errs, "must be <= 256 characters long")
	}
	if len(*w) == 0 {
		errs = append(errs, "must not be an empty string")
	}
	for i, r := range *w {
		if !unicode.IsPrint(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*w) {
		errs = append(errs, "must only contain printable UTF-8 characters")
	}
	return errs
}

// validateNames mirrors ValidateCustomResourceDefinitionNames.
func validateNames(names *CRDNames, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if errs := utilvalidation.IsDNS1035Label(names.Plural); len(names.Plural) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("plural"), names.Plural, strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(names.Singular); len(names.Singular) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("singular"), names.Singular, strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(strings.ToLower(names.Kind)); len(names.Kind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("kind"), names.Kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(strings.ToLower(names.ListKind)); len(names.ListKind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	for i, s := range names.ShortNames {
		if errs := utilvalidation.IsDNS1035Label(s); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("shortNames").Index(i), s, strings.Join(errs, ",")))
		}
	}
	if len(names.Kind) > 0 && names.Kind == names.ListKind {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "kind and listKind may not be the same"))
	}
	for i, s := range names.Categories {
		if errs := utilvalidation.IsDNS1035Label(s); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("categories").Index(i), s, strings.Join(errs, ",")))
		}
	}
	return allErrs
}

// validateStoredVersions mirrors ValidateCustomResourceDefinitionStoredVersions
// on the defaulted status of a new CRD: SetDefaults_CustomResourceDefinition
// stores the first storage version only.
func validateStoredVersions(c *internalCRD, fldPath *field.Path) field.ErrorList {
	var stored []string
	for _, v := range c.versions {
		if v.Storage {
			stored = append(stored, v.Name)
			break
		}
	}
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(fldPath, stored, "must have at least one stored version")}
	}
	var allErrs field.ErrorList
	for _, v := range c.versions {
		if v.Storage && v.Name != stored[0] {
			allErrs = append(allErrs, field.Invalid(fldPath, stored, "must have the storage version "+v.Name))
		}
	}
	return allErrs
}

// validateAPIApproval mirrors the apiserver's validateAPIApproval on create:
// groups under k8s.io and kubernetes.io need the api-approved.kubernetes.io
// annotation.
func validateAPIApproval(crd *CRD) field.ErrorList {
	g := crd.Spec.Group
	if !(g == "k8s.io" || strings.HasSuffix(g, ".k8s.io") || g == "kubernetes.io" || strings.HasSuffix(g, ".kubernetes.io")) {
		return nil
	}
	const key = "api-approved.kubernetes.io"
	p := field.NewPath("metadata", "annotations").Key(key)
	a := crd.Metadata.Annotations[key]
	u, err := url.ParseRequestURI(a)
	switch {
	case a == "":
		return field.ErrorList{field.Required(p, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", key))}
	case strings.HasPrefix(a, "unapproved"):
		return nil
	case err == nil && u != nil && len(u.Host) > 0 && len(u.Scheme) > 0:
		return nil
	default:
		return field.ErrorList{field.Invalid(p, a, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", key))}
	}
}
