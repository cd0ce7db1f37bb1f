package pruning

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"

	"kdv.dev/schema"
)

// MetaOptions controls ObjectMeta decoding and coercion.
type MetaOptions struct {
	// DropInvalidFields drops metadata fields that do not decode into
	// ObjectMeta (and non-string apiVersion/kind of embedded resources)
	// instead of failing. The apiserver sets it only when reading stored
	// objects; request bodies fail instead.
	DropInvalidFields bool
	// ReturnUnknownFieldPaths reports metadata fields ObjectMeta does not
	// know (strict field validation), as "<parent>.metadata.<field>".
	ReturnUnknownFieldPaths bool
}

// GetObjectMeta decodes obj["metadata"] into an ObjectMeta the way the
// apiserver's JSON decoding of a typed object would. found is false when
// obj has no metadata. With ReturnUnknownFieldPaths, fields ObjectMeta does
// not know are returned as paths prefixed by parent's "metadata" child
// (parent nil: "metadata.foo"). A malformed field (labels: 5) is an error,
// e.g. `json: cannot unmarshal number into Go struct field
// ObjectMeta.labels of type map[string]string`, unless DropInvalidFields,
// which keeps every field that decodes on its own.
//
// It mirrors objectmeta.GetObjectMetaWithOptions of
// k8s.io/apiextensions-apiserver.
func GetObjectMeta(obj map[string]any, parent *field.Path, opts MetaOptions) (meta *metav1.ObjectMeta, found bool, unknownPaths []string, err error) {
	metadata, found := obj["metadata"]
	if !found {
		return nil, false, nil, nil
	}
	meta = &metav1.ObjectMeta{}
	data, err := utiljson.Marshal(metadata)
	if err != nil {
		return nil, false, nil, err
	}
	prefix := parent.Child("metadata").String()
	var unmarshalErr error
	if opts.ReturnUnknownFieldPaths {
		var strictErrs []error
		strictErrs, unmarshalErr = kjson.UnmarshalStrict(data, meta)
		if unmarshalErr == nil {
			return meta, true, strictPaths(prefix, strictErrs), nil
		}
	} else if unmarshalErr = utiljson.Unmarshal(data, meta); unmarshalErr == nil {
		return meta, true, nil, nil
	}
	if !opts.DropInvalidFields {
		return nil, true, nil, unmarshalErr
	}

	m, ok := metadata.(map[string]any)
	if !ok {
		return nil, false, nil, fmt.Errorf("invalid metadata: expected object, got %T", metadata)
	}
	// Decode field by field, keeping those that decode on their own.
	acc, probe := &metav1.ObjectMeta{}, &metav1.ObjectMeta{}
	for k, v := range m {
		one, err := utiljson.Marshal(map[string]any{k: v})
		if err != nil || utiljson.Unmarshal(one, probe) != nil {
			continue
		}
		if opts.ReturnUnknownFieldPaths {
			strictErrs, _ := kjson.UnmarshalStrict(one, acc)
			unknownPaths = append(unknownPaths, strictPaths(prefix, strictErrs)...)
		} else {
			_ = utiljson.Unmarshal(one, acc)
		}
	}
	return acc, true, unknownPaths, nil
}

func strictPaths(prefix string, errs []error) []string {
	var paths []string
	for _, err := range errs {
		if fe, ok := err.(kjson.FieldError); ok {
			paths = append(paths, prefix+"."+fe.FieldPath())
		}
	}
	return paths
}

