package cel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"
	"github.com/pmezard/go-difflib/difflib"

	"kdv.dev/schema"
)

// ruleDiff is a built-in rule's x-kubernetes-diff (schema.RuleDiff),
// compiled: on failure the rule's message ends with the unified diff of the
// old and new values at steps below self, as the hand-written code's
// diff.Diff(old, munged new) prints the internal Go values.
type ruleDiff struct {
	steps []string
	// node is the schema node of the value diffed; layout its internal Go
	// struct (only Only's fields), nil when it has none.
	node   *schema.Structural
	layout *schema.GoStruct
	// only are the properties printed; nil: all.
	only map[string]bool
	// keep and fill are the sub-paths taken from the old value by the new
	// one, and from the new value by the old one where it is empty.
	keep, fill []diffStep
}

// diffStep is one keep or fill sub-path, with the condition (a CEL
// expression over self and oldSelf, like the rule's) under which the
// hand-written code copies it; nil: always.
type diffStep struct {
	steps []string
	when  *lazyProgram
}

// maxDiffLines bounds the lines compared (difflib's matching is quadratic
// in the worst case, though its junk heuristic keeps common shapes near
// linear: 160,000 lines of changed containers take 0.15 s): an apiserver
// request holds at most 3 MiB, whose indented JSON stays below it; beyond
// the bound the message says that the diff is left out.
const maxDiffLines = 200000

// compileDiff compiles d for a rule of node s, its conditions with cond;
// an error for a path that does not lead to a node of s or a condition
// that does not compile (gendata drops such a rule, so only a hand-edited
// schema has one).
func compileDiff(d *schema.RuleDiff, s *schema.Structural, cond func(string) (*lazyProgram, error)) (*ruleDiff, error) {
	steps, err := diffSteps(d.Path)
	if err != nil {
		return nil, err
	}
	node := nodeAt(s, steps)
	if node == nil {
		return nil, fmt.Errorf("x-kubernetes-diff path %q: no such field", d.Path)
	}
	rd := &ruleDiff{steps: steps, node: node, layout: node.Go}
	for _, l := range []struct {
		paths []string
		out   *[]diffStep
	}{{d.Keep, &rd.keep}, {d.Fill, &rd.fill}} {
		for _, e := range l.paths {
			// "<path>" or "<path> if <condition>"
			p, when, conditional := strings.Cut(e, " if ")
			p = strings.TrimSpace(p)
			st, err := diffSteps(p)
			if err != nil {
				return nil, err
			}
			if len(st) == 0 || nodeAt(node, st) == nil {
				return nil, fmt.Errorf("x-kubernetes-diff path %q%s: no such field", d.Path, p)
			}
			ds := diffStep{steps: st}
			if conditional {
				if cond == nil {
					return nil, fmt.Errorf("x-kubernetes-diff path %q%s: conditions need a CEL environment", d.Path, p)
				}
				if ds.when, err = cond(strings.TrimSpace(when)); err != nil {
					return nil, err
				}
			}
			*l.out = append(*l.out, ds)
		}
	}
	if len(d.Only) > 0 {
		rd.only = map[string]bool{}
		for _, o := range d.Only {
			if node.Properties == nil {
				return nil, fmt.Errorf("x-kubernetes-diff only: %q is not an object", d.Path)
			}
			if _, ok := node.Properties[o]; !ok {
				return nil, fmt.Errorf("x-kubernetes-diff only: %q has no field %q", d.Path, o)
			}
			rd.only[o] = true
		}
		if node.Go != nil {
			g := &schema.GoStruct{}
			for _, f := range node.Go.Fields {
				if f.JSON != "" && rd.only[f.JSON] && !f.Splice {
					g.Fields = append(g.Fields, f)
				}
			}
			rd.layout = g
		}
	}
	return rd, nil
}

// diffSteps splits a path of property names and "[*]" (list items) into
// steps ("*" for the items).
func diffSteps(p string) ([]string, error) {
	var steps []string
	rest := p
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "[*]"):
			steps = append(steps, "*")
			rest = rest[3:]
		case rest[0] == '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : end+1]
			if name == "" {
				return nil, fmt.Errorf("x-kubernetes-diff path %q: empty field name", p)
			}
			steps = append(steps, name)
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("x-kubernetes-diff path %q: want .name or [*] at %q", p, rest)
		}
	}
	return steps, nil
}

