package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"kdv.dev/cel"
	"kdv.dev/idl"
	"kdv.dev/schema"
)

// checkVersion runs the single-version checks on one version of a kind.
func checkVersion(obj string, v *version, opts Options) []Finding {
	c := &checker{obj: obj, v: v}
	c.walk("", v.s, 0)
	if v.crd {
		// CEL rules, their cost budgets and the oldSelf restriction are
		// the apiserver's checks of a CRD's schema; built-in types are
		// validated by Go code (and kdv evaluates their rules untracked).
		c.rules(opts)
	}
	return c.out
}

type checker struct {
	obj string
	v   *version
	out []Finding
}

func (c *checker) add(path, check, msg string) {
	c.out = append(c.out, Finding{Object: c.obj, Versions: []string{c.v.name}, Path: path, Check: check, Message: msg, Positions: []string{position(c.v, path)}})
}

// maxDepth bounds the schema walk (generated schemas of recursive types
// are cut by the generator; this is a guard).
const maxDepth = 64

// join appends a property to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// walk runs the structural checks: a list without x-kubernetes-list-type (CRD-style APIs only: the apiserver
// treats such a list as atomic, and server-side apply replaces it whole;
// built-in types have many untagged atomic lists by convention), a map list
// without keys.
func (c *checker) walk(path string, s *schema.Structural, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	if s.Type == "array" {
		switch {
		case s.XListType == nil && c.v.crd:
			c.add(path, "list-no-list-type", "list without +listType: it is atomic by default, so server-side apply replaces it whole and CEL rules cannot correlate its items; say +listType=atomic, set or map")
		case s.XListType != nil && *s.XListType == "map" && len(s.XListMapKeys) == 0:
			c.add(path, "map-list-no-keys", "+listType=map without +listMapKey: the apiserver rejects a map list without keys")
		}
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if depth == 0 && (n == "metadata" || n == "apiVersion" || n == "kind") {
			continue
		}
		p := s.Properties[n]
		c.walk(join(path, n), &p, depth+1)
	}
	if s.Items != nil {
		c.walk(path+"[*]", s.Items, depth+1)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		c.walk(path+"{*}", s.AdditionalProperties.Structural, depth+1)
	}
}

// rules runs kdv's CRD check of CEL rules (kdv.dev/cel CheckSchema, the
// apiserver's ValidateCustomResourceDefinitionOpenAPISchema) on the
// version's schema: the estimated cost of each rule against its budget
// (unbounded lists, maps and strings multiply it), oldSelf on a part of the
// schema that cannot be correlated with the old object (below a list that
// is not a map list), and rules that do not compile.
func (c *checker) rules(opts Options) {
	for _, e := range cel.CheckSchema(c.v.s, nil, cel.Options{KubernetesMinor: opts.KubernetesMinor}) {
		path := valuePath(e.Field)
		switch {
		case strings.Contains(e.Detail, "oldSelf cannot be used on the uncorrelatable portion"):
			within := valuePath(strings.TrimPrefix(e.Detail, "oldSelf cannot be used on the uncorrelatable portion of the schema within "))
			c.add(path, "oldself-uncorrelatable", fmt.Sprintf("rule %q uses oldSelf inside the list %s, which is not a map list: the old value of its items cannot be found, so the apiserver rejects the schema; make %s +listType=map or drop oldSelf", fmt.Sprint(e.BadValue), within, within))
		case strings.Contains(e.Detail, "exceeds budget"):
			c.add(path, "rule-cost", fmt.Sprintf("%s; the per-rule budget is %d (cel.StaticEstimatedCostLimit) and the whole schema's %d (cel.StaticEstimatedCRDCostLimit); add +maxItems, +maxProperties or +maxLength to the lists, maps and strings the rule reaches", e.Detail, cel.StaticEstimatedCostLimit, cel.StaticEstimatedCRDCostLimit))
		case strings.Contains(e.Detail, "contributed to estimated rule cost total"):
			c.add(path, "rule-cost", e.Detail)
		default:
			c.add(path, "rule-invalid", e.Error())
		}
	}
}

