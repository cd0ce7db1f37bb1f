package validation

import "testing"

// TestSkipUpdateValidation: x-kubernetes-skip-update-validation on a
// property (ResourceClaim's spec: ValidateResourceClaimUpdate checks only
// that it did not change) leaves its value unvalidated on update: no
// keyword, list type or rule at or below it; a rule of the parent (the
// immutability check) still runs. On create it is validated as usual.
func TestSkipUpdateValidation(t *testing.T) {
	v := mustValidator(t, `{"type":"object",
		"x-kubernetes-validations":[{"rule":"self.spec == oldSelf.spec","message":"field is immutable","fieldPath":".spec"}],
		"properties":{
		"spec":{"type":"object","x-kubernetes-skip-update-validation":true,
			"x-kubernetes-validations":[{"rule":"self.n != 3","message":"not 3"}],
			"properties":{
			"n":{"type":"integer","maximum":5},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"inner":{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self != 'bad'","message":"bad"}]}}}}},
		"other":{"type":"integer","maximum":5}}}`, Options{BuiltIn: true})
	obj := mustJSON(t, `{"spec":{"n":7,"tags":["a","a"],"inner":{"s":"bad"}},"other":9}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`spec.n: Invalid value: 7: spec.n in body should be less than or equal to 5`,
		`spec.tags[1]: Duplicate value: "a"`,
		`spec.inner.s: Invalid value: null: bad`,
		`other: Invalid value: 9: other in body should be less than or equal to 5`,
	})
	old := mustJSON(t, `{"spec":{"n":1},"other":1}`)
	assertSameSet(t, 1, errStrings(t, v, obj, old), []string{
		`spec: Invalid value: null: field is immutable`,
		`other: Invalid value: 9: other in body should be less than or equal to 5`,
	})
	three := mustJSON(t, `{"spec":{"n":3}}`)
	assertSameSet(t, 2, errStrings(t, v, three, nil), []string{`spec: Invalid value: null: not 3`})
	assertSameSet(t, 3, errStrings(t, v, three, mustJSON(t, `{"spec":{}}`)), []string{`spec: Invalid value: null: field is immutable`})
}

// TestSkipValidation: x-kubernetes-skip-validation on a property (a
// StatefulSet's pod template in 1.30 to 1.33, which ValidateStatefulSetSpec
// does not validate) leaves its value unvalidated on create and update
// alike; a rule of the parent that reads it still runs.
func TestSkipValidation(t *testing.T) {
	v := mustValidator(t, `{"type":"object",
		"x-kubernetes-validations":[{"rule":"self.spec.n != 4","message":"not 4","fieldPath":".spec"}],
		"properties":{
		"spec":{"type":"object","x-kubernetes-skip-validation":true,
			"x-kubernetes-validations":[{"rule":"self.n != 3","message":"not 3"}],
			"properties":{
			"n":{"type":"integer","maximum":2},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"inner":{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self != 'bad'","message":"bad"}]}}}}},
		"other":{"type":"integer","maximum":5}}}`, Options{BuiltIn: true})
	obj := mustJSON(t, `{"spec":{"n":3,"tags":["a","a"],"inner":{"s":"bad"}},"other":9}`)
	want := []string{`other: Invalid value: 9: other in body should be less than or equal to 5`}
	assertSameSet(t, 0, errStrings(t, v, obj, nil), want)
	assertSameSet(t, 1, errStrings(t, v, obj, mustJSON(t, `{"spec":{"n":1},"other":1}`)), want)
	assertSameSet(t, 2, errStrings(t, v, mustJSON(t, `{"spec":{"n":4}}`), nil), []string{`spec: Invalid value: null: not 4`})
}