// text is the diff of the value at d's path in oldSelf and self, after the
// munging, as diff.Diff prints it (empty when the printed values are
// equal). act is the rule's activation, for the conditions.
func (d *ruleDiff) text(self, oldSelf any, act interpreter.Activation) string {
	newV, oldV := valueAt(self, d.steps), valueAt(oldSelf, d.steps)
	for _, k := range d.keep {
		if k.holds(act) {
			newV = graft(newV, oldV, k.steps, false)
		}
	}
	for _, f := range d.fill {
		if f.holds(act) {
			oldV = graft(oldV, newV, f.steps, true)
		}
	}
	a, b := d.indented(oldV), d.indented(newV)
	la, lb := difflib.SplitLines(a), difflib.SplitLines(b)
	if len(la)+len(lb) > maxDiffLines {
		return fmt.Sprintf("(kdv: the diff of %d and %d lines is left out)", len(la), len(lb))
	}
	s, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: la, B: lb, Context: 3})
	if err != nil {
		return fmt.Sprintf("error generating diff: %v", err)
	}
	return s
}

// holds reports whether s's condition is true (an unconditional step:
// always; an evaluation error: false, the value is left as it is).
func (s *diffStep) holds(act interpreter.Activation) bool {
	if s.when == nil {
		return true
	}
	if act == nil {
		return false
	}
	v, _, err := s.when.Eval(act)
	return err == nil && v == types.True
}

// indented is v as json.MarshalIndent(internal value, "", " ") prints it.
func (d *ruleDiff) indented(v any) string {
	var raw []byte
	if m, ok := v.(map[string]any); d.layout != nil && (ok || v == nil) {
		// a nil map prints the zero struct, as the Go value held by value
		raw = d.layout.Print(m)
	} else {
		if m, ok := v.(map[string]any); ok && d.only != nil {
			// no Go layout (a schema without them): the JSON of the
			// fields printed
			o := make(map[string]any, len(d.only))
			for k := range d.only {
				if x, ok := m[k]; ok {
					o[k] = x
				}
			}
			v = o
		}
		j, err := json.Marshal(schema.GoValue(d.node, v))
		if err != nil {
			return ""
		}
		raw = j
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", " "); err != nil {
		return string(raw)
	}
	return b.String()
}

// graft returns dst with the value at steps replaced by src's (removed
// when src has none), copying what it changes: dst belongs to the object
// validated. With ifEmpty only an empty or absent value of dst is
// replaced. "*" steps pair list items by index.
func graft(dst, src any, steps []string, ifEmpty bool) any {
	if len(steps) == 0 {
		if ifEmpty && !schema.EmptyValue(dst) {
			return dst
		}
		return src
	}
	if steps[0] == "*" {
		dl, ok := dst.([]any)
		if !ok {
			return dst
		}
		sl, _ := src.([]any)
		out := make([]any, len(dl))
		copy(out, dl)
		for i := range out {
			var s any
			if i < len(sl) {
				s = sl[i]
			}
			out[i] = graft(out[i], s, steps[1:], ifEmpty)
		}
		return out
	}
	dm, ok := dst.(map[string]any)
	if !ok && dst != nil {
		return dst
	}
	sm, _ := src.(map[string]any)
	v := graft(dm[steps[0]], sm[steps[0]], steps[1:], ifEmpty)
	out := make(map[string]any, len(dm)+1)
	for k, x := range dm {
		out[k] = x
	}
	if v == nil {
		delete(out, steps[0])
	} else {
		out[steps[0]] = v
	}
	if len(out) == 0 && (dm == nil || sm == nil && len(dm) > 0) {
		// a struct the copy emptied, where the old value has none, is
		// dropped: ValidatePodUpdate sets a gated pod's Affinity to nil
		// when its only member was the nodeAffinity taken from an old pod
		// without one
		return nil
	}
	return out
}
