package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Per-input bounds of the hostile fuzz targets: far above what any input
// they build needs, far below what an unbounded expansion takes.
const (
	fuzzMaxAlloc = 256 << 20
)

// refGraphDoc builds an OpenAPI document from fuzz bytes: up to 8
// definitions, each an object, array or untyped schema whose properties,
// items, additionalProperties and allOf refer to definitions (so any graph,
// cycles and self-references included) or are inline, some with sibling
// keys next to the $ref.
func refGraphDoc(data []byte) []byte {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	n := 1 + next()%8
	ref := func() map[string]any {
		t := next()
		var s map[string]any
		switch t % 5 {
		case 0, 1:
			s = map[string]any{"$ref": fmt.Sprintf("#/components/schemas/D%d", next()%n)}
		case 2:
			s = map[string]any{"$ref": fmt.Sprintf("#/components/schemas/D%d", next()%n), "description": "sibling", "default": map[string]any{}}
		case 3:
			s = map[string]any{"allOf": []any{map[string]any{"$ref": fmt.Sprintf("#/components/schemas/D%d", next()%n)}}, "description": "wrapped"}
		default:
			s = map[string]any{"type": "string", "format": "int-or-string"}
			if t%2 == 0 {
				s = map[string]any{"format": "int-or-string", "oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}}
			}
		}
		return s
	}
	schemas := map[string]any{}
	for i := range n {
		shape := next()
		d := map[string]any{"description": fmt.Sprintf("D%d", i)}
		switch shape % 3 {
		case 0:
			d["type"] = "object"
			props := map[string]any{}
			for j := range next() % 5 {
				props[fmt.Sprintf("p%d", j)] = ref()
			}
			d["properties"] = props
			if shape&8 != 0 {
				d["additionalProperties"] = ref()
			}
		case 1:
			d["type"] = "array"
			d["items"] = ref()
		}
		if shape&16 != 0 {
			d["allOf"] = []any{ref(), ref()}
		}
		if i == 0 {
			d["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": "fuzz.kdv.dev", "version": "v1", "kind": "Fuzz"}}
		}
		schemas[fmt.Sprintf("D%d", i)] = d
	}
	b, _ := json.Marshal(map[string]any{"openapi": "3.0.0", "components": map[string]any{"schemas": schemas}})
	return b
}

// naiveResolve is the resolution rules without memoization: every
// reference expanded again, a reference to a definition on the stack a
// recursion stub. It gives up (ok false) after budget nodes. It is the
// oracle for the memoized resolver.
func naiveResolve(d *Document, p *Props, stack []string, path string, budget *int) (out *Props, ok bool, err error) {
	if p == nil {
		return nil, true, nil
	}
	if *budget--; *budget < 0 {
		return nil, false, nil
	}
	if len(p.AllOf) == 1 && onlyRef(&p.AllOf[0]) && p.Ref == nil {
		q := *p
		q.Ref, q.AllOf = p.AllOf[0].Ref, nil
		return naiveRef(d, &q, stack, path+".allOf[0]", budget)
	}
	if p.Ref != nil {
		return naiveRef(d, p, stack, path, budget)
	}
	q := *p
	ok = true
	sub := func(s *Props, at string) *Props {
		if s == nil || !ok || err != nil {
			return s
		}
		var r *Props
		r, ok, err = naiveResolve(d, s, stack, at, budget)
		return r
	}
	list := func(l []Props, at string) []Props {
		if l == nil {
			return nil
		}
		out := make([]Props, len(l))
		for i := range l {
			if r := sub(&l[i], fmt.Sprintf("%s[%d]", at, i)); r != nil {
				out[i] = *r
			}
		}
		return out
	}
	if p.Items != nil {
		q.Items = &PropsOrArray{Schema: sub(p.Items.Schema, path+".items"), Schemas: list(p.Items.Schemas, path+".items")}
	}
	q.AllOf, q.OneOf, q.AnyOf = list(p.AllOf, path+".allOf"), list(p.OneOf, path+".oneOf"), list(p.AnyOf, path+".anyOf")
	if p.Properties != nil {
		q.Properties = map[string]Props{}
		for _, k := range sortedKeys(p.Properties) {
			v := p.Properties[k]
			if r := sub(&v, fmt.Sprintf("%s.properties[%s]", path, k)); r != nil {
				q.Properties[k] = *r
			}
		}
	}
	if p.AdditionalProperties != nil {
		q.AdditionalProperties = &PropsOrBool{Allows: p.AdditionalProperties.Allows, Schema: sub(p.AdditionalProperties.Schema, path+".additionalProperties")}
	}
	if !ok || err != nil {
		return nil, ok, err
	}
	intOrString(&q)
	return &q, true, nil
}

func naiveRef(d *Document, p *Props, stack []string, path string, budget *int) (*Props, bool, error) {
	target, found := strings.CutPrefix(*p.Ref, d.prefix)
	t := d.schemas[target]
	if !found || t == nil {
		return nil, true, fmt.Errorf("bad reference %s at %s", *p.Ref, path)
	}
	siblings := *p
	siblings.Ref = nil
	sib, ok, err := naiveResolve(d, &siblings, stack, path, budget)
	if !ok || err != nil {
		return nil, ok, err
	}
	var base *Props
	if inStackNaive(stack, target) {
		base = &Props{Description: t.Description, XPreserveUnknownFields: boolPtr(true)}
		if t.Type == "object" || len(t.Properties) > 0 {
			base.Type = "object"
		}
	} else if base, ok, err = naiveResolve(d, t, append(stack[:len(stack):len(stack)], target), d.schemaPath(target), budget); !ok || err != nil {
		return nil, ok, err
	}
	return overlay(base, sib), true, nil
}

