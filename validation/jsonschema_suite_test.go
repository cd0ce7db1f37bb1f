package validation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"kdv.dev/schema"
)

// suiteDir holds JSON-Schema-Test-Suite draft 4 (see ../../shared/conformance/README.md).
const suiteDir = "../../shared/conformance/json-schema-test-suite/tests/draft4"

// inapplicableKeys are the draft-4 keywords OpenAPI v3.0 structural schemas
// do not have.
var inapplicableKeys = []string{"$ref", "definitions", "patternProperties", "additionalItems", "dependencies", "id", "$schema"}

// suiteSkips lists the tests whose draft-4 expectation differs from what the
// apiserver (kube-openapi's validator) does, keyed "file/group/test", with
// the reason.
var suiteSkips = func() map[string]string {
	const (
		nullEnum  = "kube-openapi's enum validator never matches null (reflect.ValueOf(nil) is invalid), so null fails an enum even when the enum lists null"
		intFloat  = "integer-valued floats: kube-openapi compares enum values with reflect.DeepEqual, and the apiserver decodes 0 as int64 and 0.0 as float64, which differ"
		fmtNoType = "kube-openapi's type validator applies to a schema with a format and no type and rejects non-string values (\"must be of type <format>\"); CRD schemas always have a type"
		multInt   = "kube-openapi checks integers against multipleOf in integer arithmetic with the factor truncated (int64(1.5) == 1), so 35 is a multiple of 1.5"
		multSmall = "kube-openapi rejects a non-integral multipleOf on an integer schema (\"MultipleOf value must be of type integer\") and its float fallback exceeds 2^53"
		notNull   = "kube-openapi validates null only against type and enum (SchemaValidator.Validate returns early for nil data), so junctors never see null"
	)
	m := map[string]string{
		"enum/heterogeneous enum-with-null validation/null is valid":                   nullEnum,
		"enum/enum with [0] does not match [false]/[0.0] is valid":                     intFloat,
		"enum/enum with [1] does not match [true]/[1.0] is valid":                      intFloat,
		"multipleOf/by number/35 is not multiple of 1.5":                               multInt,
		"multipleOf/small multiple of large integer/any integer is a multiple of 1e-8": multSmall,
		"not/forbid everything with empty schema/null is invalid":                      notNull,
	}
	for _, f := range []string{"email", "ipv4", "ipv6", "hostname", "date-time", "uri"} {
		for _, k := range []string{"integers", "floats", "objects", "booleans"} {
			m["format/"+f+" format/all string formats ignore "+k] = fmtNoType
		}
	}
	return m
}()

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// inapplicable returns why a draft-4 schema cannot be an OpenAPI v3.0
// structural schema, or "".
func inapplicable(x any) string {
	t, ok := x.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range inapplicableKeys {
		if _, ok := t[k]; ok {
			return "uses " + k + " (not in OpenAPI v3.0 schemas of CRDs)"
		}
	}
	if _, ok := t["items"].([]any); ok {
		return "uses tuple items (items must be one schema)"
	}
	if _, ok := t["type"].([]any); ok {
		return "uses a type array (OpenAPI v3.0 types are single strings)"
	}
	if ty, ok := t["type"].(string); ok && ty == "null" {
		return `uses type "null" (OpenAPI v3.0 has nullable instead)`
	}
	var subs []any
	if props, ok := t["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			subs = append(subs, props[k])
		}
	}
	subs = append(subs, t["additionalProperties"], t["items"], t["not"])
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := t[k].([]any); ok {
			subs = append(subs, l...)
		}
	}
	for _, sub := range subs {
		if r := inapplicable(sub); r != "" {
			return r
		}
	}
	return ""
}

func TestJSONSchemaTestSuiteDraft4(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(suiteDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("JSON-Schema-Test-Suite not found at %s", suiteDir)
	}
	passed, skippedTests := 0, 0
	var skippedGroups []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(b, &groups); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, g := range groups {
			var raw any
			_ = json.Unmarshal(g.Schema, &raw)
			if _, isBool := raw.(bool); isBool {
				skippedGroups = append(skippedGroups, fmt.Sprintf("%s/%s: boolean schema", base, g.Description))
				continue
			}
			if r := inapplicable(raw); r != "" {
				skippedGroups = append(skippedGroups, fmt.Sprintf("%s/%s: %s", base, g.Description, r))
				continue
			}
			var p schema.Props
			if err := json.Unmarshal(g.Schema, &p); err != nil {
				skippedGroups = append(skippedGroups, fmt.Sprintf("%s/%s: not an OpenAPI schema object: %v", base, g.Description, err))
				continue
			}
			s, err := schema.NewStructural(&p)
			if err != nil {
				skippedGroups = append(skippedGroups, fmt.Sprintf("%s/%s: %v", base, g.Description, err))
				continue
			}
			v, err := New(s, Options{})
			if err != nil {
				t.Errorf("%s/%s: New: %v", base, g.Description, err)
				continue
			}
			for _, tc := range g.Tests {
				key := base + "/" + g.Description + "/" + tc.Description
				if reason, ok := suiteSkips[key]; ok {
					t.Logf("skipped %s: %s", key, reason)
					skippedTests++
					continue
				}
				var d schema.JSON
				if err := d.UnmarshalJSON(tc.Data); err != nil {
					t.Errorf("%s: data: %v", key, err)
					continue
				}
				errs := v.Validate(context.Background(), d.Object, nil)
				if (len(errs) == 0) != tc.Valid {
					t.Errorf("%s: valid = %v, want %v (errors: %v)", key, len(errs) == 0, tc.Valid, errs)
					continue
				}
				passed++
			}
		}
	}
	sort.Strings(skippedGroups)
	t.Logf("JSON-Schema-Test-Suite draft4: %d tests passed, %d tests skipped, %d groups skipped", passed, skippedTests, len(skippedGroups))
	for _, g := range skippedGroups {
		t.Logf("skipped group %s", g)
	}
}
