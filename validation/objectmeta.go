package validation

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"kdv.dev/value"
)

// declarativeBeta is the default of the apiserver's DeclarativeValidationBeta
// feature gate at Kubernetes 1.37.
const declarativeBeta = true

// generatedSuffix stands in for the five random characters the apiserver
// appends to generateName before validating (names.SimpleNameGenerator).
const generatedSuffix = "bcdfg"

// generatedName is the name the apiserver gives an object created with
// generateName base: base cut to names.MaxGeneratedNameLength bytes (58),
// then five random characters (names.SimpleNameGenerator.GenerateName), so
// a long base never makes the name too long.
func generatedName(base string) string {
	if len(base) > names.MaxGeneratedNameLength {
		base = base[:names.MaxGeneratedNameLength]
	}
	return base + generatedSuffix
}

// generatedUUID stands in for the UUID a registry names an unnamed object
// with (Options.NameGeneratedOnCreate).
const generatedUUID = "6ba7b810-9dad-41d1-80b4-00c04fd430c8"

// typeMeta mirrors customResourceValidator.ValidateTypeMeta
// (apiextensions-apiserver pkg/registry/customresource/validator.go): kind
// and apiVersion must be the served ones. The apiserver returns only these
// errors when there are any.
func (v *Validator) typeMeta(obj value.Value) field.ErrorList {
	if v.opts.Kind == "" && v.opts.APIVersion == "" {
		return nil
	}
	str := func(k string) string {
		x, _ := obj.Get(k)
		return x.Str()
	}
	var errs field.ErrorList
	if v.opts.Kind != "" {
		if k := str("kind"); k != v.opts.Kind {
			errs = append(errs, field.Invalid(field.NewPath("kind"), k, fmt.Sprintf("must be %v", v.opts.Kind)))
		}
	}
	if v.opts.APIVersion != "" {
		if a := str("apiVersion"); a != v.opts.APIVersion {
			errs = append(errs, field.Invalid(field.NewPath("apiVersion"), a, fmt.Sprintf("must be %v", v.opts.APIVersion)))
		}
	}
	return errs
}

// rootMeta mirrors validateObjectMetaDeclaratively and its update variant
// (validator.go): the root's metadata decoded to metav1.ObjectMeta and
// validated with the name rule on create (Options.NameValidation, by default
// the custom resources' DNS subdomain), and on update with the generic
// checks of rest.ValidateUpdate (path-segment name, finalizers, ...)
// followed by the update rules (immutable name, namespace, ...). common are
// the generic checks, which the apiserver runs outside the strategy: they
// come first and do not keep CEL rules from running.
func (v *Validator) rootMeta(ctx context.Context, obj, old value.Value, update bool) (common, errs field.ErrorList) {
	if v.metaFastValid(obj, old, update) {
		return nil, nil
	}
	common, errs = v.rootMetaSlow(ctx, obj, old, update)
	if len(common)+len(errs) > 1 {
		if meta, merrs := rootObjectMeta(obj); len(merrs) == 0 {
			p := field.NewPath("metadata")
			common, errs = inKeyOrder(common, meta, p), inKeyOrder(errs, meta, p)
		}
	}
	return common, errs
}

// rootMetaSlow is rootMeta through apimachinery's ObjectMeta validation.
func (v *Validator) rootMetaSlow(ctx context.Context, obj, old value.Value, update bool) (common, errs field.ErrorList) {
	meta, errs := rootObjectMeta(obj)
	if len(errs) > 0 {
		return nil, errs
	}
	if meta.Name == "" && meta.GenerateName != "" && !update {
		meta.Name = generatedName(meta.GenerateName)
	}
	if meta.Name == "" && !update && v.opts.NameGeneratedOnCreate {
		// the registry's PrepareForCreate sets a random UUID
		meta.Name = generatedUUID
	}
	namespaced := meta.Namespace != ""
	if v.opts.Namespaced != nil {
		namespaced = *v.opts.Namespaced
	}
	p := field.NewPath("metadata")
	if !update {
		var nameFn metavalidation.ValidateNameFunc = metavalidation.NameIsDNSSubdomain
		if v.opts.NameValidation != nil {
			nameFn = v.opts.NameValidation
		}
		return nil, metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, namespaced, nameFn, p, declarativeBeta)
	}
	oldMeta, errs := rootObjectMeta(old)
	if len(errs) > 0 {
		return nil, errs
	}
	// rest.ValidateUpdate runs validateCommonFields before the strategy:
	// the create-time ObjectMeta checks with a path-segment name rule
	// (finalizer names, generateName, namespace, ...) and the update
	// checks, which the strategy's own update validation then repeats, so
	// the apiserver's causes list those errors twice (k8s.io/apiserver
	// pkg/registry/rest/update.go).
	common = metavalidation.ValidateObjectMetaAccessor(meta, namespaced, validatePathSegment, p)
	common = append(common, metavalidation.ValidateObjectMetaAccessorUpdate(meta, oldMeta, p)...)
	errs = metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Update, meta, oldMeta, namespaced, nil, p, declarativeBeta)
	if v.opts.MetaOnUpdate {
		nameFn := metavalidation.ValidateNameFunc(metavalidation.NameIsDNSSubdomain)
		if v.opts.NameValidation != nil {
			nameFn = v.opts.NameValidation
		}
		errs = append(errs, metavalidation.ValidateObjectMetaAccessor(meta, namespaced, nameFn, p)...)
	}
	if v.opts.IgnoreResourceVersion {
		common, errs = withoutResourceVersion(common), withoutResourceVersion(errs)
	}
	return common, errs
}

