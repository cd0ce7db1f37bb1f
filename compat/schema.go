package compat

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"kdv.dev/schema"
)

// CompareSchemas compares two structural schemas of one API version and
// returns the changes from old to new, in a deterministic order (the
// schema's structure, properties sorted). object and version fill the
// changes' Object and Version. A nil schema is treated as one that
// preserves every field without validating it.
func CompareSchemas(object, version string, old, new *schema.Structural) []Change {
	w := &walker{object: object, version: version}
	w.compare("", old, new)
	return w.changes
}

type walker struct {
	object, version string
	changes         []Change
}

func (w *walker) add(path, kind string, sev Severity, rule string, old, new any, format string, args ...any) {
	w.changes = append(w.changes, Change{
		Object: w.object, Version: w.version, Path: path,
		Kind: kind, Severity: sev, Rule: rule,
		Message: fmt.Sprintf(format, args...), Old: old, New: new,
	})
}

// compare compares the nodes at path. It does not descend below a type
// change: everything there changed with it.
func (w *walker) compare(path string, o, n *schema.Structural) {
	if o == nil {
		o = &schema.Structural{Extensions: schema.Extensions{XPreserveUnknownFields: true}}
	}
	if n == nil {
		n = &schema.Structural{Extensions: schema.Extensions{XPreserveUnknownFields: true}}
	}
	if typeName(o) != typeName(n) {
		sev := BreaksObjects
		if typeName(o) == "" && n.XPreserveUnknownFields {
			sev = Safe // anything was allowed and still is
		}
		w.add(path, "type-changed", sev, ruleType, typeName(o), typeName(n), "type %s changed to %s", describeType(o), describeType(n))
		return
	}
	if o.XIntOrString != n.XIntOrString {
		if n.XIntOrString {
			w.add(path, "int-or-string-changed", BreaksClients, ruleType, false, true, "became int-or-string: readers may now get a string")
		} else {
			w.add(path, "int-or-string-changed", BreaksObjects, ruleType, true, false, "is no longer int-or-string: stored values of the other type become invalid")
		}
	}
	w.nullable(path, o, n)
	w.preserveUnknown(path, o, n)
	if o.XEmbeddedResource != n.XEmbeddedResource {
		w.add(path, "embedded-resource-changed", BreaksObjects, ruleEmbedded, o.XEmbeddedResource, n.XEmbeddedResource, "x-kubernetes-embedded-resource changed from %t to %t", o.XEmbeddedResource, n.XEmbeddedResource)
	}
	w.defaults(path, o, n)
	w.listTypes(path, o, n)
	from := len(w.changes)
	w.values(path, o, n)
	w.rules(path, o, n)
	if declared(n) {
		w.declare(from)
	}
	w.properties(path, o, n)
	if o.Items != nil || n.Items != nil {
		w.compare(path+"[*]", o.Items, n.Items)
	}
	w.additionalProperties(path, o, n)
}

// typeName is the node's type, with int-or-string and untyped nodes
// reported apart.
func typeName(s *schema.Structural) string {
	return s.Type
}

func describeType(s *schema.Structural) string {
	switch {
	case s.Type != "":
		return fmt.Sprintf("%q", s.Type)
	case s.XIntOrString:
		return "int-or-string"
	default:
		return "(any)"
	}
}

func (w *walker) nullable(path string, o, n *schema.Structural) {
	switch {
	case o.Nullable && !n.Nullable:
		w.add(path, "nullable-changed", BreaksObjects, ruleNullable, true, false, "no longer nullable: stored null values become invalid")
	case !o.Nullable && n.Nullable:
		w.add(path, "nullable-changed", BreaksClients, ruleNullable, false, true, "became nullable: readers may now get null")
	}
}

func (w *walker) preserveUnknown(path string, o, n *schema.Structural) {
	switch {
	case o.XPreserveUnknownFields && !n.XPreserveUnknownFields:
		w.add(path, "preserve-unknown-changed", BreaksObjects, rulePruning, true, false, "no longer preserves unknown fields: fields not in the schema are pruned from stored objects")
	case !o.XPreserveUnknownFields && n.XPreserveUnknownFields:
		w.add(path, "preserve-unknown-changed", Safe, rulePruning, false, true, "now preserves unknown fields: fields that were pruned are kept")
	}
}

