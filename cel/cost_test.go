package cel

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/cel/internal/model"
)

// TestCelCostStability mirrors cases of the apiserver's
// TestCelCostStability and TestCelEstimatedCostStability
// (schema/cel/celcoststability_test.go): the runtime cost charged to the
// budget and the static estimate of a rule must not drift from the
// apiserver's, or budgets would run out at different rules.
func TestCelCostStability(t *testing.T) {
	strs := `{type: object, properties: {val1: {type: string}, val2: {type: string}}}`
	cases := []struct {
		name, schema, obj string
		runtime           map[string]int64
		estimated         map[string]uint64
	}{
		{name: "unicode strings", schema: strs, obj: `{val1: "Rook takes 👑", val2: "Rook takes 👑"}`,
			runtime: map[string]int64{
				"self.val1.startsWith('Rook')":                   3,
				"!self.val1.startsWith('knight')":                4,
				"self.val1.matches('^[^0-9]*$')":                 8,
				"!self.val1.matches('^[0-9]*$')":                 7,
				"type(self.val1) == string":                      4,
				"size(self.val1) == 12":                          4,
				"self.val1.charAt(3) == 'k'":                     4,
				"self.val1.indexOf('o') == 1":                    4,
				"self.val1.replace(' ', 'x') == 'Rookxtakesx👑'":  7,
				"self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
				"self.val1.substring(4, 10).trim() == 'takes'":   6,
				"self.val1.upperAscii() == 'ROOK TAKES 👑'":       6,
			},
			estimated: map[string]uint64{
				"self.val1.startsWith('Rook')":   3,
				"self.val1.matches('^[^0-9]*$')": 943721,
				"!self.val1.matches('^[0-9]*$')": 629149,
				"type(self.val1) == string":      4,
				"self.val1.charAt(3) == 'k'":     4,
				"self.val1.indexOf('o') == 1":    314576,
			},
		},
		{name: "quantity", schema: strs, obj: `{val1: "20", val2: "200M"}`,
			estimated: map[string]uint64{
				`isQuantity(self.val1)`: 314575,
				`isQuantity("200M")`:    1,
				`quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")`: 6,
				`quantity(self.val1).isLessThan(quantity(self.val2))`:                          629151,
				`quantity(self.val1).isInteger()`:                                              314576,
			},
		},
		{name: "lists", schema: `{type: object, properties: {val1: {type: array, items: {type: integer}}}}`, obj: `{val1: [1, 2]}`,
			runtime: map[string]int64{
				`lists.range(4) == [0,1,2,3]`:                                  16,
				`[5,1,2,3].reverse() == [3,2,1,5]`:                             16,
				`[4, 3, 2, 1].sort() == [1, 2, 3, 4]`:                          44,
				`[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]`: 145,
				`[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]`:         140,
			},
		},
		{name: "optionals", schema: `{type: object, properties: {obj: {type: object, properties: {field: {type: string}}}, m: {type: object, additionalProperties: {type: string}}, l: {type: array, items: {type: string}}}}`, obj: `{obj: {field: a}, m: {k: v}, l: [a]}`,
			estimated: map[string]uint64{
				"self.obj.?field.orValue('v') == 'a'":                          5,
				"optional.ofNonZeroValue(1).hasValue()":                        2,
				"optional.of([1, 2, 3, 4, 5]).optMap(v, v.size()).hasValue()":  38,
				"optional.of('abcdefgabcdefg').optMap(v, v.size()).hasValue()": 18,
				"self.l[?0].optMap(v, v == 'a').hasValue()":                    22,
			},
		},
	}
	for _, c := range cases {
		base := yamlSchema(t, c.schema)
		obj := yamlObj(t, c.obj)
		for rule, want := range c.runtime {
			t.Run(c.name+"/runtime/"+rule, func(t *testing.T) {
				v, _ := NewValidator(withRule(base, rule), true, Options{SkipCheck: true})
				errs, rem := v.Validate(context.Background(), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				if got := RuntimeCELCostBudget - rem; got != want {
					t.Errorf("runtime cost %d, want %d", got, want)
				}
			})
		}
		for rule, want := range c.estimated {
			t.Run(c.name+"/estimated/"+rule, func(t *testing.T) {
				s := withRule(base, rule)
				res, err := compileRules(s, model.SchemaDeclType(s, false), PerCallLimit, baseEnvSet(Options{}.compatibilityVersion()), newExpressions, false, false, nil)
				if err != nil || len(res) != 1 || res[0].err != nil {
					t.Fatalf("%v %v", err, res)
				}
				if res[0].maxCost != want {
					t.Errorf("estimated cost %d, want %d", res[0].maxCost, want)
				}
			})
		}
	}
}
