package schema

import (
	"fmt"
	"sort"
)

// fieldSet describes the known fields of an apiextensions.k8s.io/v1 object
// for unknown-field detection: each key maps to the set of its child, nil
// for a value that is not checked further (a leaf, a free-form map, or a
// schema, which unknownFields checks).
type fieldSet map[string]fieldSet

// schemaMarker as the only key of a fieldSet marks a JSONSchemaProps value.
const schemaMarker = "\x00schema"

var (
	anyValue    fieldSet // not descended into
	schemaF     = fieldSet{schemaMarker: nil}
	objectMetaF = fieldSet{"name": nil, "generateName": nil, "namespace": nil, "selfLink": nil, "uid": nil,
		"resourceVersion": nil, "generation": nil, "creationTimestamp": nil, "deletionTimestamp": nil,
		"deletionGracePeriodSeconds": nil, "labels": nil, "annotations": nil, "ownerReferences": nil,
		"finalizers": nil, "managedFields": nil}
	namesF   = fieldSet{"plural": nil, "singular": nil, "shortNames": nil, "kind": nil, "listKind": nil, "categories": nil}
	webhookF = fieldSet{"clientConfig": {"url": nil, "caBundle": nil, "service": {"namespace": nil, "name": nil, "path": nil, "port": nil}}, "conversionReviewVersions": nil}
	versionF = fieldSet{"name": nil, "served": nil, "storage": nil, "deprecated": nil, "deprecationWarning": nil,
		"schema":                   {"openAPIV3Schema": schemaF},
		"subresources":             {"status": {}, "scale": {"specReplicasPath": nil, "statusReplicasPath": nil, "labelSelectorPath": nil}},
		"additionalPrinterColumns": {"name": nil, "type": nil, "format": nil, "description": nil, "priority": nil, "jsonPath": nil},
		"selectableFields":         {"jsonPath": nil}}
	crdF = fieldSet{"apiVersion": nil, "kind": nil, "metadata": objectMetaF,
		"spec": {"group": nil, "names": namesF, "scope": nil, "versions": versionF,
			"conversion": {"strategy": nil, "webhook": webhookF}, "preserveUnknownFields": nil},
		"status": {"conditions": nil, "acceptedNames": namesF, "storedVersions": nil}}
)

// unknownCRDFields lists, as the apiserver's strict decoder names them
// (sorted, map keys joined with dots), the fields of a decoded CRD document
// that apiextensions.k8s.io/v1 does not define, schemas included: kdv's own
// schema extensions and any other unknown key.
func unknownCRDFields(v any) []string {
	var out []string
	walkFields(v, crdF, nil, &out)
	sort.Strings(out)
	return out
}

func walkFields(v any, fs fieldSet, path *jpath, out *[]string) {
	if fs == nil {
		return
	}
	if _, ok := fs[schemaMarker]; ok {
		walkSchemaFields(v, path, out)
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			p := path.key(k)
			sub, ok := fs[k]
			if !ok {
				*out = append(*out, fmt.Sprintf("unknown field %q", p.String()))
				continue
			}
			walkFields(x, sub, p, out)
		}
	case []any:
		for i, x := range t {
			walkFields(x, fs, path.idx(i), out)
		}
	}
}

var (
	ruleF = fieldSet{"rule": nil, "message": nil, "messageExpression": nil, "reason": nil, "fieldPath": nil, "optionalOldSelf": nil}
	docsF = fieldSet{"description": nil, "url": nil}
)

// walkSchemaFields reports the keys of a JSONSchemaProps value (and of its
// sub-schemas, validation rules and external docs) that v1 does not define.
func walkSchemaFields(v any, path *jpath, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	schemas := func(x any, p *jpath) {
		switch t := x.(type) {
		case []any:
			for i, e := range t {
				walkSchemaFields(e, p.idx(i), out)
			}
		case map[string]any:
			walkSchemaFields(t, p, out)
		}
	}
	for k, x := range m {
		p := path.key(k)
		if !propsKnownKeys[k] || kdvExtensionKeys[k] {
			*out = append(*out, fmt.Sprintf("unknown field %q", p.String()))
			continue
		}
		switch k {
		case "properties", "patternProperties", "definitions", "dependencies":
			if mm, ok := x.(map[string]any); ok {
				for name, e := range mm {
					schemas(e, p.key(name))
				}
			}
		case "items", "allOf", "oneOf", "anyOf", "not", "additionalProperties", "additionalItems":
			schemas(x, p)
		case "x-kubernetes-validations":
			walkFields(x, ruleF, p, out)
		case "externalDocs":
			walkFields(x, docsF, p, out)
		}
	}
}

// kdvExtensionKeys are the Props keys apiextensions.k8s.io/v1 lacks.
var kdvExtensionKeys = map[string]bool{"x-kubernetes-api-lifecycle": true, "x-kubernetes-unions": true,
	"x-kubernetes-validation-errors": true, "x-kubernetes-strip-zero": true, "x-kubernetes-list-unique": true, "x-kubernetes-unique-key": true}
