package value

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Typed values are read the way encoding/json would write them, so that a
// typed object validates exactly like its JSON round trip through the
// apiserver's decoder:
//
//   - structs are objects of their exported fields, named by json tags;
//     "-" skips a field; omitempty and omitzero drop empty fields; embedded
//     structs without a json name (and ",inline") are flattened, shallower
//     fields winning;
//   - nil pointers, interfaces, slices and maps are null unless omitted;
//   - []byte is a base64 string;
//   - floats whose value is integral read as KindInt, as "3" decodes to
//     int64(3); float32 values read as their shortest 32-bit decimal form;
//   - maps need string, integer or encoding.TextMarshaler keys;
//   - well-known Kubernetes types are read directly: resource.Quantity (its
//     canonical string), intstr.IntOrString (int or string), metav1.Time and
//     metav1.MicroTime (RFC 3339 string, null when zero), metav1.Duration;
//   - any other type implementing json.Marshaler or encoding.TextMarshaler
//     is marshalled and decoded to unstructured form (correct, but it
//     allocates), as is a field with the ",string" option.

type category uint8

const (
	catNull category = iota
	catBool
	catInt
	catUint
	catFloat32
	catFloat64
	catString
	catBytes
	catList
	catMap
	catStruct
	catQuantity
	catIntOrString
	catTime
	catMicroTime
	catDuration
	catMarshal
)

type fieldInfo struct {
	name      string
	index     []int
	omitEmpty bool
	omitZero  bool
	asString  bool
}

type typeInfo struct {
	cat        category
	ptrMarshal bool // *T implements json.Marshaler or encoding.TextMarshaler
	fields     []fieldInfo
	byName     map[string]int
}

var (
	typeCache         sync.Map // reflect.Type -> *typeInfo
	quantityType      = reflect.TypeOf(resource.Quantity{})
	intOrStringType   = reflect.TypeOf(intstr.IntOrString{})
	timeType          = reflect.TypeOf(metav1.Time{})
	microTimeType     = reflect.TypeOf(metav1.MicroTime{})
	durationType      = reflect.TypeOf(metav1.Duration{})
	marshalerType     = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	isZeroerType      = reflect.TypeOf((*interface{ IsZero() bool })(nil)).Elem()
)

func infoFor(t reflect.Type) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{}
	switch {
	case t == quantityType:
		ti.cat = catQuantity
	case t == intOrStringType:
		ti.cat = catIntOrString
	case t == timeType:
		ti.cat = catTime
	case t == microTimeType:
		ti.cat = catMicroTime
	case t == durationType:
		ti.cat = catDuration
	case t.Implements(marshalerType), t.Implements(textMarshalerType):
		ti.cat = catMarshal
	default:
		// Methods on *T apply only to addressable values, as in
		// encoding/json.
		ti.ptrMarshal = reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
		switch t.Kind() {
		case reflect.Bool:
			ti.cat = catBool
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ti.cat = catInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ti.cat = catUint
		case reflect.Float32:
			ti.cat = catFloat32
		case reflect.Float64:
			ti.cat = catFloat64
		case reflect.String:
			ti.cat = catString
		case reflect.Slice:
			if t.Elem().Kind() == reflect.Uint8 {
				ti.cat = catBytes
			} else {
				ti.cat = catList
			}
		case reflect.Array:
			ti.cat = catList
		case reflect.Map:
			ti.cat = catMap
		case reflect.Struct:
			ti.cat = catStruct
			ti.fields = structFields(t)
			ti.byName = make(map[string]int, len(ti.fields))
			for i, f := range ti.fields {
				ti.byName[f.name] = i
			}
		default: // chan, func, complex, unsafe pointer: not JSON
			ti.cat = catNull
		}
	}
	actual, _ := typeCache.LoadOrStore(t, ti)
	return actual.(*typeInfo)
}

// structFields flattens a struct's JSON fields following encoding/json:
// fields at a shallower depth win; among fields at the same depth a tagged
// one wins; otherwise the name is ambiguous and dropped.
func structFields(t reflect.Type) []fieldInfo {
	type cand struct {
		fieldInfo
		depth  int
		tagged bool
	}
	var cands []cand
	var walk func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			ft := sf.Type
			if sf.Anonymous {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if name == "" && et.Kind() == reflect.Struct {
					walk(et, idx, depth+1, seen)
					continue
				}
				if !sf.IsExported() && et.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tagged := name != ""
			if name == "" {
				name = sf.Name
			}
			f := fieldInfo{name: name, index: idx}
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty":
					f.omitEmpty = true
				case "omitzero":
					f.omitZero = true
				case "string":
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
						reflect.Float32, reflect.Float64, reflect.String:
						f.asString = true
					}
				}
			}
			cands = append(cands, cand{fieldInfo: f, depth: depth, tagged: tagged})
		}
	}
	walk(t, nil, 0, map[reflect.Type]bool{})

	byName := map[string][]int{}
	var order []string
	for i, c := range cands {
		if _, ok := byName[c.name]; !ok {
			order = append(order, c.name)
		}
		byName[c.name] = append(byName[c.name], i)
	}
	var out []fieldInfo
	for _, name := range order {
		idxs := byName[name]
		best, ambiguous := -1, false
		for _, i := range idxs {
			c := cands[i]
			switch {
			case best == -1 || c.depth < cands[best].depth:
				best, ambiguous = i, false
			case c.depth == cands[best].depth:
				if c.tagged && !cands[best].tagged {
					best, ambiguous = i, false
				} else if c.tagged == cands[best].tagged {
					ambiguous = true
				}
			}
		}
		if !ambiguous {
			out = append(out, cands[best].fieldInfo)
		}
	}
	return out
}

