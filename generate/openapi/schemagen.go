package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"kdv.dev/idl"
	"kdv.dev/schema"
)

// shape is the schema of a type expression before a use site adds its
// description, default and tags.
type shape struct {
	props *schema.Props // inline schema, or {$ref} when ref is set
	ref   string
	// zero is openapi-gen's enforced default for a non-pointer value
	// (mustEnforceDefault); zeroAlways applies it even with omitempty
	// (structs).
	zero       any
	zeroAlways bool
	// zeroable marks a non-pointer string, number, boolean, slice or map:
	// Go decoding gives its zero value ("", 0, false, [], {}) the same
	// value as an absent field.
	zeroable bool
	// tags are the tags of the named non-struct types and aliases on the
	// way, applied at the use site (KEP-4153: a field gets the tags of its
	// named type chain).
	tags []*idl.Tag
	// enum is the named type whose constants are the enum values.
	enum *idl.Type
	// typ is the OpenAPI type ("object" for definitions).
	typ string
}

// schemaFor converts a type expression.
func (g *gen) schemaFor(r *idl.TypeRef, pos fmt.Stringer) shape {
	switch r.Kind {
	case idl.Pointer:
		s := g.schemaFor(r.Elem, pos)
		s.zero, s.zeroAlways, s.zeroable = nil, false, false
		return s
	case idl.Basic:
		typ, format, zero, ok := basicSchema(r.Basic)
		if !ok {
			g.errorf(pos, "type %s has no OpenAPI form", r.Text)
			return shape{props: &schema.Props{}}
		}
		return shape{props: &schema.Props{Type: typ, Format: format}, zero: zero, typ: typ, zeroable: true}
	case idl.Slice, idl.Array:
		if r.Elem.Kind == idl.Basic && r.Elem.Basic == "uint8" {
			return shape{props: &schema.Props{Type: "string", Format: "byte"}, typ: "string", zeroable: true}
		}
		items := g.use(g.schemaFor(r.Elem, pos), useSite{pos: pos, isItem: true})
		return shape{props: &schema.Props{Type: "array", Items: &schema.PropsOrArray{Schema: items}}, typ: "array", zeroable: true}
	case idl.Map:
		vals := g.use(g.schemaFor(r.Elem, pos), useSite{pos: pos, isItem: true})
		return shape{props: &schema.Props{Type: "object", AdditionalProperties: &schema.PropsOrBool{Allows: true, Schema: vals}}, typ: "object", zeroable: true}
	case idl.Struct:
		p := g.structSchema(siteName(g.curName(), "<anonymous>"), r.Fields, nil)
		return shape{props: p, zero: map[string]any{}, zeroAlways: true, typ: "object"}
	case idl.Interface:
		t := true
		return shape{props: &schema.Props{Type: "object", XPreserveUnknownFields: &t}, typ: "object"}
	case idl.Named:
		t := r.Named
		id := t.ID()
		g.dirPkg[dirOf(t.Pos.Filename)] = t.Package
		if wk := wellKnown(id); wk != nil {
			if inlineWellKnown(id) {
				return shape{props: wk, typ: wk.Type}
			}
			name := g.def(t)
			return shape{props: refProps(name), ref: name, typ: wk.Type}
		}
		if t.Alias {
			s := g.schemaFor(t.Underlying, pos)
			s.tags = append(append([]*idl.Tag{}, t.Tags...), s.tags...)
			return s
		}
		if g.isStruct(t) {
			name := g.def(t)
			var zero any = map[string]any{}
			return shape{props: refProps(name), ref: name, zero: zero, zeroAlways: true, typ: "object"}
		}
		if t.Underlying.Kind == idl.Unsupported {
			g.errorf(pos, "type %s has no OpenAPI form", id)
			return shape{props: &schema.Props{}}
		}
		s := g.schemaFor(t.Underlying, pos)
		s.tags = append(append([]*idl.Tag{}, t.Tags...), s.tags...)
		for _, tg := range t.Tags {
			if tg.Name == "enum" && len(tg.Args) == 0 && len(t.Consts) > 0 && s.enum == nil && g.publishEnum(tg) {
				s.enum = t
			}
		}
		for _, tg := range t.Tags {
			if tg.Name == "noEnum" {
				// kdv's rule overlay: the type's +enum is not enforced
				// (the hand-written validation checks the values with
				// its own errors, at its own paths), neither here nor
				// where a field of the type applies its tags
				s.enum = nil
				s.tags = slices.DeleteFunc(slices.Clone(s.tags), func(x *idl.Tag) bool { return x.Name == "enum" && len(x.Args) == 0 })
				break
			}
		}
		return s
	}
	g.errorf(pos, "type %s has no OpenAPI form", r.Text)
	return shape{props: &schema.Props{}}
}

func refProps(name string) *schema.Props {
	ref := RefPrefix + name
	return &schema.Props{Ref: &ref}
}

func (g *gen) curName() string {
	if len(g.cur) == 0 {
		return ""
	}
	return g.cur[len(g.cur)-1]
}

