package values

import (
	"fmt"
	"strings"
	"testing"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"sigs.k8s.io/yaml"

	"kdv.dev/cel/internal/model"
	"kdv.dev/schema/schematest"
)

// A schema with every shape ToVal handles itself or hands to the
// apiserver: escaped property names, nullable fields, atomic, set and map
// lists, maps, int-or-string, an embedded resource, preserved unknown
// fields and formats.
const testSchema = `
type: object
properties:
  name: {type: string}
  dash-name: {type: string}
  dot.name: {type: string}
  under__score: {type: string}
  namespace: {type: string}
  if: {type: string}
  nullable: {type: string, nullable: true}
  count: {type: integer}
  ratio: {type: number}
  flag: {type: boolean}
  port: {x-kubernetes-int-or-string: true}
  when: {type: string, format: date-time}
  timeout: {type: string, format: duration}
  data: {type: string, format: byte}
  atomic:
    type: array
    items:
      type: object
      properties:
        a: {type: string}
        b: {type: integer}
  strings: {type: array, items: {type: string}}
  setA: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  setB: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  mapA:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string}
        value: {type: integer}
        nested:
          type: object
          properties:
            deep: {type: string}
  mapB:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string}
        value: {type: integer}
        nested:
          type: object
          properties:
            deep: {type: string}
  labels: {type: object, additionalProperties: {type: string}}
  objects:
    type: object
    additionalProperties:
      type: object
      properties:
        x: {type: integer}
  embedded:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      spec: {type: object, properties: {v: {type: string}}}
  preserved:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      known: {type: string}
  nestedLists:
    type: array
    items: {type: array, items: {type: integer}}
`

const testObject = `
name: 'n'
dash-name: d
dot.name: dot
under__score: u
namespace: ns
if: kw
nullable: null
count: 3
ratio: 2
flag: true
port: http
when: "2024-01-02T03:04:05Z"
timeout: 5s
data: aGVsbG8=
atomic: [{a: x, b: 1}, {a: 'y', b: 2}, {a: x, b: 1}]
strings: [b, a, c]
setA: [a, b, c]
setB: [c, a, b]
mapA: [{name: one, value: 1, nested: {deep: d1}}, {name: two, value: 2}]
mapB: [{name: two, value: 2}, {name: one, value: 1, nested: {deep: d1}}]
labels: {app: web, tier: front}
objects: {k1: {x: 1}, k2: {x: 2}}
embedded: {apiVersion: v1, kind: K, metadata: {name: e}, spec: {v: vv}}
preserved: {known: k, unknown: {deep: [1, 2]}}
nestedLists: [[1, 2], [3]]
`

var expressions = []string{
	`self.name == 'n'`,
	`self.dash__dash__name + self.dot__dot__name + self.under__underscores__score`,
	`self.__namespace__ + self.__if__`,
	`has(self.nullable)`,
	`has(self.name) && !has(self.ratio) || true`,
	`self.?nullable.orValue('none')`,
	`self.?name.orValue('none')`,
	`self.count * 2 + int(self.ratio)`,
	`self.flag`,
	`self.port == 'http'`,
	`string(self.when)`,
	`string(self.timeout)`,
	`string(self.data)`,
	`self.atomic.size()`,
	`self.atomic[0] == self.atomic[2]`,
	`self.atomic[0] == self.atomic[1]`,
	`self.atomic[5].a`,
	`self.atomic[-1].a`,
	`self.atomic.all(e, e.a in ['x', 'y'])`,
	`self.atomic.exists_one(e, e.b == 2)`,
	`self.atomic.map(e, e.b).sum()`,
	`self.atomic.filter(e, e.a == 'x').size()`,
	`self.atomic[0] in self.atomic`,
	`dyn({'a': dyn('x'), 'b': dyn(1)}) in self.atomic`,
	`self.strings.join(',')`,
	`self.strings.sort().join(',')`,
	`self.strings.isSorted()`,
	`self.setA == self.setB`,
	`(self.setA + self.setB).size()`,
	`(self.setA + ['z']).join(',')`,
	`self.mapA == dyn(self.mapB)`,
	`self.mapA == dyn(self.mapB.filter(e, e.name == 'one'))`,
	`self.setA == dyn(['a', 'b'])`,
	`(self.mapA + dyn(self.mapB)).map(e, e.name).join(',')`,
	`(self.mapA + dyn(self.mapB)) == dyn(self.mapB)`,
	`(self.mapA + dyn([{'name': dyn('three'), 'value': dyn(3)}])).size()`,
	`(self.mapA + dyn([{'name': dyn('one'), 'value': dyn(9)}])).map(e, e.value).sum()`,
	`self.mapA.all(e, has(e.nested) ? e.nested.deep == 'd1' : e.value == 2)`,
	`self.mapA[0].nested == dyn(self.mapB[1].nested)`,
	`self.mapA[0] == dyn(self.mapB[1])`,
	`self.mapA[0] == dyn(self.mapB[0])`,
	`self.labels.app + self.labels['tier']`,
	`self.labels.all(k, self.labels[k] != '')`,
	`'app' in self.labels`,
	`self.labels.missing == 'x'`,
	`self.objects.k1.x + self.objects['k2'].x`,
	`self.objects.all(k, self.objects[k].x > 0)`,
	`self.objects.k1 == self.objects.k2`,
	`self.embedded.spec.v + self.embedded.metadata.name + self.embedded.kind`,
	`self.embedded == self.embedded`,
	`self.preserved.known`,
	`self.preserved == self.preserved`,
	`self.nestedLists[0] + self.nestedLists[1] == [1, 2, 3]`,
	`self.nestedLists.all(l, l.all(i, i > 0))`,
	`type(self.atomic) == list && type(self.labels) == map && type(self.atomic[0]) == map`,
	`self == self`,
	`self.atomic[0].a.size() + size(self.labels) + size(self.mapA)`,
	`dyn(self.preserved).unknown == 1`,
	`dyn(self.atomic[0]).c == 1`,
	`dyn(self.atomic[0])['a']`,
	`has(dyn(self.atomic[0]).c)`,
	`dyn(self.atomic[0]).a == 'x'`,
	`self.mapA.map(e, e.name) == ['one', 'two']`,
	`self.strings.indexOf('a')`,
	`self.atomic.map(e, e).size() == 3 && self.atomic.map(e, e)[0] == self.atomic[0]`,
}

