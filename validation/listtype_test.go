package validation

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// Ported from apiextensions-apiserver pkg/apiserver/schema/listtype
// validation_test.go: the errors are matched by type and path, as there.
func TestListTypeApiserverCases(t *testing.T) {
	set := `{"type":"array","x-kubernetes-list-type":"set"}`
	mapList := func(keys string) string {
		return `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":[` + keys + `],"items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}`
	}
	cases := []struct {
		name   string
		schema string
		obj    map[string]any
		want   []string // "<type> <path>"
	}{
		{"list without items", `{"type":"object","properties":{"array":{"type":"array"}}}`,
			map[string]any{"array": []any{"a", "b", "a"}}, nil},
		{"set list with one item", `{"type":"object","properties":{"array":` + set + `}}`,
			map[string]any{"array": []any{"a"}}, nil},
		{"set list with two equal items", `{"type":"object","properties":{"array":` + set + `}}`,
			map[string]any{"array": []any{"a", "a"}}, []string{"FieldValueDuplicate root.array[1]"}},
		{"set list with multiple duplicated items", `{"type":"object","properties":{"array":` + set + `}}`,
			map[string]any{"array": []any{"a", "a", "b", "c", "d", "c"}}, []string{"FieldValueDuplicate root.array[1]", "FieldValueDuplicate root.array[5]"}},
		{"set list under additionalProperties", `{"type":"object","additionalProperties":` + set + `}`,
			map[string]any{"array": []any{"a", "a"}}, []string{"FieldValueDuplicate root[array][1]"}},
		{"set list under items", `{"type":"object","properties":{"array":{"type":"array","items":` + set + `}}}`,
			map[string]any{"array": []any{[]any{"a", "a"}, []any{"b"}}}, []string{"FieldValueDuplicate root.array[0][1]"}},
		{"set list with compound items", `{"type":"object","additionalProperties":` + set + `}`,
			map[string]any{
				"strings":             []any{"a", "b", "a"},
				"integers":            []any{int64(1), int64(2), int64(1)},
				"booleans":            []any{false, true, true},
				"float64":             []any{1.0, 2.0, 2.0},
				"nil":                 []any{"a", nil, nil},
				"empty maps":          []any{map[string]any{"a": "b"}, map[string]any{}, map[string]any{}},
				"map values":          []any{map[string]any{"a": "b"}, map[string]any{"a": "c"}, map[string]any{"a": "b"}},
				"nil values":          []any{map[string]any{"a": nil}, map[string]any{"b": "c", "a": nil}},
				"array":               []any{[]any{}, []any{"a"}, []any{"b"}, []any{"a"}},
				"nil array":           []any{[]any{}, []any{nil}, []any{nil, nil}, []any{nil}, []any{"a"}},
				"multiple duplicates": []any{map[string]any{"a": "b"}, map[string]any{"a": "c"}, map[string]any{"a": "b"}, map[string]any{"a": "c"}, map[string]any{"a": "c"}},
			}, []string{
				"FieldValueDuplicate root[strings][2]", "FieldValueDuplicate root[integers][2]", "FieldValueDuplicate root[booleans][2]",
				"FieldValueDuplicate root[float64][2]", "FieldValueDuplicate root[nil][2]", "FieldValueDuplicate root[empty maps][2]",
				"FieldValueDuplicate root[map values][2]", "FieldValueDuplicate root[array][3]", "FieldValueDuplicate root[nil array][3]",
				"FieldValueDuplicate root[multiple duplicates][2]", "FieldValueDuplicate root[multiple duplicates][3]",
			}},
		{"map list with compound map items", `{"type":"object","properties":{` +
			`"strings":` + mapList(`"a"`) + `,"integers":` + mapList(`"a"`) + `,"booleans":` + mapList(`"a"`) + `,"float64":` + mapList(`"a"`) +
			`,"nil":` + mapList(`"a"`) + `,"array":` + mapList(`"a"`) + `,"one key":` + mapList(`"a"`) + `,"two keys":` + mapList(`"a","b"`) +
			`,"undefined key":` + mapList(`"a","b"`) + `,"compound key":` + mapList(`"a"`) + `,"nil key":` + mapList(`"a"`) +
			`,"nil item":` + mapList(`"a"`) + `,"nil item multiple keys":` + mapList(`"a","b"`) + `,"multiple duplicates":` + mapList(`"a"`) + `}}`,
			map[string]any{
				"strings":                []any{"a"},
				"integers":               []any{int64(1)},
				"booleans":               []any{false},
				"float64":                []any{1.0},
				"nil":                    []any{nil},
				"array":                  []any{[]any{"a"}},
				"one key":                []any{map[string]any{"a": "0", "c": "2"}, map[string]any{"a": "1", "c": "1"}, map[string]any{"a": "1", "c": "2"}, map[string]any{}},
				"two keys":               []any{map[string]any{"a": "1", "b": "1", "c": "1"}, map[string]any{"a": "1", "b": "2", "c": "2"}, map[string]any{"a": "1", "b": "2", "c": "3"}, map[string]any{}},
				"undefined key":          []any{map[string]any{"a": "1", "b": "1", "c": "1"}, map[string]any{"a": "1", "c": "2"}, map[string]any{"a": "1", "c": "3"}, map[string]any{}},
				"compound key":           []any{map[string]any{"a": []any{}, "c": "1"}, map[string]any{"a": nil, "c": "1"}, map[string]any{"a": []any{"a"}, "c": "1"}, map[string]any{"a": []any{"a", int64(42)}, "c": "2"}, map[string]any{"a": []any{"a", int64(42)}, "c": []any{"3"}}},
				"nil key":                []any{map[string]any{"a": []any{}, "c": "1"}, map[string]any{"a": nil, "c": "1"}, map[string]any{"c": "1"}, map[string]any{"a": nil}},
				"nil item":               []any{nil, map[string]any{"a": "0", "c": "1"}, map[string]any{"a": nil}, map[string]any{"c": "1"}},
				"nil item multiple keys": []any{nil, map[string]any{"b": "0", "c": "1"}, map[string]any{"a": nil}, map[string]any{"c": "1"}},
				"multiple duplicates": []any{
					map[string]any{"a": []any{}, "c": "1"}, map[string]any{"a": nil, "c": "1"}, map[string]any{"a": []any{"a"}, "c": "1"},
					map[string]any{"a": []any{"a", int64(42)}, "c": "2"}, map[string]any{"a": []any{"a", int64(42)}, "c": []any{"3"}},
					map[string]any{"a": []any{"a"}, "c": "1", "d": "1"}, map[string]any{"a": []any{"a"}, "c": "1", "d": "2"},
				},
			}, []string{
				"FieldValueInvalid root.strings[0]", "FieldValueInvalid root.integers[0]", "FieldValueInvalid root.booleans[0]",
				"FieldValueInvalid root.float64[0]", "FieldValueInvalid root.array[0]",
				"FieldValueDuplicate root.one key[2]", "FieldValueDuplicate root.two keys[2]", "FieldValueDuplicate root.undefined key[2]",
				"FieldValueDuplicate root.compound key[4]", "FieldValueDuplicate root.nil key[3]", "FieldValueDuplicate root.nil item[3]",
				"FieldValueDuplicate root.nil item multiple keys[3]", "FieldValueDuplicate root.multiple duplicates[4]",
				"FieldValueDuplicate root.multiple duplicates[5]",
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := mustValidator(t, tc.schema, Options{FieldPath: field.NewPath("root")})
			s := v.getState()
			defer putState(s)
			var got []string
			for _, e := range v.lists(s, value.Of(tc.obj)) {
				got = append(got, string(e.Type)+" "+e.Field)
			}
			sort.Strings(got)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}

func TestListTypeMessages(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"integer"}}}}}}`, Options{})
	obj := mustJSON(t, `{"s":["a","b","a"],"m":[{"name":"x","v":1},{"name":"x","v":2}]}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`s[2]: Duplicate value: "a"`,
		`m[1]: Duplicate value: {"name":"x"}`,
	})
	// On update, an old object that already violates the list types turns
	// the list-type check off (strategy.go).
	assertSameSet(t, 1, errStrings(t, v, obj, obj), nil)
	assertSameSet(t, 2, errStrings(t, v, obj, mustJSON(t, `{"s":["a"]}`)), []string{
		`s[2]: Duplicate value: "a"`,
		`m[1]: Duplicate value: {"name":"x"}`,
	})
}

