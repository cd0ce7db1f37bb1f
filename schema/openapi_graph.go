package schema

import "strings"

// components numbers the strongly connected components of the document's
// reference graph (an edge N -> M for every $ref to M within N's schema,
// found where the resolver looks for them), for the resolver's memo. It is
// Tarjan's algorithm without recursion, linear in the document: reference
// chains can be as long as the document has definitions.
func (d *Document) components() map[string]int {
	names := d.Names()
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	edges := make([][]int, len(names))
	for i, n := range names {
		seen := map[int]bool{}
		walkRefs(d.schemas[n], func(ref string) {
			t, ok := strings.CutPrefix(ref, d.prefix)
			if !ok {
				return
			}
			if j, ok := index[t]; ok && !seen[j] {
				seen[j] = true
				edges[i] = append(edges[i], j)
			}
		})
	}

	const unvisited = -1
	order := make([]int, len(names)) // discovery order, unvisited before
	low := make([]int, len(names))
	comp := make([]int, len(names))
	onStack := make([]bool, len(names))
	for i := range order {
		order[i], comp[i] = unvisited, unvisited
	}
	var stack []int
	type frame struct{ v, next int }
	counter, ncomp := 0, 0
	for root := range names {
		if order[root] != unvisited {
			continue
		}
		call := []frame{{root, 0}}
		order[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(edges[f.v]) {
				w := edges[f.v][f.next]
				f.next++
				switch {
				case order[w] == unvisited:
					order[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], order[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == order[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	out := make(map[string]int, len(names))
	for i, n := range names {
		out[n] = comp[i]
	}
	return out
}

// walkRefs calls f with every $ref in p and the schemas below it, the
// places resolve descends into. It keeps its own stack: nesting is bounded
// by the decoders, but not by much.
func walkRefs(p *Props, f func(string)) {
	todo := []*Props{p}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if p == nil {
			continue
		}
		if p.Ref != nil {
			f(*p.Ref)
		}
		if p.Items != nil {
			todo = append(todo, p.Items.Schema)
			for i := range p.Items.Schemas {
				todo = append(todo, &p.Items.Schemas[i])
			}
		}
		for _, l := range [][]Props{p.AllOf, p.OneOf, p.AnyOf} {
			for i := range l {
				todo = append(todo, &l[i])
			}
		}
		todo = append(todo, p.Not)
		for _, m := range []map[string]Props{p.Properties, p.PatternProperties, p.Definitions} {
			for k := range m {
				v := m[k]
				todo = append(todo, &v)
			}
		}
		if p.AdditionalProperties != nil {
			todo = append(todo, p.AdditionalProperties.Schema)
		}
		if p.AdditionalItems != nil {
			todo = append(todo, p.AdditionalItems.Schema)
		}
		for _, dep := range p.Dependencies {
			todo = append(todo, dep.Schema)
		}
	}
}
