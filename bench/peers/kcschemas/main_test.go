package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"kdv.dev/schema"
)

func TestFileName(t *testing.T) {
	for gvk, want := range map[schema.GroupVersionKind]string{
		{Group: "apps", Version: "v1", Kind: "Deployment"}:                 "deployment-apps-v1.json",
		{Version: "v1", Kind: "Service"}:                                   "service-v1.json",
		{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}: "networkpolicy-networking-v1.json",
	} {
		if got := fileName(gvk); got != want {
			t.Errorf("fileName(%v) = %q, want %q", gvk, got, want)
		}
	}
}

func TestConvert(t *testing.T) {
	in := `{
	  "type": "object", "required": ["spec"], "x-kubernetes-group-version-kind": [{"kind": "K"}],
	  "properties": {
	    "spec": {"type": "object", "properties": {
	      "port": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true},
	      "cpu": {"pattern": "^[0-9]+$", "x-kubernetes-preserve-unknown-fields": true},
	      "policy": {"type": "string", "enum": ["A", "A", "B"], "x-kubernetes-strip-zero": true},
	      "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "string"}}},
	      "env": {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "object", "required": ["name"],
	        "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}}
	    }}
	  }
	}`
	want := `{
	  "type": "object", "required": ["spec"], "additionalProperties": false,
	  "properties": {
	    "spec": {"type": "object", "additionalProperties": false, "properties": {
	      "port": {"oneOf": [{"type": ["string", "null"]}, {"type": ["integer", "null"]}]},
	      "cpu": {"oneOf": [{"type": ["string", "null"]}, {"type": ["number", "null"]}]},
	      "policy": {"type": ["string", "null"], "enum": ["A", "B"]},
	      "raw": {"type": ["object", "null"], "properties": {"a": {"type": ["string", "null"]}}},
	      "env": {"type": ["array", "null"], "items": {"type": "object", "required": ["name"], "additionalProperties": false,
	        "properties": {"name": {"type": "string"}, "value": {"type": ["string", "null"]}}}}
	    }}
	  }
	}`
	check := func(strict bool, want string) {
		t.Helper()
		var n, w any
		if err := json.Unmarshal([]byte(in), &n); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		got := convert(n, strict)
		if !reflect.DeepEqual(got, w) {
			g, _ := json.MarshalIndent(got, "", " ")
			t.Errorf("strict=%v: got\n%s", strict, g)
		}
	}
	check(true, want)
	var w map[string]any
	_ = json.Unmarshal([]byte(want), &w)
	delete(w, "additionalProperties")
	spec := w["properties"].(map[string]any)["spec"].(map[string]any)
	delete(spec, "additionalProperties")
	delete(spec["properties"].(map[string]any)["env"].(map[string]any)["items"].(map[string]any), "additionalProperties")
	nonStrict, _ := json.Marshal(w)
	check(false, string(nonStrict))
}
