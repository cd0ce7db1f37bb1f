package bench

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// crdCheckDirs are every CRD folder of the corpus.
var crdCheckDirs = []string{
	"gateway-api/config/crd/standard",
	"gateway-api/config/crd/experimental",
	"prometheus-operator/example/prometheus-operator-crd-full",
	"cluster-api/*/config/crd/bases",
	"cluster-api/*/*/config/crd/bases",
	"cluster-api/*/*/*/config/crd/bases",
}

type rawCRD struct {
	Name string
	Obj  map[string]any
}

func loadRawCRDs(t *testing.T) []rawCRD {
	loadCorpus(t) // skips without the corpus
	var out []rawCRD
	seen := map[string]bool{}
	for _, dir := range crdCheckDirs {
		files, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*.yaml"))
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			docs, err := readDocs(f)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for i, d := range docs {
				if d["kind"] == "CustomResourceDefinition" {
					rel, _ := filepath.Rel(corpusDir, f)
					out = append(out, rawCRD{Name: fmt.Sprintf("%s#%d", rel, i), Obj: d})
				}
			}
		}
	}
	return out
}

// selfTypeName matches the name the apiserver gives the CEL type of self in
// compile errors, which differs from run to run (time.Now().Nanosecond() in
// apiextensions-apiserver schema/cel generateUniqueSelfTypeName), so it is not compared.
var selfTypeName = regexp.MustCompile(`selfType\d+`)

// crdVerdicts checks one CRD document on both sides.
func crdVerdicts(obj map[string]any) (ref, kdv verdict) {
	j, err := utiljson.Marshal(obj)
	if err != nil {
		panic(err)
	}
	errs, err := CheckCRD(j)
	if err != nil {
		ref.DecodeErr = "undecodable"
	}
	for _, e := range errs {
		ref.Errors = append(ref.Errors, selfTypeName.ReplaceAllString(e.Error(), "selfType#"))
	}
	crd, err := kdvschema.ParseCRD(j)
	if err != nil {
		kdv.DecodeErr = "undecodable"
		kdv.Errors = append(kdv.Errors, "ParseCRD: "+err.Error())
		return ref, kdv
	}
	kerrs, _ := resource.CheckCRD(crd, resource.CheckOptions{})
	for _, e := range kerrs {
		kdv.Errors = append(kdv.Errors, selfTypeName.ReplaceAllString(e.Error(), "selfType#"))
	}
	return ref, kdv
}

// crdDisagreement returns nil when kdv's verdict on the CRD obj equals the
// apiserver's (ref). The apiserver checks a schema's properties by ranging
// over a Go map, so with several invalid properties its error order varies
// between runs: when only the order differs, the check is run again and
// kdv agrees if the apiserver ever produces kdv's order; otherwise an
// order that varies is classed "nondeterministic-order".
func crdDisagreement(obj map[string]any, ref, kdv verdict) *disagreement {
	if ref.equal(kdv) {
		return nil
	}
	d := &disagreement{Ref: ref, KDV: kdv}
	if extra, missing := diffErrors(ref.Errors, kdv.Errors); len(extra) > 0 || len(missing) > 0 || ref.DecodeErr != kdv.DecodeErr {
		return d
	}
	varies := false
	for range 200 {
		again, _ := crdVerdicts(obj)
		if again.equal(kdv) {
			return nil
		}
		if !again.equal(ref) {
			varies = true
		}
	}
	if varies {
		d.Class = nondeterministicOrder.Class
	}
	return d
}

// schemaNode is one schema of a CRD version's openAPIV3Schema tree.
type schemaNode struct {
	path  []any // keys from the CRD root
	props map[string]any
	depth int
}

func schemaNodes(s map[string]any, path []any, depth int, out *[]schemaNode) {
	*out = append(*out, schemaNode{path: path, props: s, depth: depth})
	if ps, ok := s["properties"].(map[string]any); ok {
		for _, k := range sortedKeys(ps) {
			if c, ok := ps[k].(map[string]any); ok {
				schemaNodes(c, appendPath(appendPath(path, "properties"), k), depth+1, out)
			}
		}
	}
	if c, ok := s["items"].(map[string]any); ok {
		schemaNodes(c, appendPath(path, "items"), depth+1, out)
	}
	if c, ok := s["additionalProperties"].(map[string]any); ok {
		schemaNodes(c, appendPath(path, "additionalProperties"), depth+1, out)
	}
}