// withoutResourceVersion drops the errors about metadata.resourceVersion
// (Options.IgnoreResourceVersion).
func withoutResourceVersion(errs field.ErrorList) field.ErrorList {
	out := errs[:0]
	for _, e := range errs {
		if e.Field != "metadata.resourceVersion" {
			out = append(out, e)
		}
	}
	return out
}

// rootObjectMeta is getObjectMeta (validator.go).
func rootObjectMeta(obj value.Value) (*metav1.ObjectMeta, field.ErrorList) {
	raw, ok := obj.Get("metadata")
	if !ok || raw.Kind() == value.KindNull {
		return &metav1.ObjectMeta{}, nil
	}
	u := raw.Unstructured()
	m, ok := u.(map[string]any)
	if !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u, fmt.Sprintf("expected map[string]interface{}, got %T", u))}
	}
	meta := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, meta); err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u, err.Error())}
	}
	return meta, nil
}

// embedded mirrors apiextensions-apiserver pkg/apiserver/schema/objectmeta
// Validate with isResourceRoot false: every x-kubernetes-embedded-resource
// object needs a string apiVersion and kind, and valid metadata (names as
// path segments, namespace checked only when set).
func (v *Validator) embedded(ctx context.Context, obj value.Value) field.ErrorList {
	return embeddedWalk(ctx, v.opts.FieldPath, v.root, obj, 0)
}

func embeddedWalk(ctx context.Context, p *field.Path, n *node, x value.Value, depth int) field.ErrorList {
	if n == nil || !n.metaBelow || depth > maxValueDepth {
		return nil
	}
	var errs field.ErrorList
	switch x.Kind() {
	case value.KindMap:
		if n.embedded {
			errs = append(errs, embeddedResource(ctx, p, x)...)
		}
		for i := range n.props {
			pr := &n.props[i]
			if y, ok := x.Get(pr.name); ok && pr.n.metaBelow {
				errs = append(errs, embeddedWalk(ctx, p.Child(pr.name), pr.n, y, depth+1)...)
			}
		}
		if n.additional != nil && n.additional.metaBelow {
			var keys []string
			x.Range(func(k string, _ value.Value) bool {
				if _, ok := n.propIdx[k]; !ok {
					keys = append(keys, k)
				}
				return true
			})
			sort.Strings(keys)
			for _, k := range keys {
				y, _ := x.Get(k)
				errs = append(errs, embeddedWalk(ctx, p.Key(k), n.additional, y, depth+1)...)
			}
		}
	case value.KindList:
		for i := 0; i < x.Len(); i++ {
			errs = append(errs, embeddedWalk(ctx, p.Index(i), n.items, x.Index(i), depth+1)...)
		}
	}
	return errs
}

func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// embeddedResource is validateEmbeddedResource (objectmeta/validation.go).
func embeddedResource(ctx context.Context, p *field.Path, x value.Value) field.ErrorList {
	var errs field.ErrorList
	av, hasAV := x.Get("apiVersion")
	kv, hasKind := x.Get("kind")
	if !hasAV {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	}
	if !hasKind {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	if hasAV {
		if av.Kind() != value.KindString {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), av.Unstructured(), "must be a string"))
		} else if s := av.Str(); s == "" {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), s, "must not be empty"))
		} else if _, err := schema.ParseGroupVersion(s); err != nil {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), s, err.Error()))
		}
	}
	if hasKind {
		if kv.Kind() != value.KindString {
			errs = append(errs, field.Invalid(p.Child("kind"), kv.Unstructured(), "must be a string"))
		} else if s := kv.Str(); s == "" {
			errs = append(errs, field.Invalid(p.Child("kind"), s, "must not be empty"))
		} else if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("kind"), s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	if mv, ok := x.Get("metadata"); ok {
		u := mv.Unstructured()
		meta := &metav1.ObjectMeta{}
		b, err := utiljson.Marshal(u)
		if err == nil {
			err = utiljson.Unmarshal(b, meta)
		}
		if err != nil {
			errs = append(errs, field.Invalid(p.Child("metadata"), u, err.Error()))
		} else {
			if meta.Name == "" {
				meta.Name = "fakename"
			}
			merrs := metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, meta.Namespace != "", validatePathSegment, p.Child("metadata"), declarativeBeta)
			errs = append(errs, inKeyOrder(merrs, meta, p.Child("metadata"))...)
		}
	}
	return errs
}
