package openapi

import (
	"fmt"
	"strings"

	"kdv.dev/defaulting"
	"kdv.dev/idl"
	"kdv.dev/schema"
)

// tagSite is where a tag is applied: the schema that receives keywords,
// its OpenAPI type, and the field and struct it belongs to.
type tagSite struct {
	g         *gen
	target    *schema.Props
	typ       string
	parent    *structAcc
	field     *idl.Field
	owner     string
	pos       fmt.Stringer
	typeLevel bool
	// uniqueEnforced records a validation-gen +k8s:listType or +k8s:unique
	// of set or map that is not lifecycle-wrapped: the apiserver enforces
	// that list's uniqueness by default (see Options.ListUniqueFromTags).
	uniqueEnforced bool
	// uniqueMap records a validation-gen +k8s:unique=map on a list of
	// another list type (atomic), published by finishUnique.
	uniqueMap bool
}

func (s *tagSite) name() string {
	if s.field != nil {
		return siteName(s.owner, s.field.JSONName)
	}
	return s.owner
}

func (s *tagSite) jsonName() string {
	if s.field == nil {
		return ""
	}
	return s.field.JSONName
}

// sub returns a site for a nested schema (items, values, properties).
func (s *tagSite) sub(target *schema.Props, typ string) *tagSite {
	return &tagSite{g: s.g, target: target, typ: typ, owner: s.name(), pos: s.pos}
}

func (g *gen) report1(t *idl.Tag, s *tagSite, reason string) {
	for c := t; c != nil; c = c.Payload {
		g.report.reported(c.Name, t.Pos, t.Text, s.name(), reason)
	}
}

// noLifecycle is the report reason when lifecycle extensions are off.
func (g *gen) noLifecycle() string {
	if g.opts.CRD {
		return "x-kubernetes-api-lifecycle is not allowed in CRD schemas"
	}
	return "x-kubernetes-api-lifecycle disabled (StandardOnly)"
}

// reasonName is a rule's reason as published: none when the tag gives
// none, FieldValue<X> for the short form X. An explicit FieldValueInvalid
// is kept: in built-in schemas it marks a hand-written check, whose error
// reports the value at its field path (kdv.dev/cel Options.BuiltIn).
func reasonName(r string) *string {
	switch r {
	case "":
		return nil
	case "Invalid", "Forbidden", "Required", "Duplicate", "NotFound", "NotSupported", "TooLong", "TooMany":
		r = "FieldValue" + r
	}
	return &r
}

func strPtr(s string) *string { return &s }

// rule appends a CEL rule to the target schema.
func (s *tagSite) rule(r schema.ValidationRule) {
	s.target.XValidations = append(s.target.XValidations, r)
}

// parentRule appends a rule to the struct holding the field; false when
// there is none (the tag is then reported).
func (s *tagSite) parentRule(r schema.ValidationRule) bool {
	if s.parent == nil || s.field == nil {
		return false
	}
	if r.FieldPath == "" {
		r.FieldPath = "." + s.field.JSONName
	}
	s.parent.props.XValidations = append(s.parent.props.XValidations, r)
	return true
}

func (s *tagSite) lifecycle(component string, l schema.Lifecycle) bool {
	if s.g.opts.StandardOnly || s.g.opts.CRD {
		return false
	}
	if s.target.XAPILifecycle == nil {
		s.target.XAPILifecycle = map[string]schema.Lifecycle{}
	}
	cur := s.target.XAPILifecycle[component]
	if cur.MinVersion == "" {
		cur.MinVersion = l.MinVersion
	}
	// the least mature status wins
	rank := map[string]int{"": 0, "stable": 1, "beta": 2, "alpha": 3, "deprecated": 4}
	if rank[l.Status] > rank[cur.Status] {
		cur.Status = l.Status
	}
	if l.FeatureGate != "" && !strings.Contains(cur.FeatureGate, l.FeatureGate) {
		if cur.FeatureGate != "" {
			cur.FeatureGate += ","
		}
		cur.FeatureGate += l.FeatureGate
	}
	s.target.XAPILifecycle[component] = cur
	return true
}

// setNum sets a numeric keyword when the site's type allows it.
func (s *tagSite) want(t *idl.Tag, types ...string) bool {
	for _, ty := range types {
		if s.typ == ty || s.typ == "" {
			return true
		}
	}
	s.g.report1(t, s, fmt.Sprintf("not applicable to type %q", s.typ))
	return false
}

