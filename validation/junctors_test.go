package validation

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"kdv.dev/schema"
	"kdv.dev/value"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite testdata/hostile from the generators")

// hostileFile is a CRD whose spec.mode nests junctors hostileDepth levels
// deep, written by hostileCRD.
const (
	hostileFile  = "testdata/hostile/junctions.crd.yaml"
	hostileDepth = 28
)

// hostileJunctors is the value validation of the hostile CRD's spec.mode
// at the given nesting depth: per level, an allOf holding the next level
// and a not, an anyOf of three patterns and a oneOf. "leaf-1" validates
// against every level; "x" fails every level's anyOf and allOf.
func hostileJunctors(depth int) map[string]any {
	if depth == 0 {
		return map[string]any{"pattern": "^leaf-[0-9]+$"}
	}
	return map[string]any{
		"allOf": []any{
			hostileJunctors(depth - 1),
			map[string]any{"not": map[string]any{"pattern": fmt.Sprintf("^deny-%d-[a-z]+$", depth)}},
		},
		"anyOf": []any{
			map[string]any{"pattern": fmt.Sprintf("^alt-%d-[a-z]{3}$", depth), "maxLength": 24},
			map[string]any{"pattern": fmt.Sprintf("^other-%d-[0-9]{2}$", depth), "minLength": 10},
			map[string]any{"pattern": "^leaf-[0-9]+$"},
		},
		"oneOf": []any{
			map[string]any{"minLength": 1},
			map[string]any{"maxLength": 0, "enum": []any{"", fmt.Sprintf("none-%d", depth)}},
		},
	}
}

// hostileSchema is the openAPIV3Schema of the hostile CRD.
func hostileSchema(depth int) []byte {
	mode := hostileJunctors(depth)
	mode["type"] = "string"
	mode["default"] = "x"
	b, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "properties": map[string]any{"mode": mode}},
	}})
	if err != nil {
		panic(err)
	}
	return b
}

func hostileCRD(depth int) []byte {
	return fmt.Appendf(nil, `# A hostile CRD: the value validation of spec.mode nests allOf, anyOf, oneOf
# and not %d levels deep (written by hostileCRD in validation/junctors_test.go:
# go test ./validation -run TestHostileCRD -update-hostile). Validating a
# failing clause a second time for its messages, at every level, made one
# object take minutes. Its default ("x") fails the schema, so the apiserver
# (and kdv check) reject the CRD; objects still validate against it.
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: junctions.hostile.kdv.dev
spec:
  group: hostile.kdv.dev
  names:
    kind: Junction
    listKind: JunctionList
    plural: junctions
    singular: junction
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: %s
`, depth, hostileSchema(depth))
}

// countNodes counts the compiled nodes of a schema, junctor clauses
// included.
func countNodes(n *node) int {
	if n == nil {
		return 0
	}
	c := 1 + countNodes(n.items) + countNodes(n.additional) + countNodes(n.not)
	for _, p := range n.props {
		c += countNodes(p.n)
	}
	for _, j := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, x := range j {
			c += countNodes(x)
		}
	}
	return c
}

// workBound is how many times validate may run on a value against n: once
// per node, plus, for each anyOf and oneOf, the size of its largest clause
// without junctors below (anyOf and oneOf probe those clauses and validate
// the one whose errors they report again).
func workBound(n *node) int {
	if n == nil {
		return 0
	}
	c := 1 + workBound(n.items) + workBound(n.additional) + workBound(n.not)
	for _, p := range n.props {
		c += workBound(p.n)
	}
	for _, j := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, x := range j {
			c += workBound(x)
		}
	}
	for _, j := range [][]*node{n.anyOf, n.oneOf} {
		most := 0
		for _, x := range j {
			if !x.junctorsBelow {
				most = max(most, countNodes(x))
			}
		}
		c += most
	}
	return c
}

// run validates obj with the OpenAPI validator alone and returns its
// errors, their kube-openapi messages and how many times validate ran.
func run(v *Validator, obj any) (field.ErrorList, []string, int) {
	s := v.getState()
	defer putState(s)
	s.visit(v.root, value.Of(obj), value.Value{}, false)
	var msgs []string
	seen := map[string]bool{}
	for _, r := range s.errs {
		if !seen[r.key] {
			seen[r.key] = true
			msgs = append(msgs, r.key)
		}
	}
	return dedup(s.errs), msgs, s.visits
}

// openAPIMessages returns the messages of kube-openapi's SchemaValidator,
// which the apiserver runs on custom resources, in its order.
func openAPIMessages(t testing.TB, schemaJSON []byte, obj any) []string {
	t.Helper()
	var sch spec.Schema
	if err := json.Unmarshal(schemaJSON, &sch); err != nil {
		t.Fatal(err)
	}
	intEnums(&sch)
	r := validate.NewSchemaValidator(&sch, nil, "", strfmt.Default).Validate(obj)
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Error())
	}
	return out
}

