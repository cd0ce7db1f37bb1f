package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// internalCRD is the part of the apiserver's internal CustomResourceDefinition
// that a v1 create produces (defaults applied, identical per-version fields
// moved to the spec), with schemas in the apiserver's view.
type internalCRD struct {
	crd          *CRD
	names        CRDNames
	version      string
	versions     []internalVersion
	validation   *Props
	subresources *CRDSubresources
	columns      []map[string]any
	selectable   []map[string]any
}

type internalVersion struct {
	CRDVersion
	schema       *Props
	subresources *CRDSubresources
	columns      []map[string]any
	selectable   []map[string]any
}

// newInternalCRD applies SetDefaults_CustomResourceDefinitionSpec and
// Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec.
func newInternalCRD(crd *CRD) *internalCRD {
	c := &internalCRD{crd: crd, names: crd.Spec.Names}
	if c.names.Singular == "" {
		c.names.Singular = strings.ToLower(c.names.Kind)
	}
	if c.names.ListKind == "" && c.names.Kind != "" {
		c.names.ListKind = c.names.Kind + "List"
	}
	for _, v := range crd.Spec.Versions {
		iv := internalVersion{CRDVersion: v, subresources: v.Subresources, columns: v.AdditionalPrinterColumns, selectable: v.SelectableFields}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			iv.schema = apiserverView(v.Schema.OpenAPIV3Schema)
		}
		c.versions = append(c.versions, iv)
	}
	if len(c.versions) == 0 {
		return c
	}
	c.version = c.versions[0].Name
	first := c.versions[0]
	same := func(get func(v *internalVersion) any) bool {
		want := semanticJSON(get(&first))
		for i := range c.versions {
			if semanticJSON(get(&c.versions[i])) != want {
				return false
			}
		}
		return true
	}
	if same(func(v *internalVersion) any { return v.subresources }) {
		c.subresources = first.subresources
		for i := range c.versions {
			c.versions[i].subresources = nil
		}
	}
	if same(func(v *internalVersion) any { return v.schema }) {
		c.validation = first.schema
		for i := range c.versions {
			c.versions[i].schema = nil
		}
	}
	if same(func(v *internalVersion) any { return v.columns }) {
		c.columns = first.columns
		for i := range c.versions {
			c.versions[i].columns = nil
		}
	}
	if same(func(v *internalVersion) any { return v.selectable }) {
		c.selectable = first.selectable
		for i := range c.versions {
			c.versions[i].selectable = nil
		}
	}
	return c
}

// semanticJSON approximates apiequality.Semantic.DeepEqual (nil equals
// empty) by comparing omitempty JSON encodings.
func semanticJSON(v any) string {
	if rv := reflect.ValueOf(v); !rv.IsValid() || (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Slice) && (rv.IsNil() || rv.Kind() == reflect.Slice && rv.Len() == 0) {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%p", v)
	}
	return string(b)
}

func (c *internalCRD) hasSchemaWith(pred func(*Props) bool) bool {
	if c.validation != nil && schemaHas(c.validation, pred) {
		return true
	}
	for _, v := range c.versions {
		if v.schema != nil && schemaHas(v.schema, pred) {
			return true
		}
	}
	return false
}

func hasStatus(s *CRDSubresources) bool { return s != nil && s.Status != nil }

// statusEnabled is getSubresourcesForVersion + hasStatusEnabled.
func (c *internalCRD) statusEnabled(v internalVersion) bool {
	if c.subresources != nil {
		return hasStatus(c.subresources)
	}
	return hasStatus(v.subresources)
}

func (c *internalCRD) anyStatusEnabled() bool {
	if hasStatus(c.subresources) {
		return true
	}
	for _, v := range c.versions {
		if hasStatus(v.subresources) {
			return true
		}
	}
	return false
}

