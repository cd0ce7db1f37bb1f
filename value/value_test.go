package value

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

type inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type Embedded struct {
	E1 string `json:"e1"`
	E2 string `json:"shadowed"`
}

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("k-" + string(k)), nil }

type marshals struct{ N int }

func (m marshals) MarshalJSON() ([]byte, error) { return []byte(`{"custom":[1,2.5,"x"]}`), nil }

type sample struct {
	Embedded `json:",inline"`
	*inner
	Shadowed    string               `json:"shadowed"`
	S           string               `json:"s"`
	OmitS       string               `json:"omitS,omitempty"`
	OmitZero    time.Time            `json:"omitZero,omitzero"`
	I8          int8                 `json:"i8"`
	U           uint64               `json:"u"`
	F32         float32              `json:"f32"`
	F64         float64              `json:"f64"`
	FInt        float64              `json:"fInt"`
	Big         float64              `json:"big"`
	B           bool                 `json:"b"`
	Bytes       []byte               `json:"bytes"`
	NilBytes    []byte               `json:"nilBytes"`
	NilSlice    []string             `json:"nilSlice"`
	NilMap      map[string]int       `json:"nilMap"`
	NilPtr      *inner               `json:"nilPtr"`
	EmptySlice  []string             `json:"emptySlice,omitempty"`
	Arr         [2]int               `json:"arr"`
	Map         map[string]inner     `json:"map"`
	IntKeys     map[int]string       `json:"intKeys"`
	TextKeys    map[textKey]int      `json:"textKeys"`
	Iface       any                  `json:"iface"`
	IfaceTyped  any                  `json:"ifaceTyped"`
	Q           resource.Quantity    `json:"q"`
	QPtr        *resource.Quantity   `json:"qPtr,omitempty"`
	IOS         intstr.IntOrString   `json:"ios"`
	IOSStr      intstr.IntOrString   `json:"iosStr"`
	T           metav1.Time          `json:"t"`
	ZeroT       metav1.Time          `json:"zeroT,omitempty"`
	MT          metav1.MicroTime     `json:"mt"`
	D           metav1.Duration      `json:"d"`
	Raw         runtime.RawExtension `json:"raw"`
	RawMsg      json.RawMessage      `json:"rawMsg"`
	Custom      marshals             `json:"custom"`
	AsString    int                  `json:"asString,string"`
	Skipped     string               `json:"-"`
	unexported  string               //nolint:unused
	Untagged    string
	NestedSlice [][]map[string]string `json:"nestedSlice"`
}

// TestTypedMatchesJSON checks that a typed value reads exactly like its JSON
// encoding decoded by the apiserver's decoder.
func TestTypedMatchesJSON(t *testing.T) {
	s := sample{
		Embedded: Embedded{E1: "e1", E2: "shadowed by outer"},
		inner:    &inner{A: "promoted"},
		Shadowed: "outer", S: "s", I8: -3, U: 7, F32: 0.1, F64: 2.5, FInt: 3, Big: 1e20, B: true,
		Bytes: []byte("hello"), Arr: [2]int{1, 2},
		Map:      map[string]inner{"x": {A: "y", B: 2}},
		IntKeys:  map[int]string{1: "one", -2: "minus two"},
		TextKeys: map[textKey]int{"a": 1},
		Iface:    map[string]any{"k": []any{int64(1), "v"}}, IfaceTyped: &inner{A: "i"},
		Q: resource.MustParse("1500m"), QPtr: resource.NewQuantity(1024, resource.BinarySI),
		IOS: intstr.FromInt32(80), IOSStr: intstr.FromString("http"),
		T: metav1.Unix(1700000000, 0), MT: metav1.NewMicroTime(time.Unix(1700000000, 123456000)),
		D:        metav1.Duration{Duration: 1500 * time.Millisecond},
		Raw:      runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","n":1.5}`)},
		RawMsg:   json.RawMessage(`[true,null]`),
		AsString: 42, Skipped: "no", unexported: "no", Untagged: "u",
		NestedSlice: [][]map[string]string{{{"a": "b"}}, nil},
	}
	b, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := utiljson.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got := Of(&s).Unstructured()
	if !reflect.DeepEqual(got, want) {
		gb, _ := json.Marshal(got)
		t.Errorf("typed read differs from JSON:\n got %s\nwant %s", gb, b)
		gm, wm := got.(map[string]any), want.(map[string]any)
		for k := range wm {
			if !reflect.DeepEqual(gm[k], wm[k]) {
				t.Errorf("%s: got %#v, want %#v", k, gm[k], wm[k])
			}
		}
		for k := range gm {
			if _, ok := wm[k]; !ok {
				t.Errorf("extra key %s", k)
			}
		}
	}
	if !Equal(Of(&s), Of(want)) {
		t.Error("Equal(typed, unstructured) = false")
	}
}