func (w *walker) defaults(path string, o, n *schema.Structural) {
	od, nd := o.Default.Object, n.Default.Object
	switch {
	case od == nil && nd == nil:
	case od == nil:
		w.add(path, "default-added", BreaksClients, ruleDefault, nil, nd, "default %s added: objects that leave it unset now get it, on create and when read from storage", render(nd))
	case nd == nil:
		w.add(path, "default-removed", BreaksClients, ruleDefault, od, nil, "default %s removed: new objects that leave it unset no longer get it", render(od))
	case !reflect.DeepEqual(od, nd):
		w.add(path, "default-changed", BreaksClients, ruleDefault, od, nd, "default changed from %s to %s", render(od), render(nd))
	}
}

func (w *walker) listTypes(path string, o, n *schema.Structural) {
	ol, nl := listType(o), listType(n)
	if ol != nl {
		sev := BreaksObjects // uniqueness of items or keys is now enforced
		if nl == "atomic" {
			sev = BreaksClients // nothing becomes invalid; server-side apply merges differently
		}
		w.add(path, "list-type-changed", sev, ruleListType, ol, nl, "x-kubernetes-list-type changed from %s to %s", ol, nl)
	} else if ol == "map" && !reflect.DeepEqual(o.XListMapKeys, n.XListMapKeys) {
		w.add(path, "map-keys-changed", BreaksObjects, ruleListType, o.XListMapKeys, n.XListMapKeys, "x-kubernetes-list-map-keys changed from %s to %s", render(o.XListMapKeys), render(n.XListMapKeys))
	}
	om, nm := mapType(o), mapType(n)
	if om != nm {
		w.add(path, "map-type-changed", BreaksClients, ruleListType, om, nm, "x-kubernetes-map-type changed from %s to %s", om, nm)
	}
}

// listType is a list node's x-kubernetes-list-type, atomic when unset.
func listType(s *schema.Structural) string {
	if s.Type != "array" {
		return ""
	}
	if s.XListType == nil {
		return "atomic"
	}
	return *s.XListType
}

// mapType is an object node's x-kubernetes-map-type, granular when unset.
func mapType(s *schema.Structural) string {
	if s.Type != "object" {
		return ""
	}
	if s.XMapType == nil {
		return "granular"
	}
	return *s.XMapType
}

func (w *walker) properties(path string, o, n *schema.Structural) {
	oreq, nreq := requiredSet(o), requiredSet(n)
	for _, name := range sortedKeys(o.Properties, n.Properties) {
		p := join(path, name)
		op, inOld := o.Properties[name]
		np, inNew := n.Properties[name]
		switch {
		case inOld && !inNew:
			if n.XPreserveUnknownFields {
				w.add(p, "field-removed", BreaksClients, ruleRemoveField, name, nil, "field removed from the schema; kept in stored objects as an unknown field (x-kubernetes-preserve-unknown-fields)")
			} else {
				w.add(p, "field-removed", BreaksObjects, ruleRemoveField, name, nil, "field removed: its values are pruned from stored objects and rejected or dropped on write")
			}
		case !inOld && inNew:
			if nreq[name] {
				continue // reported as required-added below
			}
			w.add(p, "field-added", Safe, ruleNewOptional, nil, name, "optional field added")
		default:
			w.compare(p, &op, &np)
		}
	}
	for _, name := range sortedKeys(nreq, map[string]bool(nil)) {
		if oreq[name] {
			continue
		}
		p := join(path, name)
		np := n.Properties[name]
		switch {
		case np.Default.Object != nil:
			w.add(p, "required-added", Safe, ruleRequired, nil, name, "required field added with default %s: objects that leave it unset get the default before validation", render(np.Default.Object))
		default:
			msg := "field became required: objects without it are rejected"
			if _, existed := o.Properties[name]; !existed {
				msg = "required field added: objects without it are rejected"
			}
			from := len(w.changes)
			w.add(p, "required-added", BreaksObjects, ruleRequired, nil, name, "%s", msg)
			if _, existed := o.Properties[name]; existed && declared(&np) {
				w.declare(from)
			}
		}
	}
	for _, name := range sortedKeys(oreq, map[string]bool(nil)) {
		if !nreq[name] {
			if _, ok := n.Properties[name]; ok || len(n.Properties) == 0 {
				w.add(join(path, name), "required-removed", Safe, ruleRequiredRemoved, name, nil, "field no longer required")
			}
		}
	}
}

