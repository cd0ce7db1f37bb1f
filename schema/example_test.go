package schema_test

import (
	"fmt"

	"kdv.dev/schema"
)

func ExampleCheck() {
	crd, err := schema.ParseCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {}
              ports: {type: array, items: {type: integer}, uniqueItems: true}
`))
	if err != nil {
		panic(err)
	}
	errs, _ := schema.Check(crd, schema.CheckOptions{})
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields
	// spec.validation.openAPIV3Schema.properties[spec].properties[ports].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic
}

func ExampleLoadOpenAPIDocument() {
	doc, err := schema.LoadOpenAPIDocument("mem.json", []byte(`{"openapi": "3.0.0", "components": {"schemas": {
	  "example.v1.Widget": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
	    "properties": {"spec": {"allOf": [{"$ref": "#/components/schemas/example.v1.WidgetSpec"}], "description": "The spec.", "default": {}}}},
	  "example.v1.WidgetSpec": {"type": "object", "properties": {"child": {"$ref": "#/components/schemas/example.v1.WidgetSpec"}}}
	}}}`))
	if err != nil {
		panic(err)
	}
	s, name, err := doc.SchemaForGVK(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"})
	if err != nil {
		panic(err)
	}
	spec := s.Properties["spec"]
	fmt.Println(name, spec.Type, spec.Description)
	fmt.Println("recursion stub preserves unknown fields:", spec.Properties["child"].XPreserveUnknownFields)
	// Output:
	// example.v1.Widget object The spec.
	// recursion stub preserves unknown fields: true
}
