package validation

import (
	"context"
	"testing"
)

// TestBuiltInRatcheting: a built-in kind's validation ratchets nowhere
// unless a property says x-kubernetes-ratcheting true (the hand-written
// update validation checks the whole new object again, except where it
// drops the errors of an unchanged field: ValidateEndpoints and the
// subsets), and false below turns it off again. Keywords, list types and
// rules follow the node that reports them; a custom resource ratchets
// everywhere.
func TestBuiltInRatcheting(t *testing.T) {
	const s = `{"type":"object","properties":{
		"fixed":{"type":"integer","maximum":5,"x-kubernetes-validations":[{"rule":"self != 9","message":"not 9"}]},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"loose":{"type":"object","x-kubernetes-ratcheting":true,
			"x-kubernetes-validations":[{"rule":"self.n != 9","message":"n not 9"}],
			"properties":{
			"n":{"type":"integer","maximum":5},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"inner":{"type":"object","x-kubernetes-ratcheting":false,"properties":{"m":{"type":"integer","maximum":5}}}}}}}`
	obj := mustJSON(t, `{"fixed":9,"tags":["b","b"],"loose":{"n":9,"tags":["a","a"],"inner":{"m":9}}}`)
	create := []string{
		`fixed: Invalid value: 9: fixed in body should be less than or equal to 5`,
		`fixed: Invalid value: null: not 9`,
		`tags[1]: Duplicate value: "b"`,
		`loose: Invalid value: null: n not 9`,
		`loose.n: Invalid value: 9: loose.n in body should be less than or equal to 5`,
		`loose.tags[1]: Duplicate value: "a"`,
		`loose.inner.m: Invalid value: 9: loose.inner.m in body should be less than or equal to 5`,
	}
	builtIn := mustValidator(t, s, Options{BuiltIn: true})
	assertSameSet(t, 0, errStrings(t, builtIn, obj, nil), create)
	// An unchanged update: only what ratchets becomes a warning.
	errs, warns := builtIn.ValidateWithWarnings(context.Background(), obj, obj)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assertSameSet(t, 1, got, []string{create[0], create[1], create[2], create[6]})
	assertSameSet(t, 2, warns, []string{create[3], create[4]})
	// A custom resource's validation ratchets everywhere (CRDs carry no
	// x-kubernetes-ratcheting: the apiserver prunes it).
	crd := mustValidator(t, `{"type":"object","properties":{
		"fixed":{"type":"integer","maximum":5},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}`, Options{})
	crdObj := mustJSON(t, `{"fixed":9,"tags":["b","b"]}`)
	assertSameSet(t, 3, errStrings(t, crd, crdObj, crdObj), nil)
}

// TestBuiltInRatchetingKeylessItems: a built-in list that ratchets
// (admission match conditions, ignoreValidatingAdmissionPolicyMatchConditions
// in k8s.io/kubernetes pkg/apis/admissionregistration/validation) is
// unchanged when it is deep-equal to the old list, even where an item lacks
// its list-map key and so correlates with no old item: its keyword and
// rule errors become warnings. A custom resource correlates map-list
// items by key only (CorrelatedObject.CachedDeepEqual), so there the
// keyless item's errors stay errors.
func TestBuiltInRatchetingKeylessItems(t *testing.T) {
	const s = `{"type":"object","properties":{
		"conds":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"x-kubernetes-ratcheting":true,
			"items":{"type":"object","required":["name"],
				"x-kubernetes-validations":[{"rule":"self.?expression.orValue('') != ''","message":"expression required"}],
				"properties":{"name":{"type":"string"},"expression":{"type":"string"}}}}}}`
	obj := mustJSON(t, `{"conds":[{"expression":""}]}`)
	create := []string{
		`conds[0].name: Required value`,
		`conds[0]: Invalid value: null: expression required`,
	}
	builtIn := mustValidator(t, s, Options{BuiltIn: true})
	assertSameSet(t, 0, errStrings(t, builtIn, obj, nil), create)
	errs, warns := builtIn.ValidateWithWarnings(context.Background(), obj, obj)
	if len(errs) != 0 {
		t.Errorf("built-in, unchanged list with a keyless item: errors %v, want none", errs)
	}
	assertSameSet(t, 1, warns, create)
	// a changed list is checked again
	changed := mustJSON(t, `{"conds":[{"expression":""},{"name":"b","expression":"x"}]}`)
	assertSameSet(t, 2, errStrings(t, builtIn, changed, obj), create)
	const crdSchema = `{"type":"object","properties":{
		"conds":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","required":["name"],
				"x-kubernetes-validations":[{"rule":"self.?expression.orValue('') != ''","message":"expression required"}],
				"properties":{"name":{"type":"string"},"expression":{"type":"string"}}}}}}`
	crd := mustValidator(t, crdSchema, Options{})
	assertSameSet(t, 3, errStrings(t, crd, obj, obj), []string{
		`conds[0].name: Required value`,
		`<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
	})
}