var schemaStep = regexp.MustCompile(`^properties\[(.*)\]$`)

// valuePath turns a schema path of CheckSchema's errors
// ("properties[spec].properties[ports].items.x-kubernetes-validations[0].rule")
// into the value path of the node holding the rule ("spec.ports[*]").
func valuePath(p string) string {
	var out string
	for _, step := range strings.Split(p, ".") {
		switch {
		case step == "items":
			out += "[*]"
		case step == "additionalProperties":
			out += "{*}"
		case schemaStep.MatchString(step):
			out = join(out, schemaStep.FindStringSubmatch(step)[1])
		default:
			return out
		}
	}
	return out
}

// tagChecks runs the checks on the tags as written: enum types without
// constants and required fields with a default.
func tagChecks(u *idl.Universe) []Finding {
	return append(enumChecks(u), requiredDefaults(u)...)
}

// requiredDefaults reports fields tagged both required and with a default
// (+default, +kubebuilder:default): the apiserver applies the default before
// validation, so the field is never missing and "required" says nothing;
// the API conventions make fields with defaults optional. Zero-value
// defaults the generator derives from Go decoding are not tags and are not
// reported.
func requiredDefaults(u *idl.Universe) []Finding {
	var out []Finding
	for _, p := range u.Packages {
		if !p.Root {
			continue
		}
		group := groupOf(p)
		for _, t := range p.Types {
			for _, f := range t.Fields() {
				req, def := findTag(f.Tags, "required"), findTag(f.Tags, "default")
				if req == nil || def == nil {
					continue
				}
				out = append(out, Finding{
					Object:    objectName(group, t.Name),
					Versions:  []string{versionOf(p)},
					Path:      f.JSONName,
					Check:     "required-with-default",
					Message:   fmt.Sprintf("required field has a default (%s): the default is applied before validation, so the field is never missing; make it optional (API conventions: fields with defaults are optional)", def.Text),
					Positions: []string{formatPos(f.Pos)},
				})
			}
		}
	}
	return out
}

func findTag(tags []*idl.Tag, name string) *idl.Tag {
	for _, t := range tags {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// enumChecks reports enum types (+enum, +k8s:enum) of the root packages
// that declare no constant: the generator publishes no enum, so the field
// accepts any string.
func enumChecks(u *idl.Universe) []Finding {
	var out []Finding
	for _, p := range u.Packages {
		if !p.Root {
			continue
		}
		group := groupOf(p)
		for _, t := range p.Types {
			if !hasTagNamed(t.Tags, "enum") || len(t.Consts) > 0 {
				continue
			}
			out = append(out, Finding{
				Object:    objectName(group, t.Name),
				Versions:  []string{versionOf(p)},
				Check:     "enum-no-values",
				Message:   fmt.Sprintf("%s is an enum (+enum) but declares no constants: no value is allowed by name and the schema publishes no enum, so any string is accepted", t.Name),
				Positions: []string{formatPos(t.Pos)},
			})
		}
	}
	return out
}

// hasTagNamed reports an argument-less tag of a canonical name (an enum
// tag with values lists them itself).
func hasTagNamed(tags []*idl.Tag, name string) bool {
	for _, t := range tags {
		if t.Name == name && len(t.Args) == 0 {
			return true
		}
	}
	return false
}

// groupOf reads a package's +groupName.
func groupOf(p *idl.Package) string {
	for _, t := range p.Tags {
		if t.Name == "groupName" {
			return t.Value
		}
	}
	return ""
}

// versionOf reads a package's +versionName, or its name.
func versionOf(p *idl.Package) string {
	for _, t := range p.Tags {
		if t.Name == "versionName" {
			return t.Value
		}
	}
	return p.Name
}
