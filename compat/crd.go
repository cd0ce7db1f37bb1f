package compat

import (
	"fmt"
	"reflect"

	"kdv.dev/schema"
)

// CompareCRDs compares two versions of one CustomResourceDefinition: scope,
// names, conversion, subresources, versions (removed, added, served,
// storage) and, for every version in both, the schemas. Object is the old
// CRD's name. A version whose schema cannot be converted to a structural
// schema is an error in the result, and its schema comparison is skipped.
func CompareCRDs(old, new *schema.CRD) ([]Change, []error) {
	c := &crdComparison{object: old.Metadata.Name}
	if c.object == "" {
		c.object = old.Spec.Names.Plural + "." + old.Spec.Group
	}
	c.crd(old, new)
	return c.changes, c.errs
}

type crdComparison struct {
	object  string
	changes []Change
	errs    []error
}

func (c *crdComparison) add(version, path, kind string, sev Severity, rule string, old, new any, format string, args ...any) {
	c.changes = append(c.changes, Change{
		Object: c.object, Version: version, Path: path, Kind: kind, Severity: sev, Rule: rule,
		Message: fmt.Sprintf(format, args...), Old: old, New: new,
	})
}

func (c *crdComparison) crd(o, n *schema.CRD) {
	if o.Spec.Group != n.Spec.Group {
		c.add("", "spec.group", "group-changed", BreaksObjects, ruleNames, o.Spec.Group, n.Spec.Group, "group changed from %q to %q", o.Spec.Group, n.Spec.Group)
	}
	if scope(o) != scope(n) {
		c.add("", "spec.scope", "scope-changed", BreaksObjects, ruleScope, scope(o), scope(n), "scope changed from %s to %s", scope(o), scope(n))
	}
	c.names(o.Spec.Names, n.Spec.Names)
	os, ns := conversionStrategy(o), conversionStrategy(n)
	switch {
	case os == ns:
		if os == "Webhook" && !reflect.DeepEqual(o.Spec.Conversion, n.Spec.Conversion) {
			c.add("", "spec.conversion", "conversion-changed", Safe, ruleConversion, o.Spec.Conversion, n.Spec.Conversion, "conversion webhook configuration changed")
		}
	case ns == "None":
		c.add("", "spec.conversion.strategy", "conversion-changed", BreaksObjects, ruleConversion, os, ns, "conversion strategy changed from %s to None: objects stored in another version are no longer converted", os)
	default:
		c.add("", "spec.conversion.strategy", "conversion-changed", Safe, ruleConversion, os, ns, "conversion strategy changed from %s to %s", os, ns)
	}
	if o.Spec.PreserveUnknownFields && !n.Spec.PreserveUnknownFields {
		c.add("", "spec.preserveUnknownFields", "preserve-unknown-changed", BreaksObjects, rulePruning, true, false, "spec.preserveUnknownFields changed to false: unknown fields are pruned")
	}
	c.versions(o, n)
}

func scope(c *schema.CRD) string {
	if c.Spec.Scope == "" {
		return "Namespaced"
	}
	return c.Spec.Scope
}

func conversionStrategy(c *schema.CRD) string {
	if s, ok := c.Spec.Conversion["strategy"].(string); ok && s != "" {
		return s
	}
	return "None"
}

func (c *crdComparison) names(o, n schema.CRDNames) {
	for _, f := range []struct{ field, old, new string }{
		{"kind", o.Kind, n.Kind},
		{"listKind", defaultString(o.ListKind, o.Kind+"List"), defaultString(n.ListKind, n.Kind+"List")},
		{"plural", o.Plural, n.Plural},
		{"singular", defaultString(o.Singular, lower(o.Kind)), defaultString(n.Singular, lower(n.Kind))},
	} {
		if f.old != f.new {
			c.add("", "spec.names."+f.field, "names-changed", BreaksClients, ruleNames, f.old, f.new, "%s changed from %q to %q", f.field, f.old, f.new)
		}
	}
	for _, f := range []struct {
		field    string
		old, new []string
	}{{"shortNames", o.ShortNames, n.ShortNames}, {"categories", o.Categories, n.Categories}} {
		for _, s := range missing(f.old, f.new) {
			c.add("", "spec.names."+f.field, "names-changed", BreaksClients, ruleNames, s, nil, "%s entry %q removed", f.field, s)
		}
		for _, s := range missing(f.new, f.old) {
			c.add("", "spec.names."+f.field, "names-added", Safe, ruleNames, nil, s, "%s entry %q added", f.field, s)
		}
	}
}

