package cel

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/google/cel-go/common/types"

	"kdv.dev/cel/internal/values"
	"kdv.dev/schema"
)

// proveRules exercise every construct the prover models, in the shapes the
// built-in rule overlay uses, and a few it must leave to CEL.
var proveRules = []string{
	`has(self.s)`,
	`!has(self.s) || self.s != ''`,
	`self.?s.orValue('') != ''`,
	`self.?s.orValue('x').matches('^[a-z]+$')`,
	`self.?s.orValue('').startsWith('a') || self.?s.orValue('').endsWith('z') || self.?s.orValue('').contains('-')`,
	`size(self.?s.orValue('')) <= 3`,
	`self.?s.orValue('').size() < 2`,
	`!has(self.s) || self.s.split('/').exists(p, p == '..')`,
	`self.s < 'm'`,
	`self.?num.orValue(0) >= 0`,
	`self.?num.orValue(0) != 0 && self.num <= 65535`,
	`self.?num.orValue(1) + 1 > 1`,
	`self.?d.orValue(0.0) > 0.5`,
	`self.?d.orValue(0.0) == 1.0`,
	`self.?d.orValue(1.0) >= self.?num.orValue(1)`,
	`self.?b.orValue(false) || !has(self.num)`,
	`has(self.b) ? self.b : true`,
	`self.?l.orValue([]).all(x, x != '')`,
	`self.?l.orValue([]).exists(x, x == 'a')`,
	`self.?l.orValue([]).exists_one(x, x == 'a')`,
	`size(self.?l.orValue([])) == 0 || self.l[0] != 'b'`,
	`self.?l.orValue([]).filter(x, x.startsWith('a')).size() <= 1`,
	`self.?l.orValue([]).map(x, size(x)).all(n, n < 3)`,
	`'a' in self.?l.orValue([]) || !has(self.m)`,
	`self.?m.orValue({}).all(k, self.m[k] != '')`,
	`!('k' in self.?m.orValue({})) || self.m['k'] == 'v'`,
	`self.?o.?px.orValue('') == '' || self.o.?py.orValue(0) > 0`,
	`!has(self.o) || !has(self.o.px) || self.o.px in ['a', 'b', 'c']`,
	`self.?ol.orValue([]).all(i, i.?name.orValue('') != '' && i.name != 'x')`,
	`self.?ol.orValue([]).all(i, self.ol.filter(j, j.?name.orValue('') == i.?name.orValue('')).size() == 1)`,
	`!has(self.io) || type(self.io) != int || (self.io >= 1 && self.io <= 65535)`,
	`!has(self.io) || type(self.io) == string || self.io != 0`,
	`[has(self.s), has(self.num), has(self.b)].filter(x, x).size() <= 1`,
	`self.?s.orValue('') == self.?o.?px.orValue('')`,
	`dyn(self.?num.orValue(0)) == dyn(self.?d.orValue(0.0)) || dyn(self.?io.orValue(0)) == 80`,
	`!format.dns1123Label().validate(self.?s.orValue('a')).hasValue()`,
	`self.?m.orValue({}).all(k, format.qualifiedName().validate(k).orValue([]).size() < 2 && !format.labelValue().validate(self.m[k]).hasValue())`,
	`format.dns1035Label().validate(self.?o.?px.orValue('x')).orValue(['a', 'b']).size() == 2`,
	`!has(self.q) || quantity(self.q).isGreaterThan(quantity('0'))`,
	`!has(self.q) || !isQuantity(self.q) || !quantity(self.q).isLessThan(quantity('0'))`,
	`!has(self.q) || !isQuantity(self.q) || quantity(self.q).compareTo(quantity('1')) <= 0`,
	`self.?s.orValue('').lowerAscii() == self.?s.orValue('')`,
	`self.?s.orValue('') == self.?s.orValue('').trim()`,
	`!self.?s.orValue('').split('/').exists(p, p == '..')`,
	`size(self.?s.orValue('')) == size(bytes(self.?s.orValue('')))`,
	`self.?m.orValue({}).all(k, !format.qualifiedName().validate(k.lowerAscii()).hasValue())`,
	`size(self.?l.orValue([])) - 1 < 3`,
	`self.?s.orValue('a/b').split('/')[self.?s.orValue('a/b').split('/').size() - 1] != ''`,
	`self.?m.orValue({}).all(k, !k.startsWith('x') || self.m[k] in ['', 'a'])`,
	`self.?m[?'k'].orValue('') == '' || self.m['k'] == 'v'`,
	`self.?m[?'k'].hasValue() || size(self.?m.orValue({})) < 3`,
	`self.?m.orValue({}).map(k, size(bytes(self.m[k]))).sum() <= 6`,
	`self.?m.orValue({}).filter(k, self.m[k] == 'v').size() <= 1`,
	`self.?m.orValue({}).map(k, k + '=' + self.m[k]) != ['k=v', 'k2=x']`,
	`self.?l.orValue([]).map(x, size(x)).sum() < 4`,
	`[9223372036854775807, self.?num.orValue(0)].sum() > 0`,
	// left to CEL: the prover must say nothing wrong around them
	`self.?num.orValue(0) - 9223372036854775800 < 0`,
	`self.?m.orValue({'k': 'v'}).all(k, k != '')`,
	`self.s != ''`,
	`self.l[3] != 'x'`,
	`self.?num.orValue(0) + 9223372036854775800 > 0`,
}

