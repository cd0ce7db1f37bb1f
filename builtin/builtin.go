// Package builtin embeds the schemas of the Kubernetes built-in types, one
// data file per Kubernetes minor version (data/v1.<minor>.json for the
// newest, data/v1.<minor>.json.gz for the others), generated
// by kdv itself from k8s.io/api with kdv.dev/generate/openapi (go generate;
// TestDataUpToDate fails when regenerating would change a file). Reading
// them needs neither the generator nor go/packages. A definition identical
// in 1.37 is stored once, in 1.37's file, which the older releases' files
// name (datafile.Delta). Definitions are
// resolved with kdv.dev/schema/refs (TestRuntimeDependencies keeps it so).
//
// Lookup returns a kind's structural schema with every $ref resolved, the
// form kdv's CRD validator takes: metadata is the ObjectMeta schema,
// IntOrString is x-kubernetes-int-or-string, Quantity is
// x-kubernetes-int-or-string with resource.ParseQuantity's pattern (dyn in
// CEL, where rules take quantity(x)), RawExtension preserves unknown
// fields. The schemas describe objects as the apiserver's decoder leaves
// them: kdv.dev/resource decodes first, which turns quantities into their
// canonical strings (0.5 into "500m"); validated raw, without that step, a
// number quantity is a type error. It mirrors the role
// of kubectl-validate's builtin schemas.
package builtin

//go:generate go run ./internal/cmd/genfeaturegates -out data/featuregates.json
//go:generate go run ./internal/cmd/gen -minor 37 -out data/v1.37.json
//go:generate go run ./internal/cmd/gen -minor 36 -api v0.36.6 -base data/v1.37.json -out data/v1.36.json.gz
//go:generate go run ./internal/cmd/gen -minor 35 -api v0.35.10 -base data/v1.37.json -out data/v1.35.json.gz
//go:generate go run ./internal/cmd/gen -minor 34 -api v0.34.4 -base data/v1.37.json -out data/v1.34.json.gz
//go:generate go run ./internal/cmd/gen -minor 33 -api v0.33.13 -base data/v1.37.json -out data/v1.33.json.gz
//go:generate go run ./internal/cmd/gen -minor 32 -api v0.32.13 -base data/v1.37.json -out data/v1.32.json.gz
//go:generate go run ./internal/cmd/gen -minor 31 -api v0.31.14 -base data/v1.37.json -out data/v1.31.json.gz
//go:generate go run ./internal/cmd/gen -minor 30 -api v0.30.14 -base data/v1.37.json -out data/v1.30.json.gz

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema"
	"kdv.dev/schema/refs"
)

//go:embed data/*.json.gz
var dataFS embed.FS

// newestData is the newest release's data file, kept uncompressed and
// read in place (an embed.FS read copies it: 3.5 MB of fresh memory, a
// tenth of the start-up of validating one Deployment). Its version is
// newestMinor; the go:generate lines above write it.
//
//go:embed data/v1.37.json
var newestData string

const newestMinor = 37

// Kind is one built-in kind of a Kubernetes minor version.
type Kind struct {
	schema.GroupVersionKind
	// Namespaced is false for cluster-scoped kinds. Source: the
	// +genclient:nonNamespaced tags of k8s.io/api ("<Kind>List" takes its
	// item's scope; metav1 kinds such as Status are cluster-scoped).
	Namespaced bool
}

type version struct {
	once  sync.Once
	err   error
	kinds []datafile.Kind
	byGVK map[schema.GroupVersionKind]datafile.Kind
	// raw holds every definition undecoded: a kind needs only the
	// definitions its own reaches, and decoding all of them is most of
	// the start-up cost of validating one built-in object.
	raw map[string]json.RawMessage
	// goFieldsRaw is decoded into goFields on first use: only error
	// messages need it.
	goFieldsRaw json.RawMessage
	goFields    map[string]map[string]datafile.GoField
	layoutsRaw  map[string]json.RawMessage
	layouts     map[string]*schema.GoStruct
	mu          sync.Mutex
	defs        map[string]*schema.Props // decoded definitions
	structs     map[schema.GroupVersionKind]*schema.Structural
	props       map[schema.GroupVersionKind]*schema.Props
	resolver    *refs.Resolver
}

// rawData is datafile.Data with the definitions left undecoded.
type rawData struct {
	Kinds    []datafile.Kind            `json:"kinds"`
	Schemas  map[string]json.RawMessage `json:"schemas"`
	GoFields json.RawMessage            `json:"goFields"`
	// GoLayouts: datafile.Data.GoLayouts, each decoded when a kind's
	// schema first reaches it (golayout.go).
	GoLayouts map[string]json.RawMessage `json:"goLayouts"`
	// Base and Inherited: the definitions shared with another release's
	// file (datafile.Data).
	Base      int      `json:"base"`
	Inherited []string `json:"inherited"`
}

// inherit adds to d.Schemas the definitions d.Inherited names from the
// data of release d.Base (loaded as needed), where the generator stored
// each definition identical in both once.
func (d *rawData) inherit(minor int) error {
	if d.Base == 0 {
		return nil
	}
	if d.Base == minor {
		return fmt.Errorf("shares definitions with itself")
	}
	base, err := get(d.Base)
	if err != nil {
		return err
	}
	if d.Schemas == nil {
		d.Schemas = map[string]json.RawMessage{}
	}
	for _, n := range d.Inherited {
		raw, ok := base.raw[n]
		if !ok {
			return fmt.Errorf("definition %s is not in 1.%d", n, d.Base)
		}
		d.Schemas[n] = raw
	}
	return nil
}

