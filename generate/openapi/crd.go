package openapi

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/idl"
	"kdv.dev/schema"
	"kdv.dev/schema/refs"
)

// CRDs generates one apiextensions.k8s.io/v1 CustomResourceDefinition per
// group and kind from the kubebuilder markers of the root packages, as
// controller-gen does: kinds are types with +kubebuilder:object:root=true
// (list types, "<Kind>List" with items, excluded); every root package of
// the same group contributes a version. Names come from
// +kubebuilder:resource (path, singular, shortName, categories, scope),
// versions from +kubebuilder:storageversion, +kubebuilder:unservedversion,
// +kubebuilder:deprecatedversion, +kubebuilder:skipversion; subresources
// and printer columns from their markers. Schemas follow controller-gen's
// conventions: no enforced zero defaults, root metadata as {type: object}.
// The CRDs are sorted by name.
func CRDs(u *idl.Universe, opts Options) ([]*schema.CRD, *Report, error) {
	opts.CRD = true
	res, err := Generate(u, opts)
	if res == nil {
		return nil, nil, err
	}
	errs := []error{err}
	byName := map[string]*schema.CRD{}
	for _, d := range res.Documents {
		roots, skipped := 0, 0
		for _, k := range d.Kinds {
			if !hasTag(k.Type.Tags, "objectRoot") || isListKind(k.Type) {
				continue
			}
			roots++
			if hasTag(k.Type.Tags, "skipVersion") {
				skipped++
				continue
			}
			c, v, err := crdVersion(d, k)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if prev, ok := byName[c.Metadata.Name]; ok {
				prev.Spec.Versions = append(prev.Spec.Versions, v)
				continue
			}
			c.Spec.Versions = []schema.CRDVersion{v}
			byName[c.Metadata.Name] = c
		}
		switch {
		case len(d.Kinds) == 0:
			res.Report.Empty = append(res.Report.Empty, EmptyPackage{d.Package, "no kind: no struct type with an inline metav1.TypeMeta"})
		case roots == 0:
			res.Report.Empty = append(res.Report.Empty, EmptyPackage{d.Package, "no kind is marked +kubebuilder:object:root=true (as controller-gen, CRDs are made only for those)"})
		case skipped == roots:
			res.Report.Empty = append(res.Report.Empty, EmptyPackage{d.Package, "every kind marked +kubebuilder:object:root=true is also marked +kubebuilder:skipversion"})
		}
	}
	var out []*schema.CRD
	for _, c := range byName {
		sort.Slice(c.Spec.Versions, func(i, j int) bool { return versionLess(c.Spec.Versions[j].Name, c.Spec.Versions[i].Name) })
		if len(c.Spec.Versions) == 1 {
			c.Spec.Versions[0].Storage = true
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Metadata.Name < out[j].Metadata.Name })
	return out, res.Report, errors.Join(errs...)
}

func hasTag(tags []*idl.Tag, name string) bool { return findTag(tags, name) != nil }