// setup returns the test object, its schema adaptor
// and the stored-expressions environment with self typed by the schema.
func setup(t testing.TB) (map[string]any, common.Schema, *celgo.Env) {
	t.Helper()
	s := schematest.Structural(t, testSchema)
	j, err := yaml.YAMLToJSON([]byte(testObject))
	if err != nil {
		t.Fatal(err)
	}
	obj := schematest.JSON(t, string(j)).(map[string]any)
	adaptor := &model.Structural{Structural: s}
	declType := model.SchemaDeclType(s, false).MaybeAssignTypeName("selfType")
	envSet, err := environment.MustBaseEnvSet(version.MajorMinor(1, 35)).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        []celgo.EnvOption{celgo.Variable("self", declType.CelType())},
		DeclTypes:         []*apiservercel.DeclType{declType},
	})
	if err != nil {
		t.Fatal(err)
	}
	return obj, adaptor, envSet.StoredExpressionsEnv()
}

func TestToValMatchesApiserver(t *testing.T) {
	obj, adaptor, env := setup(t)
	for _, expr := range expressions {
		ast, iss := env.Compile(expr)
		if iss != nil && iss.Err() != nil {
			t.Errorf("%s: %v", expr, iss.Err())
			continue
		}
		prog, err := env.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		eval := func(v ref.Val) string {
			out, _, err := prog.Eval(map[string]any{"self": v})
			if err != nil {
				return "error: " + err.Error()
			}
			return fmt.Sprintf("%T %v", out.Value(), out.Value())
		}
		want := eval(common.UnstructuredToVal(obj, adaptor))
		got := eval(ToVal(obj, adaptor))
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", expr, got, want)
		} else {
			t.Logf("%s: %s", expr, got)
		}
	}
}

// BenchmarkFieldAccess evaluates a rule that walks a list of objects, with
// the apiserver's adaptor and with ToVal.
func BenchmarkFieldAccess(b *testing.B) {
	obj, adaptor, env := setup(b)
	ast, iss := env.Compile(`self.mapA.all(e, e.name != '' && (!has(e.nested) || e.nested.deep != '')) && self.atomic.all(e, e.a in ['x', 'y'] && e.b > 0)`)
	if iss != nil && iss.Err() != nil {
		b.Fatal(iss.Err())
	}
	prog, err := env.Program(ast)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		conv func(any, common.Schema) ref.Val
	}{{"apiserver", common.UnstructuredToVal}, {"ToVal", ToVal}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, _, err := prog.Eval(map[string]any{"self": c.conv(obj, adaptor)})
				if err != nil || out != types.True {
					b.Fatal(out, err)
				}
			}
		})
	}
}

