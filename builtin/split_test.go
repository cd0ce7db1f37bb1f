package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// splitData slices every embedded data file exactly as encoding/json
// decodes it into rawData (the same kinds, the same definitions byte for
// byte, the same goFields), and refuses text that is not such an object.
func TestSplitData(t *testing.T) {
	for _, minor := range Versions() {
		j := dataJSON(t, minor)
		var want rawData
		if err := json.Unmarshal(j, &want); err != nil {
			t.Fatal(err)
		}
		got, err := splitData(j)
		if err != nil {
			t.Fatalf("1.%d: %v", minor, err)
		}
		if !reflect.DeepEqual(got.Kinds, want.Kinds) || !bytes.Equal(got.GoFields, want.GoFields) || len(got.Schemas) != len(want.Schemas) {
			t.Fatalf("1.%d: kinds, goFields or the number of schemas differ (%d, want %d)", minor, len(got.Schemas), len(want.Schemas))
		}
		for name, raw := range want.Schemas {
			if !bytes.Equal(got.Schemas[name], raw) {
				t.Errorf("1.%d: schema %s differs", minor, name)
			}
		}
		if len(got.GoLayouts) == 0 || len(got.GoLayouts) != len(want.GoLayouts) {
			t.Errorf("1.%d: %d Go layouts, want %d", minor, len(got.GoLayouts), len(want.GoLayouts))
		}
		for name, raw := range want.GoLayouts {
			if !bytes.Equal(got.GoLayouts[name], raw) {
				t.Errorf("1.%d: Go layout %s differs", minor, name)
			}
		}
	}
	for _, bad := range []string{``, `[]`, `{"kinds":`, `{"schemas":{"a":{"b":"}}}`, `{"a" 1}`, `{"a":1,}x`, `{"kinds":[1]}`} {
		if _, err := splitData([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		} else if !errors.Is(err, errSyntax) && bad != `{"kinds":[1]}` {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func BenchmarkSplitData(b *testing.B) {
	j := dataJSON(b, 37)
	b.Run("split", func(b *testing.B) {
		for b.Loop() {
			if _, err := splitData(j); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var d rawData
			if err := json.Unmarshal(j, &d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzSplitData: the splitter never panics or reads out of bounds, and
// what it accepts has kinds encoding/json accepts.
func FuzzSplitData(f *testing.F) {
	for _, s := range []string{`{}`, `{"kinds":[],"schemas":{"a":{"b":"}\"{"}},"goFields":{"x":[1,{"y":"]"}]}}`, `{"a":"\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, j []byte) {
		d, err := splitData(j)
		if err != nil {
			return
		}
		if d.Kinds != nil {
			b, _ := json.Marshal(d.Kinds)
			var k rawData
			if json.Unmarshal([]byte(`{"kinds":`+string(b)+`}`), &k) != nil {
				t.Errorf("kinds do not round-trip")
			}
		}
	})
}

// dataJSON is the uncompressed text of the embedded data file of 1.<minor>.
func dataJSON(tb testing.TB, minor int) []byte {
	tb.Helper()
	j, err := readData(minor)
	if err != nil {
		tb.Fatal(err)
	}
	return j
}