// SetObjectMeta replaces obj["metadata"] with meta converted back to
// unstructured form (zero fields omitted); a nil meta removes metadata. It
// mirrors objectmeta.SetObjectMeta.
func SetObjectMeta(obj map[string]any, meta *metav1.ObjectMeta) error {
	if meta == nil {
		delete(obj, "metadata")
		return nil
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(meta)
	if err != nil {
		return err
	}
	obj["metadata"] = m
	return nil
}

// CoerceMeta coerces the TypeMeta and ObjectMeta of every embedded resource
// in obj (and of obj itself when isResourceRoot): apiVersion and kind must be
// strings (`<path>.kind: Invalid value: 5: must be a string`), metadata is
// decoded into ObjectMeta and written back, which drops unknown fields and a
// zero creationTimestamp (`<path>.metadata: Invalid value: ...: <decode
// error>` when malformed). It stops at the first error (the first in
// sorted key order; the apiserver's is the first in random map order) and
// then returns no paths. Otherwise it returns the unknown metadata fields
// (only with ReturnUnknownFieldPaths), sorted, with
// field.Path prefixes (`spec.template.metadata.foo`, map values as
// `spec.m[key].metadata.foo`). pth is the path of obj (nil at the root).
//
// It mirrors objectmeta.CoerceWithOptions of k8s.io/apiextensions-apiserver.
func CoerceMeta(pth *field.Path, obj any, s *schema.Structural, isResourceRoot bool, opts MetaOptions) (*field.Error, []string) {
	if isResourceRoot {
		s = asEmbedded(s)
	}
	c := coercer{opts: opts}
	if err := c.coerce(pth, obj, s); err != nil {
		// The apiserver stops at the first error in (random) map order.
		// Walk again in sorted key order, so the same input always gives
		// the same error; coercion is idempotent, so the second walk sees
		// the same errors.
		c = coercer{opts: opts, sorted: true}
		if err2 := c.coerce(pth, obj, s); err2 != nil {
			err = err2
		}
		return err, nil
	}
	sort.Strings(c.unknown)
	return nil, c.unknown
}

type coercer struct {
	opts    MetaOptions
	sorted  bool
	unknown []string
}

func (c *coercer) coerce(pth *field.Path, x any, s *schema.Structural) *field.Error {
	if s == nil {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		var prop schema.Structural // one copy per frame, kept off the heap
		if c.sorted {
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := c.field(pth, x, s, &prop, k, x[k]); err != nil {
					return err
				}
			}
			return nil
		}
		for k, v := range x {
			if err := c.field(pth, x, s, &prop, k, v); err != nil {
				return err
			}
		}
	case []any:
		for i, v := range x {
			if err := c.coerce(pth.Index(i), v, s.Items); err != nil {
				return err
			}
		}
	}
	return nil
}

// field coerces field k (value v) of object x with schema s; prop is
// scratch space for the property's schema.
func (c *coercer) field(pth *field.Path, x map[string]any, s, prop *schema.Structural, k string, v any) *field.Error {
	if s.XEmbeddedResource {
		if err := c.coerceMetaField(pth, x, k, v); err != nil {
			return err
		}
	}
	if ps, ok := s.Properties[k]; ok {
		*prop = ps
		return c.coerce(pth.Child(k), v, prop)
	}
	if s.AdditionalProperties != nil {
		return c.coerce(pth.Key(k), v, s.AdditionalProperties.Structural)
	}
	return nil
}

// coerceMetaField coerces field k (value v) of the embedded resource x.
func (c *coercer) coerceMetaField(pth *field.Path, x map[string]any, k string, v any) *field.Error {
	switch k {
	case "apiVersion", "kind":
		if _, ok := v.(string); !ok {
			if !c.opts.DropInvalidFields {
				return field.Invalid(pth.Child(k), v, "must be a string")
			}
			delete(x, k)
		}
	case "metadata":
		meta, found, unknown, err := GetObjectMeta(x, pth, c.opts)
		c.unknown = append(c.unknown, unknown...)
		if err != nil {
			if !c.opts.DropInvalidFields {
				return field.Invalid(pth.Child("metadata"), v, err.Error())
			}
		} else if found {
			if err := SetObjectMeta(x, meta); err != nil {
				return field.Invalid(pth.Child("metadata"), v, err.Error())
			}
			if meta.CreationTimestamp.IsZero() {
				unstructured.RemoveNestedField(x, "metadata", "creationTimestamp")
			}
		}
	}
	return nil
}