func getAt(root any, path []any) any {
	for _, e := range path {
		switch e := e.(type) {
		case string:
			root = root.(map[string]any)[e]
		case int:
			root = root.([]any)[e]
		}
	}
	return root
}

// crdMutation changes the schema node n of a copy of the CRD; it returns
// false when it does not apply to n.
type crdMutation struct {
	Kind  string
	Apply func(n map[string]any, root bool) bool
}

func typ(n map[string]any) string { s, _ := n["type"].(string); return s }

var crdMutations = []crdMutation{
	{"drop-type", func(n map[string]any, root bool) bool {
		if typ(n) == "" {
			return false
		}
		delete(n, "type")
		return true
	}},
	{"bad-type", func(n map[string]any, root bool) bool { n["type"] = "foo"; return true }},
	{"add-ref", func(n map[string]any, root bool) bool { n["$ref"] = "#/definitions/foo"; return true }},
	{"unique-items", func(n map[string]any, root bool) bool {
		if typ(n) != "array" {
			return false
		}
		n["uniqueItems"] = true
		return true
	}},
	{"drop-items", func(n map[string]any, root bool) bool {
		if typ(n) != "array" {
			return false
		}
		delete(n, "items")
		return true
	}},
	{"additional-properties-with-properties", func(n map[string]any, root bool) bool {
		if _, ok := n["properties"]; !ok {
			return false
		}
		n["additionalProperties"] = map[string]any{"type": "string"}
		return true
	}},
	{"bad-pattern", func(n map[string]any, root bool) bool {
		if typ(n) != "string" {
			return false
		}
		n["pattern"] = "([a-z"
		return true
	}},
	{"list-map-keys-without-list-type-map", func(n map[string]any, root bool) bool {
		it, _ := n["items"].(map[string]any)
		if typ(n) != "array" || it == nil || typ(it) != "object" {
			return false
		}
		n["x-kubernetes-list-map-keys"] = []any{"name"}
		delete(n, "x-kubernetes-list-type")
		return true
	}},
	{"list-type-map-without-keys", func(n map[string]any, root bool) bool {
		it, _ := n["items"].(map[string]any)
		if typ(n) != "array" || it == nil || typ(it) != "object" {
			return false
		}
		n["x-kubernetes-list-type"] = "map"
		delete(n, "x-kubernetes-list-map-keys")
		return true
	}},
	{"list-type-map-optional-key", func(n map[string]any, root bool) bool {
		it, _ := n["items"].(map[string]any)
		if typ(n) != "array" || it == nil || typ(it) != "object" {
			return false
		}
		ps, _ := it["properties"].(map[string]any)
		if len(ps) == 0 {
			return false
		}
		n["x-kubernetes-list-type"] = "map"
		n["x-kubernetes-list-map-keys"] = []any{sortedKeys(ps)[0]}
		delete(it, "required")
		return true
	}},
	{"int-or-string-with-type", func(n map[string]any, root bool) bool {
		if n["x-kubernetes-int-or-string"] != true {
			return false
		}
		n["type"] = "string"
		return true
	}},
	{"int-or-string-wrong-anyof", func(n map[string]any, root bool) bool {
		if n["x-kubernetes-int-or-string"] != true {
			return false
		}
		n["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string", "pattern": "([a-z"}}
		return true
	}},
	{"default-wrong-type", func(n map[string]any, root bool) bool {
		if root || typ(n) != "string" {
			return false
		}
		n["default"] = int64(5)
		return true
	}},
	{"default-not-in-enum", func(n map[string]any, root bool) bool {
		if _, ok := n["enum"]; !ok || typ(n) != "string" {
			return false
		}
		n["default"] = "NotInEnum"
		return true
	}},
	{"default-too-long", func(n map[string]any, root bool) bool {
		ml, ok := n["maxLength"].(int64)
		if !ok || ml > 1000 {
			return false
		}
		n["default"] = fmt.Sprintf("%0*d", int(ml)+1, 0)
		return true
	}},
	{"default-below-minimum", func(n map[string]any, root bool) bool {
		m, ok := n["minimum"].(int64)
		if !ok || typ(n) != "integer" {
			return false
		}
		n["default"] = m - 1
		return true
	}},
	{"default-unpruned", func(n map[string]any, root bool) bool {
		if root || typ(n) != "object" || n["properties"] == nil || n["x-kubernetes-preserve-unknown-fields"] == true {
			return false
		}
		n["default"] = map[string]any{"kdvUnknown": "x"}
		return true
	}},
	{"cel-no-compile", func(n map[string]any, root bool) bool {
		if typ(n) != "object" || n["properties"] == nil {
			return false
		}
		addRule(n, map[string]any{"rule": "self.kdvNoSuchField == 1"})
		return true
	}},
	{"cel-syntax", func(n map[string]any, root bool) bool {
		addRule(n, map[string]any{"rule": "self.(", "message": "m"})
		return true
	}},
	{"cel-bad-message-expression", func(n map[string]any, root bool) bool {
		addRule(n, map[string]any{"rule": "true", "messageExpression": "1"})
		return true
	}},
	{"cel-too-costly", func(n map[string]any, root bool) bool {
		if typ(n) != "array" {
			return false
		}
		addRule(n, map[string]any{"rule": "self.all(x, self.all(y, self.all(z, x == y || y == z)))"})
		return true
	}},
	{"cel-transition-bad", func(n map[string]any, root bool) bool {
		addRule(n, map[string]any{"rule": "self == oldSelf", "optionalOldSelf": true, "reason": "Bogus"})
		return true
	}},
	{"metadata-disallowed", func(n map[string]any, root bool) bool {
		if !root {
			return false
		}
		ps, _ := n["properties"].(map[string]any)
		if ps == nil {
			return false
		}
		ps["metadata"] = map[string]any{"type": "object", "properties": map[string]any{
			"labels": map[string]any{"type": "object"},
			"name":   map[string]any{"type": "string", "maxLength": int64(10)},
		}}
		return true
	}},
	{"embedded-without-preserve", func(n map[string]any, root bool) bool {
		if root || typ(n) != "object" {
			return false
		}
		delete(n, "properties")
		delete(n, "additionalProperties")
		delete(n, "x-kubernetes-preserve-unknown-fields")
		n["x-kubernetes-embedded-resource"] = true
		return true
	}},
	{"preserve-unknown-false", func(n map[string]any, root bool) bool {
		n["x-kubernetes-preserve-unknown-fields"] = false
		return true
	}},
	{"negative-max-length", func(n map[string]any, root bool) bool {
		if typ(n) != "string" {
			return false
		}
		n["maxLength"] = int64(-1)
		return true
	}},
	{"enum-wrong-type", func(n map[string]any, root bool) bool {
		if typ(n) != "string" {
			return false
		}
		n["enum"] = []any{int64(1), "a"}
		return true
	}},
	{"nullable-list-map-key", func(n map[string]any, root bool) bool {
		keys, _ := n["x-kubernetes-list-map-keys"].([]any)
		it, _ := n["items"].(map[string]any)
		if len(keys) == 0 || it == nil {
			return false
		}
		ps, _ := it["properties"].(map[string]any)
		k, _ := keys[0].(string)
		kp, _ := ps[k].(map[string]any)
		if kp == nil {
			return false
		}
		kp["nullable"] = true
		return true
	}},
}

