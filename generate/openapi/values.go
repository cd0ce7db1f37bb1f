package openapi

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"kdv.dev/idl"
	"sigs.k8s.io/yaml"
)

// fieldConsts returns the sorted string constants of the named type of a
// field (through pointers and named chains).
func fieldConsts(r *idl.TypeRef) []string {
	for r != nil && r.Kind == idl.Pointer {
		r = r.Elem
	}
	for r != nil && r.Kind == idl.Named {
		var out []string
		for _, c := range r.Named.Consts {
			if v, ok := c.Value.(string); ok {
				out = append(out, v)
			}
		}
		if len(out) > 0 {
			sort.Strings(out)
			return out
		}
		r = r.Named.Underlying
	}
	return nil
}

func enumValue(v, typ string) any {
	switch typ {
	case "integer":
		if i, err := strconv.ParseInt(v, 10, 64); err == nil {
			return i
		}
	case "number":
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	}
	return v
}

// value decodes a default or example: ref(Const) or ref(pkg.Const) names a
// Go constant (openapi-gen); otherwise JSON, then YAML (controller-tools'
// value syntax is close to YAML flow style), then the raw string.
func (g *gen) value(t *idl.Tag) (any, error) {
	v := strings.TrimSpace(t.Value)
	if strings.HasPrefix(v, "ref(") && strings.HasSuffix(v, ")") {
		name := v[4 : len(v)-1]
		pkg := ""
		if i := strings.LastIndex(name, "."); i >= 0 {
			pkg, name = name[:i], name[i+1:]
		}
		if pkg == "" {
			pkg = pkgOfPos(g, t)
		}
		c := g.u.Const(pkg, name)
		if c == nil {
			return nil, t.Errorf("constant %s.%s not found", pkg, name)
		}
		return c.Value, nil
	}
	var out any
	if err := json.Unmarshal([]byte(v), &out); err == nil {
		return normalize(out), nil
	}
	if err := yaml.Unmarshal([]byte(v), &out); err == nil && out != nil {
		return normalize(out), nil
	}
	return v, nil
}

// pkgOfPos finds the package declaring the file a tag is in: a root
// package, or the package of a type generated from that directory.
func pkgOfPos(g *gen, t *idl.Tag) string {
	dir := dirOf(t.Pos.Filename)
	for _, p := range g.u.Packages {
		if p.Dir == dir {
			return p.Path
		}
	}
	return g.dirPkg[dir]
}

func dirOf(file string) string {
	if i := strings.LastIndex(file, "/"); i >= 0 {
		return file[:i]
	}
	return file
}

// normalize turns float64 integers into int64 (the unstructured
// convention schema.JSON documents).
func normalize(v any) any {
	switch v := v.(type) {
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
		return v
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	}
	return v
}