// versionsValue renders spec.versions as the apiserver's field errors print
// the internal versions (JSON of field names without tags).
func (c *internalCRD) versionsValue() any {
	type iv struct {
		Name                     string
		Served                   bool
		Storage                  bool
		Deprecated               bool
		DeprecationWarning       *string
		Schema                   any
		Subresources             any
		AdditionalPrinterColumns any
		SelectableFields         any
	}
	out := []iv{}
	for _, v := range c.versions {
		x := iv{Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning}
		if v.schema != nil {
			x.Schema = map[string]any{"OpenAPIV3Schema": toInternal(v.schema)}
		}
		if v.subresources != nil {
			x.Subresources = internalSubresources(v.subresources)
		}
		if v.columns != nil {
			x.AdditionalPrinterColumns = internalColumns(v.columns)
		}
		if v.selectable != nil {
			l := []map[string]string{}
			for _, f := range v.selectable {
				l = append(l, map[string]string{"JSONPath": str(f, "jsonPath")})
			}
			x.SelectableFields = l
		}
		out = append(out, x)
	}
	return jsonValue{out}
}

// internalSubresources renders subresources as the internal
// CustomResourceSubresources (no JSON tags).
func internalSubresources(s *CRDSubresources) any {
	type scale struct {
		SpecReplicasPath   string
		StatusReplicasPath string
		LabelSelectorPath  *string
	}
	out := struct {
		Status *struct{}
		Scale  *scale
	}{Status: s.Status}
	if s.Scale != nil {
		m := *s.Scale
		out.Scale = &scale{SpecReplicasPath: str(m, "specReplicasPath"), StatusReplicasPath: str(m, "statusReplicasPath")}
		if ls, ok := m["labelSelectorPath"].(string); ok {
			out.Scale.LabelSelectorPath = &ls
		}
	}
	return out
}

// internalColumns renders printer columns as the internal
// CustomResourceColumnDefinition (no JSON tags).
func internalColumns(cols []map[string]any) any {
	type column struct {
		Name        string
		Type        string
		Format      string
		Description string
		Priority    int64
		JSONPath    string
	}
	out := []column{}
	for _, c := range cols {
		var prio int64
		switch p := c["priority"].(type) {
		case float64:
			prio = int64(p)
		case int64:
			prio = p
		}
		out = append(out, column{Name: str(c, "name"), Type: str(c, "type"), Format: str(c, "format"), Description: str(c, "description"), Priority: prio, JSONPath: str(c, "jsonPath")})
	}
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// validateSubresources mirrors ValidateCustomResourceDefinitionSubresources.
func validateSubresources(s *CRDSubresources, fldPath *field.Path) field.ErrorList {
	if s == nil || s.Scale == nil {
		return nil
	}
	scale := *s.Scale
	allErrs := field.ErrorList{}
	for _, r := range []struct{ key, prefix, msg string }{
		{"specReplicasPath", ".spec.", "should be a json path under .spec"},
		{"statusReplicasPath", ".status.", "should be a json path under .status"},
	} {
		p := fldPath.Child("scale." + r.key)
		v := str(scale, r.key)
		if v == "" {
			allErrs = append(allErrs, field.Required(p, ""))
		} else if errs := validateSimpleJSONPath(v, p); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else if !strings.HasPrefix(v, r.prefix) {
			allErrs = append(allErrs, field.Invalid(p, v, r.msg))
		}
	}
	if ls := str(scale, "labelSelectorPath"); ls != "" {
		p := fldPath.Child("scale.labelSelectorPath")
		if errs := validateSimpleJSONPath(ls, p); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else if !strings.HasPrefix(ls, ".spec.") && !strings.HasPrefix(ls, ".status.") {
			allErrs = append(allErrs, field.Invalid(p, ls, "should be a json path under either .spec or .status"))
		}
	}
	return allErrs
}

func validateSimpleJSONPath(s string, fldPath *field.Path) field.ErrorList {
	switch {
	case len(s) == 0:
		return field.ErrorList{field.Invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

var (
	printerColumnDatatypes = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats   = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateColumn mirrors ValidateCustomResourceColumnDefinition.
func validateColumn(col map[string]any, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if str(col, "name") == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	typ := str(col, "type")
	if typ == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), fmt.Sprintf("must be one of %s", strings.Join(printerColumnDatatypes, ","))))
	} else if !contains(printerColumnDatatypes, typ) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), typ, fmt.Sprintf("must be one of %s", strings.Join(printerColumnDatatypes, ","))))
	}
	if f := str(col, "format"); f != "" && !contains(printerColumnFormats, f) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("format"), f, fmt.Sprintf("must be one of %s", strings.Join(printerColumnFormats, ","))))
	}
	if jp := str(col, "jsonPath"); jp == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("JSONPath"), ""))
	} else {
		allErrs = append(allErrs, validateSimpleJSONPath(jp, fldPath.Child("JSONPath"))...)
	}
	return allErrs
}

