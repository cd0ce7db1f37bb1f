package validation

import (
	"context"
	"testing"
)

// TestReportedAt: x-kubernetes-reported-at on a property reports every
// error at or below it (keywords, list types, rules) at the path it names,
// as ValidateNode reports spec.taints at metadata.taints; a sibling whose
// name shares the prefix keeps its own path.
func TestReportedAt(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"spec":{"type":"object","x-kubernetes-ratcheting":true,"properties":{
			"taints":{"type":"array","x-kubernetes-reported-at":"metadata.taints","x-kubernetes-list-type":"set","maxItems":3,
				"items":{"type":"object","properties":{"key":{"type":"string","maxLength":2,
					"x-kubernetes-validations":[{"rule":"self != 'x'","message":"not x"}]}}}},
			"taintsMore":{"type":"integer","maximum":1}}}}}`, Options{BuiltIn: true})
	obj := mustJSON(t, `{"spec":{"taints":[{"key":"abc"},{"key":"x"},{"key":"x"},{}],"taintsMore":2}}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`metadata.taints: Too many: 4: must have at most 3 items`,
		`metadata.taints[0].key: Too long: may not be more than 2 bytes`,
		`metadata.taints[2]: Duplicate value: {"key":"x"}`,
		`metadata.taints[1].key: Invalid value: null: not x`,
		`metadata.taints[2].key: Invalid value: null: not x`,
		`spec.taintsMore: Invalid value: 2: spec.taintsMore in body should be less than or equal to 1`,
	})
	// On update, an unchanged bad value where the schema ratchets is
	// ratcheted into a warning, which names the reported path too.
	old := mustJSON(t, `{"spec":{"taints":[{"key":"abc"}]}}`)
	_, warns := v.ValidateWithWarnings(context.Background(), mustJSON(t, `{"spec":{"taints":[{"key":"abc"}]}}`), old)
	assertSameSet(t, 1, warns, []string{`metadata.taints[0].key: Too long: may not be more than 2 bytes`})
}

// TestUniqueTuple: x-kubernetes-unique-key naming several properties keeps
// a set of tuples, as validateNodeTaints keeps (key, effect) pairs: every
// repeat is reported at list[i] with the whole item; missing and "" compare
// equal, so two items with none of the properties are duplicates too.
func TestUniqueTuple(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"taints":{"type":"array","x-kubernetes-unique-key":"key,effect",
			"x-kubernetes-validation-errors":{"uniqueKey":{"reason":"FieldValueDuplicate","message":"taints must be unique by key and effect pair"}},
			"items":{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"string"},"effect":{"type":"string"}}}}}}`, Options{BuiltIn: true})
	obj := mustJSON(t, `{"taints":[
		{"key":"a","effect":"E","value":"1"},{"key":"a","effect":"F"},{"key":"a","effect":"E","value":"2"},{"key":"a","effect":"E"},
		{"effect":"E"},{"key":"","effect":"E"},{},{}]}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`taints[2]: Duplicate value: {"effect":"E","key":"a","value":"2"}: taints must be unique by key and effect pair`,
		`taints[3]: Duplicate value: {"effect":"E","key":"a"}: taints must be unique by key and effect pair`,
		`taints[5]: Duplicate value: {"effect":"E","key":""}: taints must be unique by key and effect pair`,
		`taints[7]: Duplicate value: {}: taints must be unique by key and effect pair`,
	})
}

// TestUniqueTupleOfOne: "name," is a tuple of one key (validation-gen's
// +k8s:unique=map on an atomic list, ValSliceUnique): every repeat at
// list[i] with the item, not at list[i].name; over maxItems only the
// maxItems error, as validation-gen's maxItems short-circuits.
func TestUniqueTupleOfOne(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"requests":{"type":"array","maxItems":3,"x-kubernetes-unique-key":"name,",
			"items":{"type":"object","properties":{"name":{"type":"string"},"count":{"type":"integer"}}}}}}`, Options{BuiltIn: true})
	assertSameSet(t, 0, errStrings(t, v, mustJSON(t, `{"requests":[{"name":"a","count":1},{"name":"b"},{"name":"a","count":2}]}`), nil), []string{
		`requests[2]: Duplicate value: {"count":2,"name":"a"}`,
	})
	assertSameSet(t, 1, errStrings(t, v, mustJSON(t, `{"requests":[{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"}]}`), nil), []string{
		`requests: Too many: 4: must have at most 3 items`,
	})
}
