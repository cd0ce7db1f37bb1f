package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"kdv.dev/idl"
	"kdv.dev/schema"
)

// update publishes validation-gen's +k8s:update constraints
// (k8s.io/apimachinery/pkg/api/validate/update.go) as transition rules with
// the same messages.
func (g *gen) update(t *idl.Tag, s *tagSite) {
	f := s.jsonName()
	ok := true
	switch t.Value {
	case "NoSet":
		ok = s.parentRule(schema.ValidationRule{Rule: fmt.Sprintf("has(oldSelf.%s) || !has(self.%s)", f, f), Message: "field cannot be set once created"})
	case "NoUnset":
		ok = s.parentRule(schema.ValidationRule{Rule: fmt.Sprintf("!has(oldSelf.%s) || has(self.%s)", f, f), Message: "field cannot be cleared once set"})
	case "NoModify":
		s.rule(schema.ValidationRule{Rule: "self == oldSelf", Message: "field cannot be modified once set"})
	case "NoAddItem", "NoRemoveItem":
		if s.typ != "array" {
			g.report1(t, s, "NoAddItem/NoRemoveItem on a value that is not a list")
			return
		}
		match := "x == y"
		if len(s.target.XListMapKeys) > 0 {
			var parts []string
			for _, k := range s.target.XListMapKeys {
				parts = append(parts, fmt.Sprintf("x.%s == y.%s", k, k))
			}
			match = strings.Join(parts, " && ")
		}
		if t.Value == "NoAddItem" {
			s.rule(schema.ValidationRule{Rule: fmt.Sprintf("self.all(x, oldSelf.exists(y, %s))", match), Message: "item may not be added", Reason: strPtr("FieldValueForbidden")})
		} else {
			s.rule(schema.ValidationRule{Rule: fmt.Sprintf("oldSelf.all(y, self.exists(x, %s))", match), Message: "item may not be removed", Reason: strPtr("FieldValueForbidden")})
		}
	}
	if !ok {
		g.report1(t, s, "NoSet/NoUnset need a struct field")
		return
	}
	g.report.published(t.Name)
}

// uniqueRule checks uniqueness of a list that keeps another list type
// (validation-gen +k8s:unique on an atomic list): field.Duplicate.
func uniqueRule(kind string, keys []string) schema.ValidationRule {
	if kind == "map" && len(keys) > 0 {
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("y.%s == x.%s", k, k))
		}
		return schema.ValidationRule{Rule: fmt.Sprintf("self.all(x, self.exists_one(y, %s))", strings.Join(parts, " && ")), Message: "Duplicate value", Reason: strPtr("FieldValueDuplicate")}
	}
	return schema.ValidationRule{Rule: "self.all(x, self.exists_one(y, y == x))", Message: "Duplicate value", Reason: strPtr("FieldValueDuplicate")}
}

// countExpr is controller-tools' ternary-sum count of set fields.
func countExpr(fields []string) string {
	var parts []string
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("(has(self.%s)?1:0)", f))
	}
	return strings.Join(parts, "+")
}

// oneOfRule mirrors controller-tools' ExactlyOneOf / AtMostOneOf /
// AtLeastOneOf markers (rules and messages).
func oneOfRule(kind string, fields []string) schema.ValidationRule {
	list := "[" + strings.Join(fields, " ") + "]"
	switch kind {
	case "exactlyOneOf":
		return schema.ValidationRule{Rule: countExpr(fields) + " == 1", Message: fmt.Sprintf("exactly one of the fields in %s must be set", list)}
	case "atMostOneOf":
		return schema.ValidationRule{Rule: countExpr(fields) + " <= 1", Message: fmt.Sprintf("at most one of the fields in %s may be set", list)}
	}
	var parts []string
	for _, f := range fields {
		parts = append(parts, "has(self."+f+")")
	}
	return schema.ValidationRule{Rule: strings.Join(parts, "||"), Message: fmt.Sprintf("at least one of the fields in %s must be set", list)}
}