// useSite describes where a shape is used.
type useSite struct {
	pos       fmt.Stringer
	desc      string
	omitEmpty bool
	isItem    bool // items and map values: no description, default as for a required field
	// field context for tags
	tags   []*idl.Tag
	parent *structAcc
	field  *idl.Field
	owner  string
}

// use turns a shape into the schema of one use: an inline schema gets the
// description, default and tags directly; a $ref gets them as siblings of
// allOf: [{$ref}] (the form the apiserver publishes).
func (g *gen) use(s shape, u useSite) *schema.Props {
	var target *schema.Props
	if s.ref != "" {
		target = &schema.Props{}
	} else {
		target = deepCopy(s.props)
	}
	if u.desc != "" {
		target.Description = u.desc
	}
	if s.enum != nil {
		var vals []string
		var lines []string
		seen := map[string]bool{}
		for _, c := range s.enum.Consts {
			// One value per string: k8s.io/api declares some twice (a
			// deprecated constant beside its replacement), and JSON
			// Schema requires unique enum values (openapi-gen keys its
			// enum values by string too).
			if v, ok := c.Value.(string); ok && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
				doc := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c.Doc), c.Name))
				lines = append(lines, strings.TrimRight(fmt.Sprintf(" - `%q` %s", v, strings.Join(strings.Fields(doc), " ")), " "))
			}
		}
		sort.Strings(vals)
		sort.Strings(lines)
		for _, v := range vals {
			target.Enum = append(target.Enum, schema.JSON{Object: v})
		}
		if u.desc != "" && !u.isItem && !g.opts.CRD {
			target.Description = u.desc + "\n\nPossible enum values:\n" + strings.Join(lines, "\n")
		}
	}
	if !g.opts.CRD && s.zero != nil && (s.zeroAlways || !u.omitEmpty) && !(g.opts.NoStringZeroDefaults && s.zero == "") {
		target.Default = &schema.JSON{Object: s.zero}
	}
	site := &tagSite{g: g, target: target, typ: s.typ, parent: u.parent, field: u.field, owner: u.owner, pos: u.pos}
	for _, tg := range s.tags {
		g.apply(tg, site)
	}
	for _, tg := range u.tags {
		g.apply(tg, site)
	}
	site.finishUnique()
	site.markListUnique()
	// A zero value is unset where Go decoding cannot tell it from a
	// missing field and nothing requires it present: optional fields, and
	// fields a default fills when zero (a Go defaulter's "if x == \"\""),
	// unless the overlay's +keepZero says the hand-written validation
	// tells the zero value from a missing field (an empty list it
	// rejects as "must not be empty if specified").
	keep := slices.ContainsFunc(u.tags, func(t *idl.Tag) bool { return t.Name == "keepZero" })
	if g.opts.StripZero && !g.opts.CRD && u.field != nil && s.zeroable && !keep && (u.omitEmpty || hasNonZeroDefault(target)) {
		target.XStripZero = true
	}
	if s.ref == "" {
		return target
	}
	if isEmpty(target) {
		return s.props
	}
	target.AllOf = append([]schema.Props{*s.props}, target.AllOf...)
	return target
}

// hasNonZeroDefault reports whether p has a default other than its type's
// zero value (openapi-gen's enforced zero defaults do not count).
func hasNonZeroDefault(p *schema.Props) bool {
	if p.Default == nil {
		return false
	}
	switch d := p.Default.Object.(type) {
	case nil:
		return false
	case string:
		return d != ""
	case bool:
		return d
	case int64:
		return d != 0
	case float64:
		return d != 0
	case []any:
		return len(d) > 0
	case map[string]any:
		return len(d) > 0
	}
	return true
}

func isEmpty(p *schema.Props) bool {
	b, _ := p.MarshalJSON()
	return string(b) == "{}"
}

// deepCopy copies a schema through JSON (schemas are small).
func deepCopy(p *schema.Props) *schema.Props {
	b, err := p.MarshalJSON()
	if err != nil {
		panic(err)
	}
	var out schema.Props
	if err := out.UnmarshalJSON(b); err != nil {
		panic(err)
	}
	return &out
}

// structAcc collects what a struct's fields contribute to the struct's own
// schema: rules that need the parent (presence transitions, unions,
// dependent fields).
type structAcc struct {
	props   *schema.Props
	owner   string
	members map[string][]unionMember // union key -> members
	discr   map[string]string        // union key -> discriminator JSON name
	zero    map[string][]unionMember // zeroOrOneOf groups
	order   []string
	// openapi-gen unions: +union on the type, +unionDiscriminator (plain)
	// on a field; every other field is a member named by its Go name.
	openapiUnion bool
	plainDiscr   string
	fieldNames   [][2]string // JSON name, Go name of the serialized fields
	// mode-discriminated validation (+k8s:modeDiscriminator, +k8s:ifMode)
	modeDisc  map[string]string // group -> discriminator JSON name
	modeRules []modeRule
}

type unionMember struct {
	json, goName, value string
	// keepZero: the field's zero value is kept (+keepZero), so the
	// member counts only when not empty
	keepZero bool
}

