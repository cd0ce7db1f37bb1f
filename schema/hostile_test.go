package schema

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/hostile from the generators")

// Hostile inputs must fail with an error naming the file and the limit,
// within these bounds (generous: the inputs they stop expand to gigabytes).
const (
	hostileMaxAlloc = 200 << 20
	hostileMaxTime  = 5 * time.Second
)

// measure runs f and returns the bytes it allocated (TotalAlloc, which
// counts every allocation whether or not it was collected since) and how
// long it took.
func measure(f func()) (uint64, time.Duration) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, d
}

func checkBounded(t *testing.T, what string, f func()) {
	t.Helper()
	alloc, d := measure(f)
	t.Logf("%s: %d MB allocated, %v", what, alloc>>20, d)
	if alloc > hostileMaxAlloc || d > hostileMaxTime {
		t.Errorf("%s: %d MB allocated in %v, want at most %d MB and %v", what, alloc>>20, d, hostileMaxAlloc>>20, hostileMaxTime)
	}
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

func TestHostileFilesUpToDate(t *testing.T) {
	for name, content := range hostileFiles() {
		path := filepath.Join("testdata", "hostile", name)
		if *update {
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != content {
			t.Errorf("%s is not what hostile_gen_test.go generates (err %v); run go test -run TestHostileFilesUpToDate -update", path, err)
		}
	}
}

func readHostile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resolveAll resolves every kind of an OpenAPI document as --schemas does
// and returns the first error.
func resolveAll(name string, data []byte) error {
	d, err := LoadOpenAPIDocument(name, data)
	if err != nil {
		return err
	}
	for _, g := range d.GVKs() {
		if _, _, err := d.SchemaForGVK(g); err != nil {
			return err
		}
	}
	return nil
}

// References that fan out through a cycle: fanout^n nodes once expanded.
// The resolver used to check its node bound only after building a node's
// children and never reused subtrees with a cycle stub, and ran out of
// memory.
func TestHostileRefCycle(t *testing.T) {
	data := readHostile(t, "ref-cycle.json")
	var err error
	checkBounded(t, "ref-cycle.json", func() { err = resolveAll("ref-cycle.json", data) })
	wantErr(t, err, `ref-cycle.json: components.schemas["D0"]: more than 200000 schema nodes after resolving references (schema.MaxResolvedNodes), at components.schemas["D`)
}

// A chain of references nests one level per definition: deeper than any
// schema the apiserver decodes.
func TestHostileRefChainDepth(t *testing.T) {
	doc := []byte(refChainDoc(MaxSchemaDepth + 1))
	d, err := LoadOpenAPIDocument("chain.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	checkBounded(t, "chain of 10001 references", func() { _, err = d.Schema("D0") })
	wantErr(t, err, `chain.json: components.schemas["D0"]: schema nodes nested more than 10000 levels deep after resolving references (schema.MaxSchemaDepth), at components.schemas["D`)
	// The same chain one level shorter is fine, and so is every suffix of it.
	d, err = LoadOpenAPIDocument("chain.json", []byte(refChainDoc(MaxSchemaDepth)))
	if err != nil {
		t.Fatal(err)
	}
	checkBounded(t, "chain of 10000 references", func() { _, err = d.Schema("D0") })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Schema(fmt.Sprintf("D%d", MaxSchemaDepth/2)); err != nil {
		t.Fatal(err)
	}
}

// Aliases of a large scalar stay under go-yaml's alias ratio check; the
// schema loaders used to skip the manifest reader's expansion bound.
func TestHostileAliases(t *testing.T) {
	const limitMsg = "yaml: document contains excessive aliasing: expands to more than 67108864 bytes (manifest.DefaultMaxExpandedBytes)"
	loaders := []struct {
		name string
		head string
		ind  int
		load func(name string, data []byte) error
	}{
		{"openapi", openAPIYAMLHead, openAPIYAMLIndent, resolveAll},
		{"crd", crdYAMLHead, crdYAMLIndent, func(name string, data []byte) error {
			_, _, err := CheckDocument(name, data, CheckOptions{})
			return err
		}},
		{"schema", schemaYAMLHead, schemaYAMLIndent, func(name string, data []byte) error {
			_, err := LoadSchema(name, data)
			return err
		}},
	}
	for _, l := range loaders {
		inputs := map[string][]byte{
			"large-" + l.name + ".yaml": []byte(largeAliasBomb(l.head, l.ind)),
			"small-" + l.name + ".yaml": []byte(smallAliasBomb(l.head, l.ind)),
		}
		if l.name != "schema" {
			inputs["alias."+l.name+".yaml"] = readHostile(t, "alias."+l.name+".yaml")
		}
		for name, data := range inputs {
			t.Run(name, func(t *testing.T) {
				var err error
				checkBounded(t, name, func() { err = l.load(name, data) })
				wantErr(t, err, name+": "+limitMsg)
			})
		}
	}
	// ParseCRD, without a name, says the same.
	_, err := ParseCRD(readHostile(t, "alias.crd.yaml"))
	wantErr(t, err, limitMsg)
}

// A CRD schema at the decoders' nesting limit loads in linear time and
// memory; one level deeper is a decode error.
func TestHostileDeepCRD(t *testing.T) {
	// 10000 JSON levels: 7 for the CRD around the spec schema (the object,
	// spec, versions, the version, schema, openAPIV3Schema, properties) and
	// depth+1 for the arrays and their strings.
	const depth = 10_000 - 8
	doc := []byte(crdWithSchema(deepItemsSchema(depth)))
	var errs []string
	checkBounded(t, "CRD schema 10000 JSON levels deep", func() {
		crd, err := ParseCRD(doc)
		if err != nil {
			t.Fatal(err)
		}
		if el, _ := Check(crd, CheckOptions{}); len(el) > 0 {
			errs = append(errs, el.ToAggregate().Error())
		}
		if _, err := crd.Spec.Versions[0].Structural(); err != nil {
			errs = append(errs, err.Error())
		}
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	_, err := ParseCRD([]byte(crdWithSchema(deepItemsSchema(depth + 1))))
	wantErr(t, err, "exceeded max depth of 10000")
}

// allocated returns the bytes f allocates, the least of three runs.
func allocated(f func()) uint64 {
	best := uint64(0)
	for i := range 3 {
		a, _ := measure(f)
		if i == 0 || a < best {
			best = a
		}
	}
	return best
}

// Loading a schema twice as deep allocates at most about twice as much:
// every node used to build its full path string, quadratic in the depth.
func TestDepthScalesLinearly(t *testing.T) {
	const n = 2000
	loaders := []struct {
		name string
		load func(depth int)
	}{
		{"ParseCRD and Check", func(depth int) {
			crd, err := ParseCRD([]byte(crdWithSchema(deepItemsSchema(depth))))
			if err != nil {
				t.Fatal(err)
			}
			Check(crd, CheckOptions{})
		}},
		{"Check with an error at every level", func(depth int) {
			// Errors past the budget are counted, not built: the paths
			// of an error per level were quadratic in the depth.
			checkDeep(t, depth)
		}},
		{"ParseCRDObject", func(depth int) {
			obj, err := decodeGeneric([]byte(crdWithSchema(deepItemsSchema(depth))))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ParseCRDObject(plainJSON(obj).(map[string]any)); err != nil {
				t.Fatal(err)
			}
		}},
		{"OpenAPI document", func(depth int) {
			if err := resolveAll("deep.json", []byte(openAPIWithSchema(deepItemsSchema(depth)))); err != nil {
				t.Fatal(err)
			}
		}},
		{"OpenAPI reference cycle", func(depth int) {
			// A single cycle through depth definitions: depth levels once
			// resolved, each with the cycle's names on the stack.
			d, err := LoadOpenAPIDocument("cycle.json", []byte(refCycleDoc(depth, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Schema("D0"); err != nil {
				t.Fatal(err)
			}
		}},
		{"OpenAPI reference chain", func(depth int) {
			d, err := LoadOpenAPIDocument("chain.json", []byte(refChainDoc(depth)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Schema("D0"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, l := range loaders {
		a1 := allocated(func() { l.load(n) })
		a2 := allocated(func() { l.load(2 * n) })
		ratio := float64(a2) / float64(a1)
		t.Logf("%s: depth %d: %d KB, depth %d: %d KB, ratio %.2f", l.name, n, a1>>10, 2*n, a2>>10, ratio)
		if ratio > 3 {
			t.Errorf("%s: doubling the depth multiplies allocations by %.2f, want at most 3 (linear)", l.name, ratio)
		}
	}
}
