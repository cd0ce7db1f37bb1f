package openapi

import (
	"fmt"
	"sort"
	"strings"

	"kdv.dev/idl"
	"kdv.dev/schema"
)

// modeRule is one +k8s:ifMode(value)=payload of a struct field.
type modeRule struct {
	group, field, mode, payload string
	tag                         *idl.Tag
	site                        *tagSite
}

// modeTag records validation-gen's mode-discriminated validation
// (k8s.io/apimachinery/pkg/api/validate/discriminator.go Discriminated): a
// field with +k8s:ifMode rules gets the payload of the rule whose value
// the discriminator has, and is forbidden in every other mode.
func (g *gen) modeTag(t *idl.Tag, s *tagSite) {
	if s.parent == nil || s.field == nil {
		g.report1(t, s, "mode tags belong on struct fields")
		return
	}
	group, _ := t.Arg("modality")
	if t.Name == "modeDiscriminator" {
		if len(t.Args) == 1 && t.Args[0].Name == "" {
			group = t.Args[0].Value
		}
		s.parent.modeDisc[group] = s.field.JSONName
		g.report.published(t.Name)
		return
	}
	mode, ok := t.Arg("mode")
	if !ok {
		mode, _ = t.Arg("")
	}
	switch t.Payload.Name {
	case "required", "optional", "forbidden":
	default:
		g.report1(t, s, "ifMode with this payload is not implemented")
		return
	}
	s.parent.modeRules = append(s.parent.modeRules, modeRule{group: group, field: s.field.JSONName, mode: mode, payload: t.Payload.Name, tag: t, site: s})
}

// finishModes publishes the recorded mode rules as CEL rules on the struct.
// The apiserver's errors are field.Required / field.Forbidden with an empty
// detail ("spec.limited: Required value", "spec.exempt: Forbidden"): the
// rules' messages are those types' own wording, which built-in rules print
// as no detail (cel.Options.BuiltIn).
func (g *gen) finishModes(acc *structAcc) {
	if len(acc.modeRules) == 0 {
		return
	}
	type key struct{ group, field string }
	modes := map[key][]string{}
	var order []key
	for _, r := range acc.modeRules {
		d, ok := acc.modeDisc[r.group]
		if !ok {
			g.report1(r.tag, r.site, "ifMode without a +k8s:modeDiscriminator in the struct")
			continue
		}
		k := key{r.group, r.field}
		if _, seen := modes[k]; !seen {
			order = append(order, k)
		}
		disc := fmt.Sprintf("(has(self.%s) ? self.%s : '')", d, d)
		switch r.payload {
		case "required":
			acc.props.XValidations = append(acc.props.XValidations, schema.ValidationRule{
				Rule: fmt.Sprintf("%s != '%s' || has(self.%s)", disc, r.mode, r.field), Reason: strPtr("FieldValueRequired"),
				FieldPath: "." + r.field, Message: "Required value"})
		case "forbidden":
			acc.props.XValidations = append(acc.props.XValidations, schema.ValidationRule{
				Rule: fmt.Sprintf("%s != '%s' || !has(self.%s)", disc, r.mode, r.field), Reason: strPtr("FieldValueForbidden"),
				FieldPath: "." + r.field, Message: "Forbidden"})
		}
		modes[k] = append(modes[k], r.mode)
		g.report.published("ifMode")
		g.report.published(r.payload)
	}
	for _, k := range order {
		d := acc.modeDisc[k.group]
		ms := modes[k]
		sort.Strings(ms)
		var quoted []string
		for _, m := range ms {
			quoted = append(quoted, "'"+m+"'")
		}
		acc.props.XValidations = append(acc.props.XValidations, schema.ValidationRule{
			Rule:      fmt.Sprintf("!has(self.%s) || (has(self.%s) ? self.%s : '') in [%s]", k.field, d, d, strings.Join(quoted, ", ")),
			Reason:    strPtr("FieldValueForbidden"),
			FieldPath: "." + k.field,
			Message:   "Forbidden",
		})
	}
}
