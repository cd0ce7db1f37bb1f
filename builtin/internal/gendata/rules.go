package gendata

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/cel"
	"kdv.dev/schema"
	"kdv.dev/schema/refs"
)

// dropUncompilable removes from d's definitions the x-kubernetes-validations
// rules that do not compile against the release's own types, and returns
// a note for each. The rule overlay is written against the newest
// k8s.io/api; an older release may lack a field a rule reads
// (EnvVarSource.fileKeyRef, new in 1.34), and a rule that does not compile
// would fail every object of the kind. Dropping it can only miss what that
// release rejects, never reject what it accepts. Each rule is compiled as
// the validator compiles it (cel.Options.BuiltIn), with self the resolved
// type of the node that carries it and the other rules stripped.
func dropUncompilable(d *datafile.Data, minor int) ([]string, error) {
	kindDefs := map[string]bool{}
	for _, k := range d.Kinds {
		kindDefs[k.Definition] = true
	}
	names := make([]string, 0, len(d.Schemas))
	for n, p := range d.Schemas {
		if hasRules(p) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var notes []string
	for _, name := range names {
		resolved, err := refs.Resolve(d.Schemas, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c := ruleChecker{minor: minor, def: name, kind: kindDefs[name]}
		if err := c.walk(d.Schemas[name], resolved, "", true); err != nil {
			return nil, err
		}
		notes = append(notes, c.notes...)
	}
	return notes, nil
}

type ruleChecker struct {
	minor int
	def   string
	kind  bool // def is the schema of a kind: its root is a resource root
	notes []string
}

// walk checks the rules of the unresolved node u, whose resolved form is
// r, and of the nodes below it that u itself holds (not those of the
// definitions it refers to, checked as definitions of their own).
func (c *ruleChecker) walk(u, r *schema.Props, path string, root bool) error {
	if u == nil || r == nil {
		return nil
	}
	if len(u.XValidations) > 0 {
		u.XValidations = c.diffsSince(u.XValidations, path)
		keep, err := c.compilable(u.XValidations, r, path, root)
		if err != nil {
			return err
		}
		u.XValidations = keep
	}
	for name, up := range u.Properties {
		rp, ok := r.Properties[name]
		if !ok {
			continue
		}
		if err := c.walk(&up, &rp, path+"."+name, false); err != nil {
			return err
		}
		u.Properties[name] = up
	}
	if u.Items != nil && u.Items.Schema != nil && r.Items != nil {
		if err := c.walk(u.Items.Schema, r.Items.Schema, path+"[*]", false); err != nil {
			return err
		}
	}
	if u.AdditionalProperties != nil && u.AdditionalProperties.Schema != nil && r.AdditionalProperties != nil {
		if err := c.walk(u.AdditionalProperties.Schema, r.AdditionalProperties.Schema, path+"{*}", false); err != nil {
			return err
		}
	}
	return nil
}

// diffsSince drops the x-kubernetes-diff of rules whose Since is a later
// release than c's (the message of an older release ends with another
// diff, or none) and clears Since, which only the generator reads. The
// rules are copied: the overlay's schemas may be shared between releases.
func (c *ruleChecker) diffsSince(rules []schema.ValidationRule, path string) []schema.ValidationRule {
	var out []schema.ValidationRule
	for i, r := range rules {
		if r.Diff == nil || r.Diff.Since == "" {
			continue
		}
		if out == nil {
			out = append([]schema.ValidationRule(nil), rules...)
		}
		d := *r.Diff
		d.Since = ""
		out[i].Diff = &d
		if minor, ok := strings.CutPrefix(r.Diff.Since, "1."); !ok || atoi(minor) > c.minor {
			// a malformed Since keeps the diff out, as a later release's
			c.notes = append(c.notes, fmt.Sprintf("%s%s: rule %.60q: x-kubernetes-diff (since %s) left out", c.def, path, r.Rule, r.Diff.Since))
			out[i].Diff = nil
		}
	}
	if out == nil {
		return rules
	}
	return out
}

// atoi is the value of a decimal number; anything else is later than
// every release.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 1 << 30
	}
	return n
}

// compilable returns the rules that compile with self of type r: all of
// them when they compile together (the common case, one compilation),
// else each compiled alone.
func (c *ruleChecker) compilable(rules []schema.ValidationRule, r *schema.Props, path string, root bool) ([]schema.ValidationRule, error) {
	bare := r.DeepCopy()
	stripRules(bare)
	try := func(rs []schema.ValidationRule) (string, error) {
		bare.XValidations = rs
		s, err := schema.NewStructural(bare)
		if err != nil {
			return "", fmt.Errorf("%s%s: %w", c.def, path, err)
		}
		v, _ := cel.NewValidator(s, root && c.kind, cel.Options{KubernetesMinor: c.minor, BuiltIn: true, SkipCheck: true})
		if errs := v.CompileErrors(); len(errs) > 0 {
			return errs[0].Detail, nil
		}
		return "", nil
	}
	if msg, err := try(rules); err != nil || msg == "" {
		return rules, err
	}
	var keep []schema.ValidationRule
	for _, rule := range rules {
		msg, err := try([]schema.ValidationRule{rule})
		if err != nil {
			return nil, err
		}
		if msg != "" {
			c.notes = append(c.notes, fmt.Sprintf("%s%s: rule %q dropped: it does not compile against 1.%d's types", c.def, path, rule.Rule, c.minor))
			continue
		}
		keep = append(keep, rule)
	}
	return keep, nil
}

// hasRules reports whether p or a node it holds (not through $ref) has
// x-kubernetes-validations.
func hasRules(p *schema.Props) bool {
	if p == nil {
		return false
	}
	if len(p.XValidations) > 0 {
		return true
	}
	for _, q := range p.Properties {
		if hasRules(&q) {
			return true
		}
	}
	if p.Items != nil && hasRules(p.Items.Schema) {
		return true
	}
	return p.AdditionalProperties != nil && hasRules(p.AdditionalProperties.Schema)
}

// stripRules removes every x-kubernetes-validations of p's tree.
func stripRules(p *schema.Props) {
	if p == nil {
		return
	}
	p.XValidations = nil
	for name, q := range p.Properties {
		stripRules(&q)
		p.Properties[name] = q
	}
	if p.Items != nil {
		stripRules(p.Items.Schema)
	}
	if p.AdditionalProperties != nil {
		stripRules(p.AdditionalProperties.Schema)
	}
}