// structSchema builds an object schema from fields (inline fields
// flattened) and applies the tags of the named chain to it.
func (g *gen) structSchema(owner string, fields []*idl.Field, chain []*idl.Type) *schema.Props {
	p := &schema.Props{Type: "object"}
	acc := &structAcc{props: p, owner: owner, members: map[string][]unionMember{}, discr: map[string]string{}, zero: map[string][]unionMember{}, modeDisc: map[string]string{}}
	g.fields(acc, owner, fields)
	site := &tagSite{g: g, target: p, typ: "object", parent: acc, owner: owner, typeLevel: true}
	for _, t := range chain {
		site.pos = t.Pos
		for _, tg := range t.Tags {
			g.apply(tg, site)
		}
	}
	g.finishUnions(acc)
	g.finishModes(acc)
	if g.opts.CRD {
		// controller-gen lists required properties sorted; openapi-gen in
		// field order.
		sort.Strings(p.Required)
	}
	return p
}

func (g *gen) fields(acc *structAcc, owner string, fields []*idl.Field) {
	p := acc.props
	for _, f := range fields {
		if f.Skip {
			for _, t := range f.Tags {
				g.report.Seen[posKey(t.Pos)]++
				g.report1(t, &tagSite{owner: owner, field: f}, "field is not serialized (unexported or json:\"-\")")
			}
			continue
		}
		if f.Inline {
			if r := f.Type; r.Kind == idl.Named && g.isStruct(r.Named) && wellKnown(r.Named.ID()) == nil {
				_, inner := structOf(r.Named)
				g.fields(acc, owner, inner)
				continue
			}
			if r := f.Type; r.Kind == idl.Pointer && r.Elem.Kind == idl.Named && g.isStruct(r.Elem.Named) && wellKnown(r.Elem.Named.ID()) == nil {
				_, inner := structOf(r.Elem.Named)
				g.fields(acc, owner, inner)
				continue
			}
		}
		acc.fieldNames = append(acc.fieldNames, [2]string{f.JSONName, f.Name})
		s := g.schemaFor(f.Type, f.Pos)
		prop := g.use(s, useSite{pos: f.Pos, desc: g.doc(f.Doc, f.Comments), omitEmpty: f.OmitEmpty || f.OmitZero, tags: f.Tags, parent: acc, field: f, owner: owner})
		if p.Properties == nil {
			p.Properties = map[string]schema.Props{}
		}
		p.Properties[f.JSONName] = *prop
		if g.required(f, s) {
			p.Required = append(p.Required, f.JSONName)
		}
	}
}

// publishEnum reports whether a constant-valued enum tag is published.
// It always is, also in CRDs: controller-gen ignores openapi-gen's +enum,
// but kdv's tag model gives +enum and +k8s:enum one meaning (CRDs get the
// values without openapi-gen's "Possible enum values" description).
func (g *gen) publishEnum(t *idl.Tag) bool { return true }

// doc is a description in the generator's convention: openapi-gen's
// (idl.Description, already in doc) or, for CRDs, controller-gen's.
func (g *gen) doc(doc string, comments []string) string {
	if g.opts.CRD {
		return idl.ControllerGenDescription(comments)
	}
	return doc
}

// required mirrors openapi-gen's isOptional: +optional makes a field
// optional, +required required, otherwise omitempty decides. validation-
// gen's +k8s:required (also under alpha/beta/ifEnabled) makes it required;
// controller-gen's +kubebuilder:validation:Optional/Required map to the
// same tags.
func (g *gen) required(f *idl.Field, s shape) bool {
	opt, req, overlayOpt := false, false, false
	for _, t := range f.Tags {
		leaf := t
		for leaf.Payload != nil && (leaf.Name == "alpha" || leaf.Name == "beta" || leaf.Name == "ifEnabled") {
			leaf = leaf.Payload
		}
		switch {
		case leaf.Name == "optional" && leaf == t:
			opt = true
			// A rule overlay's +optional (a tag with a Source) says the
			// apiserver accepts the field's absence, whatever the
			// package's own comments say: k8s.io/api's plain +required
			// is documentation that no validation enforces on some
			// fields (resource/v1 Counter.value).
			overlayOpt = overlayOpt || t.Source != ""
		case leaf.Name == "required":
			req = true
		}
	}
	if overlayOpt {
		return false
	}
	if req {
		return true
	}
	if opt {
		return false
	}
	if f.OmitEmpty || f.OmitZero {
		return false
	}
	// controller-gen: a package-level +kubebuilder:validation:Optional makes
	// fields without markers optional.
	return !g.packageOptional(f.Pos.Filename)
}

// packageOptional reports whether the root package declaring file has a
// package-level +kubebuilder:validation:Optional (or +optional) marker.
func (g *gen) packageOptional(file string) bool {
	dir := file
	if i := strings.LastIndex(dir, "/"); i >= 0 {
		dir = dir[:i]
	}
	for _, p := range g.u.Packages {
		if p.Dir != dir {
			continue
		}
		opt := false
		for _, t := range p.Tags {
			switch t.Name {
			case "optional":
				opt = true
			case "required":
				opt = false
			}
		}
		return opt
	}
	return false
}
