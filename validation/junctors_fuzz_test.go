package validation

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"kdv.dev/schema"
)

// junctorGen turns fuzz bytes into a schema with nested allOf, anyOf,
// oneOf and not, and a value to validate against it. Exhausted input reads
// as zeros, which end every choice with the smallest option.
type junctorGen struct {
	b []byte
	// unordered is set when a schema has two properties: kube-openapi
	// visits them in Go map order, so its errors come in random order.
	unordered bool
}

func (g *junctorGen) next() int {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return int(c)
}

var (
	genPatterns = []string{"^a", "b$", "^[ab]+$", "c", "^$", "("}
	genEnums    = [][]any{{"a", "b"}, {int64(1), int64(2)}, {"a", int64(1)}, {"ab"}}
	genTypes    = []string{"", "string", "integer", "number", "object", "array", "boolean"}
	genStrings  = []string{"", "a", "ab", "abc", "ba", "c", "bb"}
)

// schema generates a schema of depth levels at most. Structural nodes
// (the root and its properties and items) may have a type; junctor
// clauses mostly have none, as in CRDs.
func (g *junctorGen) schema(depth int, structural bool) map[string]any {
	m := map[string]any{}
	flags := g.next()<<8 | g.next()
	if t := genTypes[g.next()%len(genTypes)]; t != "" && (structural || flags&1 != 0) {
		m["type"] = t
	}
	if flags&2 != 0 {
		m["minimum"] = int64(g.next()%6 - 2)
	}
	if flags&4 != 0 {
		m["maximum"] = int64(g.next() % 4)
	}
	if flags&8 != 0 {
		m["maxLength"] = int64(g.next() % 4)
	}
	if flags&16 != 0 {
		m["minLength"] = int64(g.next() % 4)
	}
	if flags&32 != 0 {
		m["pattern"] = genPatterns[g.next()%len(genPatterns)]
	}
	if flags&64 != 0 {
		m["enum"] = genEnums[g.next()%len(genEnums)]
	}
	if flags&128 != 0 {
		switch g.next() % 4 {
		case 0:
			m["minItems"] = int64(1)
		case 1:
			m["maxItems"] = int64(1)
		case 2:
			m["minProperties"] = int64(1)
		case 3:
			m["maxProperties"] = int64(1)
		}
	}
	if flags&256 != 0 {
		m["required"] = []any{[]string{"a", "b"}[g.next()%2]}
	}
	if depth > 0 && flags&512 != 0 {
		props := map[string]any{"a": g.schema(depth-1, structural)}
		if g.next()%4 == 0 {
			props["b"] = g.schema(depth-1, structural)
			g.unordered = true
		}
		m["properties"] = props
	}
	if depth > 0 && flags&1024 != 0 {
		m["items"] = g.schema(depth-1, structural)
	}
	if depth > 0 {
		for i, k := range []string{"allOf", "anyOf", "oneOf"} {
			if flags&(2048<<i) != 0 {
				clauses := make([]any, 1+g.next()%3)
				for j := range clauses {
					clauses[j] = g.schema(depth-1, false)
				}
				m[k] = clauses
			}
		}
		if flags&16384 != 0 {
			m["not"] = g.schema(depth-1, false)
		}
	}
	return m
}

// value generates a value nested depth levels at most.
func (g *junctorGen) value(depth int) any {
	switch k := g.next() % 9; {
	case k == 0:
		return nil
	case k == 1:
		return g.next()%2 == 0
	case k == 2 || k == 3:
		return int64(g.next()%7 - 2)
	case k == 4:
		return []float64{1.5, -0.5, 2.25}[g.next()%3]
	case k == 5 || depth == 0:
		return genStrings[g.next()%len(genStrings)]
	case k == 6:
		l := make([]any, g.next()%4)
		for i := range l {
			l[i] = g.value(depth - 1)
		}
		return l
	default:
		m := map[string]any{}
		for i, n := 0, g.next()%4; i < n; i++ {
			m[[]string{"a", "b", "c"}[g.next()%3]] = g.value(depth - 1)
		}
		return m
	}
}

// countValues counts a value's nodes.
func countValues(x any) int {
	n := 1
	switch t := x.(type) {
	case []any:
		for _, e := range t {
			n += countValues(e)
		}
	case map[string]any:
		for _, e := range t {
			n += countValues(e)
		}
	}
	return n
}

// FuzzJunctors validates random schemas of nested allOf, anyOf, oneOf and
// not against random values and checks that kdv reports exactly the
// messages of kube-openapi's SchemaValidator (the apiserver's validator;
// in its order, unless a schema has two properties, which kube-openapi
// visits in random order) and that validate runs within workBound per
// value node: no clause with junctors is validated twice, whatever the
// nesting.
//
//	go test ./validation -run XXX -fuzz FuzzJunctors -fuzztime 60s
func FuzzJunctors(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x38\x00\x01\x04\x02\x00\x00\x00\x01\x00\x05\x03"))
	f.Add([]byte("\xff\xff\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"))
	f.Add([]byte("\x78\x20\x00\x02\x01\x78\x20\x00\x00\x03\x78\x20\x00\x00\x05\x00\x28\x00\x00\x01\x05\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The time bound: an input still running after 10s crashes the
		// worker, which reports it.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("FuzzJunctors input %q runs for over 10s", data))
			}
		}()
		g := &junctorGen{b: data}
		sch := g.schema(5, true)
		obj := g.value(3)
		schemaJSON, err := json.Marshal(sch)
		if err != nil {
			t.Fatal(err)
		}
		var p schema.Props
		if err := json.Unmarshal(schemaJSON, &p); err != nil {
			t.Fatal(err)
		}
		s, err := schema.NewStructural(&p)
		if err != nil {
			return
		}
		v, err := New(s, Options{SkipCEL: true})
		if err != nil {
			t.Fatal(err)
		}
		_, got, visits := run(v, obj)
		want := openAPIMessages(t, schemaJSON, obj)
		if g.unordered {
			got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("schema %s, value %s:\n got %q\nwant %q", schemaJSON, jsonString(obj), got, want)
		}
		if limit := workBound(v.root) * countValues(obj); visits > limit {
			t.Errorf("schema %s, value %s: validate ran %d times, more than the bound %d (work bound x values)", schemaJSON, jsonString(obj), visits, limit)
		}
	})
}

func jsonString(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}
