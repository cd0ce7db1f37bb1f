// Package idl loads Go API packages and parses their comment tags into one
// tag model, whatever the syntax they are written in:
//
//   - validation-gen's "+k8s:" tags with arguments and chained payloads
//     ("+k8s:beta(since: \"1.37\")=+k8s:subfield(name)=+k8s:format=k8s-long-name"),
//     with the grammar of k8s.io/gengo/v2/codetags;
//   - unprefixed openapi-gen / KEP-4153 tags ("+minimum=1", "+listType=map",
//     "+validationRule=\"...\",message=...,reason=Forbidden,field=x", "+default=...");
//   - controller-tools' kubebuilder markers ("+kubebuilder:validation:...",
//     resource, subresource, printcolumn markers; sigs.k8s.io/controller-tools
//     pkg/crd/markers);
//   - KEP-2558's "+lifecycle:<component>:minVersion=,status=,featureGate=".
//
// The model (Package, Type, Field, TypeRef, Const, Tag) keeps named-type
// and alias chains, so that a generator can apply the tags of every type in
// a chain (KEP-4153's PartId = Identifier example). Descriptions are doc
// comments with tag lines removed as openapi-gen does (Description).
//
// Unknown or malformed tags are errors with file:line; tags of other code
// generators (deepcopy, conversion, protobuf, client-gen, rbac, ...) are
// recognised and ignored.
package idl