func TestKinds(t *testing.T) {
	cases := []struct {
		x    any
		kind Kind
	}{
		{nil, KindNull}, {true, KindBool}, {int64(1), KindInt}, {1, KindInt}, {int32(1), KindInt},
		{1.5, KindFloat}, {float32(1.5), KindFloat}, {json.Number("3"), KindInt}, {json.Number("3.5"), KindFloat},
		{"s", KindString}, {[]any{}, KindList}, {map[string]any{}, KindMap}, {[]string{"a"}, KindList},
		{map[string]string{}, KindMap}, {(*inner)(nil), KindNull}, {inner{}, KindMap}, {uint64(math.MaxUint64), KindFloat},
		{3.0, KindFloat}, // unstructured floats keep their kind; typed ones follow JSON
	}
	for _, c := range cases {
		if k := Of(c.x).Kind(); k != c.kind {
			t.Errorf("Of(%#v).Kind() = %v, want %v", c.x, k, c.kind)
		}
	}
	type f struct {
		F float64 `json:"f"`
	}
	if k, _ := Of(f{F: 3}).Get("f"); k.Kind() != KindInt || k.Int() != 3 {
		t.Errorf("typed integral float: kind %v, int %d", k.Kind(), k.Int())
	}
	if got := Of(float32(0.1)).Float(); got != 0.1 {
		t.Errorf("float32(0.1) reads %v, want 0.1", got)
	}
}

func TestUnstructuredObject(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{"kind": "X"}}
	if k, ok := Of(u).Get("kind"); !ok || k.Str() != "X" || Of(u).IsTyped() {
		t.Errorf("*unstructured.Unstructured not read through its Object")
	}
}

func TestEqual(t *testing.T) {
	a := map[string]any{"x": []any{int64(1), "s", map[string]any{"y": nil}}}
	b := map[string]any{"x": []any{int64(1), "s", map[string]any{"y": nil}}}
	if !Equal(Of(a), Of(b)) {
		t.Error("equal maps differ")
	}
	b["x"].([]any)[0] = 1.0
	if Equal(Of(a), Of(b)) {
		t.Error("int64(1) and float64(1) compare equal; reflect.DeepEqual says they differ")
	}
	if Equal(Of(map[string]any{"a": nil}), Of(map[string]any{})) {
		t.Error("a null entry equals a missing one")
	}
}

// TestUnstructuredNoAlloc checks the hot path: reading unstructured values
// allocates nothing.
func TestUnstructuredNoAlloc(t *testing.T) {
	obj := map[string]any{"a": []any{"x", int64(2), 1.5, true, nil, map[string]any{"b": "c"}}}
	v := Of(obj)
	n := testing.AllocsPerRun(100, func() {
		a, _ := v.Get("a")
		for i := 0; i < a.Len(); i++ {
			x := a.Index(i)
			switch x.Kind() {
			case KindString:
				_ = x.Str()
			case KindMap:
				x.Range(func(k string, y Value) bool { _ = y.Str(); return true })
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per read", n)
	}
}

type ptrMarshals struct{ N int }

func (p *ptrMarshals) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }

// TestPointerReceiverMarshaler follows encoding/json: a MarshalJSON on *T is
// used for addressable values only (not for map values).
func TestPointerReceiverMarshaler(t *testing.T) {
	x := struct {
		P ptrMarshals            `json:"p"`
		M map[string]ptrMarshals `json:"m"`
	}{P: ptrMarshals{1}, M: map[string]ptrMarshals{"k": {2}}}
	b, _ := json.Marshal(&x)
	var want any
	_ = utiljson.Unmarshal(b, &want)
	if got := Of(&x).Unstructured(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v (%s)", got, want, b)
	}
}