const proveSchema = `type: object
properties:
  s: {type: string}
  num: {type: integer}
  d: {type: number}
  b: {type: boolean}
  q: {type: string}
  l: {type: array, items: {type: string}}
  m: {type: object, additionalProperties: {type: string}}
  o: {type: object, properties: {px: {type: string}, py: {type: integer}}}
  ol: {type: array, items: {type: object, properties: {name: {type: string}}}}
  io: {x-kubernetes-int-or-string: true}
`

// randomProveObject draws an object whose fields are each absent or one of
// a few values chosen to hit the rules' edges.
func randomProveObject(r *rand.Rand) map[string]any {
	strs := []any{"", "a", "b", "abc", "a-z", "x/../y", "zz", "k", "é", "m", " a ", "A/B", "..", "Ab\t"}
	ints := []any{int64(0), int64(1), int64(-1), int64(65535), int64(65536), int64(9)}
	pick := func(vs []any) any { return vs[r.Intn(len(vs))] }
	obj := map[string]any{}
	maybe := func(k string, v func() any) {
		if r.Intn(3) > 0 {
			obj[k] = v()
		}
	}
	maybe("s", func() any { return pick(strs) })
	maybe("num", func() any { return pick(ints) })
	maybe("d", func() any { return pick([]any{0.0, 0.5, 1.0, 2.5, int64(1), int64(0)}) })
	maybe("b", func() any { return r.Intn(2) == 0 })
	maybe("q", func() any { return pick([]any{"1", "0", "-1", "1Gi", "x", "1.5", "-0.1m", ""}) })
	maybe("l", func() any {
		l := []any{}
		for i := r.Intn(4); i > 0; i-- {
			l = append(l, pick(strs))
		}
		return l
	})
	maybe("m", func() any {
		m := map[string]any{}
		for i := r.Intn(3); i > 0; i-- {
			m[pick(strs).(string)] = pick(strs)
		}
		return m
	})
	maybe("o", func() any {
		o := map[string]any{}
		if r.Intn(2) == 0 {
			o["px"] = pick(strs)
		}
		if r.Intn(2) == 0 {
			o["py"] = pick(ints)
		}
		return o
	})
	maybe("ol", func() any {
		l := []any{}
		for i := r.Intn(3); i > 0; i-- {
			it := map[string]any{}
			if r.Intn(3) > 0 {
				it["name"] = pick(strs)
			}
			l = append(l, it)
		}
		return l
	})
	maybe("io", func() any { return pick([]any{int64(0), int64(80), int64(70000), "http", ""}) })
	return obj
}

// proveHarness holds the rules of proveRules compiled on proveSchema.
type proveHarness struct {
	v   *Validator
	nr  *nodeRules
	idx *vacuityIndex
}

func newProveHarness(t testing.TB) *proveHarness {
	s := yamlSchema(t, proveSchema)
	for _, rule := range proveRules {
		s.XValidations = append(s.XValidations, schema.ValidationRule{Rule: rule})
	}
	v, errs := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	nr := v.root.compiledRules()
	if nr.err != nil {
		t.Fatal(nr.err)
	}
	for j := range nr.compiled {
		if nr.compiled[j].err != nil {
			t.Fatalf("%s: %v", proveRules[j], nr.compiled[j].err)
		}
	}
	idx := newVacuityIndex(nr.compiled)
	if idx == nil {
		t.Fatal("no vacuity index for the prover's rules")
	}
	return &proveHarness{v: v, nr: nr, idx: idx}
}