// apply publishes one tag (and its payload chain) on a site, or reports it.
func (g *gen) apply(t *idl.Tag, s *tagSite) {
	g.report.Seen[posKey(t.Pos)]++
	pub := func() { g.report.published(t.Name) }
	if g.opts.DeclarativeRatcheting && t.Syntax == idl.SyntaxK8s && t.Source == "" && g.wrapped == "" && declarativeValueTags[t.Name] && !g.opts.StandardOnly && !g.opts.CRD {
		// validation-gen's checks, when not wrapped in +k8s:alpha or
		// +k8s:beta (the hand-written check then still decides), ratchet
		// unchanged values on update, unlike the hand-written ones
		// (schema.XRatcheting)
		defer declarativeRatcheting(s)
	}
	switch t.Name {
	// ---- presence (handled by required()) and no-schema tags
	case "optional", "required":
		pub()
	case "genclient", "nonNamespaced", "objectRoot", "resource", "subresourceStatus", "subresourceScale",
		"printColumn", "storageVersion", "skipVersion", "unservedVersion", "deprecatedVersion",
		"selectableField", "metadata", "skip", "groupName", "versionName":
		pub() // kind and CRD metadata, used by Generate and CRDs
	// ---- lifecycle wrappers
	case "alpha", "beta", "ifEnabled", "ifDisabled":
		if g.opts.CRD && t.Name != "ifDisabled" {
			// Lifecycle-wrapped tags are declarative validation of built-in
			// types (metav1.Condition carries them); controller-gen does not
			// publish them, and their rules would break CRD cost limits.
			g.report1(t, s, "lifecycle-wrapped validation-gen tags are not published in CRDs (as controller-gen)")
			return
		}
		g.lifecycleTag(t, s)
	case "featureGate":
		if s.lifecycle("kubernetes", schema.Lifecycle{FeatureGate: t.Value}) {
			pub()
		} else {
			g.report1(t, s, g.noLifecycle())
		}
	case "lifecycle":
		comp, _ := t.Arg("component")
		l := schema.Lifecycle{}
		l.MinVersion, _ = t.Arg("minVersion")
		l.Status, _ = t.Arg("status")
		l.FeatureGate, _ = t.Arg("featureGate")
		if s.lifecycle(comp, l) {
			pub()
		} else {
			g.report1(t, s, g.noLifecycle())
		}
	// ---- value validations
	case "minimum", "maximum":
		if !s.want(t, "integer", "number") {
			return
		}
		v, err := t.Float()
		if err != nil {
			g.errs = append(g.errs, err)
			return
		}
		if t.Name == "minimum" {
			s.target.Minimum = &v
		} else {
			s.target.Maximum = &v
		}
		pub()
	case "exclusiveMinimum", "exclusiveMaximum":
		if !s.want(t, "integer", "number") {
			return
		}
		on := t.Value == "" || t.Value == "true"
		if t.Value != "" && t.Value != "true" && t.Value != "false" {
			v, err := t.Float()
			if err != nil {
				g.errs = append(g.errs, err)
				return
			}
			on = true
			if t.Name == "exclusiveMinimum" {
				s.target.Minimum = &v
			} else {
				s.target.Maximum = &v
			}
		}
		if t.Name == "exclusiveMinimum" {
			s.target.ExclusiveMinimum = on
		} else {
			s.target.ExclusiveMaximum = on
		}
		pub()
	case "multipleOf":
		if !s.want(t, "integer", "number") {
			return
		}
		v, _ := t.Float()
		s.target.MultipleOf = &v
		pub()
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		types := map[string]string{"minLength": "string", "maxLength": "string", "minItems": "array", "maxItems": "array", "minProperties": "object", "maxProperties": "object"}
		if !s.want(t, types[t.Name]) {
			return
		}
		v, err := t.Int()
		if err != nil {
			g.errs = append(g.errs, err)
			return
		}
		switch t.Name {
		case "minLength":
			s.target.MinLength = &v
		case "maxLength":
			s.target.MaxLength = &v
		case "minItems":
			s.target.MinItems = &v
		case "maxItems":
			s.target.MaxItems = &v
		case "minProperties":
			s.target.MinProperties = &v
		case "maxProperties":
			s.target.MaxProperties = &v
		}
		pub()
	case "maxBytes":
		if !s.want(t, "string") {
			return
		}
		v, _ := t.Int()
		// validation-gen: field.TooLong(fldPath, value, max) "may not be more than N bytes"
		s.rule(schema.ValidationRule{Rule: fmt.Sprintf("size(bytes(self)) <= %d", v), Message: fmt.Sprintf("may not be more than %d bytes", v)})
		pub()
	case "uniqueItems":
		if !s.want(t, "array") {
			return
		}
		if g.opts.CRD {
			// apiextensions validation: "uniqueItems cannot be set to true
			// since the runtime complexity becomes quadratic"
			g.report1(t, s, "uniqueItems is forbidden in CRD schemas; use +listType=set")
			return
		}
		s.target.UniqueItems = t.Value != "false"
		pub()
	case "pattern":
		if !s.want(t, "string") {
			return
		}
		s.target.Pattern = t.Value
		pub()
	case "format":
		if !s.want(t, "string") {
			return
		}
		s.target.Format = t.Value
		pub()
	case "type":
		s.target.Type = t.Value
		s.typ = t.Value
		pub()
	case "nullable":
		s.target.Nullable = t.Value != "false"
		pub()
	case "enum":
		if len(t.Args) == 0 && !g.publishEnum(t) {
			g.report1(t, s, "CRDs publish +k8s:enum and +kubebuilder:validation:Enum, not openapi-gen's +enum (as controller-gen)")
			return
		}
		if len(t.Args) > 0 {
			s.target.Enum = nil
			for _, a := range t.Args {
				s.target.Enum = append(s.target.Enum, schema.JSON{Object: enumValue(a.Value, s.typ)})
			}
		}
		// +enum / +k8s:enum without values: the constants of the type
		// (handled by schemaFor when the tag is on a named type).
		if len(t.Args) == 0 && s.field != nil && !s.typeLevel && len(s.target.Enum) == 0 {
			// +k8s:enum on a field: the constants of the field's type.
			vals := fieldConsts(s.field.Type)
			if len(vals) == 0 {
				g.report1(t, s, "+enum on a field whose type declares no string constants")
				return
			}
			for _, v := range vals {
				s.target.Enum = append(s.target.Enum, schema.JSON{Object: v})
			}
		}
		pub()
	case "title":
		v, _, _ := strings.Cut(t.Value, "\n")
		s.target.Title = strings.Trim(v, `"`)
		pub()
	case "default", "example":
		v, err := g.value(t)
		if err != nil {
			g.errs = append(g.errs, err)
			return
		}
		if t.Name == "default" {
			s.target.Default = &schema.JSON{Object: v}
		} else {
			s.target.Example = &schema.JSON{Object: v}
		}
		pub()
	// ---- structural extensions
	case "listType":
		if !s.want(t, "array") {
			return
		}
		s.target.XListType = strPtr(t.Value)
		s.noteUnique(t)
		pub()
	case "listMapKey":
		if !s.want(t, "array") {
			return
		}
		if !containsStr(s.target.XListMapKeys, t.Value) {
			s.target.XListMapKeys = append(s.target.XListMapKeys, t.Value)
		}
		pub()
	case "uniqueKey":
		// x-kubernetes-unique-key (kdv's extension): the hand-written
		// validation's set of names seen in a list (kdv.dev/schema
		// Props.XUniqueKey).
		if !s.want(t, "array") {
			return
		}
		if g.opts.StandardOnly || g.opts.CRD {
			g.report1(t, s, "x-kubernetes-unique-key is not published with --standard-only or in CRDs")
			return
		}
		// several +uniqueKey tags on one list are several keys, each
		// with its own set of values seen (ValidateVolumeDevices: names
		// and device paths), joined by ";"
		switch {
		case s.target.XUniqueKey == "":
			s.target.XUniqueKey = t.Value
		case !containsStr(strings.Split(s.target.XUniqueKey, ";"), t.Value):
			s.target.XUniqueKey += ";" + t.Value
		}
		pub()
	case "noEnum":
		// handled where the type's enum is read (schemaFor)
		pub()
	case "keepZero":
		// kdv's rule overlay: the field's zero value is not stripped
		// (the hand-written validation tells an empty list from a
		// missing one); handled where x-kubernetes-strip-zero is set
		pub()
	case "defaultExpression":
		// x-kubernetes-default-expression (kdv's extension): a default
		// computed by a CEL expression over the parent object
		// (kdv.dev/defaulting DefaultExpressionKey). It is compiled here
		// so that a schema never publishes one defaulting cannot run.
		if _, err := defaulting.CompileDefaultExpression(t.Value); err != nil && !g.opts.StandardOnly && !g.opts.CRD {
			g.report1(t, s, err.Error())
			return
		}
		if g.builtInExtension(t, s, schema.XDefaultExpression, t.Value) {
			pub()
		}
	case "defaultFrom", "skipUpdateValidation", "skipUpdateValidationIfOldInvalid", "skipValidation", "reportedAt", "ratcheting":
		// kdv's extensions of built-in schemas (kdv.dev/schema kdvext.go):
		// a default copied from a sibling (XDefaultFrom), not validated
		// on update (XSkipUpdateValidation), not on an update whose old
		// object does not validate at a path
		// (XSkipUpdateValidationIfOldInvalid), never (XSkipValidation),
		// errors reported at another path (XReportedAt), errors of
		// unchanged values ratcheted on update (XRatcheting)
		var v any = t.Value
		switch t.Name {
		case "skipUpdateValidation", "skipValidation":
			v = true
		case "ratcheting":
			v = t.Value != "false"
		}
		if g.builtInExtension(t, s, builtInExtensions[t.Name], v) {
			pub()
		}
	case "mapType", "structType":
		if !s.want(t, "object") {
			return
		}
		s.target.XMapType = strPtr(t.Value)
		pub()
	case "unique":
		if !s.want(t, "array") {
			return
		}
		s.noteUnique(t)
		switch {
		case s.target.XListType == nil:
			s.target.XListType = strPtr(t.Value)
		case *s.target.XListType == t.Value:
		case t.Value == "map" && !g.opts.StandardOnly && !g.opts.CRD:
			// validation-gen's ValSliceUnique on the list-map keys,
			// reported per item: x-kubernetes-unique-key once the keys are
			// known (finishUnique)
			s.uniqueMap = true
		default:
			s.rule(uniqueRule(t.Value, s.target.XListMapKeys))
		}
		pub()
	case "preserveUnknownFields":
		b := true
		s.target.XPreserveUnknownFields = &b
		pub()
	case "embeddedResource":
		s.target.XEmbeddedResource = true
		pub()
	case "intOrString":
		s.target.XIntOrString = true
		s.target.Type = ""
		pub()
	case "schemaless":
		*s.target = schema.Props{Description: s.target.Description}
		pub()
	case "patchStrategy", "patchMergeKey":
		if g.opts.CRD {
			g.report1(t, s, "x-kubernetes-patch-* are not allowed in CRD schemas")
			return
		}
		if s.target.Extra == nil {
			s.target.Extra = map[string]any{}
		}
		key := map[string]string{"patchStrategy": "x-kubernetes-patch-strategy", "patchMergeKey": "x-kubernetes-patch-merge-key"}[t.Name]
		s.target.Extra[key] = t.Value
		pub()
	// ---- CEL
	case "validationRule":
		r := schema.ValidationRule{}
		r.Rule, _ = t.Arg("rule")
		r.Message, _ = t.Arg("message")
		r.MessageExpression, _ = t.Arg("messageExpression")
		if v, ok := t.Arg("reason"); ok {
			r.Reason = reasonName(v)
		}
		if v, ok := t.Arg("fieldPath"); ok {
			// "-" and "- as .x" (no value), "'' as .x" and "'key' as .x"
			// (a literal string reported at .x): kdv.dev/cel built-in
			// rules, kept as written
			if v != "-" && !strings.HasPrefix(v, "- as .") && !strings.HasPrefix(v, ".") && !strings.HasPrefix(v, "[") && !strings.HasPrefix(v, "'") {
				v = "." + v
			}
			r.FieldPath = v
		}
		if v, ok := t.Arg("optionalOldSelf"); ok {
			b := v == "true"
			r.OptionalOldSelf = &b
		}
		if _, ok := t.Arg("diff"); !ok {
			for _, arg := range []string{"diffKeep", "diffFill", "diffOnly", "diffSince"} {
				if _, ok := t.Arg(arg); ok {
					g.report1(t, s, arg+" needs diff")
					return
				}
			}
		}
		if d, ok := t.Arg("diff"); ok {
			// x-kubernetes-diff (kdv's extension, schema.RuleDiff): the
			// hand-written message ends with a diff of the old and new
			// values, after copying the updatable fields across
			if g.opts.CRD || g.opts.StandardOnly {
				g.report1(t, s, "x-kubernetes-diff is kdv's extension of built-in kinds: not published in CRDs or with --standard-only")
				return
			}
			r.Diff = &schema.RuleDiff{Path: d}
			r.Diff.Since, _ = t.Arg("diffSince")
			for arg, out := range map[string]*[]string{"diffKeep": &r.Diff.Keep, "diffFill": &r.Diff.Fill, "diffOnly": &r.Diff.Only} {
				if v, ok := t.Arg(arg); ok && v != "" {
					for _, p := range splitTopLevel(v) {
						*out = append(*out, strings.TrimSpace(p))
					}
				}
			}
		}
		s.rule(r)
		pub()
	case "validationError":
		// x-kubernetes-validation-errors (kdv's extension, KEP-4153's
		// custom error messages): the apiserver's wording for a value
		// validation whose default wording differs.
		if g.opts.StandardOnly {
			g.report1(t, s, "x-kubernetes-validation-errors is not published with --standard-only")
			return
		}
		kw, _ := t.Arg("keyword")
		ve := schema.ValidationError{}
		ve.Message, _ = t.Arg("message")
		if v, ok := t.Arg("reason"); ok {
			ve.Reason = v
		}
		if v, ok := t.Arg("at"); ok {
			if v != "list" {
				g.report1(t, s, fmt.Sprintf("validationError at=%q: only \"list\" is known", v))
				return
			}
			ve.At = v
		}
		if s.target.XValidationErrors == nil {
			s.target.XValidationErrors = map[string]schema.ValidationError{}
		}
		s.target.XValidationErrors[kw] = ve
		pub()
	case "immutable":
		// validate.Immutable: field.Invalid(fldPath, nil, "field is immutable")
		// on any change, including set and unset. Changes of a present
		// value are checked on the field; presence changes on the parent.
		// Under +k8s:alpha the declarative check does not run by default:
		// the hand-written ValidateImmutableField reports instead, with
		// the new value (`type: Invalid value: "foo.io/bar": field is
		// immutable`), as a rule with a reason prints it.
		r := schema.ValidationRule{Rule: "self == oldSelf", Message: "field is immutable"}
		pr := schema.ValidationRule{Rule: fmt.Sprintf("has(self.%s) == has(oldSelf.%s)", s.jsonName(), s.jsonName()), Message: "field is immutable"}
		if g.wrapped == "alpha" {
			r.Reason, pr.Reason = strPtr("FieldValueInvalid"), strPtr("FieldValueInvalid")
		}
		s.rule(r)
		s.parentRule(pr)
		pub()
	case "update":
		g.update(t, s)
	case "monotonic":
		if !s.want(t, "integer", "number") {
			return
		}
		// validate.Monotonic: "may not be decreased from <old>"
		if g.opts.CRD {
			// string(oldSelf) has no static size bound: the CRD cost
			// estimator rejects it; keep the message constant.
			s.rule(schema.ValidationRule{Rule: "self >= oldSelf", Message: "may not be decreased"})
		} else {
			s.rule(schema.ValidationRule{Rule: "self >= oldSelf", MessageExpression: "'may not be decreased from ' + string(oldSelf)"})
		}
		pub()
	case "dependentRequired", "dependentForbidden":
		dep := t.Args[0].Value
		r := schema.ValidationRule{FieldPath: "." + dep}
		if t.Name == "dependentRequired" {
			r.Rule = fmt.Sprintf("!has(self.%s) || has(self.%s)", s.jsonName(), dep)
			r.Message = fmt.Sprintf("must be set when %s is set", s.jsonName())
			r.Reason = strPtr("FieldValueRequired")
		} else {
			r.Rule = fmt.Sprintf("!has(self.%s) || !has(self.%s)", s.jsonName(), dep)
			r.Message = fmt.Sprintf("may not be set when %s is set", s.jsonName())
			r.Reason = strPtr("FieldValueForbidden")
		}
		if !s.parentRule(r) {
			g.report1(t, s, "only valid on struct fields")
			return
		}
		pub()
	// ---- unions
	case "unionMember", "unionDiscriminator", "zeroOrOneOfMember":
		g.unionTag(t, s)
	case "exactlyOneOf", "atMostOneOf", "atLeastOneOf":
		var fields []string
		for _, a := range t.Args {
			fields = append(fields, a.Value)
		}
		s.rule(oneOfRule(t.Name, fields))
		pub()
	case "union":
		if s.parent == nil || !s.typeLevel {
			g.report1(t, s, "+union belongs on a struct type")
			return
		}
		if g.opts.CRD {
			g.report1(t, s, "x-kubernetes-unions is not allowed in CRD schemas")
			return
		}
		s.parent.openapiUnion = true
		pub()
	case "unionDeprecated":
		g.report1(t, s, "openapi-gen deprecated union members are not modelled")
	case "oneOf", "zeroOrOneOf":
		g.report1(t, s, "documentation marker of a field group; not enforced through the schema")
	// ---- nested targets
	case "eachVal":
		var inner *schema.Props
		switch {
		case s.target.Items != nil && s.target.Items.Schema != nil:
			inner = s.target.Items.Schema
		case s.target.AdditionalProperties != nil && s.target.AdditionalProperties.Schema != nil:
			inner = s.target.AdditionalProperties.Schema
		default:
			g.report1(t, s, "eachVal on a value that is not a list or map")
			return
		}
		pub()
		sub := s.sub(inner, typeOf(inner))
		g.applyNested(t.Payload, sub, func() { fixRefSiblings(inner) })
	case "subfield":
		name := t.Args[0].Value
		if s.target.Properties == nil {
			s.target.Properties = map[string]schema.Props{}
		}
		p := s.target.Properties[name]
		sub := s.sub(&p, "")
		pub()
		g.apply(t.Payload, sub)
		s.target.Properties[name] = p
	case "eachKey":
		g.eachKey(t, s)
	case "item":
		if leaf := t.Payload; leaf != nil && (leaf.Name == "zeroOrOneOfMember" || leaf.Name == "unionMember") {
			g.itemUnion(t, s)
			return
		}
		g.report1(t, s, "item(...) with this payload is not implemented")
	// ---- validation-gen directives without schema form
	case "customValidation":
		g.report1(t, s, "hand-written validation code; cannot be published")
	case "opaqueType":
		g.report1(t, s, "validation-gen code generation directive (stop descending into the type); no schema effect")
	case "customUnique":
		g.report1(t, s, "uniqueness checked by hand-written code; cannot be published")
	case "forbidden":
		g.report1(t, s, "unconditional +k8s:forbidden is not implemented")
	case "modeDiscriminator", "ifMode":
		g.modeTag(t, s)
	case "neq", "enumExclude":
		g.report1(t, s, "not implemented")
	default:
		g.report1(t, s, "tag has no schema mapping")
	}
}