func addRule(n map[string]any, rule map[string]any) {
	rules, _ := n["x-kubernetes-validations"].([]any)
	n["x-kubernetes-validations"] = append(rules, rule)
}

// pinnedCRDCases are mutations always checked, besides the sampled ones,
// because they once showed a difference.
var pinnedCRDCases = []struct{ file, kind, path string }{
	{"standard/gateway.networking.k8s.io_udproutes.yaml#0", "additional-properties-with-properties", "properties.spec"},
	{"standard/gateway.networking.k8s.io_listenersets.yaml#0", "additional-properties-with-properties", "properties.spec.properties.listeners.items"},
}

// crdCasesPerKind bounds the cases of each mutation kind (spread over the
// CRDs with a fixed seed), so the test stays fast on two cores.
const crdCasesPerKind = 8

// copyDepth copies maps and slices down to depth d and shares what is
// deeper.
func copyDepth(v any, d int) any {
	if d == 0 {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = copyDepth(e, d-1)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = copyDepth(e, d-1)
		}
		return l
	}
	return v
}

// TestDifferentialCRDs compares kdv's CRD check (resource.CheckCRD) with the
// apiserver's ValidateCustomResourceDefinition on every corpus CRD (both
// must accept them) and on mutated schemas (same errors, same order).
func TestDifferentialCRDs(t *testing.T) {
	crds := loadRawCRDs(t)
	start := time.Now()
	type crdCase struct {
		name, mutation string
		obj            map[string]any
	}
	var cases []crdCase
	base := []any{"spec", "versions", 0, "schema", "openAPIV3Schema"}
	// Candidates per mutation kind: up to two nodes per CRD where it
	// applies; then crdCasesPerKind of them across all CRDs.
	type candidate struct {
		crd  int
		node schemaNode
	}
	candidates := make([][]candidate, len(crdMutations))
	var pinned []crdCase
	for ci, c := range crds {
		cases = append(cases, crdCase{name: c.Name, obj: c.Obj})
		rootSchema, ok := getAt(c.Obj, base).(map[string]any)
		if !ok {
			continue
		}
		var nodes []schemaNode
		schemaNodes(rootSchema, base, 0, &nodes)
		r := rand.New(rand.NewSource(int64(ci)))
		for mi, m := range crdMutations {
			var applicable []schemaNode
			for _, n := range nodes {
				// Mutations touch at most three levels below the node.
				if m.Apply(copyDepth(n.props, 4).(map[string]any), n.depth == 0) {
					applicable = append(applicable, n)
				}
			}
			for _, n := range applicable {
				for _, p := range pinnedCRDCases {
					if strings.HasSuffix(c.Name, p.file) && p.kind == m.Kind && p.path == pathString(n.path[len(base):]) {
						cp := k8sruntime.DeepCopyJSON(c.Obj)
						m.Apply(getAt(cp, n.path).(map[string]any), n.depth == 0)
						pinned = append(pinned, crdCase{name: fmt.Sprintf("%s %s %s", c.Name, m.Kind, p.path), mutation: m.Kind, obj: cp})
					}
				}
			}
			r.Shuffle(len(applicable), func(i, j int) { applicable[i], applicable[j] = applicable[j], applicable[i] })
			for _, n := range applicable[:min(2, len(applicable))] {
				candidates[mi] = append(candidates[mi], candidate{ci, n})
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	nMut := 0
	for mi, m := range crdMutations {
		cs := candidates[mi]
		r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		for _, cand := range cs[:min(crdCasesPerKind, len(cs))] {
			c := crds[cand.crd]
			cp := k8sruntime.DeepCopyJSON(c.Obj)
			m.Apply(getAt(cp, cand.node.path).(map[string]any), cand.node.depth == 0)
			cases = append(cases, crdCase{name: fmt.Sprintf("%s %s %s", c.Name, m.Kind, pathString(cand.node.path[len(base):])), mutation: m.Kind, obj: cp})
			nMut++
		}
	}
	cases = append(cases, pinned...)
	nMut += len(pinned)
	t.Logf("%d CRD cases generated in %v", len(cases), time.Since(start))
	out := make([]*disagreement, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				ref, kdv := crdVerdicts(cases[i].obj)
				if d := time.Since(t0); d > 2*time.Second {
					t.Logf("slow: %s took %v", cases[i].name, d)
				}
				if cases[i].mutation == "" && (len(ref.Errors) > 0 || ref.DecodeErr != "") {
					t.Errorf("%s: the apiserver rejects a corpus CRD:\n%s", cases[i].name, ref)
				}
				if d := crdDisagreement(cases[i].obj, ref, kdv); d != nil {
					d.Case = objCase{Name: cases[i].name, Mutation: cases[i].mutation}
					out[i] = d
				}
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	var ds []disagreement
	for _, d := range out {
		if d != nil {
			ds = append(ds, *d)
		}
	}
	reportDisagreements(t, "CRDs", len(crds), nMut, len(cases), ds, knownCRDDifferences)
}

// knownCRDDifferences is the allow-list of CRD-check disagreements.
var knownCRDDifferences = []knownDifference{
	// cost-total-props-and-addl (kdv's CRD cost total counted the rules of
	// nodes above a schema error) was fixed in kdv.dev/cel: nodeSchemaErrors.
}
