package schema

// Code generated from the real apiserver's output; see the comment on checkCases.

// checkCases are CRDs with invalid (and a few valid) schemas. Each want list
// is what k8s.io/apiextensions-apiserver v0.37.2 ValidateCustomResourceDefinition
// returns for the defaulted, v1-converted CRD (obtained by running the
// apiserver's own validation on the document outside this module); src names
// the apiserver test case the shape is taken from. Errors whose order the
// apiserver leaves to Go map iteration are listed in kdv's (sorted) order.
var checkCases = []struct {
	name, src, crd string
	want           []string
}{
	{
		name: "root type array",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation \"root type without status\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: array
        items: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "array": must be object at the root`,
		},
	},
	{
		name: "root type missing",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateNestedValueValidationComplete / KEP-1002 litmus", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        properties:
          a: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root`,
		},
	},
	{
		name: "field type missing",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"must be structural\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields`,
		},
	},
	{
		name: "items type missing",
		src:  "pkg/apiserver/schema/validation_test.go structural invariants (itemLevel)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.type: Required value: must not be empty for specified array items`,
		},
	},
	{
		name: "array without items",
		src:  "pkg/apiserver/schema/validation_test.go validateStructuralInvariants items must be specified", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: array}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items: Required value: must be specified`,
		},
	},
	{
		name: "type null",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation \"null type\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          n:
            type: "null"
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[false].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
			`spec.versions[0].schema.openAPIV3Schema.properties[false].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
		},
	},
	{
		name: "invalid type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation \"require valid types, invalid\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: foo}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
		},
	},
	{
		name: "nullable at root",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation \"nullable at the root\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        nullable: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root`,
		},
	},
	{
		name: "ref",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"$ref\" (specStandardValidatorV3)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            $ref: '#/definitions/a'
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].$ref: Forbidden: $ref is not supported`,
		},
	},
	{
		name: "id",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 id", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: string, id: foo}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].id: Forbidden: id is not supported`,
		},
	},
	{
		name: "uniqueItems",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"uniqueItems\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            uniqueItems: true
            items: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
		},
	},
	{
		name: "additionalProperties with properties",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"additionalProperties and properties forbidden\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            properties:
              b: {type: string}
            additionalProperties: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
		},
	},
	{
		name: "additionalProperties false with properties",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"additionalProperties and properties forbidden\" (false)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            properties:
              b: {type: string}
            additionalProperties: false
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
		},
	},
	{
		name: "additionalProperties at root",
		src:  "pkg/apiserver/schema/validation_test.go additionalProperties must not be used at the root", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        additionalProperties: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root`,
		},
	},
	{
		name: "items array",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 items array", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
            - type: string
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items: Forbidden: items must be a schema object and not an array`,
		},
	},
	{
		name: "patternProperties",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 patternProperties", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            patternProperties:
              '^x': {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].patternProperties: Forbidden: patternProperties is not supported`,
		},
	},
	{
		name: "definitions",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 definitions", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        definitions:
          a: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.definitions: Forbidden: definitions is not supported`,
		},
	},
	{
		name: "dependencies",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 dependencies", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            dependencies:
              b: [c]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].dependencies: Forbidden: dependencies is not supported`,
		},
	},
	{
		name: "additionalItems",
		src:  "pkg/apis/apiextensions/validation/validation_test.go specStandardValidatorV3 additionalItems", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {type: string}
            additionalItems: false
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].additionalItems: Forbidden: additionalItems is not supported`,
		},
	},
	{
		name: "invalid pattern",
		src:  "pkg/apiserver/schema/validation_test.go validateValueValidation pattern", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: string, pattern: '[a-z'}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[a].pattern: Invalid value: \"[a-z\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a-z`",
		},
	},
	{
		name: "preserve unknown fields false",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"x-kubernetes-preserve-unknown-fields: false\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-preserve-unknown-fields: false
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
		},
	},
	{
		name: "type in anyOf",
		src:  "pkg/apiserver/schema/validation_test.go KEP-1002 litmus: type in junctor", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            anyOf:
            - type: string
            - type: integer
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
		},
	},
	{
		name: "description title default nullable in allOf",
		src:  "pkg/apiserver/schema/validation_test.go validateNestedValueValidation forbidden generics", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            allOf:
            - description: d
              title: t
              default: x
              nullable: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].allOf[0].default: Forbidden: must be undefined to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].allOf[0].description: Forbidden: must be empty to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].allOf[0].nullable: Forbidden: must be false to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].allOf[0].title: Forbidden: must be empty to be structural`,
		},
	},
	{
		name: "extensions in oneOf",
		src:  "pkg/apiserver/schema/validation_test.go validateNestedValueValidation forbidden extensions", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            oneOf:
            - x-kubernetes-preserve-unknown-fields: true
              x-kubernetes-embedded-resource: true
              x-kubernetes-int-or-string: true
            - x-kubernetes-list-type: atomic
              x-kubernetes-map-type: atomic
              x-kubernetes-list-map-keys: [a]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].type: Required value: must be object if x-kubernetes-map-type is specified`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].type: Required value: must be array if x-kubernetes-list-type is specified`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].oneOf[1].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
		},
	},
	{
		name: "additionalProperties in not",
		src:  "pkg/apiserver/schema/validation_test.go validateNestedValueValidation additionalProperties", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            additionalProperties: {type: string}
            not:
              additionalProperties: {maxLength: 3}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].not.additionalProperties: Forbidden: must be undefined to be structural`,
		},
	},
	{
		name: "x-kubernetes-validations in anyOf",
		src:  "pkg/apiserver/schema/validation_test.go AllowNestedXValidations false for CRDs", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            anyOf:
            - x-kubernetes-validations:
              - rule: self.size() > 0
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
		},
	},
	{
		name: "int-or-string with type",
		src:  "pkg/apiserver/schema/validation_test.go KEP-1002 int-or-string", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            x-kubernetes-int-or-string: true
            anyOf:
            - type: integer
            - type: string
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
		},
	},
	{
		name: "int-or-string anyOf pattern valid",
		src:  "pkg/apiserver/schema/validation_test.go isIntOrStringAnyOfPattern", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-int-or-string: true
            anyOf:
            - type: integer
            - type: string
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
		},
	},
	{
		name: "int-or-string allOf pattern valid",
		src:  "pkg/apiserver/schema/validation_test.go isIntOrStringAllOfPattern", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-int-or-string: true
            allOf:
            - anyOf:
              - type: integer
              - type: string
            - pattern: '^[0-9]+%?$'
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
		},
	},
	{
		name: "int-or-string anyOf with extra keyword",
		src:  "pkg/apiserver/schema/validation_test.go isIntOrStringAnyOfPattern (not exact)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-int-or-string: true
            anyOf:
            - type: integer
              minimum: 0
            - type: string
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
		},
	},
	{
		name: "int-or-string with preserve and embedded",
		src:  "pkg/apiserver/schema/validation_test.go validateExtensions", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-int-or-string: true
            x-kubernetes-preserve-unknown-fields: true
            x-kubernetes-embedded-resource: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
		},
	},
	{
		name: "embedded resource without type",
		src:  "pkg/apiserver/schema/validation_test.go x-kubernetes-embedded-resource requires type object", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-embedded-resource: true
            x-kubernetes-preserve-unknown-fields: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
		},
	},
	{
		name: "embedded resource type string",
		src:  "pkg/apiserver/schema/validation_test.go x-kubernetes-embedded-resource requires type object", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            x-kubernetes-embedded-resource: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
		},
	},
	{
		name: "embedded resource without properties",
		src:  "pkg/apiserver/schema/validation_test.go embedded resource needs properties or preserve", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-embedded-resource: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
		},
	},
	{
		name: "embedded resource with additionalProperties",
		src:  "pkg/apiserver/schema/validation_test.go embedded resource additionalProperties", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-embedded-resource: true
            additionalProperties: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
		},
	},
	{
		name: "embedded resource kind not string",
		src:  "pkg/apiserver/schema/validation_test.go checkMetadata kind/apiVersion", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-embedded-resource: true
            properties:
              kind: {type: integer}
              apiVersion: {type: boolean}
              metadata: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties[apiVersion].type: Invalid value: "boolean": must be string`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties[kind].type: Invalid value: "integer": must be string`,
			`spec.versions[0].schema.openAPIV3Schema.properties[a].properties[metadata].type: Invalid value: "string": must be object`,
		},
	},
	{
		name: "metadata with labels",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateStructuralMetadataInvariants", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
		},
	},
	{
		name: "metadata name only valid",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateStructuralMetadataInvariants (name allowed)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 20}
              generateName: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
		},
	},
	{
		name: "metadata type string",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateStructuralMetadataInvariants (type must be object)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[metadata].type: Invalid value: "string": must be object`,
		},
	},
	{
		name: "metadata with description",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateStructuralMetadataInvariants (only type and properties)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            description: the metadata
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
		},
	},
	{
		name: "default in top-level metadata",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"default in top-level metadata\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            default: {name: foo}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
		},
	},
	{
		name: "kind at root integer",
		src:  "pkg/apiserver/schema/validation_test.go checkMetadata at root", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          kind: {type: integer}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[kind].type: Invalid value: "integer": must be string`,
		},
	},
	{
		name: "completeness allOf property",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateNestedValueValidationComplete \"disallowed property in valuevalidation\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: string}
        allOf:
        - properties:
            b: {minLength: 1}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[b]: Required value: because it is defined in spec.versions[0].schema.openAPIV3Schema.allOf[0].properties[b]`,
		},
	},
	{
		name: "completeness items",
		src:  "pkg/apiserver/schema/validation_test.go TestValidateNestedValueValidationComplete \"disallowed items in valuevalidation, and not in structure\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            anyOf:
            - items: {maxLength: 1}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
		},
	},
	{
		name: "metadata in nested context",
		src:  "pkg/apiserver/schema/validation_test.go validateNestedValueValidation metadata", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
        anyOf:
        - properties:
            metadata: {}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
		},
	},
	{
		name: "list type on object",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid type with list type extension set\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-list-type: atomic
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
		},
	},
	{
		name: "list type without type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"unset type with list type extension set\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            x-kubernetes-list-type: atomic
            x-kubernetes-preserve-unknown-fields: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must be array if x-kubernetes-list-type is specified`,
		},
	},
	{
		name: "invalid list type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid list type extension\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {type: string}
            x-kubernetes-list-type: foo
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-type: Unsupported value: "foo": supported values: "atomic", "set", "map"`,
		},
	},
	{
		name: "list map keys without list type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"unset list type extension with list map keys extension non-empty\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              required: [k]
              properties:
                k: {type: string}
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
		},
	},
	{
		name: "list map keys with set",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid list type extension with list map keys extension non-empty\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {type: string}
            x-kubernetes-list-type: set
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-type: Invalid value: "set": must be map if x-kubernetes-list-map-keys is non-empty`,
		},
	},
	{
		name: "list type map without keys",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"empty list map keys extension with list type extension map\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
            x-kubernetes-list-type: map
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
		},
	},
	{
		name: "list type map non object items",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"non object item with list type extension map\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {type: string}
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
		},
	},
	{
		name: "list map key missing",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"items with key missing from properties with list type extension map\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              required: [k]
              properties:
                k: {type: string}
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k, x]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Invalid value: ["k","x"]: entries must all be names of item properties`,
		},
	},
	{
		name: "list map key non scalar",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"items with non scalar key property type with list type extension map\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              required: [k]
              properties:
                k:
                  type: object
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.properties[k].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
		},
	},
	{
		name: "duplicate list map keys",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"duplicate map keys with list type extension map\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              required: [k]
              properties:
                k: {type: string}
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k, k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Invalid value: ["k","k"]: must not contain duplicate entries`,
		},
	},
	{
		name: "set of granular maps",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid list-type set with non-atomic map items\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            x-kubernetes-list-type: set
            items:
              type: object
              x-kubernetes-map-type: granular
              properties:
                k: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
		},
	},
	{
		name: "set of map lists",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid list-type set with with non-atomic list items\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            x-kubernetes-list-type: set
            items:
              type: array
              x-kubernetes-list-type: set
              items: {type: string}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
		},
	},
	{
		name: "map type on string",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid type with map type extension (granular)\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            x-kubernetes-map-type: granular
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
		},
	},
	{
		name: "invalid map type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid map type\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: object
            x-kubernetes-map-type: foo
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-map-type: Unsupported value: "foo": supported values: "atomic", "granular"`,
		},
	},
	{
		name: "map key not required",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid map with non-required key and no default\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              properties:
                k: {type: string}
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
		},
	},
	{
		name: "map key nullable",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid map with nullable key\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items:
              type: object
              required: [k]
              properties:
                k: {type: string, nullable: true}
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [k]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
		},
	},
	{
		name: "set nullable items",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid set with nullable items\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            items: {type: string, nullable: true}
            x-kubernetes-list-type: set
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`,
		},
	},
	{
		name: "validation empty rule",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"invalid x-kubernetes-validations with empty rule\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: ' '
        - rule: self.a
          message: ' '
        - rule: "self.a\n&& true"
        - rule: self.a
          messageExpression: ' '
          reason: Bogus
          fieldPath: .nope
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[1].message: Invalid value: " ": must be non-empty if specified`,
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks`,
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[3].messageExpression: Required value: messageExpression must be non-empty if specified`,
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[3].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
			`spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[3].fieldPath: Invalid value: ".nope": must be a valid path`,
		},
	},
	{
		name: "status subresource root type",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"root type having invalid value, with status\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: string
`,
		want: []string{
			`spec.validation.openAPIV3Schema.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
			`spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root`,
		},
	},
	{
		name: "status subresource root field",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"non-allowed root field with status\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        anyOf:
        - required: [a]
        properties:
          a: {type: string}
`,
		want: []string{
			`spec.validation.openAPIV3Schema: Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":[{"ID":"","Schema":"","Ref":null,"Description":"","Type":"","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":["a"],"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}],"Not":null,"Properties":{"a":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"string","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
		},
	},
	{
		name: "embedded resource in metadata",
		src:  "pkg/apis/apiextensions/validation/validation_test.go \"embedded resource inside resource meta\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[metadata].properties[name].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
		},
	},
	{
		name: "single version folds to spec.validation",
		src:  "pkg/apis/apiextensions/validation/validation_test.go conversion folds identical schemas (v1 conversion.go)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {}
`,
		want: []string{
			`spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields`,
		},
	},
	{
		name: "no storage version",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"no storage version\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must contain unique version names`,
			`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
			`status.storedVersions: Invalid value: null: must have at least one stored version`,
		},
	},
	{
		name: "bad names",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"bad names\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foo.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: Foos
    kind: Foo
    listKind: Foo
    shortNames: [f_o]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`metadata.name: Invalid value: "foo.example.com": must be spec.names.plural+"."+spec.group`,
			`spec.names.plural: Invalid value: "Foos": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			`spec.names.shortNames[0]: Invalid value: "f_o": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			`spec.names.listKind: Invalid value: "Foo": kind and listKind may not be the same`,
		},
	},
	{
		name: "missing schema",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"missing schema\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
`,
		want: []string{
			`spec.versions[0].schema.openAPIV3Schema: Required value`,
		},
	},
	{
		name: "protected group",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"protected group without approval\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.foo.k8s.io
spec:
  group: foo.k8s.io
  scope: Namespaced
  names:
    plural: foos
    kind: Foo
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
`,
		want: []string{
			`metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`,
		},
	},
	{
		name: "two storage versions",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"multiple storage versions\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
    additionalPrinterColumns: [{name: Age, type: date, jsonPath: .metadata.creationTimestamp}]
  - name: v2
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, description: v2}}
`,
		want: []string{
			`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"Subresources":null,"AdditionalPrinterColumns":[{"Name":"Age","Type":"date","Format":"","Description":"","Priority":0,"JSONPath":".metadata.creationTimestamp"}],"SelectableFields":null},{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"v2","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
			`status.storedVersions: Invalid value: ["v1"]: must have the storage version v2`,
		},
	},
	{
		name: "webhook conversion without config",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"webhookconfig: blank URL\" family", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion: {strategy: Webhook}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook`,
			`spec.conversion.conversionReviewVersions: Required value`,
		},
	},
	{
		name: "webhook config with None strategy",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"webhookconfig should not be set when strategy is None\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion:
    strategy: None
    webhook:
      clientConfig: {url: "https://example.com/convert"}
      conversionReviewVersions: [v1]
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook`,
			`spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook`,
		},
	},
	{
		name: "webhook review versions",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"invalid conversion review version\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion:
    strategy: Webhook
    webhook:
      clientConfig: {url: "https://example.com/convert"}
      conversionReviewVersions: [v2, v2, Bad_Version]
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version`,
			`spec.conversion.conversionReviewVersions[2]: Invalid value: "Bad_Version": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			`spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2","Bad_Version"]: must include at least one of v1, v1beta1`,
		},
	},
	{
		name: "deprecation warning",
		src:  "pkg/apis/apiextensions/validation/validation_test.go Test_validateDeprecationWarning", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - {name: v1, served: true, storage: true, deprecationWarning: "not deprecated", schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: true, storage: false, deprecated: true, deprecationWarning: "", schema: {openAPIV3Schema: {type: object, description: x}}}
`,
		want: []string{
			`spec.versions[0].deprecationWarning: Invalid value: "not deprecated": can only be set for deprecated versions`,
			`spec.versions[1].deprecationWarning: Invalid value: "": must not be an empty string`,
		},
	},
	{
		name: "printer columns",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition additionalPrinterColumns", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
    additionalPrinterColumns:
    - {name: A, type: bogus, jsonPath: .spec.a}
    - {name: B, type: string, format: uri, jsonPath: spec.b}
    - {name: "", type: integer, jsonPath: .x}
`,
		want: []string{
			`spec.additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string`,
			`spec.additionalPrinterColumns[1].format: Invalid value: "uri": must be one of byte,date,date-time,double,float,int32,int64,password`,
			`spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.b": must be a simple json path starting with .`,
			`spec.additionalPrinterColumns[2].name: Required value`,
		},
	},
	{
		name: "scale subresource",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"invalid scale subresource paths\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
    subresources:
      scale: {specReplicasPath: .status.replicas, statusReplicasPath: "status.replicas", labelSelectorPath: .metadata.labels}
`,
		want: []string{
			`spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec`,
			`spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .`,
			`spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status`,
		},
	},
	{
		name: "selectable fields",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestSelectableFields", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields:
    - {jsonPath: .spec.a}
    - {jsonPath: .spec.o}
    - {jsonPath: .metadata.name}
    - {jsonPath: ".spec['a']"}
    - {jsonPath: .spec.missing}
    - {jsonPath: .spec.a}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
          spec:
            type: object
            properties:
              a: {type: string}
              o: {type: object}
`,
		want: []string{
			`spec.selectableFields[1].jsonPath: Invalid value: ".spec.o": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
			`spec.selectableFields[2].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field`,
			`spec.selectableFields[3].jsonPath: Invalid value: ".spec['a']": is an invalid path: array notation is not allowed`,
			`spec.selectableFields[4].jsonPath: Invalid value: ".spec.missing": is an invalid path: does not refer to a valid field`,
			`spec.selectableFields[5].jsonPath: Duplicate value: ".spec.a"`,
		},
	},
	{
		name: "group scope and version names",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"bad group\", \"bad scope\", invalid version name", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example
spec:
  group: example
  scope: Global
  names: {plural: foos, kind: Foo}
  versions:
  - {name: V_1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.group: Invalid value: "example": should be a domain with at least one dot`,
			`spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`,
			`spec.versions[0].name: Invalid value: "V_1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			`spec.version: Invalid value: "V_1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
		},
	},
	{
		name: "object meta",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition metadata (ValidateObjectMetaDeclaratively)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
  namespace: default
  labels: {"bad key!": "bad value!"}
  annotations: {"Bad/Key/x": "v"}
  finalizers: ["nodomain"]
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`metadata.namespace: Forbidden: not allowed on this type`,
			`metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`metadata.annotations: Invalid value: "Bad/Key/x": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
		},
	},
	{
		name: "generateName only",
		src:  "pkg/apis/apiextensions/validation/validation_test.go ValidateObjectMetaAccessor name or generateName", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  generateName: foos-
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`metadata.generateName: Invalid value: "foos-": must be spec.names.plural+"."+spec.group`,
			`metadata.name: Required value: name or generateName is required`,
		},
	},
	{
		name: "webhook url",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"webhookconfig: invalid url\" family (ValidateWebhookURL)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion:
    strategy: Webhook
    webhook:
      clientConfig: {url: "http://user@/path?q=1#frag"}
      conversionReviewVersions: [v1]
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL`,
		},
	},
	{
		name: "webhook service",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"webhookconfig: invalid service\" family (ValidateWebhookService)", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion:
    strategy: Webhook
    webhook:
      clientConfig: {service: {name: "", namespace: ns, port: 70000, path: "foo//Bar_/"}}
      conversionReviewVersions: [v1]
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.webhookClientConfig.service.namespace: Required value`,
			`spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive`,
			`spec.conversion.webhookClientConfig.service.path: Invalid value: "foo//Bar_/": must start with a '/'`,
			`spec.conversion.webhookClientConfig.service.path: Invalid value: "foo//Bar_/": segment[1] may not be empty`,
			`spec.conversion.webhookClientConfig.service.path: Invalid value: "foo//Bar_/": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
		},
	},
	{
		name: "webhook url and service",
		src:  "pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition \"both service and URL provided\"", // source test
		crd: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  conversion:
    strategy: Webhook
    webhook:
      clientConfig: {url: "https://example.com", service: {name: a, namespace: b}}
      conversionReviewVersions: [v1]
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
		want: []string{
			`spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required`,
		},
	},
}