// lifecycleTag publishes +k8s:alpha/beta(since) and +k8s:ifEnabled as
// x-kubernetes-api-lifecycle and applies their payload; +k8s:ifDisabled
// payloads are reported. All three are about a declarative validation
// rule, not the field: its "declarative-validation" entry carries them
// (+k8s:ifEnabled(HPAScaleToZero)=+k8s:minimum=0 lets minReplicas be 0
// when the gate is on; the field exists either way), while the
// "kubernetes" entry says whether the field itself is gated (+featureGate,
// +lifecycle), which the apiserver drops when its gate is off.
func (g *gen) lifecycleTag(t *idl.Tag, s *tagSite) {
	var l schema.Lifecycle
	component := "declarative-validation"
	switch t.Name {
	case "ifDisabled":
		g.report1(t, s, "applies only while a feature gate is disabled; the schema describes the API with its gates enabled")
		return
	case "ifEnabled":
		l.FeatureGate = t.Args[0].Value
	default:
		since, _ := t.Arg("since")
		l = schema.Lifecycle{MinVersion: "v" + since, Status: t.Name}
	}
	if s.lifecycle(component, l) {
		g.report.published(t.Name)
	} else {
		g.report.reported(t.Name, t.Pos, t.Text, s.name(), g.noLifecycle())
	}
	outer := g.wrapped
	g.wrapped = t.Name
	g.apply(t.Payload, s)
	g.wrapped = outer
}