func findTag(tags []*idl.Tag, name string) *idl.Tag {
	for _, t := range tags {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func isListKind(t *idl.Type) bool {
	if !strings.HasSuffix(t.Name, "List") {
		return false
	}
	_, fields := structOf(t)
	for _, f := range fields {
		if f.JSONName == "items" {
			return true
		}
	}
	return false
}

// plural lower-cases and pluralizes a kind the simple English way
// controller-gen's flect does for regular nouns.
func plural(kind string) string {
	s := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "z"),
		strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsAny(s[len(s)-2:len(s)-1], "aeiou"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

func crdVersion(d *Document, k Kind) (*schema.CRD, schema.CRDVersion, error) {
	t := k.Type
	c := &schema.CRD{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"}
	c.Spec.Group = d.Group
	c.Spec.Names = schema.CRDNames{Kind: k.Kind, ListKind: k.Kind + "List", Plural: plural(k.Kind), Singular: strings.ToLower(k.Kind)}
	c.Spec.Scope = "Namespaced"
	if r := findTag(t.Tags, "resource"); r != nil {
		if v, ok := r.Arg("path"); ok {
			c.Spec.Names.Plural = v
		}
		if v, ok := r.Arg("singular"); ok {
			c.Spec.Names.Singular = v
		}
		if v, ok := r.Arg("scope"); ok {
			if v != "Cluster" && v != "Namespaced" {
				return nil, schema.CRDVersion{}, r.Errorf("scope %q: want Cluster or Namespaced", v)
			}
			c.Spec.Scope = v
		}
		if v, ok := r.Arg("shortName"); ok {
			c.Spec.Names.ShortNames, _ = idl.SplitList(v)
		}
		if v, ok := r.Arg("categories"); ok {
			c.Spec.Names.Categories, _ = idl.SplitList(v)
		}
	}
	c.Metadata.Name = c.Spec.Names.Plural + "." + d.Group
	if m := findTag(t.Tags, "metadata"); m != nil {
		for _, a := range m.Args {
			kv, _ := idl.SplitList(a.Value)
			dst := map[string]string{}
			for _, e := range kv {
				k, v, _ := strings.Cut(e, "=")
				dst[k] = v
			}
			if a.Name == "annotations" {
				c.Metadata.Annotations = dst
			} else {
				c.Metadata.Labels = dst
			}
		}
	}
	s, err := refs.ResolveCRD(d.Schemas, k.Definition)
	if err != nil {
		return nil, schema.CRDVersion{}, err
	}
	delete(s.Extra, "x-kubernetes-group-version-kind")
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
	if _, ok := s.Properties["metadata"]; ok {
		s.Properties["metadata"] = schema.Props{Type: "object"}
	}
	v := schema.CRDVersion{Name: d.Version, Served: !hasTag(t.Tags, "unservedVersion"), Storage: hasTag(t.Tags, "storageVersion"),
		Schema: &schema.CRDValidation{OpenAPIV3Schema: s}}
	if dv := findTag(t.Tags, "deprecatedVersion"); dv != nil {
		v.Deprecated = true
		if w, ok := dv.Arg("warning"); ok {
			v.DeprecationWarning = &w
		}
	}
	if hasTag(t.Tags, "subresourceStatus") || findTag(t.Tags, "subresourceScale") != nil {
		v.Subresources = &schema.CRDSubresources{}
		if hasTag(t.Tags, "subresourceStatus") {
			v.Subresources.Status = &struct{}{}
		}
		if sc := findTag(t.Tags, "subresourceScale"); sc != nil {
			m := map[string]any{}
			for _, a := range [][2]string{{"specpath", "specReplicasPath"}, {"statuspath", "statusReplicasPath"}, {"selectorpath", "labelSelectorPath"}} {
				if x, ok := sc.Arg(a[0]); ok {
					m[a[1]] = x
				}
			}
			v.Subresources.Scale = &m
		}
	}
	for _, pc := range t.Tags {
		switch pc.Name {
		case "printColumn":
			col := map[string]any{}
			for _, a := range pc.Args {
				switch a.Name {
				case "name", "type", "description", "format":
					col[a.Name] = a.Value
				case "JSONPath":
					col["jsonPath"] = a.Value
				case "priority":
					p, err := strconv.Atoi(a.Value)
					if err != nil {
						return nil, v, pc.Errorf("priority %q is not an integer", a.Value)
					}
					col["priority"] = int64(p)
				}
			}
			v.AdditionalPrinterColumns = append(v.AdditionalPrinterColumns, col)
		case "selectableField":
			p, _ := pc.Arg("JSONPath")
			v.SelectableFields = append(v.SelectableFields, map[string]any{"jsonPath": p})
		}
	}
	return c, v, nil
}

// versionLess orders Kubernetes API versions by priority (v1 > v1beta1 >
// v1alpha1, GA by number, then beta, then alpha, then others
// alphabetically), as the apiserver's version.CompareKubeAwareVersionStrings.
func versionLess(a, b string) bool {
	ka, kb := versionKey(a), versionKey(b)
	if ka.class != kb.class {
		return ka.class < kb.class
	}
	if ka.major != kb.major {
		return ka.major < kb.major
	}
	if ka.minor != kb.minor {
		return ka.minor < kb.minor
	}
	return a > b
}

type vkey struct{ class, major, minor int }

func versionKey(v string) vkey {
	var major, minor int
	var stage string
	if n, _ := fmt.Sscanf(v, "v%d%s", &major, &stage); n >= 1 {
		switch {
		case stage == "":
			return vkey{3, major, 0}
		case strings.HasPrefix(stage, "beta"):
			minor, _ = strconv.Atoi(strings.TrimPrefix(stage, "beta"))
			return vkey{2, major, minor}
		case strings.HasPrefix(stage, "alpha"):
			minor, _ = strconv.Atoi(strings.TrimPrefix(stage, "alpha"))
			return vkey{1, major, minor}
		}
	}
	return vkey{0, 0, 0}
}
