package schema

import (
	"encoding/json"
	"testing"
)

// TestGoValue prints versioned values in the layout of internal Go
// structs as encoding/json prints them.
func TestGoValue(t *testing.T) {
	meta := &GoStruct{Fields: []GoStructField{
		{Key: "name", JSON: "name", Zero: `""`, OmitEmpty: true},
		{Key: "labels", JSON: "labels", OmitEmpty: true},
	}}
	port := &GoStruct{Fields: []GoStructField{
		{Key: "Name", JSON: "name", Zero: `""`},
		{Key: "Port", JSON: "port", Zero: "0"},
		{Key: "TargetPort", JSON: "targetPort", Zero: "0"},
	}}
	policy := &GoStruct{Fields: []GoStructField{{Key: "Type", JSON: "type", Zero: `""`}, {Key: "LocalhostProfile", JSON: "localhostProfile"}}}
	spec := &GoStruct{Fields: []GoStructField{
		{Key: "Ports", JSON: "ports", Elem: port},
		{Key: "ByName", JSON: "byName", Elem: port},
		{Key: "Profile", JSON: "profile", Struct: policy},
		{Key: "Strategy", JSON: "strategy", Struct: policy, Value: true},
		{Key: "RollbackTo"}, // only in the internal type
		{Key: "Paused", JSON: "paused", Zero: "false"},
	}}
	tmpl := &GoStruct{Fields: []GoStructField{
		{JSON: "metadata", Struct: meta, Splice: true},
		{Key: "Spec", JSON: "spec", Struct: spec, Value: true},
	}}
	node := &Structural{Go: tmpl}
	for _, tc := range []struct {
		name string
		s    *Structural
		v    any
		want string
	}{
		{"absent fields are zero values", node, map[string]any{},
			`{"Spec":{"Ports":null,"ByName":null,"Profile":null,"Strategy":{"Type":"","LocalhostProfile":null},"RollbackTo":null,"Paused":false}}`},
		{"metadata spliced, empty fields left out", node, map[string]any{
			"metadata": map[string]any{"name": "", "labels": map[string]any{"a": "b"}},
			"spec": map[string]any{
				"ports":   []any{map[string]any{"port": int64(80), "targetPort": "http"}},
				"byName":  map[string]any{"b": map[string]any{"name": "b"}, "a": map[string]any{}},
				"profile": map[string]any{"type": "Localhost"},
				"paused":  true,
				"unknown": "dropped",
			},
		}, `{"labels":{"a":"b"},"Spec":{"Ports":[{"Name":"","Port":80,"TargetPort":"http"}],"ByName":{"a":{"Name":"","Port":0,"TargetPort":0},"b":{"Name":"b","Port":0,"TargetPort":0}},"Profile":{"Type":"Localhost","LocalhostProfile":null},"Strategy":{"Type":"","LocalhostProfile":null},"RollbackTo":null,"Paused":true}}`},
		{"list of structs", &Structural{Items: &Structural{Go: port}}, []any{map[string]any{"port": int64(1)}},
			`[{"Name":"","Port":1,"TargetPort":0}]`},
		{"map of structs", &Structural{AdditionalProperties: &StructuralOrBool{Structural: &Structural{Go: port}}}, map[string]any{"x": map[string]any{}},
			`{"x":{"Name":"","Port":0,"TargetPort":0}}`},
	} {
		got := GoValue(tc.s, tc.v)
		raw, ok := got.(json.RawMessage)
		if !ok {
			t.Errorf("%s: %T, want json.RawMessage", tc.name, got)
			continue
		}
		if string(raw) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, raw, tc.want)
		}
		if !json.Valid(raw) {
			t.Errorf("%s: not JSON: %s", tc.name, raw)
		}
	}
	// without a layout (CRDs, scalars) values are left alone
	for _, v := range []any{"x", int64(1), map[string]any{"a": int64(1)}, []any{"a"}, nil} {
		if got := GoValue(&Structural{}, v); !equalJSON(got, v) {
			t.Errorf("GoValue(no layout, %v) = %v", v, got)
		}
	}
	if got := GoValue(node, "s"); got != "s" {
		t.Errorf("GoValue(struct node, a string) = %v", got)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
