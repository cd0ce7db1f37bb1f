package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// GroupVersionKind names a Kubernetes kind, as listed in a schema's
// x-kubernetes-group-version-kind extension ("" group is the core group).
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// String renders group/version, Kind (version, Kind for the core group).
func (g GroupVersionKind) String() string {
	if g.Group == "" {
		return g.Version + ", Kind=" + g.Kind
	}
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// MaxResolvedNodes bounds the number of schema nodes one resolved schema
// may have after $ref expansion, and the nodes visited while resolving it,
// so that documents whose references fan out exponentially fail with an
// error instead of exhausting memory. An expanded node costs about 2 KB
// once converted and compiled, so the bound keeps the worst case to a few
// hundred MB. It is about a hundred times the largest schema Kubernetes
// publishes (core/v1 PodList, 2,244 nodes in 1.37) or the largest version
// of a CRD in kdv's corpus (2,149), and above what a CRD can declare within
// the apiserver's 3 MiB request limit with typed nodes
// ({"a":{"type":"string"}} is 22 bytes: about 143,000 nodes).
const MaxResolvedNodes = 200_000

// MaxSchemaDepth bounds how deeply the schema nodes of a resolved schema
// nest. A chain of $refs can nest deeper than its document; the apiserver
// never sees deeper schemas: its JSON and YAML decoders refuse input nested
// more than 10,000 levels ("exceeded max depth of 10000": maxNestingDepth
// in sigs.k8s.io/json internal/golang/encoding/json/scanner.go, which
// k8s.io/apimachinery/pkg/util/json uses, and go.yaml.in/yaml/v2's
// max_flow_level and max_indents), and each schema level is at least one
// JSON level.
const MaxSchemaDepth = 10_000

// Document is an OpenAPI v3 document (components.schemas) or a Swagger 2.0
// document (definitions), as Kubernetes publishes for its built-in types at
// /openapi/v3/apis/<group>/<version> (files like apis__apps__v1_openapi.json).
// Schemas are resolved on demand and cached; a Document is safe for
// concurrent use.
type Document struct {
	name    string
	prefix  string // "#/components/schemas/" or "#/definitions/"
	schemas map[string]*Props
	gvks    map[GroupVersionKind]string
	mu      sync.Mutex // guards cache, seqs and scc
	// cache memoizes resolved schemas by name and the names of the name's
	// reference cycle being resolved around it (see memoKey); seqs numbers
	// those sequences of names.
	cache map[memoKey]resolved
	seqs  map[seqStep]int
	// scc numbers the strongly connected component of every name in the
	// reference graph; computed on the first Props call.
	scc map[string]int
}

// LoadOpenAPIDocument decodes an OpenAPI v3 (or Swagger 2.0) document, JSON
// or YAML. name (usually the file name) prefixes every error. It mirrors what
// kube-openapi's spec3 loading and kubectl-validate's schema lookup need:
// named schemas and their x-kubernetes-group-version-kind.
func LoadOpenAPIDocument(name string, data []byte) (*Document, error) {
	j, err := toJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(j) == 0 || j[0] != '{' {
		return nil, fmt.Errorf("%s: an OpenAPI document must be an object, got %s", name, describeJSON(j))
	}
	var raw struct {
		OpenAPI     string                     `json:"openapi"`
		Swagger     string                     `json:"swagger"`
		Components  map[string]json.RawMessage `json:"components"`
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(j, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, describeDecodeError(err))
	}
	d := &Document{name: name, schemas: map[string]*Props{}, gvks: map[GroupVersionKind]string{}, cache: map[memoKey]resolved{}, seqs: map[seqStep]int{}}
	var defs map[string]json.RawMessage
	switch {
	case raw.Components != nil:
		d.prefix = "#/components/schemas/"
		if s, ok := raw.Components["schemas"]; ok {
			if err := json.Unmarshal(s, &defs); err != nil {
				return nil, fmt.Errorf("%s: components.schemas: %w", name, describeDecodeError(err))
			}
		}
	case raw.Definitions != nil:
		d.prefix = "#/definitions/"
		defs = raw.Definitions
	default:
		return nil, fmt.Errorf("%s: not an OpenAPI document: no components.schemas or definitions", name)
	}
	for _, k := range sortedKeys(defs) {
		p := &Props{}
		if err := json.Unmarshal(defs[k], p); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, d.schemaPath(k), describeDecodeError(err))
		}
		d.schemas[k] = p
		for _, g := range gvksOf(p) {
			d.gvks[g] = k
		}
	}
	return d, nil
}

func (d *Document) schemaPath(name string) string {
	if d.prefix == "#/definitions/" {
		return fmt.Sprintf("definitions[%q]", name)
	}
	return fmt.Sprintf("components.schemas[%q]", name)
}

// gvksOf reads x-kubernetes-group-version-kind (a list or a single object).
func gvksOf(p *Props) []GroupVersionKind {
	v, ok := p.Extra["x-kubernetes-group-version-kind"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var list []GroupVersionKind
	if json.Unmarshal(b, &list) == nil {
		return list
	}
	var one GroupVersionKind
	if json.Unmarshal(b, &one) == nil && one.Kind != "" {
		return []GroupVersionKind{one}
	}
	return nil
}

// Name returns the name the document was loaded with.
func (d *Document) Name() string { return d.name }

// Names returns the names of all schemas in the document, sorted.
func (d *Document) Names() []string { return sortedKeys(d.schemas) }

// GVKs returns the kinds the document has schemas for, sorted.
func (d *Document) GVKs() []GroupVersionKind {
	out := make([]GroupVersionKind, 0, len(d.gvks))
	for g := range d.gvks {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// NameForGVK returns the schema name carrying the kind in its
// x-kubernetes-group-version-kind, or "".
func (d *Document) NameForGVK(g GroupVersionKind) string { return d.gvks[g] }

// Props returns the named schema with every $ref resolved (see resolve for
// the rules). The result shares subtrees with other results and must not be
// modified; DeepCopy it first.
func (d *Document) Props(name string) (*Props, error) {
	res, err := d.resolved(name)
	return res.p, err
}

// ResolvedNodes returns the number of schema nodes of the named schema
// once its references are resolved: what Schema converts, at most
// MaxResolvedNodes. Resolved schemas share subtrees, converted ones do
// not; callers converting many schemas of one document bound their sum
// with it before converting.
func (d *Document) ResolvedNodes(name string) (int, error) {
	res, err := d.resolved(name)
	return res.size, err
}

func (d *Document) resolved(name string) (resolved, error) {
	if _, ok := d.schemas[name]; !ok {
		return resolved{}, fmt.Errorf("%s: no schema %q", d.name, name)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.scc == nil {
		d.scc = d.components()
	}
	r := &resolver{d: d, top: name, onStack: map[string]int{}, seq: map[int]int{}}
	res, err := r.resolveName(name, rawPath(d.schemaPath(name)))
	if err != nil {
		return resolved{}, err
	}
	return res, nil
}

// Schema returns the named schema resolved and converted to a Structural.
func (d *Document) Schema(name string) (*Structural, error) {
	p, err := d.Props(name)
	if err != nil {
		return nil, err
	}
	s, err := NewStructural(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", d.name, d.schemaPath(name), err)
	}
	return s, nil
}

// SchemaForGVK returns the structural schema of a kind, and its name.
func (d *Document) SchemaForGVK(g GroupVersionKind) (*Structural, string, error) {
	name := d.gvks[g]
	if name == "" {
		return nil, "", fmt.Errorf("%s: no schema for %s", d.name, g)
	}
	s, err := d.Schema(name)
	return s, name, err
}
