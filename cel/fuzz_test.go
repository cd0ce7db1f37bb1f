package cel

import (
	"context"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
)

const fuzzSchema = `
	type: object
	properties:
		s: {type: string, maxLength: 20}
		i: {type: integer}
		n: {type: number}
		b: {type: boolean}
		d: {type: string, format: date-time}
		dur: {type: string, format: duration}
		by: {type: string, format: byte}
		ios: {x-kubernetes-int-or-string: true}
		m: {type: object, additionalProperties: {type: string}}
		set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
		lm:
			type: array
			x-kubernetes-list-type: map
			x-kubernetes-list-map-keys: [k]
			items:
				type: object
				properties:
					k: {type: string}
					v: {type: integer, x-kubernetes-validations: [{rule: "self >= 0"}, {rule: "self == oldSelf"}]}
		emb: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
		"dot.dash-x": {type: string}
	`

// FuzzValidate: arbitrary rules, message expressions, field paths and
// values never panic, neither at compile time nor at evaluation, and the
// fast path (ValidateObject) agrees with tracked evaluation, and kdv's value
// adaptor with the apiserver's.
func FuzzValidate(f *testing.F) {
	f.Add("self.s == 'x'", "'msg ' + self.s", ".s", []byte(`{"s":"x","i":1,"lm":[{"k":"a","v":1}]}`), []byte(`{"lm":[{"k":"a","v":2}]}`))
	f.Add("self.lm.all(x, x.v > 0)", "", "", []byte(`{"lm":[{"k":"a","v":-1}],"m":{"a":"b"}}`), []byte(`null`))
	f.Add("oldSelf.i < self.i", "string(self.i)", "['dot.dash-x']", []byte(`{"i":"notint","d":"bad","dur":"1x","by":"!!"}`), []byte(`{"i":3}`))
	f.Add("self.ios == 1 || self.ios == '2%'", "", ".m.k", []byte(`{"ios":[1],"emb":{"apiVersion":1,"metadata":"x"}}`), []byte(`[]`))
	f.Add("self.dot__dot__dash__dash__x.size() < 3", "", ".", []byte(`"str"`), []byte(`{"set":["a","a"]}`))
	schemaBase := yamlSchema(f, fuzzSchema)
	f.Fuzz(func(t *testing.T, rule, msgExpr, fieldPath string, objJSON, oldJSON []byte) {
		if len(rule) > 2000 || len(msgExpr) > 2000 || len(objJSON) > 10000 || len(oldJSON) > 10000 {
			return
		}
		var obj, old any
		if utiljson.Unmarshal(objJSON, &obj) != nil {
			obj = string(objJSON)
		}
		if utiljson.Unmarshal(oldJSON, &old) != nil {
			old = nil
		}
		s := withRule(schemaBase, rule)
		s.XValidations[0].MessageExpression = msgExpr
		s.XValidations[0].FieldPath = fieldPath
		tr := true
		s.XValidations[0].OptionalOldSelf = &tr
		v, _ := NewValidator(s, true, Options{FieldPath: field.NewPath("spec", "validation", "openAPIV3Schema")})
		_, _ = v.Validate(context.Background(), nil, obj, nil, RuntimeCELCostBudget)
		_, _, _ = v.ValidateWithWarnings(context.Background(), field.NewPath("x"), obj, old, 1000)
		// the untracked fast path gives exactly the tracked errors and
		// warnings, at any budget
		assertSameAsTracked(t, "create", v, nil, obj, nil, RuntimeCELCostBudget)
		assertSameAsTracked(t, "update", v, field.NewPath("x"), obj, old, 1000)
		if _, _, rem := v.ValidateWithWarnings(context.Background(), nil, obj, old, RuntimeCELCostBudget); rem >= 0 && rem < RuntimeCELCostBudget {
			c := RuntimeCELCostBudget - rem
			assertSameAsTracked(t, "update at the actual cost", v, nil, obj, old, c)
			assertSameAsTracked(t, "update below the actual cost", v, nil, obj, old, c-1)
		}
		_, _, _ = ValidFieldPath(fieldPath, s)
		// kdv's value adaptor agrees with the apiserver's, costs included
		ref, _ := NewValidator(s, true, Options{SkipCheck: true})
		ref.toVal = common.UnstructuredToVal
		for _, o := range [][2]any{{obj, nil}, {obj, old}} {
			ge, gw, gr := v.ValidateWithWarnings(context.Background(), nil, o[0], o[1], RuntimeCELCostBudget)
			we, ww, wr := ref.ValidateWithWarnings(context.Background(), nil, o[0], o[1], RuntimeCELCostBudget)
			if !equalStrings(errList(ge), errList(we)) || !equalStrings(gw, ww) || gr != wr {
				t.Errorf("values.ToVal differs from common.UnstructuredToVal:\n got %q %q %d\nwant %q %q %d", errList(ge), gw, gr, errList(we), ww, wr)
			}
		}
	})
}
