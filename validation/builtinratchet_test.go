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
