package gendata

import (
	"fmt"
	"path"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
)

// goFields walks the struct types reachable from the kinds' Go types and
// records, per definition and JSON property, the Go field behind it
// (datafile.GoField). defs are the published definitions: only structs
// published as one of them are recorded.
func goFields(kinds []*idl.Type, defs map[string]bool) map[string]map[string]datafile.GoField {
	out := map[string]map[string]datafile.GoField{}
	walkStructs(kinds, func(t *idl.Type) bool {
		def := openapi.DefinitionName(t.Package, t.Name)
		props := map[string]datafile.GoField{}
		var fields func(fs []*idl.Field, embedded []string)
		fields = func(fs []*idl.Field, embedded []string) {
			for _, f := range fs {
				if f.Skip {
					continue
				}
				if f.Inline {
					if n := namedStruct(f.Type); n != nil {
						fields(n.Fields(), append(embedded[:len(embedded):len(embedded)], f.Name))
					}
					continue
				}
				props[f.JSONName] = datafile.GoField{Type: typeString(deref(f.Type)), Elem: elemString(f.Type), Embedded: embedded}
			}
		}
		fields(t.Underlying.Fields, nil)
		if defs[def] && len(props) > 0 {
			out[def] = props
		}
		return true
	})
	return out
}

// walkStructs calls visit once for each struct type reachable from the
// kinds' Go types through fields (inline ones included), pointers,
// slices, arrays, map keys and values and named types (aliases resolved);
// when visit returns false, that struct's fields are not followed. It is
// the walk both goFields and goLayouts make.
func walkStructs(kinds []*idl.Type, visit func(t *idl.Type) bool) {
	seen := map[*idl.Type]bool{}
	var visitType func(t *idl.Type)
	var visitRef func(r *idl.TypeRef)
	visitRef = func(r *idl.TypeRef) {
		for r != nil {
			switch r.Kind {
			case idl.Named:
				visitType(r.Named)
				return
			case idl.Pointer, idl.Slice, idl.Array:
				r = r.Elem
			case idl.Map:
				visitRef(r.Key)
				r = r.Elem
			default:
				return
			}
		}
	}
	visitType = func(t *idl.Type) {
		t = unalias(t)
		if seen[t] || t.Underlying == nil {
			return
		}
		seen[t] = true
		if t.Underlying.Kind != idl.Struct {
			visitRef(t.Underlying)
			return
		}
		if !visit(t) {
			return
		}
		for _, f := range t.Underlying.Fields {
			if !f.Skip {
				visitRef(f.Type)
			}
		}
	}
	for _, k := range kinds {
		visitType(k)
	}
}

// namedStruct returns the struct type an embedded field's type names
// (through a pointer and aliases), nil otherwise.
func namedStruct(r *idl.TypeRef) *idl.Type {
	r = deref(r)
	if r == nil || r.Kind != idl.Named {
		return nil
	}
	t := r.Named
	for t.Alias && t.Underlying != nil && t.Underlying.Kind == idl.Named {
		t = t.Underlying.Named
	}
	if t.Underlying == nil || t.Underlying.Kind != idl.Struct {
		return nil
	}
	return t
}

func deref(r *idl.TypeRef) *idl.TypeRef {
	for r != nil && r.Kind == idl.Pointer {
		r = r.Elem
	}
	return r
}

// elemString is the Go type of a slice's items or a map's values (through
// named types), pointers removed; "" for other types.
func elemString(r *idl.TypeRef) string {
	r = deref(r)
	for r != nil && r.Kind == idl.Named {
		r = r.Named.Underlying
	}
	if r == nil || (r.Kind != idl.Slice && r.Kind != idl.Array && r.Kind != idl.Map) {
		return ""
	}
	return typeString(deref(r.Elem))
}

// typeString writes a Go type as reflect.Type.String does: package name
// (the last element of its path) and type name for named types, aliases
// resolved.
func typeString(r *idl.TypeRef) string {
	if r == nil {
		return ""
	}
	switch r.Kind {
	case idl.Named:
		t := r.Named
		if t.Alias && t.Underlying != nil {
			return typeString(t.Underlying)
		}
		if t.Package == "" {
			return t.Name
		}
		return path.Base(t.Package) + "." + t.Name
	case idl.Pointer:
		return "*" + typeString(r.Elem)
	case idl.Slice:
		return "[]" + typeString(r.Elem)
	case idl.Array:
		return fmt.Sprintf("[%d]%s", r.Len, typeString(r.Elem))
	case idl.Map:
		return "map[" + typeString(r.Key) + "]" + typeString(r.Elem)
	case idl.Basic:
		return r.Basic
	case idl.Interface:
		if strings.HasPrefix(r.Text, "interface") {
			return "interface {}"
		}
		return r.Text
	}
	return r.Text
}
