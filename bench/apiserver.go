package bench

import (
	"context"
	"fmt"
	"k8s.io/apiserver/pkg/registry/rest"
	"strings"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/request"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// APIServer is the reference: one CRD version validated with the
// apiserver's own code (k8s.io/apiextensions-apiserver v0.37.2), composed as
// the apiserver composes it for a create or update of a custom resource.
type APIServer struct {
	GVK        schema.GroupVersionKind
	Namespaced bool
	Structural *structuralschema.Structural
	// Validator is the OpenAPI schema validator the strategy uses, for
	// value-only comparisons (apiservervalidation.ValidateCustomResource).
	Validator apiservervalidation.SchemaValidator
	strategy  interface {
		rest.RESTCreateStrategy
		rest.RESTUpdateStrategy
	}
}

// ParseV1CRD decodes a v1 CRD document (YAML or JSON) and converts it to
// the internal version the apiserver validates. Like the apiserver's JSON
// serializer it matches field names case-sensitively (sigs.k8s.io/json), so
// "tYpe" is an unknown field, not "type".
func ParseV1CRD(doc []byte) (*apiextensions.CustomResourceDefinition, error) {
	var v1 apiextensionsv1.CustomResourceDefinition
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(j, &v1); err != nil {
		return nil, err
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&v1)
	var in apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &in, nil); err != nil {
		return nil, err
	}
	return &in, nil
}

// CheckCRD runs the apiserver's CRD validation on create.
func CheckCRD(doc []byte) (field.ErrorList, error) {
	crd, err := ParseV1CRD(doc)
	if err != nil {
		return nil, err
	}
	return crdvalidation.ValidateCustomResourceDefinition(context.Background(), crd), nil
}

// NewAPIServer builds the reference validator for one version of a CRD.
func NewAPIServer(doc []byte, version string) (*APIServer, error) {
	crd, err := ParseV1CRD(doc)
	if err != nil {
		return nil, err
	}
	var v *apiextensions.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			v = &crd.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, fmt.Errorf("CRD %s has no version %q", crd.Name, version)
	}
	// The internal version hoists schemas and subresources shared by all
	// versions to spec.validation and spec.subresources.
	validation, subresources := v.Schema, v.Subresources
	if validation == nil {
		validation = crd.Spec.Validation
	}
	if subresources == nil {
		subresources = crd.Spec.Subresources
	}
	if validation == nil || validation.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("CRD %s version %s has no schema", crd.Name, version)
	}
	props := validation.OpenAPIV3Schema
	ss, err := structuralschema.NewStructural(props)
	if err != nil {
		return nil, err
	}
	// As crdHandler.getOrCreateServingInfoFor: the served schema's defaults
	// are pruned (a no-op for CRDs that passed v1 validation).
	ss = ss.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(ss); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind}
	var status *apiextensions.CustomResourceSubresourceStatus
	var scale *apiextensions.CustomResourceSubresourceScale
	if subresources != nil {
		status, scale = subresources.Status, subresources.Scale
	}
	namespaced := crd.Spec.Scope == apiextensions.NamespaceScoped
	st := customresource.NewStrategy(nil, namespaced, gvk, validator, nil, ss, status, scale, nil)
	return &APIServer{GVK: gvk, Namespaced: namespaced, Structural: ss, Validator: validator, strategy: st}, nil
}

// Decode applies the apiserver's decode-time steps to obj in place, in its
// order (unstructuredSchemaCoercer.apply, then the defaulter): ObjectMeta
// unknown fields, pruning, dropping non-nullable nulls, ObjectMeta coercion,
// defaulting. It returns the unknown field paths strict field validation
// reports. As unstructuredSchemaCoercer.apply, it then restores kind,
// apiVersion and metadata from their typed round trip (SetObjectMeta drops
// unknown metadata fields).
func (a *APIServer) Decode(obj map[string]any) ([]string, error) {
	u := &unstructured.Unstructured{Object: obj}
	kind, foundKind, err := unstructured.NestedString(obj, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(obj, "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group != a.GVK.Group || kind != a.GVK.Kind {
		// Not this CRD's kind: the apiserver neither prunes nor coerces.
		return unknown, nil
	}
	unknown = append(unknown, structuralpruning.PruneWithOptions(obj, a.Structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, a.Structural)
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, obj, a.Structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		return nil, ferr
	}
	unknown = append(unknown, paths...)
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(obj, objectMeta); err != nil {
			return nil, err
		}
	}
	// The versioning codec defaults after the decoder's coercion.
	structuraldefaulting.Default(obj, a.Structural)
	return unknown, nil
}

// Validate runs the apiserver's create (old == nil) or update validation,
// as rest.BeforeCreate / rest.BeforeUpdate call the strategy:
// PrepareForCreate (drops status when the status subresource is enabled)
// or PrepareForUpdate (keeps the old status), then Validate or
// ValidateUpdate, through rest.ValidateCreate and rest.ValidateUpdate as
// BeforeCreate and BeforeUpdate call them. obj is modified in place.
func (a *APIServer) Validate(obj, old map[string]any) field.ErrorList {
	ctx := context.Background()
	if a.Namespaced {
		// kubectl sends namespaced objects without a namespace to "default";
		// the stored old object got its namespace the same way.
		ns := defaultNamespace(obj)
		if old != nil {
			defaultNamespace(old)
		}
		ctx = request.WithNamespace(ctx, ns)
	} else {
		// rest.BeforeCreate and BeforeUpdate clear the namespace of a
		// cluster-scoped object (EnsureObjectNamespaceMatchesRequestNamespace
		// with the request's empty namespace) before validating it.
		clearNamespace(obj)
		if old != nil {
			clearNamespace(old)
		}
	}
	u := &unstructured.Unstructured{Object: obj}
	if old == nil {
		a.strategy.PrepareForCreate(ctx, u)
		return rest.ValidateCreate(ctx, u, a.strategy)
	}
	o := &unstructured.Unstructured{Object: old}
	a.strategy.PrepareForUpdate(ctx, u, o)
	// rest.ValidateUpdate runs the generic ObjectMeta checks
	// (validateCommonFields: finalizer names, a path-segment name and
	// generateName, ...) before the strategy's.
	return rest.ValidateUpdate(ctx, u, o, a.strategy)
}

// ErrorLines renders errors as the apiserver prints them, one per line.
func ErrorLines(errs field.ErrorList) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

// clearNamespace removes a string metadata.namespace, as the handlers do
// for cluster-scoped objects; other values are the decoder's business.
func clearNamespace(obj map[string]any) {
	if m, ok := obj["metadata"].(map[string]any); ok {
		if _, isString := m["namespace"].(string); isString {
			delete(m, "namespace")
		}
	}
}

// defaultNamespace gives obj the namespace "default" when it has none, as
// kubectl's request URL and the apiserver's BeforeCreate do, and returns its
// namespace.
func defaultNamespace(obj map[string]any) string {
	ns := "default"
	if obj["metadata"] == nil {
		// rest.BeforeCreate sets the request's namespace on objects
		// without one (EnsureObjectNamespaceMatchesRequestNamespace).
		obj["metadata"] = map[string]any{}
	}
	if m, ok := obj["metadata"].(map[string]any); ok {
		if s, _ := m["namespace"].(string); s != "" {
			ns = s
		} else {
			m["namespace"] = ns
		}
	}
	return ns
}