var versions = func() map[int]*version {
	m := map[int]*version{}
	m[newestMinor] = &version{}
	entries, _ := dataFS.ReadDir("data")
	for _, e := range entries {
		s := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(e.Name(), "v1."), ".gz"), ".json")
		if n, err := strconv.Atoi(s); err == nil {
			m[n] = &version{}
		}
	}
	return m
}()

// Versions returns the Kubernetes minor versions with embedded schemas,
// ascending (37 is Kubernetes 1.37).
func Versions() []int {
	out := make([]int, 0, len(versions))
	for n := range versions {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

func get(minor int) (*version, error) {
	v, ok := versions[minor]
	if !ok {
		return nil, fmt.Errorf("no built-in schemas for Kubernetes 1.%d (have %v)", minor, Versions())
	}
	v.once.Do(func() {
		j, err := readData(minor)
		if err != nil {
			v.err = err
			return
		}
		d, err := splitData(j)
		if err != nil {
			v.err = fmt.Errorf("built-in schemas 1.%d: %w", minor, err)
			return
		}
		if err := d.inherit(minor); err != nil {
			v.err = fmt.Errorf("built-in schemas 1.%d: %w", minor, err)
			return
		}
		v.kinds, v.raw, v.goFieldsRaw, v.layoutsRaw = d.Kinds, d.Schemas, d.GoFields, d.GoLayouts
		v.layouts = map[string]*schema.GoStruct{}
		v.byGVK = map[schema.GroupVersionKind]datafile.Kind{}
		for _, k := range d.Kinds {
			v.byGVK[k.GroupVersionKind] = k
		}
		v.defs = map[string]*schema.Props{}
		v.structs = map[schema.GroupVersionKind]*schema.Structural{}
		v.props = map[schema.GroupVersionKind]*schema.Props{}
	})
	return v, v.err
}

// readData returns the JSON text of the data file of 1.<minor>. The newest
// release's file, which every run without --kubernetes-version reads, is
// embedded uncompressed: decompressing its 3.5 MB took about 10 ms, a
// tenth of the start-up of validating one built-in object, for 3 MB of
// executable. The older releases' files are gzip-compressed.
func readData(minor int) ([]byte, error) {
	if minor == newestMinor {
		// read-only: the decoders only read their input (json.RawMessage
		// copies what it keeps)
		return unsafe.Slice(unsafe.StringData(newestData), len(newestData)), nil
	}
	b, err := dataFS.ReadFile(fmt.Sprintf("data/v1.%d.json.gz", minor))
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	// gzip's trailer holds the uncompressed size (mod 2^32): reading into
	// a buffer of that size spares io.ReadAll's growing copies.
	var buf bytes.Buffer
	if n := len(b); n >= 4 {
		buf.Grow(int(binary.LittleEndian.Uint32(b[n-4:])) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Kinds lists the built-in kinds of a Kubernetes minor version, sorted by
// group, version and kind.
func Kinds(minor int) ([]Kind, error) {
	v, err := get(minor)
	if err != nil {
		return nil, err
	}
	out := make([]Kind, 0, len(v.kinds))
	for _, k := range v.kinds {
		out = append(out, Kind{GroupVersionKind: k.GroupVersionKind, Namespaced: k.Namespaced})
	}
	return out, nil
}

// Props returns a kind's resolved schema object (no $ref left), as
// refs.Resolve produces it. The result is shared: do not
// modify it.
func Props(minor int, gvk schema.GroupVersionKind) (*schema.Props, error) {
	v, err := get(minor)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.propsLocked(minor, gvk)
}

func (v *version) propsLocked(minor int, gvk schema.GroupVersionKind) (*schema.Props, error) {
	if p, ok := v.props[gvk]; ok {
		return p, nil
	}
	k, ok := v.byGVK[gvk]
	if !ok {
		return nil, fmt.Errorf("%s is not a built-in kind of Kubernetes 1.%d", gvk, minor)
	}
	if v.resolver == nil {
		// one resolver for every kind of the release: a definition
		// several kinds reach (a pod template) is resolved once
		v.resolver = refs.NewResolver(v.defLocked)
	}
	p, err := v.resolver.Resolve(k.Definition)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gvk, err)
	}
	v.props[gvk] = p
	return p, nil
}

// Lookup returns the structural schema of a built-in kind of Kubernetes
// 1.<minor>. The result is shared and cached: do not modify it. It fails
// for unknown versions and kinds.
func Lookup(minor int, gvk schema.GroupVersionKind) (*schema.Structural, error) {
	v, err := get(minor)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.structs[gvk]; ok {
		return s, nil
	}
	p, err := v.propsLocked(minor, gvk)
	if err != nil {
		return nil, err
	}
	s, err := schema.NewStructural(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gvk, err)
	}
	if err := v.attachLayoutsLocked(s, v.byGVK[gvk].Definition); err != nil {
		return nil, fmt.Errorf("%s: %w", gvk, err)
	}
	v.structs[gvk] = s
	return s, nil
}

// defLocked returns the definition name, decoding it on first use; nil
// when the release has none of that name.
func (v *version) defLocked(name string) (*schema.Props, error) {
	if p, ok := v.defs[name]; ok {
		return p, nil
	}
	raw, ok := v.raw[name]
	if !ok {
		return nil, nil // Resolve reports the missing definition
	}
	p := &schema.Props{}
	// straight to the decoder: json.Unmarshal would scan the definition
	// once more first
	if err := p.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("definition %s: %w", name, err)
	}
	v.defs[name] = p
	return p, nil
}