// check compares the prover and the vacuity test of every rule with CEL
// on obj; it returns how many evaluations the prover decided and how many
// pass in CEL.
func (h *proveHarness) check(t testing.TB, obj any) (proven, passing int) {
	act, _ := h.v.root.activations(obj, nil, values.ToVal)
	for j := range h.nr.compiled {
		c := &h.nr.compiled[j]
		want, _, err := c.program.Eval(act)
		if err == nil && want == types.True {
			passing++
		}
		if c.vacuity.skip(obj, func(empty map[string]any) bool {
			a, _ := h.v.root.activations(empty, nil, values.ToVal)
			r, _, err := c.program.Eval(a)
			return err == nil && r == types.True
		}) && (err != nil || want != types.True) {
			t.Errorf("%s on %v: skipped as vacuous, CEL %v %v", proveRules[j], obj, want, err)
		}
		if m, isMap := obj.(map[string]any); isMap && h.idx != nil && c.vacuity != nil {
			empty := func(empty map[string]any) bool {
				a, _ := h.v.root.activations(empty, nil, values.ToVal)
				r, _, err := c.program.Eval(a)
				return err == nil && r == types.True
			}
			if c.vacuity.skipPresent(h.idx.present(m), h.idx.masks[j], empty) != c.vacuity.skip(obj, empty) {
				t.Errorf("%s on %v: the node's vacuity index and the rule's own test disagree", proveRules[j], obj)
			}
		}
		env := newProveEnv(obj)
		got, ok := c.prover(env)
		if !ok {
			continue
		}
		proven++
		if err != nil {
			t.Errorf("%s on %v: prover %v, CEL error %v", proveRules[j], obj, got, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want.Value()) {
			t.Errorf("%s on %v: prover %v, CEL %v", proveRules[j], obj, got, want)
		}
	}
	return proven, passing
}

// TestProverAgreesWithCEL: wherever the prover gives a result, CEL's
// program gives the same, without an error; the prover shows most passing
// evaluations of the rules it models; and a rule skipped as vacuous
// (vacuous.go) holds in CEL.
func TestProverAgreesWithCEL(t *testing.T) {
	h := newProveHarness(t)
	r := rand.New(rand.NewSource(1))
	proven, passing := 0, 0
	for i := 0; i < 3000; i++ {
		p, q := h.check(t, randomProveObject(r))
		proven += p
		passing += q
	}
	if proven < passing/2 {
		t.Errorf("the prover decided %d evaluations, fewer than half of the %d passing ones", proven, passing)
	}
	t.Logf("%d evaluations decided by the prover; %d pass in CEL", proven, passing)
}

// FuzzProver: the prover and the vacuity test agree with CEL on any object
// (JSON decoded as the apiserver decodes it, whole numbers as int64).
func FuzzProver(f *testing.F) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20; i++ {
		b, _ := json.Marshal(randomProveObject(r))
		f.Add(b)
	}
	h := newProveHarness(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj any
		if err := utiljson.Unmarshal(data, &obj); err != nil {
			return
		}
		m, ok := obj.(map[string]any)
		if !ok || !proveWellTyped(m) {
			return
		}
		h.check(t, obj)
	})
}