// noteUnique records a validation-gen list type or unique tag of set or
// map that the apiserver enforces by default: not wrapped in +k8s:alpha,
// +k8s:beta or +k8s:ifEnabled, whose rules do not run under default
// feature gates.
func (s *tagSite) noteUnique(t *idl.Tag) {
	if t.Syntax == idl.SyntaxK8s && s.g.wrapped == "" && (t.Value == "set" || t.Value == "map") {
		s.uniqueEnforced = true
	}
}

// finishUnique publishes a validation-gen +k8s:unique=map on an atomic list
// (validate.ValSliceUnique comparing the list-map keys: every later item
// whose keys equal an earlier one's is a field.Duplicate at list[i], the
// item its value) as x-kubernetes-unique-key naming the keys as a tuple
// ("name," for one key: kdv.dev/validation reports a tuple at the item).
// Without keys, or with a +uniqueKey of the overlay already there, it is a
// rule on the whole list, as before.
func (s *tagSite) finishUnique() {
	if !s.uniqueMap {
		return
	}
	keys := s.target.XListMapKeys
	if len(keys) == 0 || s.target.XUniqueKey != "" {
		s.rule(uniqueRule("map", keys))
		return
	}
	k := strings.Join(keys, ",")
	if len(keys) == 1 {
		k += ","
	}
	s.target.XUniqueKey = k
}