// typedOf resolves pointers and interfaces and wraps the result.
func typedOf(rv reflect.Value) Value {
	for {
		if !rv.IsValid() {
			return Value{}
		}
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() {
				return Value{}
			}
			rv = rv.Elem()
		case reflect.Interface:
			if rv.IsNil() {
				return Value{}
			}
			x := rv.Elem()
			if x.Kind() != reflect.Pointer && x.Kind() != reflect.Interface {
				// interfaces holding unstructured values read them directly
				switch x.Interface().(type) {
				case map[string]any, []any, string, bool, int64, float64:
					return Value{u: x.Interface(), js: true}
				}
			}
			rv = x
		default:
			ti := infoFor(rv.Type())
			if ti.cat == catMarshal || (ti.ptrMarshal && rv.CanAddr()) {
				return marshalled(rv)
			}
			return Value{rv: rv, ti: ti}
		}
	}
}

// marshalled reads a value through its MarshalJSON or MarshalText method.
func marshalled(rv reflect.Value) Value {
	var x any
	if !rv.CanAddr() {
		p := reflect.New(rv.Type())
		p.Elem().Set(rv)
		rv = p.Elem()
	}
	iface := rv.Addr().Interface()
	if m, ok := iface.(json.Marshaler); ok {
		b, err := m.MarshalJSON()
		if err != nil || utiljson.Unmarshal(b, &x) != nil {
			return Value{}
		}
		return Value{u: x}
	}
	if m, ok := iface.(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		if err != nil {
			return Value{}
		}
		return Value{u: string(b)}
	}
	return Value{}
}

func (v Value) typedKind() Kind {
	rv := v.rv
	switch v.ti.cat {
	case catBool:
		return KindBool
	case catInt:
		return KindInt
	case catUint:
		if rv.Uint() > math.MaxInt64 {
			return KindFloat
		}
		return KindInt
	case catFloat32, catFloat64:
		if _, ok := jsonInt(v.typedFloat()); ok {
			return KindInt
		}
		return KindFloat
	case catString, catDuration, catQuantity:
		return KindString
	case catBytes, catList:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return KindNull
		}
		if v.ti.cat == catBytes {
			return KindString
		}
		return KindList
	case catMap:
		if rv.IsNil() {
			return KindNull
		}
		return KindMap
	case catStruct:
		return KindMap
	case catIntOrString:
		if intstr.Type(rv.Field(iosType).Int()) == intstr.Int {
			return KindInt
		}
		return KindString
	case catTime:
		if asPtr[metav1.Time](rv).Time.IsZero() {
			return KindNull
		}
		return KindString
	case catMicroTime:
		if asPtr[metav1.MicroTime](rv).Time.IsZero() {
			return KindNull
		}
		return KindString
	}
	return KindNull
}

func (v Value) typedBool() bool {
	if v.ti.cat == catBool {
		return v.rv.Bool()
	}
	return false
}

func (v Value) typedInt() int64 {
	switch v.ti.cat {
	case catInt:
		return v.rv.Int()
	case catUint:
		return int64(v.rv.Uint())
	case catFloat32, catFloat64:
		i, _ := jsonInt(v.typedFloat())
		return i
	case catIntOrString:
		return v.rv.Field(iosInt).Int()
	}
	return 0
}

func (v Value) typedFloat() float64 {
	switch v.ti.cat {
	case catFloat64:
		return v.rv.Float()
	case catFloat32:
		var buf [32]byte
		f, _ := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], v.rv.Float(), 'g', -1, 32)), 64)
		return f
	case catUint:
		return float64(v.rv.Uint())
	}
	return float64(v.typedInt())
}

