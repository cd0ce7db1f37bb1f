package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastCases are extension values as CRDs and kdv's data write them, and
// the unusual ones the fast path must leave to viaJSON.
var fastCases = []string{
	`[{"rule":"self.a > 0","message":"m","messageExpression":"'x'","reason":"FieldValueInvalid","fieldPath":".a","optionalOldSelf":true}]`,
	`[{"rule":"self == oldSelf"}]`,
	`[]`,
	`[{"rule":"a","optionalOldSelf":false},{"rule":"b","reason":"FieldValueForbidden"}]`,
	`[{"rule":"a","x-kubernetes-diff":{"path":".spec","keep":[".a[*].b",".c"],"fill":[".d"],"only":["e"]}}]`,
	`[{"rule":"a","x-kubernetes-diff":{"path":".spec","since":"1.34"}}]`,
	`[{"rule":"a","x-kubernetes-diff":{"path":".spec","keep":".a"}}]`,
	`[{"rule":"a","x-kubernetes-diff":{"path":".spec","other":1}}]`,
	`[{"rule":"a","x-kubernetes-diff":null}]`,
	`[{"rule":null}]`,
	`[{"rule":"a","extra":1}]`,
	`[{"Rule":"a"}]`,
	`[{"rule":1}]`,
	`[null]`,
	`{"rule":"a"}`,
	`{"kubernetes":{"minVersion":"v1.30","status":"alpha","featureGate":"G"}}`,
	`{"kubernetes":{}}`,
	`{}`,
	`{"kubernetes":null}`,
	`{"kubernetes":{"status":2}}`,
	`{"kubernetes":{"Status":"beta"}}`,
	`[{"status":"beta"}]`,
}

// TestFastExtensionsAgree: where the direct decoding decides, it gives
// what the reflective decoding gives.
func TestFastExtensionsAgree(t *testing.T) {
	decided := 0
	for _, c := range fastCases {
		if checkFastAgrees(t, []byte(c)) {
			decided++
		}
	}
	if decided < 6 {
		t.Errorf("the fast path decided only %d of the well-formed cases", decided)
	}
}

func checkFastAgrees(t *testing.T, data []byte) bool {
	t.Helper()
	x, err := decodeGeneric(data)
	if err != nil {
		return false
	}
	x = plainJSON(x)
	decided := false
	var fv, sv []ValidationRule
	if fastValidations(x, &fv) {
		decided = true
		if err := viaJSON(x, nil, &sv); err != nil || !reflect.DeepEqual(fv, sv) {
			t.Errorf("%s: fast %+v, reflective %+v (%v)", data, fv, sv, err)
		}
	}
	var fl, sl map[string]Lifecycle
	if fastLifecycle(x, &fl) {
		decided = true
		if err := viaJSON(x, nil, &sl); err != nil || !reflect.DeepEqual(fl, sl) {
			t.Errorf("%s: fast %+v, reflective %+v (%v)", data, fl, sl, err)
		}
	}
	return decided
}

func FuzzFastExtensions(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		checkFastAgrees(t, data)
	})
}
