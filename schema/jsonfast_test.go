package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

var jsonFastCases = []string{
	`{"a":1,"b":[true,false,null],"c":{"d":"e"},"n":-1.5e+10}`,
	`{"a":1,"a":2}`,
	`"\u00e9\ud83d\ude00\n\t\"\\\/"`,
	`"\ud800"`,
	`"\ud800\u0041"`,
	"\"\xff\"",
	`{"a":01}`,
	`[1,]`,
	`{"a" 1}`,
	`  [] `,
	`{} x`,
	`-`,
	`1.`,
	`1e`,
	`-0.0e-0`,
	"\"a\x01\"",
	`[[[[[]]]]]`,
	`{"description":"line one\nline \"two\" \u003cb\u003e"}`,
}

// TestDecodeJSONFastAgrees: where the direct decoder decides, its value is
// encoding/json's (UseNumber); it decides the well-formed cases.
func TestDecodeJSONFastAgrees(t *testing.T) {
	for _, c := range jsonFastCases {
		checkJSONFast(t, []byte(c))
	}
	for _, c := range []string{jsonFastCases[0], jsonFastCases[1], jsonFastCases[2], `  [] `, `-0.0e-0`, jsonFastCases[len(jsonFastCases)-1]} {
		if _, ok := decodeJSONFast([]byte(c)); !ok {
			t.Errorf("%s: not decided", c)
		}
	}
}

func checkJSONFast(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeJSONFast(data)
	if !ok {
		return
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var want any
	if err := d.Decode(&want); err != nil || d.More() {
		t.Fatalf("%q: decided as %#v, encoding/json fails: %v", data, got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: %#v, encoding/json %#v", data, got, want)
	}
}

func FuzzDecodeJSONFast(f *testing.F) {
	for _, c := range jsonFastCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkJSONFast(t, data)
	})
}