// unionTag records a validation-gen union member or discriminator on the
// struct; finishUnions turns them into rules.
func (g *gen) unionTag(t *idl.Tag, s *tagSite) {
	if s.parent == nil || s.field == nil {
		g.report1(t, s, "union tags belong on struct fields")
		return
	}
	key, _ := t.Arg("union")
	acc := s.parent
	if _, ok := acc.members[key]; !ok && t.Name != "zeroOrOneOfMember" {
		if _, ok := acc.discr[key]; !ok {
			acc.order = append(acc.order, key)
		}
	}
	if t.Name == "unionDiscriminator" && t.Syntax == idl.SyntaxPlain {
		// openapi-gen's discriminator of a +union struct
		acc.plainDiscr = s.field.JSONName
		g.report.published(t.Name)
		return
	}
	m := unionMember{json: s.field.JSONName, goName: s.field.Name, value: s.field.Name}
	m.keepZero = slices.ContainsFunc(s.field.Tags, func(t *idl.Tag) bool { return t.Name == "keepZero" })
	if v, ok := t.Arg("memberName"); ok {
		m.value = v
	}
	switch t.Name {
	case "unionMember":
		acc.members[key] = append(acc.members[key], m)
	case "unionDiscriminator":
		acc.discr[key] = s.field.JSONName
	case "zeroOrOneOfMember":
		if _, ok := acc.zero[key]; !ok {
			acc.order = append(acc.order, "zero:"+key)
		}
		acc.zero[key] = append(acc.zero[key], m)
	}
	g.report.published(t.Name)
}

// memberCount is countExpr over union members, a +keepZero member (a
// list whose empty value is kept) counting only when not empty, as
// validation-gen's union counts a Go slice.
func memberCount(ms []unionMember) string {
	var parts []string
	for _, m := range ms {
		if m.keepZero {
			parts = append(parts, fmt.Sprintf("(has(self.%s) && size(self.%s) > 0 ?1:0)", m.json, m.json))
		} else {
			parts = append(parts, fmt.Sprintf("(has(self.%s)?1:0)", m.json))
		}
	}
	return strings.Join(parts, "+")
}

func quoteFields(ms []unionMember) (names []string, quoted string) {
	var q []string
	for _, m := range ms {
		names = append(names, m.json)
		q = append(q, "`"+m.json+"`")
	}
	return names, strings.Join(q, ", ")
}

// finishUnions publishes a struct's unions as CEL rules with
// k8s.io/apimachinery/pkg/api/validate's messages (union.go, zeroorone.go)
// and as x-kubernetes-unions.
func (g *gen) finishUnions(acc *structAcc) {
	if acc.openapiUnion {
		// kube-openapi parseUnionStruct: x-kubernetes-unions with every
		// field but the discriminator as a member, valued by its Go name.
		u := schema.Union{Discriminator: acc.plainDiscr, Fields: map[string]string{}}
		for _, f := range acc.fieldNames {
			if f[0] != acc.plainDiscr {
				u.Fields[f[0]] = f[1]
			}
		}
		g.unions(acc, u)
	}
	for _, key := range acc.order {
		if zk, ok := strings.CutPrefix(key, "zero:"); ok {
			ms := acc.zero[zk]
			_, q := quoteFields(ms)
			acc.props.XValidations = append(acc.props.XValidations, schema.ValidationRule{
				Rule:    memberCount(ms) + " <= 1",
				Message: "must specify at most one of: " + q,
			})
			g.unions(acc, schema.Union{Fields: fieldMap(ms, false), ZeroOrOneOf: true})
			continue
		}
		ms := acc.members[key]
		if len(ms) == 0 {
			continue
		}
		_, q := quoteFields(ms)
		d, discriminated := acc.discr[key]
		if !discriminated {
			cnt := memberCount(ms)
			acc.props.XValidations = append(acc.props.XValidations, schema.ValidationRule{
				Rule:              cnt + " == 1",
				MessageExpression: fmt.Sprintf("%s == 0 ? 'must specify one of: %s' : 'must specify exactly one of: %s'", cnt, q, q),
			})
			g.unions(acc, schema.Union{Fields: fieldMap(ms, false)})
			continue
		}
		for _, m := range ms {
			sel := fmt.Sprintf("has(self.%s) && self.%s == '%s'", d, d, m.value)
			acc.props.XValidations = append(acc.props.XValidations,
				schema.ValidationRule{Rule: fmt.Sprintf("!has(self.%s) || (%s)", m.json, sel), Message: fmt.Sprintf("may only be specified when `%s` is %q", d, m.value), FieldPath: "." + m.json},
				schema.ValidationRule{Rule: fmt.Sprintf("!(%s) || has(self.%s)", sel, m.json), Message: fmt.Sprintf("must be specified when `%s` is %q", d, m.value), FieldPath: "." + m.json},
			)
		}
		g.unions(acc, schema.Union{Discriminator: d, Fields: fieldMap(ms, true)})
	}
}

// unions records x-kubernetes-unions (not in CRD schemas, where
// apiextensions.k8s.io/v1 does not know the extension).
func (g *gen) unions(acc *structAcc, u schema.Union) {
	if !g.opts.CRD {
		acc.props.XUnions = append(acc.props.XUnions, u)
	}
}

