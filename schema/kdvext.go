package schema

// Extensions of kdv's built-in schemas kept in Structural.XOther (their
// values are plain JSON): they declare what k8s.io/kubernetes's Go code does
// around validation, which no standard keyword says. The generator
// publishes them only for built-in kinds, never with --standard-only or in
// CRDs.
const (
	// XDefaultFrom (a property name) defaults a property to a copy of its
	// sibling's value when it is missing, null, 0 or "" (kdv.dev/defaulting).
	XDefaultFrom = "x-kubernetes-default-from"
	// XDefaultExpression (a CEL expression over the parent object, self)
	// defaults a missing property to the expression's value
	// (kdv.dev/defaulting DefaultExpressionKey): the Go defaulters that
	// compute a default from other fields (SetDefaults_Container's
	// imagePullPolicy from the image's tag).
	XDefaultExpression = "x-kubernetes-default-expression"
	// XSkipUpdateValidation (true, on a property) leaves its value, and
	// everything below it, unvalidated on update: no schema keyword, list
	// type or rule at or below it is checked (kdv.dev/validation,
	// kdv.dev/cel). The hand-written update validation of some kinds only
	// checks that such a field did not change (ValidateResourceClaimUpdate:
	// "The spec is immutable. On update, we only check for immutability"),
	// which a rule of the parent declares.
	XSkipUpdateValidation = "x-kubernetes-skip-update-validation"
	// XSkipValidation (true, on a property) leaves its value, and
	// everything below it, unvalidated on create and update alike: a
	// release whose hand-written validation does not look there (1.30 to
	// 1.33 validate no StatefulSet pod template beyond its labels) puts it
	// on the property for that release only (an overlay "releases" line).
	XSkipValidation = "x-kubernetes-skip-validation"
	// XReportedAt (a path as field.Path prints it, from the object's root,
	// on a property reached from the root through properties only) reports
	// every error at or below the property at that path instead: the
	// hand-written validation of some kinds names another path than the
	// value's (ValidateNode checks spec.taints at metadata.taints, the
	// path of the taints annotation of old), so schema keywords, list
	// types and rules alike report there (kdv.dev/validation).
	XReportedAt = "x-kubernetes-reported-at"
	// XSkipUpdateValidationIfOldInvalid (a path as field.Path prints it,
	// from the object's root, on a property reached from the root through
	// properties only) leaves the property, and everything below it,
	// unvalidated on an update whose old object, validated as a create,
	// has an error at or below that path (kdv.dev/resource): the
	// hand-written update validation of some kinds tolerates a stored
	// object that no longer validates by skipping part of the new one
	// (ValidateStatefulSetUpdate skips the new pod template when the old
	// spec has errors, "to tolerate the existing sts").
	XSkipUpdateValidationIfOldInvalid = "x-kubernetes-skip-update-validation-if-old-invalid"
	// XRatcheting (a boolean, on a property) says whether an update
	// ratchets the errors of values it left unchanged at and below the
	// property (they become warnings, KEP-4008), until a property below
	// says otherwise. A custom resource's validation ratchets everywhere;
	// a built-in kind's ratchets nowhere unless a property carries true
	// (kdv.dev/validation Options.BuiltIn): the hand-written update
	// validation (ValidateDeploymentUpdate, ValidateServiceUpdate, ...)
	// checks the whole new object again, so a stored object that breaks a
	// rule fails every update, except where the code checks a field only
	// when it changed or loosens a check for an old object that already
	// breaks it (ValidateEndpointsUpdate, the CSR update options), and
	// where validation-gen's declarative validation, which ratchets
	// unchanged values, replaced the hand-written check.
	XRatcheting = "x-kubernetes-ratcheting"
)

// Ratchets reports whether errors of unchanged values at s ratchet on
// update (XRatcheting): s's own setting, else inherited, the parent's.
func (s *Structural) Ratchets(inherited bool) bool {
	if s == nil {
		return inherited
	}
	if b, ok := s.XOther[XRatcheting].(bool); ok {
		return b
	}
	return inherited
}

// SkipsUpdateValidationIfOldInvalid returns the path of s's
// XSkipUpdateValidationIfOldInvalid, "" when s has none.
func (s *Structural) SkipsUpdateValidationIfOldInvalid() string {
	if s == nil {
		return ""
	}
	p, _ := s.XOther[XSkipUpdateValidationIfOldInvalid].(string)
	return p
}

// ReportedAt returns the path s's errors are reported at (XReportedAt), ""
// for its own.
func (s *Structural) ReportedAt() string {
	if s == nil {
		return ""
	}
	p, _ := s.XOther[XReportedAt].(string)
	return p
}

// SkipsValidation reports whether s carries XSkipValidation.
func (s *Structural) SkipsValidation() bool {
	if s == nil {
		return false
	}
	b, _ := s.XOther[XSkipValidation].(bool)
	return b
}

// SkipsUpdateValidation reports whether s carries XSkipUpdateValidation.
func (s *Structural) SkipsUpdateValidation() bool {
	if s == nil {
		return false
	}
	b, _ := s.XOther[XSkipUpdateValidation].(bool)
	return b
}

// dropBuiltInExtensions removes XDefaultFrom, XDefaultExpression,
// XSkipUpdateValidation, XSkipUpdateValidationIfOldInvalid, XSkipValidation,
// XRatcheting and XReportedAt, and the rules'
// x-kubernetes-diff, from a CRD's structural schema: apiextensions.k8s.io/v1 has no such
// keys, so the apiserver refuses or prunes them from a CRD (the unknown
// field checks report them), and kdv must not act on them there.
func dropBuiltInExtensions(s *Structural) {
	if s == nil {
		return
	}
	delete(s.XOther, XDefaultFrom)
	delete(s.XOther, XDefaultExpression)
	delete(s.XOther, XSkipUpdateValidation)
	delete(s.XOther, XSkipUpdateValidationIfOldInvalid)
	delete(s.XOther, XSkipValidation)
	delete(s.XOther, XRatcheting)
	for i := range s.XValidations {
		if s.XValidations[i].Diff != nil {
			// a copy: the slice may be shared with the Props decoded
			s.XValidations = append([]ValidationRule(nil), s.XValidations...)
			for j := range s.XValidations {
				s.XValidations[j].Diff = nil
			}
			break
		}
	}
	delete(s.XOther, XReportedAt)
	dropBuiltInExtensions(s.Items)
	for k, p := range s.Properties {
		dropBuiltInExtensions(&p)
		s.Properties[k] = p
	}
	if s.AdditionalProperties != nil {
		dropBuiltInExtensions(s.AdditionalProperties.Structural)
	}
}
