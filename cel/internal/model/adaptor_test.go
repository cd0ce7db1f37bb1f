package model

import (
	"testing"

	"kdv.dev/schema"
)

func i64(v int64) *int64 { return &v }

func arraySchema(typ, format string, maxItems *int64) *schema.Structural {
	return &schema.Structural{
		Generic:         schema.Generic{Type: "array"},
		Items:           &schema.Structural{Generic: schema.Generic{Type: typ}, ValueValidation: &schema.ValueValidation{Format: format}},
		ValueValidation: &schema.ValueValidation{MaxItems: maxItems},
	}
}

// TestEstimateMaxLengthJSON mirrors the apiserver's model test of the same
// name (schema/cel/model/schemas_test.go): list and map size estimates
// derived from the minimal serialized size of their elements.
func TestEstimateMaxLengthJSON(t *testing.T) {
	cases := []struct {
		name string
		s    *schema.Structural
		want int64
	}{
		{"booleanArray", arraySchema("boolean", "", nil), 629145},
		{"durationArray", arraySchema("string", "duration", nil), 786431},
		{"datetimeArray", arraySchema("string", "date-time", nil), 142987},
		{"dateArray", arraySchema("string", "date", nil), 241978},
		{"numberArray", arraySchema("integer", "", nil), 1572863},
		{"stringArray", arraySchema("string", "", nil), 1048575},
		{"stringMap", &schema.Structural{Generic: schema.Generic{Type: "object"}, AdditionalProperties: &schema.StructuralOrBool{Structural: &schema.Structural{Generic: schema.Generic{Type: "string"}}}}, 393215},
		{"objectOptionalPropertyArray", &schema.Structural{Generic: schema.Generic{Type: "array"}, Items: &schema.Structural{
			Generic: schema.Generic{Type: "object"},
			Properties: map[string]schema.Structural{
				"required": {Generic: schema.Generic{Type: "string"}},
				"optional": {Generic: schema.Generic{Type: "string"}},
			},
			ValueValidation: &schema.ValueValidation{Required: []string{"required"}},
		}}, 185042},
		{"arrayWithLength", arraySchema("integer", "int64", i64(10)), 10},
		{"stringWithLength", &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: i64(20)}}, 80},
	}
	for _, c := range cases {
		dt := SchemaDeclType(c.s, false)
		if dt == nil {
			t.Fatalf("%s: nil type", c.name)
		}
		if dt.MaxElements != c.want {
			t.Errorf("%s: MaxElements %d, want %d", c.name, dt.MaxElements, c.want)
		}
	}
}

// TestWithTypeAndObjectMetaNameLength mirrors the apiserver's test: the
// resource root exposes metadata.name (maxLength 253) and generateName
// (252), smaller author bounds kept, and the bounds reach cost estimation.
func TestWithTypeAndObjectMetaNameLength(t *testing.T) {
	meta := func(name, gen *int64) *schema.Structural {
		props := map[string]schema.Structural{}
		if name != nil {
			props["name"] = schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: name}}
		}
		if gen != nil {
			props["generateName"] = schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: gen}}
		}
		return &schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
			"metadata": {Generic: schema.Generic{Type: "object"}, Properties: props},
		}}
	}
	cases := []struct {
		name          string
		in            *schema.Structural
		wantN, wantGN int64
	}{
		{"metadata absent, defaults applied to both fields", &schema.Structural{Generic: schema.Generic{Type: "object"}}, 253, 252},
		{"author maxLength on name preserved, generateName defaulted", meta(i64(10), nil), 10, 252},
		{"author maxLength on generateName smaller than default is preserved", meta(nil, i64(100)), 253, 100},
		{"author maxLength larger than default is capped to the default", meta(i64(1000), i64(1000)), 253, 252},
	}
	for _, c := range cases {
		got := WithTypeAndObjectMeta(c.in)
		md := got.Properties["metadata"]
		if n := md.Properties["name"].ValueValidation.MaxLength; *n != c.wantN {
			t.Errorf("%s: name maxLength %d", c.name, *n)
		}
		if n := md.Properties["generateName"].ValueValidation.MaxLength; *n != c.wantGN {
			t.Errorf("%s: generateName maxLength %d", c.name, *n)
		}
		root := SchemaDeclType(c.in, true)
		m, ok := root.FindField("metadata")
		if !ok {
			t.Fatalf("%s: no metadata", c.name)
		}
		for f, want := range map[string]int64{"name": c.wantN, "generateName": c.wantGN} {
			fld, ok := m.Type.FindField(f)
			if !ok || fld.Type.MaxElements != want*4 {
				t.Errorf("%s: metadata.%s MaxElements %v", c.name, f, fld)
			}
		}
	}
	// idempotent: an already complete schema is returned as is
	once := WithTypeAndObjectMeta(&schema.Structural{Generic: schema.Generic{Type: "object"}})
	if WithTypeAndObjectMeta(once) != once {
		t.Error("not idempotent")
	}
	// the input is not mutated
	in := meta(nil, nil)
	WithTypeAndObjectMeta(in)
	if len(in.Properties["metadata"].Properties) != 0 {
		t.Error("input mutated")
	}
}

// TestSchemaDeclTypeKinds checks the CEL types of the OpenAPI shapes
// (common.SchemaDeclType through the adaptor).
func TestSchemaDeclTypeKinds(t *testing.T) {
	str := func(format string) *schema.Structural {
		return &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{Format: format}}
	}
	cases := []struct {
		s    *schema.Structural
		want string
	}{
		{str(""), "string"},
		{str("byte"), "bytes"},
		{str("duration"), "google.protobuf.Duration"},
		{str("date"), "google.protobuf.Timestamp"},
		{str("date-time"), "google.protobuf.Timestamp"},
		{&schema.Structural{Extensions: schema.Extensions{XIntOrString: true}}, "dyn"},
		{&schema.Structural{Generic: schema.Generic{Type: "integer"}}, "int"},
		{&schema.Structural{Generic: schema.Generic{Type: "number"}}, "double"},
		{&schema.Structural{Generic: schema.Generic{Type: "boolean"}}, "bool"},
		{arraySchema("string", "", nil), "list(string)"},
	}
	for _, c := range cases {
		dt := SchemaDeclType(c.s, false)
		if dt == nil || dt.CelType().String() != c.want {
			t.Errorf("%+v: %v, want %s", c.s.Generic, dt, c.want)
		}
	}
	// preserve-unknown-fields without type and arrays of untyped items are not exposed
	if dt := SchemaDeclType(&schema.Structural{Extensions: schema.Extensions{XPreserveUnknownFields: true}}, false); dt != nil {
		t.Errorf("untyped: %v", dt)
	}
	// property names are escaped; unescapable ones are dropped
	obj := &schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
		"dash-name": {Generic: schema.Generic{Type: "string"}},
		"namespace": {Generic: schema.Generic{Type: "string"}},
		"a@b":       {Generic: schema.Generic{Type: "string"}},
	}}
	dt := SchemaDeclType(obj, false)
	for _, f := range []string{"dash__dash__name", "__namespace__"} {
		if _, ok := dt.Fields[f]; !ok {
			t.Errorf("missing field %s in %v", f, dt.Fields)
		}
	}
	if len(dt.Fields) != 2 {
		t.Errorf("fields %v", dt.Fields)
	}
}