func TestLargeSets(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"s":{"type":"array","x-kubernetes-list-type":"set"}}}`, Options{})
	var items []any
	for i := 0; i < 100; i++ {
		items = append(items, int64(i%40), "s", float64(i%3), nil, i%2 == 0, []any{int64(i % 50)})
	}
	// Mixed scalars and compounds: each distinct value repeats, reported once
	// at its second occurrence.
	errs := v.Validate(context.Background(), map[string]any{"s": items}, nil)
	want := 40 + 1 + 3 + 1 + 2 + 50
	if len(errs) != want {
		t.Errorf("got %d duplicates, want %d", len(errs), want)
	}
}

// x-kubernetes-unique-key: the hand-written validation's set of names seen
// in a list (k8s.io/kubernetes validateContainerPorts reports
// `ports[1].name: Duplicate value: "http"`; ValidateVolumeMounts
// `volumeMounts[1].mountPath: Invalid value: "/a": must be unique`): every
// repeat is reported, at the key; empty and absent keys are not compared.
func TestUniqueKey(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"ports":{"type":"array","x-kubernetes-unique-key":"name","items":{"type":"object","properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
		"mounts":{"type":"array","x-kubernetes-unique-key":"mountPath","x-kubernetes-validation-errors":{"uniqueKey":{"reason":"FieldValueInvalid","message":"must be unique"}},
			"items":{"type":"object","properties":{"mountPath":{"type":"string"}}}}}}`, Options{})
	obj := mustJSON(t, `{"ports":[{"name":"http","port":1},{"name":"http","port":2},{"port":3},{"name":"","port":4},{"port":5},{"name":"http"},{"name":"b"}],
		"mounts":[{"mountPath":"/a"},{"mountPath":"/b"},{"mountPath":"/a"}]}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`ports[1].name: Duplicate value: "http"`,
		`ports[5].name: Duplicate value: "http"`,
		`mounts[2].mountPath: Invalid value: "/a": must be unique`,
	})
	assertSameSet(t, 1, errStrings(t, v, mustJSON(t, `{"ports":[{"name":"a"},{"name":"b"},{}],"mounts":[{},{}]}`), nil), nil)
}

// Several keys ("name;devicePath", ValidateVolumeDevices' two sets of
// names and paths seen) are each checked on their own, every repeat
// reported at its own key with the list's override.
func TestUniqueKeys(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"devices":{"type":"array","x-kubernetes-unique-key":"name;devicePath","x-kubernetes-validation-errors":{"uniqueKey":{"reason":"FieldValueInvalid","message":"must be unique"}},
			"items":{"type":"object","properties":{"name":{"type":"string"},"devicePath":{"type":"string"}}}}}}`, Options{})
	obj := mustJSON(t, `{"devices":[{"name":"x","devicePath":"/d"},{"name":"y","devicePath":"/d"},{"name":"x","devicePath":"/e"},{"name":"x","devicePath":"/d"},{"devicePath":""},{"devicePath":""}]}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`devices[1].devicePath: Invalid value: "/d": must be unique`,
		`devices[2].name: Invalid value: "x": must be unique`,
		`devices[3].name: Invalid value: "x": must be unique`,
		`devices[3].devicePath: Invalid value: "/d": must be unique`,
	})
	assertSameSet(t, 1, errStrings(t, v, mustJSON(t, `{"devices":[{"name":"a","devicePath":"/a"},{"name":"b","devicePath":"/b"}]}`), nil), nil)
}

// A set of a built-in kind reports every repeat, as the hand-written sets
// of values seen (validatePodFailurePolicyRuleOnExitCodes:
// `values[4]: Duplicate value: 3` for [0, 0, 3, 3, 3]) and validation-gen's
// validate.Unique do; a custom resource's set only the second occurrence
// of each value, as apiextensions-apiserver does.
func TestSetRepeatsBuiltIn(t *testing.T) {
	const s = `{"type":"object","properties":{"values":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}}`
	obj := mustJSON(t, `{"values":[0,0,3,3,3,7]}`)
	assertSameSet(t, 0, errStrings(t, mustValidator(t, s, Options{BuiltIn: true}), obj, nil), []string{
		`values[1]: Duplicate value: 0`,
		`values[3]: Duplicate value: 3`,
		`values[4]: Duplicate value: 3`,
	})
	assertSameSet(t, 1, errStrings(t, mustValidator(t, s, Options{}), obj, nil), []string{
		`values[1]: Duplicate value: 0`,
		`values[3]: Duplicate value: 3`,
	})
	// more than 16 items (nonUnique's map path) and objects (compared whole)
	long := `{"values":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1,1]}`
	assertSameSet(t, 2, errStrings(t, mustValidator(t, s, Options{BuiltIn: true}), mustJSON(t, long), nil), []string{
		`values[16]: Duplicate value: 1`,
		`values[17]: Duplicate value: 1`,
	})
	const os = `{"type":"object","properties":{"values":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"integer"}}}}}}`
	assertSameSet(t, 3, errStrings(t, mustValidator(t, os, Options{BuiltIn: true}), mustJSON(t, `{"values":[{"a":1},{"a":1},{"a":2},{"a":1}]}`), nil), []string{
		`values[1]: Duplicate value: {"a":1}`,
		`values[3]: Duplicate value: {"a":1}`,
	})
}

// TestNonUniqueBuckets: on large lists of compounds, nonUnique (which
// groups compounds by their JSON encoding) finds the same repeats as
// comparing every item with every earlier one, 1 and 1.0 alike.
func TestNonUniqueBuckets(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	pairwise := func(items []any) []int {
		var out []int
		for i := range items {
			times := 0
			for j := 0; j < i; j++ {
				if setEqual(value.Of(items[i]), value.Of(items[j])) {
					times++
				}
			}
			if times == 1 {
				out = append(out, i)
			}
		}
		return out
	}
	for round := 0; round < 50; round++ {
		n := 17 + r.Intn(60)
		items := make([]any, n)
		for i := range items {
			switch r.Intn(5) {
			case 0:
				items[i] = map[string]any{"port": int64(r.Intn(4)), "protocol": []string{"TCP", "UDP"}[r.Intn(2)]}
			case 1:
				items[i] = map[string]any{"port": float64(r.Intn(4)), "protocol": "TCP"}
			case 2:
				items[i] = []any{int64(r.Intn(3)), "a"}
			case 3:
				items[i] = int64(r.Intn(5))
			default:
				items[i] = map[string]any{}
			}
		}
		got := nonUnique(n, func(i int) value.Value { return value.Of(items[i]) })
		if want := pairwise(items); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: nonUnique %v, pairwise %v\n%v", round, got, want, items)
		}
	}
}
