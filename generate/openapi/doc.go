// Package openapi turns the idl tag model into OpenAPI v3 documents and
// CustomResourceDefinitions.
//
// Generate follows kube-openapi's openapi-gen (pkg/generators) and the
// apiserver's published /openapi/v3 shape: one document per group-version
// with components.schemas named like io.k8s.api.apps.v1.Deployment
// (DefinitionName), x-kubernetes-group-version-kind on kinds, struct
// references as {$ref} or, when the use site adds a description, default or
// validations, allOf: [{$ref}] with those siblings; descriptions from doc
// comments with tag lines removed and "Possible enum values" appended;
// required fields from +optional/+required/omitempty; the zero-value
// defaults openapi-gen enforces for non-pointer fields; well-known types
// (Time, MicroTime, Duration, Quantity, IntOrString, RawExtension, FieldsV1)
// as the apiserver publishes them; x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key.
//
// Every tag is published or reported (Report): bounds, formats, enums and
// patterns become OpenAPI keywords; list and map semantics
// x-kubernetes-list-type/-list-map-keys/-map-type; validation-gen's
// transitions (+k8s:immutable, +k8s:update, +k8s:monotonic), unions
// (+k8s:unionMember, +k8s:unionDiscriminator, +k8s:zeroOrOneOfMember, also
// under +k8s:item), +k8s:maxBytes, +k8s:dependentRequired/Forbidden and
// +k8s:eachKey (formats through the CEL format library) become
// x-kubernetes-validations CEL rules carrying validation-gen's
// messages, reasons and field paths (k8s.io/apimachinery/pkg/api/validate);
// +k8s:alpha/beta(since), +k8s:ifEnabled, +featureGate and +lifecycle become
// x-kubernetes-api-lifecycle (off with Options.StandardOnly and in CRDs,
// where apiextensions.k8s.io/v1 does not allow it). +k8s:customValidation
// and the other tags without a
// schema form are reported with the reason; +k8s:ifDisabled payloads and
// unconditional +k8s:forbidden are among them. Mode-discriminated
// validation (+k8s:modeDiscriminator, +k8s:ifMode) becomes CEL rules whose
// messages name the mode (the apiserver's errors have no detail).
//
// CRDs follows controller-gen for kubebuilder markers; it inlines $refs
// into one structural schema with kdv.dev/schema/refs (which package
// builtin uses too, without linking the generator).
// WriteFiles is the entry point of "kdv gen openapi|crd".
package openapi