func (w *walker) additionalProperties(path string, o, n *schema.Structural) {
	oa, na := apSchema(o), apSchema(n)
	p := path + "{*}"
	switch {
	case oa == nil && na == nil:
	case oa != nil && na == nil:
		if n.XPreserveUnknownFields {
			w.add(p, "field-removed", Safe, ruleLoosened, "additionalProperties", nil, "map values (additionalProperties) no longer validated: kept as unknown fields")
		} else {
			w.add(p, "field-removed", BreaksObjects, ruleRemoveField, "additionalProperties", nil, "map values (additionalProperties) removed: stored entries are pruned")
		}
	case oa == nil && na != nil:
		if len(o.Properties) == 0 && !o.XPreserveUnknownFields {
			w.add(p, "field-added", Safe, ruleNewOptional, nil, "additionalProperties", "map values (additionalProperties) allowed")
		} else if o.XPreserveUnknownFields {
			w.add(p, "additional-properties-added", BreaksObjects, ruleValidValues, nil, "additionalProperties", "unknown fields, preserved before, must now match the additionalProperties schema")
		}
	default:
		w.compare(p, oa, na)
	}
}

// apSchema is the schema of a node's map values, or nil.
func apSchema(s *schema.Structural) *schema.Structural {
	if s.AdditionalProperties == nil {
		return nil
	}
	if s.AdditionalProperties.Structural != nil {
		return s.AdditionalProperties.Structural
	}
	if s.AdditionalProperties.Bool {
		return &schema.Structural{Extensions: schema.Extensions{XPreserveUnknownFields: true}}
	}
	return nil
}

func requiredSet(s *schema.Structural) map[string]bool {
	m := map[string]bool{}
	if s.ValueValidation != nil {
		for _, r := range s.ValueValidation.Required {
			m[r] = true
		}
	}
	return m
}

// join appends a property name to a field path; names that are not simple
// identifiers are quoted as ["a.b"].
func join(path, name string) string {
	if !simpleName.MatchString(name) {
		return path + fmt.Sprintf("[%q]", name)
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

var simpleName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// sortedKeys returns the union of the keys of two maps, sorted.
func sortedKeys[V1, V2 any](a map[string]V1, b map[string]V2) []string {
	seen := map[string]bool{}
	var keys []string
	for k := range a {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// render writes a JSON-like value compactly for messages.
func render(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return fmt.Sprintf("%d", int64(x))
		}
		return fmt.Sprint(x)
	case *float64:
		if x == nil {
			return "none"
		}
		return render(*x)
	case *int64:
		if x == nil {
			return "none"
		}
		return fmt.Sprint(*x)
	}
	b, err := jsonMarshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
}

// ruleDeclared is the rule of a tightening that declares, in a built-in
// type's tags, a check its hand-written validation already made.
const ruleDeclared = `KEP-5073: declarative validation of a built-in type declares checks its hand-written validation already makes (marked x-kubernetes-api-lifecycle "declarative-validation"): declared, not newly enforced; check the release notes`

// declared reports whether s is marked as a field whose validation
// k8s.io/api declares with validation-gen tags that migrate hand-written
// checks (x-kubernetes-api-lifecycle "declarative-validation", which kdv's
// generator writes for +k8s: tags under a +k8s:alpha/beta(since) stage):
// its new keywords and rules are not new restrictions.
func declared(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	_, ok := s.XAPILifecycle["declarative-validation"]
	return ok
}

// declare downgrades the changes from index from on, which tighten a
// declared node, to Safe with ruleDeclared.
func (w *walker) declare(from int) {
	for i := from; i < len(w.changes); i++ {
		c := &w.changes[i]
		if c.Severity > Safe && c.Severity != BreaksClients {
			c.Severity, c.Rule, c.Hint = Safe, ruleDeclared, ""
		}
	}
}