func inStackNaive(stack []string, name string) bool {
	for _, s := range stack {
		if s == name {
			return true
		}
	}
	return false
}

// FuzzResolveRefGraph: on random reference graphs, cycles included, the
// memoized resolver gives what expanding every reference again gives (when
// that is small enough to compute), never panics, and stays within time and
// memory bounds.
func FuzzResolveRefGraph(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 4, 0, 0, 0, 1})                            // D0 -> D0
	f.Add([]byte{2, 0, 3, 1, 1, 0, 1, 1, 0, 3, 0, 0, 0, 1, 0, 0}) // D0 <-> D1, fan-out 3
	f.Add([]byte{7, 24, 4, 0, 1, 2, 2, 3, 5, 4, 1, 16, 1, 2, 0, 3, 4, 9, 1, 6, 0, 4, 2, 7, 1, 5, 1, 1, 3, 2, 4, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		doc := refGraphDoc(data)
		alloc, _ := measure(func() {
			d, err := LoadOpenAPIDocument("fuzz.json", doc)
			if err != nil {
				t.Fatalf("generated document does not load: %v\n%s", err, doc)
			}
			for _, name := range d.Names() {
				got, gerr := d.Props(name)
				budget := 20_000
				want, ok, werr := naiveResolve(d, d.schemas[name], []string{name}, d.schemaPath(name), &budget)
				if !ok {
					continue // too large to expand naively; the bounds below still hold
				}
				if (gerr != nil) != (werr != nil) {
					t.Fatalf("%s: error %v, naive error %v\n%s", name, gerr, werr, doc)
				}
				if gerr != nil {
					continue
				}
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				if string(gb) != string(wb) {
					t.Fatalf("%s: resolved\n%s\nnaive\n%s\ndocument\n%s", name, gb, wb, doc)
				}
				if s, err := NewStructural(got); err == nil {
					_ = ValidateStructural(nil, s)
				}
			}
		})
		if alloc > fuzzMaxAlloc {
			t.Fatalf("%d MB allocated for\n%s", alloc>>20, doc)
		}
	})
}

// deepWideCRD builds a CRD from fuzz bytes: each byte pair is an operation
// on the schema node being built (nest arrays, objects, maps or junctors,
// up to 2,040 levels at once; add up to 5,100 properties; add a rule), so
// that short inputs reach the decoders' nesting limit and tens of
// thousands of nodes. Schemas need not be structural: Check reports what is wrong.
func deepWideCRD(data []byte) []byte {
	root := map[string]any{"type": "object"}
	cur, nodes := root, 0
	nest := func(k int, key string, child func() map[string]any) {
		for range k {
			c := child()
			if key == "allOf" {
				cur[key] = []any{c}
			} else if key == "properties" {
				cur[key] = map[string]any{"a": c}
			} else {
				cur[key] = c
			}
			cur = c
		}
		nodes += k
	}
	for i := 0; i+1 < len(data) && nodes < 20_000; i += 2 {
		op, arg := data[i], int(data[i+1])
		switch op % 6 {
		case 0:
			nest(arg*8, "items", func() map[string]any { return map[string]any{"type": "array"} })
		case 1:
			nest(arg, "properties", func() map[string]any { return map[string]any{"type": "object"} })
		case 2:
			props, _ := cur["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
				cur["properties"] = props
			}
			for j := range arg * 20 {
				props[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string", "maxLength": j, "x-kubernetes-validations": []any{map[string]any{"rule": "self.size() > 0"}}}
			}
			nodes += arg * 20
		case 3:
			nest(arg, "additionalProperties", func() map[string]any { return map[string]any{"type": "object"} })
		case 4:
			nest(arg, "allOf", func() map[string]any { return map[string]any{"required": []any{"a"}} })
		case 5:
			cur["x-kubernetes-validations"] = []any{map[string]any{"rule": fmt.Sprintf("has(self.a) || %d > 0", arg)}}
		}
	}
	if cur["type"] == "array" {
		cur["items"] = map[string]any{"type": "string"}
	}
	b, err := json.Marshal(root)
	if err != nil {
		panic(err)
	}
	return []byte(crdWithSchema(string(b)))
}

// FuzzDeepWideCRD: CRDs with deep and wide schemas parse, check and
// convert (or fail with an error) without panicking, allocating at most a
// fixed amount plus a constant factor of what they report. The report
// itself is bounded by MaxCheckErrors and MaxCheckErrorBytes: a chain of D
// non-structural levels (types inside allOf, say) has D errors whose
// paths are up to D levels long, as the apiserver's ValidateStructural
// reports them, quadratic in the depth.
func FuzzDeepWideCRD(f *testing.F) {
	f.Add([]byte{0, 250})
	f.Add([]byte{0, 255, 0, 5, 1, 3})
	f.Add([]byte{2, 200, 3, 10, 4, 5, 5, 1})
	f.Add([]byte{1, 200, 0, 200, 0, 50})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			return
		}
		doc := deepWideCRD(data)
		report := 0
		alloc, _ := measure(func() {
			crd, err := ParseCRD(doc)
			if err != nil {
				return
			}
			errs, warnings := Check(crd, CheckOptions{})
			if s, err := crd.Spec.Versions[0].Structural(); err == nil {
				errs = append(errs, ValidateStructural(nil, s)...)
				_ = Skeleton(s)
			}
			for _, e := range errs {
				report += len(e.Error())
			}
			for _, w := range warnings {
				report += len(w)
			}
		})
		if limit := fuzzMaxAlloc + 16*uint64(report); alloc > limit {
			t.Fatalf("%d MB allocated for a %d-byte CRD and a %d-byte report, want at most %d MB", alloc>>20, len(doc), report, limit>>20)
		}
	})
}