func (v Value) typedStr() string {
	rv := v.rv
	switch v.ti.cat {
	case catString:
		return rv.String()
	case catBytes:
		return base64.StdEncoding.EncodeToString(rv.Bytes())
	case catQuantity:
		return asPtr[resource.Quantity](rv).String()
	case catIntOrString:
		return rv.Field(iosStr).String()
	case catTime:
		return asPtr[metav1.Time](rv).UTC().Format("2006-01-02T15:04:05Z07:00")
	case catMicroTime:
		return asPtr[metav1.MicroTime](rv).UTC().Format(metav1.RFC3339Micro)
	case catDuration:
		return asPtr[metav1.Duration](rv).Duration.String()
	}
	return ""
}

func (v Value) typedLen() int {
	switch v.ti.cat {
	case catList, catMap:
		return v.rv.Len()
	case catStruct:
		n := 0
		for i := range v.ti.fields {
			if _, ok := v.field(i); ok {
				n++
			}
		}
		return n
	}
	return 0
}

func (v Value) typedIndex(i int) Value {
	return typedOf(v.rv.Index(i))
}

// field returns struct field i of the flattened field list, and whether it
// is present in the JSON form.
func (v Value) field(i int) (reflect.Value, bool) {
	f := &v.ti.fields[i]
	fv := v.rv
	for j, x := range f.index {
		if j > 0 && fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				return reflect.Value{}, false
			}
			fv = fv.Elem()
		}
		fv = fv.Field(x)
	}
	if f.omitEmpty && isEmpty(fv) {
		return reflect.Value{}, false
	}
	if f.omitZero && isZero(fv) {
		return reflect.Value{}, false
	}
	return fv, true
}

func (v Value) fieldValue(i int, fv reflect.Value) Value {
	if v.ti.fields[i].asString {
		for fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				return Value{}
			}
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.String {
			return Value{u: strconv.Quote(fv.String())}
		}
		b, _ := json.Marshal(fv.Interface())
		return Value{u: string(b)}
	}
	return typedOf(fv)
}

func (v Value) typedGet(key string) (Value, bool) {
	switch v.ti.cat {
	case catStruct:
		i, ok := v.ti.byName[key]
		if !ok {
			return Value{}, false
		}
		fv, ok := v.field(i)
		if !ok {
			return Value{}, false
		}
		return v.fieldValue(i, fv), true
	case catMap:
		if v.rv.IsNil() {
			return Value{}, false
		}
		if kt := v.rv.Type().Key(); kt.Kind() == reflect.String {
			x := v.rv.MapIndex(reflect.ValueOf(key).Convert(kt))
			if !x.IsValid() {
				return Value{}, false
			}
			return typedOf(x), true
		}
		found := Value{}
		ok := false
		v.typedRange(func(k string, x Value) bool {
			if k == key {
				found, ok = x, true
				return false
			}
			return true
		})
		if ok {
			return found, true
		}
	}
	return Value{}, false
}

func (v Value) typedRange(fn func(string, Value) bool) {
	switch v.ti.cat {
	case catStruct:
		for i := range v.ti.fields {
			fv, ok := v.field(i)
			if !ok {
				continue
			}
			if !fn(v.ti.fields[i].name, v.fieldValue(i, fv)) {
				return
			}
		}
	case catMap:
		if v.rv.IsNil() {
			return
		}
		kt := v.rv.Type().Key()
		it := v.rv.MapRange()
		k := reflect.New(kt).Elem() // reused: keys are read before the next iteration
		for it.Next() {
			k.SetIterKey(it)
			var ks string
			switch {
			case kt.Kind() == reflect.String: // before TextMarshaler, as encoding/json
				ks = k.String()
			case kt.Implements(textMarshalerType):
				b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
				if err != nil {
					continue
				}
				ks = string(b)
			case k.CanInt():
				ks = strconv.FormatInt(k.Int(), 10)
			case k.CanUint():
				ks = strconv.FormatUint(k.Uint(), 10)
			default:
				continue
			}
			if !fn(ks, typedOf(it.Value())) {
				return
			}
		}
	}
}

// Field indices of intstr.IntOrString.
var iosType, iosInt, iosStr = fieldIndex(intOrStringType, "Type"), fieldIndex(intOrStringType, "IntVal"), fieldIndex(intOrStringType, "StrVal")

func fieldIndex(t reflect.Type, name string) int {
	f, _ := t.FieldByName(name)
	return f.Index[0]
}

// asPtr returns a pointer to the value, without copying when it is
// addressable (the usual case below a pointer), so that reading
// well-known types does not allocate.
func asPtr[T any](rv reflect.Value) *T {
	if rv.CanAddr() {
		return rv.Addr().Interface().(*T)
	}
	x := rv.Interface().(T)
	return &x
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

func isZero(v reflect.Value) bool {
	if v.Type().Implements(isZeroerType) {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	}
	if v.CanAddr() && reflect.PointerTo(v.Type()).Implements(isZeroerType) {
		return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}
