package pruning

import (
	"fmt"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	runtimeschema "k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/schema"
)

// ApplyOptions controls Apply.
type ApplyOptions struct {
	// PreserveUnknownFields is the CRD's spec.preserveUnknownFields: no
	// generic pruning and no null pruning, only metadata coercion.
	PreserveUnknownFields bool
	// DropInvalidMetadata drops malformed metadata fields instead of
	// failing (the apiserver does so only for objects read from storage).
	DropInvalidMetadata bool
	// ReturnUnknownFieldPaths collects the removed fields' paths, as the
	// apiserver does for fieldValidation=Strict or Warn. Without it Apply
	// returns no paths.
	ReturnUnknownFieldPaths bool
	// NoEmbeddedResources says that no node of s below the root has
	// x-kubernetes-embedded-resource (HasEmbeddedResource, which callers
	// compute once per schema): the walk that coerces embedded resources'
	// metadata, which acts only on those nodes, is skipped.
	NoEmbeddedResources bool
	// Clean says the caller knows obj holds nothing Prune or
	// PruneNonNullableNullsWithoutDefaults would change (no field outside
	// its object's properties, no null: a built-in object whose typed
	// decoding check walked every value), so both walks are skipped.
	// Metadata is handled as without it.
	Clean bool
}

// HasEmbeddedResource reports whether a node of s below the root has
// x-kubernetes-embedded-resource (see ApplyOptions.NoEmbeddedResources).
func HasEmbeddedResource(s *schema.Structural) bool {
	return hasEmbedded(s, 0)
}

func hasEmbedded(s *schema.Structural, depth int) bool {
	if s == nil {
		return false
	}
	if depth > 0 && s.XEmbeddedResource {
		return true
	}
	if hasEmbedded(s.Items, depth+1) {
		return true
	}
	if ap := s.AdditionalProperties; ap != nil && hasEmbedded(ap.Structural, depth+1) {
		return true
	}
	for k := range s.Properties {
		p := s.Properties[k]
		if hasEmbedded(&p, depth+1) {
			return true
		}
	}
	return false
}

// Apply runs the apiserver's decode-time steps on a custom resource obj
// whose version's schema is s, in its order: decode root metadata into
// ObjectMeta (unknown fields reported as "metadata.<field>"), prune with
// obj as resource root, remove non-nullable nulls without default, coerce
// metadata of embedded resources, then write back apiVersion, kind and the
// root metadata normalized through ObjectMeta (which drops unknown and, with
// DropInvalidMetadata, malformed metadata fields).
//
// unknownFields holds what strict field validation reports, each as
// `unknown field "<path>"`: root metadata fields first (in ObjectMeta
// decoding order), then the sorted pruned paths, then the sorted unknown
// metadata fields of embedded resources. The order is the apiserver's.
//
// err is what the apiserver fails the request with while decoding: a
// non-string kind or apiVersion (`.kind accessor error: 5 is of the type
// int64, expected string`), a malformed apiVersion, malformed root metadata,
// or a *field.Error from embedded metadata coercion. obj is then partly
// pruned and must not be used.
//
// The apiserver applies these steps only when obj's group and kind are the
// CRD's; callers pick s by GVK, so Apply does not check.
//
// It mirrors unstructuredSchemaCoercer.apply in
// k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go.
func Apply(obj map[string]any, s *schema.Structural, opts ApplyOptions) (unknownFields []string, err error) {
	kind, foundKind, err := unstructured.NestedString(obj, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(obj, "apiVersion")
	if err != nil {
		return nil, err
	}
	metaOpts := MetaOptions{
		DropInvalidFields:       opts.DropInvalidMetadata,
		ReturnUnknownFieldPaths: opts.ReturnUnknownFieldPaths,
	}
	// Metadata that the ObjectMeta round trip cannot change (the common
	// case) is copied instead of being decoded and re-encoded.
	simpleMeta, isSimple := copySimpleMeta(obj["metadata"])
	var objectMeta *metav1.ObjectMeta
	var foundObjectMeta bool
	if !isSimple {
		var metaUnknown []string
		objectMeta, foundObjectMeta, metaUnknown, err = GetObjectMeta(obj, nil, metaOpts)
		if err != nil {
			return nil, err
		}
		unknownFields = append(unknownFields, metaUnknown...)
	}
	if _, err := runtimeschema.ParseGroupVersion(apiVersion); err != nil {
		return nil, err
	}

	if !opts.PreserveUnknownFields && !opts.Clean {
		unknownFields = append(unknownFields, Prune(obj, s, Options{
			IsResourceRoot: true,
			DiscardPaths:   !opts.ReturnUnknownFieldPaths,
		})...)
		PruneNonNullableNullsWithoutDefaults(obj, s)
	}
	if !opts.NoEmbeddedResources {
		ferr, paths := CoerceMeta(nil, obj, s, false, metaOpts)
		if ferr != nil {
			return nil, ferr
		}
		unknownFields = append(unknownFields, paths...)
	}

	// Restore the meta fields, starting clean.
	if foundKind {
		obj["kind"] = kind
	}
	if foundAPIVersion {
		obj["apiVersion"] = apiVersion
	}
	if isSimple {
		obj["metadata"] = simpleMeta
	} else if foundObjectMeta {
		if err := SetObjectMeta(obj, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknownFields, nil
}

// UnknownFieldErrors formats unknown field paths (Apply's, Prune's) as the
// apiserver's strict field validation does: one `unknown field "<path>"`
// error per path, in order. With fieldValidation=Strict the apiserver fails
// the request with runtime.NewStrictDecodingError of the JSON decoder's own
// strict errors (duplicate fields) followed by these, whose message is
// `strict decoding error: unknown field "spec.foo", unknown field ...`;
// with fieldValidation=Warn each becomes a warning. It mirrors
// schemaCoercingDecoder.Decode in customresource_handler.go.
func UnknownFieldErrors(paths []string) []error {
	errs := make([]error, 0, len(paths))
	for _, p := range paths {
		errs = append(errs, fmt.Errorf(`unknown field "%s"`, p))
	}
	return errs
}

// copySimpleMeta returns a copy of metadata when decoding it into ObjectMeta
// and converting it back (GetObjectMeta, SetObjectMeta) would give an equal
// map and report no unknown field: only non-empty name, generateName and
// namespace strings and non-empty labels and annotations of strings, all
// valid UTF-8 (JSON encoding would replace invalid bytes). Empty values are
// excluded because ObjectMeta's omitempty drops them. The copy is deep, so
// that pruning cannot change what is restored.
func copySimpleMeta(metadata any) (map[string]any, bool) {
	m, ok := metadata.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "name", "generateName", "namespace":
			s, ok := v.(string)
			if !ok || s == "" || !utf8.ValidString(s) {
				return nil, false
			}
			out[k] = s
		case "labels", "annotations":
			sm, ok := v.(map[string]any)
			if !ok || len(sm) == 0 {
				return nil, false
			}
			c := make(map[string]any, len(sm))
			for sk, sv := range sm {
				s, ok := sv.(string)
				if !ok || !utf8.ValidString(sk) || !utf8.ValidString(s) {
					return nil, false
				}
				c[sk] = s
			}
			out[k] = c
		default:
			return nil, false
		}
	}
	return out, true
}