func fieldMap(ms []unionMember, withValues bool) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		if withValues {
			out[m.json] = m.value
		} else {
			out[m.json] = ""
		}
	}
	return out
}

// itemUnion publishes +k8s:item(key: value)=+k8s:zeroOrOneOfMember (and
// unionMember): at most (exactly) one of the list items selected by the
// key values may be present.
func (g *gen) itemUnion(t *idl.Tag, s *tagSite) {
	if s.typ != "array" {
		g.report1(t, s, "item(...) on a value that is not a list")
		return
	}
	var conds []string
	var desc []string
	for _, a := range t.Args {
		conds = append(conds, fmt.Sprintf("x.%s == '%s'", a.Name, a.Value))
		desc = append(desc, fmt.Sprintf("%s=%s", a.Name, a.Value))
	}
	sel := "(" + strings.Join(conds, " && ") + ")"
	kind := t.Payload.Name
	acc := g.itemAcc(s.target, kind)
	acc.sels = append(acc.sels, sel)
	acc.names = append(acc.names, "`"+strings.Join(desc, ",")+"`")
	sort.Strings(acc.names)
	op, msg := "<= 1", "must specify at most one of: "
	if kind == "unionMember" {
		op, msg = "== 1", "must specify exactly one of: "
	}
	r := schema.ValidationRule{
		Rule:    fmt.Sprintf("self.filter(x, %s).size() %s", strings.Join(acc.sels, " || "), op),
		Message: msg + strings.Join(acc.names, ", "),
	}
	if acc.idx < 0 {
		acc.idx = len(s.target.XValidations)
		s.target.XValidations = append(s.target.XValidations, r)
	} else {
		s.target.XValidations[acc.idx] = r
	}
	g.report.published(t.Name)
	g.report.published(kind)
}

type itemUnionAcc struct {
	sels, names []string
	idx         int
}

func (g *gen) itemAcc(p *schema.Props, kind string) *itemUnionAcc {
	if g.items == nil {
		g.items = map[itemKey]*itemUnionAcc{}
	}
	k := itemKey{p, kind}
	a := g.items[k]
	if a == nil {
		a = &itemUnionAcc{idx: -1}
		g.items[k] = a
	}
	return a
}

type itemKey struct {
	p    *schema.Props
	kind string
}

// celFormats maps validation-gen formats to the Kubernetes CEL format
// library (k8s.io/apiserver/pkg/cel/library/format.go), whose validate()
// returns apimachinery's messages.
var celFormats = map[string]string{
	"k8s-short-name":         "dns1123Label",
	"k8s-long-name":          "dns1123Subdomain",
	"k8s-label-key":          "qualifiedName",
	"k8s-prefixed-label-key": "qualifiedName",
	"k8s-uuid":               "uuid",
}

// eachKey publishes +k8s:eachKey payloads on map keys as CEL rules (OpenAPI
// has no key schema in structural schemas): formats through the CEL format
// library, length bounds with size(). Other payloads are reported.
func (g *gen) eachKey(t *idl.Tag, s *tagSite) {
	if s.target.AdditionalProperties == nil {
		g.report1(t, s, "eachKey on a value that is not a map")
		return
	}
	p := t.Payload
	var r schema.ValidationRule
	switch p.Name {
	case "format":
		f, ok := celFormats[p.Value]
		if !ok {
			g.report1(t, s, fmt.Sprintf("format %q has no CEL format library equivalent for map keys", p.Value))
			return
		}
		check := fmt.Sprintf("format.%s().validate(k)", f)
		r = schema.ValidationRule{
			Rule:              fmt.Sprintf("self.all(k, !%s.hasValue())", check),
			MessageExpression: fmt.Sprintf("self.filter(k, %s.hasValue()).map(k, k + ': ' + %s.value().join(', ')).join('; ')", check, check),
		}
	case "maxLength", "minLength":
		n, err := p.Int()
		if err != nil {
			g.errs = append(g.errs, err)
			return
		}
		op, what := "<=", "at most"
		if p.Name == "minLength" {
			op, what = ">=", "at least"
		}
		r = schema.ValidationRule{Rule: fmt.Sprintf("self.all(k, size(k) %s %d)", op, n), Message: fmt.Sprintf("map keys must be %s %d characters long", what, n)}
	default:
		g.report1(t, s, "eachKey with this payload has no schema form")
		return
	}
	s.rule(r)
	g.report.published(t.Name)
	g.report.published(p.Name)
}