// maxSelectableFields is the apiserver's MaxSelectableFields.
const maxSelectableFields = 8

func validateVersionSelectableFields(sel []map[string]any, schema *Props, vp *field.Path) field.ErrorList {
	if len(sel) == 0 {
		return nil
	}
	if schema == nil {
		return field.ErrorList{field.Invalid(vp.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included")}
	}
	return validateSelectableFields(sel, schema, vp)
}

// validateSelectableFields mirrors ValidateCustomResourceSelectableFields.
func validateSelectableFields(sel []map[string]any, schema *Props, parent *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	fldPath := parent.Child("selectableFields")
	if schema == nil {
		return field.ErrorList{field.Invalid(fldPath, "", "may only be set when validations.schema is included")}
	}
	ss, err := NewStructural(schema)
	if err != nil {
		allErrs = append(allErrs, field.Invalid(parent.Child("schema.openAPIV3Schema"), "", err.Error()))
	}
	unique := map[string]bool{}
	for i, sf := range sel {
		p := fldPath.Index(i).Child("jsonPath")
		jp := str(sf, "jsonPath")
		if jp == "" {
			allErrs = append(allErrs, field.Required(p, ""))
			continue
		}
		path, found, err := ResolveFieldPath(jp, ss, false)
		if err != nil {
			allErrs = append(allErrs, field.Invalid(p, jp, fmt.Sprintf("is an invalid path: %v", err)))
			continue
		}
		if path.Root().String() == "metadata" {
			allErrs = append(allErrs, field.Invalid(p, jp, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			allErrs = append(allErrs, field.Invalid(p, jp, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if unique[path.String()] {
			allErrs = append(allErrs, field.Duplicate(p, jp))
		}
		unique[path.String()] = true
	}
	if len(unique) > maxSelectableFields {
		allErrs = append(allErrs, field.TooMany(fldPath, len(unique), maxSelectableFields))
	}
	return allErrs
}

// validateConversion mirrors the conversion checks of
// validateCustomResourceDefinitionSpec and validateCustomResourceConversion.
func validateConversion(conv map[string]any, preserveUnknownFields bool, specPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if conv == nil {
		conv = map[string]any{"strategy": "None"}
	}
	fldPath := specPath.Child("conversion")
	strategy := str(conv, "strategy")
	if strategy != "None" && preserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("strategy"), strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("strategy"), strategy, []string{"None", "Webhook"})...)
	webhook, _ := conv["webhook"].(map[string]any)
	var cc map[string]any
	var reviewVersions []string
	if webhook != nil {
		cc, _ = webhook["clientConfig"].(map[string]any)
		if l, ok := webhook["conversionReviewVersions"].([]any); ok {
			for _, v := range l {
				s, _ := v.(string)
				reviewVersions = append(reviewVersions, s)
			}
		}
	}
	if strategy == "Webhook" {
		if cc == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
		} else {
			allErrs = append(allErrs, validateWebhookClientConfig(cc, fldPath.Child("webhookClientConfig"))...)
		}
		p := fldPath.Child("conversionReviewVersions")
		if len(reviewVersions) < 1 {
			allErrs = append(allErrs, field.Required(p, ""))
		} else {
			seen := map[string]bool{}
			accepted := false
			for i, v := range reviewVersions {
				if seen[v] {
					allErrs = append(allErrs, field.Invalid(p.Index(i), v, "duplicate version"))
					continue
				}
				seen[v] = true
				for _, msg := range utilvalidation.IsDNS1035Label(v) {
					allErrs = append(allErrs, field.Invalid(p.Index(i), v, msg))
				}
				if v == "v1" || v == "v1beta1" {
					accepted = true
				}
			}
			if !accepted {
				allErrs = append(allErrs, field.Invalid(p, reviewVersions, "must include at least one of v1, v1beta1"))
			}
		}
	} else {
		if cc != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(reviewVersions) > 0 {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
	}
	return allErrs
}
