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
// may have after $ref expansion, so that documents whose references fan
// out exponentially fail with an error instead of exhausting memory.
const MaxResolvedNodes = 2_000_000

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
	mu      sync.Mutex // guards cache
	cache   map[string]resolved
}

type resolved struct {
	p    *Props
	size int
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
	d := &Document{name: name, schemas: map[string]*Props{}, gvks: map[GroupVersionKind]string{}, cache: map[string]resolved{}}
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
	if _, ok := d.schemas[name]; !ok {
		return nil, fmt.Errorf("%s: no schema %q", d.name, name)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r, _, err := d.resolveName(name, nil, d.schemaPath(name))
	if err != nil {
		return nil, err
	}
	return r.p, nil
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
