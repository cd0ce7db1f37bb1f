package resource

import (
	"sync"

	"context"
	"maps"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
	"kdv.dev/validation"
)

// oldInvalidSkip carries a built-in kind's properties marked
// x-kubernetes-skip-update-validation-if-old-invalid: on an update whose
// old object, validated as a create, has an error at or below one of the
// old paths, the object is validated with skipping, the kind's validator
// compiled from a schema whose marked properties are not validated on
// update. It mirrors ValidateStatefulSetUpdate (k8s.io/kubernetes
// pkg/apis/apps/validation), which sets SkipValidatePodTemplateSpec when
// ValidateStatefulSetSpec of the old spec reports anything, so that a
// stored StatefulSet that no longer validates can still be updated.
type oldInvalidSkip struct {
	// old are the paths (as field.Path prints them) whose errors in the
	// old object turn the skip on
	old []string
	// skipping is compiled from schema on the first update that needs it
	// (most runs have none): it compiles as the plain validator did, the
	// same schema with skip marks, so its error is not expected; should it
	// come, the plain validator is used.
	schema   *schema.Structural
	opts     validation.Options
	once     sync.Once
	skipping *validation.Validator
}

// skipSite is one marked property: its path of property names from the
// root and the old object's path its skip depends on.
type skipSite struct {
	prop []string
	old  string
}

// skipIfOldInvalidSites returns the properties of s, reached from the root
// through properties only, that carry XSkipUpdateValidationIfOldInvalid.
func skipIfOldInvalidSites(s *schema.Structural) []skipSite {
	var out []skipSite
	var walk func(s *schema.Structural, at []string)
	walk = func(s *schema.Structural, at []string) {
		for name, p := range s.Properties {
			path := append(append([]string(nil), at...), name)
			if old := p.SkipsUpdateValidationIfOldInvalid(); old != "" {
				out = append(out, skipSite{prop: path, old: old})
			}
			walk(&p, path)
		}
	}
	if s != nil {
		walk(s, nil)
	}
	return out
}

// withSkippedOnUpdate returns s with the property at path marked
// x-kubernetes-skip-update-validation, copying only the nodes on the way
// (the rest is shared with s, which is left as it was).
func withSkippedOnUpdate(s *schema.Structural, path []string) *schema.Structural {
	c := *s
	if len(path) == 0 {
		c.XOther = maps.Clone(c.XOther)
		if c.XOther == nil {
			c.XOther = map[string]any{}
		}
		c.XOther[schema.XSkipUpdateValidation] = true
		return &c
	}
	child, ok := s.Properties[path[0]]
	if !ok {
		return s
	}
	c.Properties = maps.Clone(s.Properties)
	c.Properties[path[0]] = *withSkippedOnUpdate(&child, path[1:])
	return &c
}

// newOldInvalidSkip prepares the skipping validator of a schema with
// marked properties (nil when it has none) with the kind's options; it is
// compiled when first needed.
func newOldInvalidSkip(s *schema.Structural, opts validation.Options) (*oldInvalidSkip, error) {
	sites := skipIfOldInvalidSites(s)
	if len(sites) == 0 {
		return nil, nil
	}
	out := &oldInvalidSkip{opts: opts}
	for _, site := range sites {
		s = withSkippedOnUpdate(s, site.prop)
		out.old = append(out.old, site.old)
	}
	out.schema = s
	return out, nil
}

// validator returns the validator of an update of old: skipping when
// plain, validating old as a create, reports an error at or below one of
// the old paths, else plain.
func (o *oldInvalidSkip) validator(ctx context.Context, plain *validation.Validator, old map[string]any) *validation.Validator {
	if o == nil || old == nil {
		return plain
	}
	errs := plain.Validate(ctx, old, nil)
	for _, p := range o.old {
		if errorAtOrBelow(errs, p) {
			o.once.Do(func() { o.skipping, _ = validation.New(o.schema, o.opts) })
			if o.skipping == nil {
				return plain
			}
			return o.skipping
		}
	}
	return plain
}

// errorAtOrBelow reports whether errs has an error at path p or below it.
func errorAtOrBelow(errs field.ErrorList, p string) bool {
	for _, e := range errs {
		if e.Field == p || strings.HasPrefix(e.Field, p+".") || strings.HasPrefix(e.Field, p+"[") {
			return true
		}
	}
	return false
}