// proveWellTyped reports whether obj has proveSchema's types, as built-in
// objects have after decoding (the prover's precondition).
func proveWellTyped(obj map[string]any) bool {
	isStr := func(v any) bool { _, ok := v.(string); return ok }
	isInt := func(v any) bool { _, ok := v.(int64); return ok }
	strList := func(v any) bool {
		l, ok := v.([]any)
		for _, x := range l {
			ok = ok && isStr(x)
		}
		return ok
	}
	for k, v := range obj {
		ok := false
		switch k {
		case "s", "q":
			ok = isStr(v)
		case "num":
			ok = isInt(v)
		case "d":
			_, f := v.(float64)
			ok = f || isInt(v)
		case "b":
			_, ok = v.(bool)
		case "l":
			ok = strList(v)
		case "io":
			ok = isStr(v) || isInt(v)
		case "m":
			m, isMap := v.(map[string]any)
			ok = isMap
			for _, x := range m {
				ok = ok && isStr(x)
			}
		case "o":
			m, isMap := v.(map[string]any)
			ok = isMap
			for pk, x := range m {
				ok = ok && (pk == "px" && isStr(x) || pk == "py" && isInt(x))
			}
		case "ol":
			l, isList := v.([]any)
			ok = isList
			for _, it := range l {
				m, isMap := it.(map[string]any)
				ok = ok && isMap
				for pk, x := range m {
					ok = ok && pk == "name" && isStr(x)
				}
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestProverDecidesLiterals checks that the empty map literal (the default
// of self.?m.orValue({}), in most annotation and resource-name rules) and
// integer subtraction are decided by the prover rather than left to CEL:
// each used to send its rule to CEL on every object.
func TestProverDecidesLiterals(t *testing.T) {
	h := newProveHarness(t)
	want := map[string]bool{
		`self.?m.orValue({}).all(k, self.m[k] != '')`:                                           true,
		`size(self.?l.orValue([])) - 1 < 3`:                                                     true,
		`self.?s.orValue('a/b').split('/')[self.?s.orValue('a/b').split('/').size() - 1] != ''`: true,
		`self.?m.orValue({}).all(k, !k.startsWith('x') || self.m[k] in ['', 'a'])`:              true,
		`self.?num.orValue(0) - 9223372036854775800 < 0`:                                        false, // overflows for -1: left to CEL
		`self.?m.orValue({'k': 'v'}).all(k, k != '')`:                                           false, // non-empty map literals are not modelled
		// an annotation read by key (m[?'k']), and a map's values summed
		// (ConfigMap's size): each used to send its rule to CEL
		`self.?m[?'k'].orValue('') == '' || self.m['k'] == 'v'`:         true,
		`self.?m.orValue({}).map(k, size(bytes(self.m[k]))).sum() <= 6`: true,
		`self.?l.orValue([]).map(x, size(x)).sum() < 4`:                 true,
	}
	obj := map[string]any{"s": "x/y", "l": []any{"a"}, "num": int64(-10)}
	withMap := map[string]any{"l": []any{"a", "bc"}, "m": map[string]any{"k": "v", "k2": "w"}}
	for j, rule := range proveRules {
		w, ok := want[rule]
		if !ok {
			continue
		}
		delete(want, rule)
		o := obj
		if strings.Contains(rule, "sum()") || strings.Contains(rule, "[?'k']") {
			o = withMap
		}
		got, decided := h.nr.compiled[j].prover(newProveEnv(o))
		if decided != w || (decided && got != true) {
			t.Errorf("%s: prover (%v, %v), want decided %v (true)", rule, got, decided, w)
		}
	}
	for rule := range want {
		t.Errorf("%s: not in proveRules", rule)
	}
}

// proveTransitionRules read oldSelf: plainly (an update only) or with
// optionalOldSelf (also on create, oldSelf none), as the Service rules
// that used to fall back to CEL on every Service do.
var proveTransitionRules = []struct {
	rule     string
	optional bool
}{
	{`self.?s.orValue('') == oldSelf.?s.orValue('')`, false},
	{`self.?num.orValue(0) >= oldSelf.?num.orValue(0)`, false},
	{`!oldSelf.hasValue() || self.?s.orValue('') != 'x' || oldSelf.value().?s.orValue('') != 'x' || oldSelf.value().?num == self.?num`, true},
	{`!oldSelf.hasValue() || oldSelf.value().?l.orValue([]) == [] || size(self.?l.orValue([])) > 0`, true},
	{`self.?l.orValue([]) == [] || self.l == ['a'] || oldSelf.hasValue()`, true},
	{`oldSelf.value().?s.orValue('') != 'zz'`, true}, // an error on create: left to CEL
}

// TestProverTransitionRules: on creates and updates of random objects the
// prover agrees with CEL on rules reading oldSelf, and decides most.
func TestProverTransitionRules(t *testing.T) {
	s := yamlSchema(t, proveSchema)
	for _, r := range proveTransitionRules {
		opt := r.optional
		s.XValidations = append(s.XValidations, schema.ValidationRule{Rule: r.rule, OptionalOldSelf: &opt})
	}
	v, errs := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	nr := v.root.compiledRules()
	rnd := rand.New(rand.NewSource(3))
	decided := make([]int, len(nr.compiled))
	for i := 0; i < 2000; i++ {
		obj := randomProveObject(rnd)
		var old any
		if i%3 != 0 {
			old = randomProveObject(rnd)
		}
		act, optAct := v.root.activations(obj, old, values.ToVal)
		for j := range nr.compiled {
			c := &nr.compiled[j]
			if c.err != nil {
				t.Fatalf("%s: %v", proveTransitionRules[j].rule, c.err)
			}
			opt := proveTransitionRules[j].optional
			if old == nil && !opt {
				continue
			}
			a := act
			env := newProveEnv(obj)
			switch {
			case opt && old == nil:
				a, env.old, env.oldSet = optAct, proveNone, true
			case opt:
				a, env.old, env.oldSet = optAct, proveOptional{val: old, ok: true}, true
			default:
				env.old, env.oldSet = old, true
			}
			want, _, err := c.program.Eval(a)
			got, ok := c.prover(env)
			if !ok {
				continue
			}
			decided[j]++
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want.Value()) {
				t.Errorf("%s on %v (old %v): prover %v, CEL %v %v", proveTransitionRules[j].rule, obj, old, got, want, err)
			}
		}
	}
	for j, n := range decided {
		if n == 0 && j != len(decided)-1 {
			t.Errorf("%s: never decided by the prover", proveTransitionRules[j].rule)
		}
	}
	t.Logf("decided: %v", decided)
}