// markListUnique publishes x-kubernetes-list-unique: false on a set or map
// list whose uniqueness no enforced validation-gen tag declares (see
// Options.ListUniqueFromTags).
func (s *tagSite) markListUnique() {
	lt := s.target.XListType
	if !s.g.opts.ListUniqueFromTags || s.uniqueEnforced || lt == nil || (*lt != "set" && *lt != "map") {
		return
	}
	f := false
	s.target.XListUnique = &f
}

// applyNested applies a payload to a nested schema and then fixes $ref
// siblings.
func (g *gen) applyNested(t *idl.Tag, s *tagSite, after func()) {
	g.apply(t, s)
	after()
}

// fixRefSiblings wraps a {$ref} that received sibling keywords into
// allOf: [{$ref}] as the apiserver publishes.
func fixRefSiblings(p *schema.Props) {
	if p.Ref == nil {
		return
	}
	ref := *p.Ref
	p.Ref = nil
	p.AllOf = append([]schema.Props{{Ref: &ref}}, p.AllOf...)
}

func typeOf(p *schema.Props) string {
	if p.Ref != nil || len(p.AllOf) > 0 {
		return "object"
	}
	return p.Type
}

// splitTopLevel splits a diffKeep list at the commas outside parentheses,
// brackets, braces and quotes: an entry's CEL condition ("<path> if
// <expression>") may hold commas.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// declarativeValueTags are the value validations of validation-gen (+k8s:
// tags of k8s.io/api, not of the rule overlay), whose checks ratchet on
// update: k8s.io/apimachinery pkg/api/validate skips an unchanged value
// (operation.Update with equal old and new values).
var declarativeValueTags = map[string]bool{
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "minProperties": true, "maxProperties": true,
	"pattern": true, "format": true, "enum": true,
}

