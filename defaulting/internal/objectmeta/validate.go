// Package objectmeta validates the TypeMeta and ObjectMeta of embedded
// resources in unstructured values, for checking defaults. It mirrors
// objectmeta.Validate of k8s.io/apiextensions-apiserver
// (pkg/apiserver/schema/objectmeta/validation.go).
package objectmeta

import (
	"context"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// declarativeBeta is the default of the apiserver's
// DeclarativeValidationBeta feature gate in Kubernetes 1.37.
const declarativeBeta = true

// Validate checks apiVersion, kind and metadata of every
// x-kubernetes-embedded-resource object in obj (and of obj itself when
// isResourceRoot): apiVersion and kind are required, strings, non-empty,
// a parseable group/version and a DNS-1035 label (mixed case allowed);
// metadata must decode into ObjectMeta and pass ObjectMeta validation for
// create, with "fakename" standing in for an empty name. Fields are visited
// in sorted order, so errors come in a stable order (the apiserver's follows
// map iteration).
func Validate(ctx context.Context, pth *field.Path, obj any, s *schema.Structural, isResourceRoot bool) field.ErrorList {
	if isResourceRoot {
		if s == nil {
			s = &schema.Structural{}
		}
		if !s.XEmbeddedResource {
			c := *s
			c.XEmbeddedResource = true
			s = &c
		}
	}
	return validate(ctx, pth, obj, s)
}

func validate(ctx context.Context, pth *field.Path, x any, s *schema.Structural) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]any:
		if s.XEmbeddedResource {
			errs = append(errs, embeddedResource(ctx, pth, x)...)
		}
		for _, k := range slices.Sorted(maps.Keys(x)) { // deterministic order
			v := x[k]
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, validate(ctx, pth.Child(k), v, &prop)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, validate(ctx, pth.Key(k), v, s.AdditionalProperties.Structural)...)
			}
		}
	case []any:
		for i, v := range x {
			errs = append(errs, validate(ctx, pth.Index(i), v, s.Items)...)
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

func embeddedResource(ctx context.Context, pth *field.Path, x map[string]any) field.ErrorList {
	var errs field.ErrorList
	if _, found := x["apiVersion"]; !found {
		errs = append(errs, field.Required(pth.Child("apiVersion"), ""))
	}
	if _, found := x["kind"]; !found {
		errs = append(errs, field.Required(pth.Child("kind"), ""))
	}
	for _, k := range slices.Sorted(maps.Keys(x)) { // deterministic order
		v := x[k]
		switch k {
		case "apiVersion":
			if apiVersion, ok := v.(string); !ok {
				errs = append(errs, field.Invalid(pth.Child("apiVersion"), v, "must be a string"))
			} else if apiVersion == "" {
				errs = append(errs, field.Invalid(pth.Child("apiVersion"), apiVersion, "must not be empty"))
			} else if _, err := runtimeschema.ParseGroupVersion(apiVersion); err != nil {
				errs = append(errs, field.Invalid(pth.Child("apiVersion"), apiVersion, err.Error()))
			}
		case "kind":
			if kind, ok := v.(string); !ok {
				errs = append(errs, field.Invalid(pth.Child("kind"), v, "must be a string"))
			} else if kind == "" {
				errs = append(errs, field.Invalid(pth.Child("kind"), kind, "must not be empty"))
			} else if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(kind)); len(msgs) > 0 {
				errs = append(errs, field.Invalid(pth.Child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
			}
		case "metadata":
			meta := &metav1.ObjectMeta{}
			b, err := utiljson.Marshal(v)
			if err == nil {
				err = utiljson.Unmarshal(b, meta)
			}
			if err != nil {
				errs = append(errs, field.Invalid(pth.Child("metadata"), v, err.Error()))
				continue
			}
			if meta.Name == "" {
				meta.Name = "fakename" // ObjectMeta validation requires a name
			}
			errs = append(errs, metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, meta.Namespace != "", validatePathSegment, pth.Child("metadata"), declarativeBeta)...)
		}
	}
	return errs
}