// intEnums makes integral enum values int64, as the apiserver decodes them
// (encoding/json made them float64).
func intEnums(s *spec.Schema) {
	if s == nil {
		return
	}
	for i, e := range s.Enum {
		if f, ok := e.(float64); ok && f == float64(int64(f)) {
			s.Enum[i] = int64(f)
		}
	}
	for _, j := range [][]spec.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range j {
			intEnums(&j[i])
		}
	}
	for k, p := range s.Properties {
		intEnums(&p)
		s.Properties[k] = p
	}
	intEnums(s.Not)
	if s.Items != nil {
		intEnums(s.Items.Schema)
	}
	if s.AdditionalProperties != nil {
		intEnums(s.AdditionalProperties.Schema)
	}
}

func TestHostileCRD(t *testing.T) {
	want := hostileCRD(hostileDepth)
	if *updateHostile {
		if err := os.WriteFile(hostileFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(hostileFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Fatalf("%s is not hostileCRD(%d); rewrite it with -update-hostile", hostileFile, hostileDepth)
	}
	crd, err := schema.ParseCRD(b)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crd.Spec.Versions[0].Structural()
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(s, Options{SkipCEL: true})
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/hostile/junctions.errors.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Errors per value of spec.mode, one per line, as the validator
	// printed them when it validated failing clauses twice (which took
	// minutes per value).
	wantErrs := map[string][]string{}
	for _, block := range strings.Split(strings.TrimSpace(string(golden)), "\n\n") {
		mode, errs, _ := strings.Cut(block, "\n")
		wantErrs[strings.TrimPrefix(mode, "# mode: ")] = strings.Split(errs, "\n")
	}
	nodes := countNodes(v.root)
	if bound := workBound(v.root); nodes+hostileDepth > bound {
		t.Fatalf("%d schema nodes, work bound %d", nodes, bound)
	}
	modes := []string{"leaf-1"}
	for mode := range wantErrs {
		modes = append(modes, mode)
	}
	slices.Sort(modes)
	for _, mode := range modes {
		obj := map[string]any{"spec": map[string]any{"mode": mode}}
		start := time.Now()
		errs := v.Validate(context.Background(), obj, nil)
		elapsed := time.Since(start)
		// Generous: validating each clause once takes about a
		// millisecond; validating failing clauses twice took minutes.
		if elapsed > 10*time.Second {
			t.Errorf("mode %q: validation took %v", mode, elapsed)
		}
		want := wantErrs[mode]
		if mode == "leaf-1" {
			want = nil
		}
		if got := fieldStrings(errs); !slices.Equal(got, want) {
			t.Errorf("mode %q: got %d errors, want %d:\n%s", mode, len(got), len(want), strings.Join(got, "\n"))
		}
		_, msgs, visits := run(v, obj)
		if ref := openAPIMessages(t, hostileSchema(hostileDepth), obj); !slices.Equal(msgs, ref) {
			t.Errorf("mode %q: messages differ from kube-openapi's:\n got %q\nwant %q", mode, msgs, ref)
		}
		// A failing value reaches every clause (anyOf finds no valid
		// one): each once, and at each level the anyOf's best clause
		// (a pattern) a second time for its error.
		if mode != "leaf-1" && visits != nodes+hostileDepth {
			t.Errorf("mode %q: validate ran %d times for %d schema nodes, want %d", mode, visits, nodes, nodes+hostileDepth)
		}
	}
}

// perRun times one call of f: the average over repeated calls for at
// least 20ms.
func perRun(f func()) time.Duration {
	n, start := 0, time.Now()
	for n == 0 || time.Since(start) < 20*time.Millisecond {
		f()
		n++
	}
	return time.Since(start) / time.Duration(n)
}

// scaling returns the shortest per-call times of small and big over
// interleaved samples, so that both see the same machine load; it stops
// early when big is clearly over 4x.
func scaling(small, big func()) (ts, tb time.Duration) {
	for i := range 7 {
		s, b := perRun(small), perRun(big)
		if i == 0 || s < ts {
			ts = s
		}
		if i == 0 || b < tb {
			tb = b
		}
		if tb > 40*ts {
			break
		}
	}
	return ts, tb
}

// TestJunctorNestingScales checks that doubling the junctor nesting of
// the hostile schema doubles the work, not squares it: validate runs
// within workBound and time grows less than 4x. Validating failing
// clauses twice took about 1.8x per level.
func TestJunctorNestingScales(t *testing.T) {
	const n = 12
	obj := map[string]any{"spec": map[string]any{"mode": "x"}}
	var calls [2]func()
	for i, depth := range []int{n, 2 * n} {
		v := mustValidator(t, string(hostileSchema(depth)), Options{SkipCEL: true})
		if _, _, visits := run(v, obj); visits > workBound(v.root) {
			t.Fatalf("depth %d: validate ran %d times, more than the bound %d", depth, visits, workBound(v.root))
		}
		calls[i] = func() { v.Validate(context.Background(), obj, nil) }
	}
	var times [2]time.Duration
	times[0], times[1] = scaling(calls[0], calls[1])
	t.Logf("depth %d: %v, depth %d: %v", n, times[0], 2*n, times[1])
	if times[1] > 4*times[0] {
		t.Errorf("doubling the nesting from %d to %d took %.1fx as long", n, 2*n, float64(times[1])/float64(times[0]))
	}
}

// nestedMaps returns a schema of additionalProperties nested depth deep
// with integer leaves, and a value nesting maps as deep whose innermost
// map has two string values: two errors, below depth maps.
func nestedMaps(depth int) (string, any) {
	sch := `{"type":"object","additionalProperties":{"type":"integer"}}`
	var obj any = map[string]any{"b": "y", "a": "x"}
	for range depth {
		sch = `{"type":"object","additionalProperties":` + sch + `}`
		obj = map[string]any{"k": obj}
	}
	return sch, obj
}

// TestNestedMapErrorsScale checks that additionalProperties values with
// several errors are put in sorted key order without being validated a
// second time (which doubled the work per level of map nesting).
func TestNestedMapErrorsScale(t *testing.T) {
	const n = 12
	var calls [2]func()
	for i, depth := range []int{n, 2 * n} {
		sch, obj := nestedMaps(depth)
		v := mustValidator(t, sch, Options{SkipCEL: true})
		errs, _, visits := run(v, obj)
		// One visit per value: depth+1 maps and two strings.
		if visits != depth+3 {
			t.Fatalf("depth %d: validate ran %d times for %d values", depth, visits, depth+3)
		}
		path := strings.Repeat(".k", depth)[1:]
		want := []string{
			fmt.Sprintf(`%s.a: Invalid value: "string": .%s.a in body must be of type integer: "string"`, path, path),
			fmt.Sprintf(`%s.b: Invalid value: "string": .%s.b in body must be of type integer: "string"`, path, path),
		}
		if got := fieldStrings(errs); !slices.Equal(got, want) {
			t.Fatalf("depth %d: got %q, want %q", depth, got, want)
		}
		calls[i] = func() { v.Validate(context.Background(), obj, nil) }
	}
	var times [2]time.Duration
	times[0], times[1] = scaling(calls[0], calls[1])
	t.Logf("depth %d: %v, depth %d: %v", n, times[0], 2*n, times[1])
	if times[1] > 4*times[0] {
		t.Errorf("doubling the nesting from %d to %d took %.1fx as long", n, 2*n, float64(times[1])/float64(times[0]))
	}
}

// TestJunctorClauseVisits checks that a failing clause's pattern is
// matched once, and a clause with junctors of its own validated once:
// their errors are reused for the allOf's and anyOf's messages. Only the
// anyOf's best clause, probed first, is validated again for its error.
func TestJunctorClauseVisits(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"p":{"type":"string",
		"allOf":[{"anyOf":[{"pattern":"^a"},{"pattern":"^b","maxLength":0}]}, {"pattern":"c$"}],
		"not":{"pattern":"^d"}}}}`, Options{SkipCEL: true})
	errs, _, visits := run(v, map[string]any{"p": "c"})
	// The root, p, the allOf clauses, the anyOf clauses, ^a again, not.
	// Validating failing clauses twice made it 12.
	if visits != 8 {
		t.Errorf("validate ran %d times, want 8", visits)
	}
	want := []string{
		`<nil>: Invalid value: "": "p" must validate at least one schema (anyOf)`,
		`p: Invalid value: "c": p in body should match '^a'`,
		`<nil>: Invalid value: "": "p" must validate all the schemas (allOf)`,
	}
	if got := fieldStrings(errs); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestAdditionalPropertiesOrder checks that errors and ratcheting warnings
// of additionalProperties values come in sorted key order whatever the
// map's iteration order, now that they are moved into it rather than
// validated again.
func TestAdditionalPropertiesOrder(t *testing.T) {
	v := mustValidator(t, `{"type":"object","additionalProperties":{"type":"integer","maximum":5}}`, Options{SkipCEL: true})
	obj := map[string]any{"h": int64(9), "c": int64(8), "f": int64(1), "a": "x", "e": int64(7), "b": int64(6), "g": int64(2), "d": int64(10)}
	old := map[string]any{"h": int64(9), "c": int64(1), "f": int64(1), "a": int64(1), "e": int64(7), "b": int64(6), "g": int64(3), "d": int64(1)}
	wantErrs := []string{
		`a: Invalid value: "string": .a in body must be of type integer: "string"`,
		`c: Invalid value: 8: .c in body should be less than or equal to 5`,
		`d: Invalid value: 10: .d in body should be less than or equal to 5`,
	}
	wantWarns := []string{
		`b: Invalid value: 6: .b in body should be less than or equal to 5`,
		`e: Invalid value: 7: .e in body should be less than or equal to 5`,
		`h: Invalid value: 9: .h in body should be less than or equal to 5`,
	}
	for range 20 {
		errs, warns := v.ValidateWithWarnings(context.Background(), obj, old)
		if got := fieldStrings(errs); !slices.Equal(got, wantErrs) {
			t.Fatalf("errors %q\nwant %q", got, wantErrs)
		}
		if !slices.Equal(warns, wantWarns) {
			t.Fatalf("warnings %q\nwant %q", warns, wantWarns)
		}
	}
}