func (c *crdComparison) versions(o, n *schema.CRD) {
	for i := range o.Spec.Versions {
		ov := &o.Spec.Versions[i]
		nv := n.Version(ov.Name)
		if nv == nil {
			c.add(ov.Name, "", "version-removed", BreaksObjects, ruleVersionRemoved, ov.Name, nil, "version %s removed", ov.Name)
			continue
		}
		switch {
		case ov.Served && !nv.Served:
			c.add(ov.Name, "", "version-unserved", BreaksClients, ruleUnserved, true, false, "version %s no longer served", ov.Name)
		case !ov.Served && nv.Served:
			c.add(ov.Name, "", "version-served", Safe, ruleUnserved, false, true, "version %s now served", ov.Name)
		}
		if !ov.Deprecated && nv.Deprecated {
			c.add(ov.Name, "", "version-deprecated", Safe, ruleUnserved, false, true, "version %s deprecated", ov.Name)
		}
		c.subresources(ov.Name, ov.Subresources, nv.Subresources)
		os, oerr := ov.Structural()
		ns, nerr := nv.Structural()
		if oerr != nil || nerr != nil {
			for _, e := range []error{oerr, nerr} {
				if e != nil {
					c.errs = append(c.errs, fmt.Errorf("%s: %w", c.object, e))
				}
			}
			continue
		}
		c.changes = append(c.changes, CompareSchemas(c.object, ov.Name, os, ns)...)
	}
	for i := range n.Spec.Versions {
		nv := &n.Spec.Versions[i]
		if o.Version(nv.Name) == nil {
			c.add(nv.Name, "", "version-added", Safe, ruleNewOptional, nil, nv.Name, "version %s added", nv.Name)
		}
	}
	osv, nsv := storageVersion(o), storageVersion(n)
	if osv != nsv {
		sev, rule, msg := Safe, ruleStorageNew, "storage version changed from %s to %s: objects stay stored in %s until rewritten; keep it served until they are migrated"
		if o.Version(nsv) == nil {
			sev, msg = BreaksClients, "storage version changed from %s to %s, a version this release adds: an apiserver rolled back cannot decode objects stored in it (%s was the storage version)"
		}
		c.add("", "spec.versions", "storage-version-changed", sev, rule, osv, nsv, msg, osv, nsv, osv)
	}
}

func storageVersion(c *schema.CRD) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func (c *crdComparison) subresources(version string, o, n *schema.CRDSubresources) {
	hasStatus := func(s *schema.CRDSubresources) bool { return s != nil && s.Status != nil }
	scale := func(s *schema.CRDSubresources) any {
		if s == nil || s.Scale == nil {
			return nil
		}
		return *s.Scale
	}
	if hasStatus(o) != hasStatus(n) {
		c.add(version, "subresources.status", "subresource-changed", BreaksClients, ruleSubresource, hasStatus(o), hasStatus(n), "status subresource %s", map[bool]string{true: "added", false: "removed"}[hasStatus(n)])
	}
	if os, ns := scale(o), scale(n); !reflect.DeepEqual(os, ns) {
		sev := BreaksClients
		if os == nil {
			sev = Safe
		}
		c.add(version, "subresources.scale", "subresource-changed", sev, ruleSubresource, os, ns, "scale subresource changed")
	}
}

func defaultString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func lower(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if 'A' <= ch && ch <= 'Z' {
			b[i] = ch + 'a' - 'A'
		}
	}
	return string(b)
}

// missing returns the entries of a not in b.
func missing(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