// declarativeRatcheting marks the site of a validation-gen value
// validation as ratcheting, unless the overlay said otherwise.
func declarativeRatcheting(s *tagSite) {
	if s.target == nil {
		return
	}
	if _, set := s.target.Extra[schema.XRatcheting]; set {
		return
	}
	if s.target.Extra == nil {
		s.target.Extra = map[string]any{}
	}
	s.target.Extra[schema.XRatcheting] = true
}

// builtInExtensions are the x-kubernetes-* keys of kdv's built-in-only
// tags (kdv.dev/schema kdvext.go), by tag name.
var builtInExtensions = map[string]string{
	"defaultFrom":                      schema.XDefaultFrom,
	"skipUpdateValidation":             schema.XSkipUpdateValidation,
	"skipUpdateValidationIfOldInvalid": schema.XSkipUpdateValidationIfOldInvalid,
	"skipValidation":                   schema.XSkipValidation,
	"reportedAt":                       schema.XReportedAt,
	"ratcheting":                       schema.XRatcheting,
}

// builtInExtension sets extension key to v on the tag's target, unless
// the generator writes standard OpenAPI or a CRD, where the apiserver
// knows no such key: then it reports the tag as not published and returns
// false.
func (g *gen) builtInExtension(t *idl.Tag, s *tagSite, key string, v any) bool {
	if g.opts.StandardOnly || g.opts.CRD {
		g.report1(t, s, key+" is not published with --standard-only or in CRDs")
		return false
	}
	if s.target.Extra == nil {
		s.target.Extra = map[string]any{}
	}
	s.target.Extra[key] = v
	return true
}
