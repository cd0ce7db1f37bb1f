package validation

import (
	"strings"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"

	"kdv.dev/value"
)

// metaFastValid reports whether the root metadata is certainly valid for
// the apiserver's ObjectMeta validation, checked without decoding it into
// metav1.ObjectMeta. It only answers true for the common shape (name,
// namespace, labels, annotations, a null creationTimestamp and, on update,
// resourceVersion, all well-typed); anything else, and every invalid value, goes through
// apimachinery's validation for the exact errors. The checks mirror
// NameIsDNSSubdomain (or Options.NameValidation), ValidateNamespaceName,
// ValidateLabels and ValidateAnnotations (k8s.io/apimachinery pkg/api/validation,
// pkg/apis/meta/v1/validation, pkg/util/validation).
func (v *Validator) metaFastValid(obj, old value.Value, update bool) bool {
	m, ok := obj.Get("metadata")
	if !ok || m.Kind() != value.KindMap {
		return false
	}
	if !simpleMeta(m, update) {
		return false
	}
	name, _ := m.Get("name")
	if !v.nameFastValid(name.Str()) {
		return false
	}
	ns, hasNS := m.Get("namespace")
	switch {
	case v.opts.Namespaced != nil && !*v.opts.Namespaced:
		if hasNS && ns.Str() != "" {
			return false
		}
	case v.opts.Namespaced != nil || (hasNS && ns.Str() != ""):
		if !isDNS1123Label(ns.Str()) {
			return false
		}
	}
	if !labelsValid(m) || !annotationsValid(m) {
		return false
	}
	if !update {
		return true
	}
	om, ok := old.Get("metadata")
	if !ok || om.Kind() != value.KindMap || !simpleMeta(om, true) {
		return false
	}
	if !v.opts.IgnoreResourceVersion {
		if rv, ok := m.Get("resourceVersion"); !ok || rv.Str() == "" {
			return false
		}
	}
	oname, _ := om.Get("name")
	ons, _ := om.Get("namespace")
	return oname.Str() == name.Str() && ons.Str() == ns.Str()
}

// nameFastValid reports whether name passes the kind's name rule:
// Options.NameValidation when set (a kind-specific ValidateNameFunc, called
// as ValidateObjectMeta calls it; it returns no messages for a valid name),
// the allocation-free DNS-subdomain check otherwise. An empty name is never
// valid (ValidateObjectMeta requires one; some rules, e.g. path segments,
// accept "").
func (v *Validator) nameFastValid(name string) bool {
	if v.opts.NameValidation != nil {
		return name != "" && len(v.opts.NameValidation(name, false)) == 0
	}
	return isDNS1123Subdomain(name)
}

// simpleMeta reports whether metadata has only the fields the fast path
// understands, each with the JSON type ObjectMeta decodes without error.
func simpleMeta(m value.Value, update bool) bool {
	ok := true
	m.Range(func(k string, x value.Value) bool {
		switch k {
		case "name", "namespace":
			ok = x.Kind() == value.KindString
		case "resourceVersion":
			ok = update && x.Kind() == value.KindString
		case "creationTimestamp":
			// null, as typed ObjectMeta encodes its zero time
			ok = x.Kind() == value.KindNull
		case "labels", "annotations":
			ok = x.Kind() == value.KindMap
			if ok {
				x.Range(func(_ string, y value.Value) bool {
					ok = y.Kind() == value.KindString
					return ok
				})
			}
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return false
	}
	_, hasName := m.Get("name")
	return hasName
}

func labelsValid(m value.Value) bool {
	l, ok := m.Get("labels")
	if !ok {
		return true
	}
	valid := true
	l.Range(func(k string, x value.Value) bool {
		valid = isQualifiedName(k) && isLabelValue(x.Str())
		return valid
	})
	return valid
}

func annotationsValid(m value.Value) bool {
	a, ok := m.Get("annotations")
	if !ok {
		return true
	}
	valid, size := true, 0
	a.Range(func(k string, x value.Value) bool {
		size += len(k) + len(x.Str())
		valid = isQualifiedName(strings.ToLower(k))
		return valid
	})
	return valid && size <= metavalidation.TotalAnnotationSizeLimitB
}

func isAlnumLower(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isAlnumLower(c) || c >= 'A' && c <= 'Z' }

// isDNS1123Label is utilvalidation.IsDNS1123Label returning no messages.
func isDNS1123Label(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	return dnsLabel(s)
}

func dnsLabel(s string) bool {
	if len(s) == 0 || !isAlnumLower(s[0]) || !isAlnumLower(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnumLower(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain is utilvalidation.IsDNS1123Subdomain returning no
// messages.
func isDNS1123Subdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return dnsLabel(s)
		}
		if !dnsLabel(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// qualifiedPart is the name part of a qualified name and a label value:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters.
func qualifiedPart(s string) bool {
	if len(s) == 0 || len(s) > 63 || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isQualifiedName is utilvalidation.IsQualifiedName returning no messages.
func isQualifiedName(s string) bool {
	prefix, name, found := strings.Cut(s, "/")
	if !found {
		return qualifiedPart(s)
	}
	if strings.IndexByte(name, '/') >= 0 || prefix == "" || !isDNS1123Subdomain(prefix) {
		return false
	}
	return qualifiedPart(name)
}

// isLabelValue is utilvalidation.IsValidLabelValue returning no messages.
func isLabelValue(s string) bool {
	return s == "" || qualifiedPart(s)
}