// TestToValBuiltInBytes: ToValBuiltIn decodes format "byte" strings as
// encoding/json does (StdEncoding), at the root, in objects and in lists,
// where the apiserver's conversion (URLEncoding) fails on '+' and '/'.
func TestToValBuiltInBytes(t *testing.T) {
	s := &model.Structural{Structural: schematest.Structural(t, `
type: object
properties:
  b: {type: string, format: byte}
  l: {type: array, items: {type: string, format: byte}}
  m: {type: object, additionalProperties: {type: string, format: byte}}
`)}
	obj := map[string]any{"b": "+/8=", "l": []any{"AQ==", "//8="}, "m": map[string]any{"k": "+/8="}}
	want := []byte{0xfb, 0xff}
	for name, v := range map[string]ref.Val{
		"field": ToValBuiltIn(obj, s).(traits.Mapper).Get(types.String("b")),
		"root":  ToValBuiltIn("+/8=", s.Properties()["b"]),
	} {
		if b, ok := v.(types.Bytes); !ok || string(b) != string(want) {
			t.Errorf("%s: %v, want %v", name, v, want)
		}
	}
	l := ToValBuiltIn(obj, s).(traits.Mapper).Get(types.String("l")).(traits.Lister)
	if b, ok := l.Get(types.Int(1)).(types.Bytes); !ok || string(b) != "\xff\xff" {
		t.Errorf("list item: %v", l.Get(types.Int(1)))
	}
	it := l.Iterator()
	it.Next()
	if b, ok := it.Next().(types.Bytes); !ok || string(b) != "\xff\xff" {
		t.Errorf("iterated item: %v", b)
	}
	// a map of bytes (a Secret's data), with one key or several
	for _, mv := range []map[string]any{{"k": "+/8="}, {"k": "+/8=", "j": "AQ=="}} {
		obj["m"] = mv
		m := ToValBuiltIn(obj, s).(traits.Mapper).Get(types.String("m")).(traits.Mapper)
		if b, ok := m.Get(types.String("k")).(types.Bytes); !ok || string(b) != string(want) {
			t.Errorf("map value of %v: %v, want %v", mv, m.Get(types.String("k")), want)
		}
		if v, found := m.Find(types.String("absent")); found || v != nil {
			t.Errorf("map: absent key found: %v", v)
		}
		if m.Contains(types.String("k")) != types.True {
			t.Errorf("map: k not contained")
		}
	}
	// ToVal is the apiserver's: an error for the same text
	if v := ToVal(obj, s).(traits.Mapper).Get(types.String("b")); !types.IsError(v) {
		t.Errorf("ToVal: %v, want the apiserver's error", v)
	}
	// text that is no base64 is an error either way
	if v := ToValBuiltIn("%%", s.Properties()["b"]); !types.IsError(v) || !strings.Contains(fmt.Sprint(v), "Invalid byte formatted string") {
		t.Errorf("ToValBuiltIn(%%%%): %v", v)
	}
}

// TestToValBuiltInBytesEqual: objects and atomic lists of a built-in
// object holding standard base64 ('+', '/') compare by their decoded
// bytes (a transition rule's self == oldSelf on a PodCertificateRequest's
// spec), where the apiserver's equality fails to decode them; other
// fields still decide.
func TestToValBuiltInBytesEqual(t *testing.T) {
	s := &model.Structural{Structural: schematest.Structural(t, `
type: object
properties:
  b: {type: string, format: byte}
  str: {type: string}
  l: {type: array, items: {type: string, format: byte}}
`)}
	a := map[string]any{"b": "+/8=", "str": "x", "l": []any{"//8=", "AQ=="}}
	same := map[string]any{"b": "+/8=", "str": "x", "l": []any{"//8=", "AQ=="}}
	for name, c := range map[string]struct {
		other map[string]any
		want  ref.Val
	}{
		"same":              {same, types.True},
		"other bytes":       {map[string]any{"b": "AQ==", "str": "x", "l": []any{"//8=", "AQ=="}}, types.False},
		"other string":      {map[string]any{"b": "+/8=", "str": "y", "l": []any{"//8=", "AQ=="}}, types.False},
		"other list order":  {map[string]any{"b": "+/8=", "str": "x", "l": []any{"AQ==", "//8="}}, types.False},
		"a field fewer":     {map[string]any{"b": "+/8=", "l": []any{"//8=", "AQ=="}}, types.False},
		"a list item fewer": {map[string]any{"b": "+/8=", "str": "x", "l": []any{"//8="}}, types.False},
	} {
		if got := ToValBuiltIn(a, s).Equal(ToValBuiltIn(c.other, s)); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	// the apiserver's conversion cannot compare them
	if got := ToVal(a, s).Equal(ToVal(same, s)); got == types.True {
		t.Errorf("ToVal: %v, want the apiserver's error", got)
	}
}

// A built-in object's lists compare in order whatever their list type, as
// Semantic.DeepEqual compares the Go slices; the apiserver's map list finds
// the other's items by key, so one whose key repeats is unequal even to
// itself (a pod with two env entries of one name).
func TestToValBuiltInMapListEqual(t *testing.T) {
	s := &model.Structural{Structural: schematest.Structural(t, `
type: object
properties:
  env:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, value: {type: string}}}
  set:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
`)}
	a := map[string]any{"env": []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "A", "value": "2"}}, "set": []any{"x", "y"}}
	for name, c := range map[string]struct {
		other map[string]any
		want  ref.Val
	}{
		"same, a key repeated": {map[string]any{"env": []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "A", "value": "2"}}, "set": []any{"x", "y"}}, types.True},
		"map list reordered":   {map[string]any{"env": []any{map[string]any{"name": "A", "value": "2"}, map[string]any{"name": "A", "value": "1"}}, "set": []any{"x", "y"}}, types.False},
		"set reordered":        {map[string]any{"env": []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "A", "value": "2"}}, "set": []any{"y", "x"}}, types.False},
	} {
		if got := ToValBuiltIn(a, s).Equal(ToValBuiltIn(c.other, s)); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	// the apiserver's conversion finds a list with a repeated key unequal
	// to itself
	if got := ToVal(a, s).Equal(ToVal(a, s)); got == types.True {
		t.Errorf("ToVal: a map list with a repeated key equals itself; the apiserver's values changed")
	}
}
