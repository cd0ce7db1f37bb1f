package lint

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"kdv.dev/idl"
)

// position returns "file:line" of the Go field a schema path names in a
// version's kind ("" when it cannot be followed, e.g. through metav1's
// types, which are outside the linted packages' source but still have
// positions, or through a type the generator replaced by a well-known
// schema).
func position(v *version, path string) string {
	if v.typ == nil {
		return ""
	}
	p, ok := fieldPos(v.typ, path)
	if !ok {
		return ""
	}
	return formatPos(p)
}

// formatPos renders a position as "file:line", the file relative to the
// current directory when it is below it.
func formatPos(p token.Position) string {
	if !p.IsValid() {
		return ""
	}
	f := p.Filename
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
	}
	return fmt.Sprintf("%s:%d", f, p.Line)
}

// maxPathSteps bounds how far a path is followed (a recursive type cannot
// make a longer path than the schema it came from, but be safe).
const maxPathSteps = 256

// fieldPos follows a schema path ("spec.ports[*].port", "{*}" for map
// values) through a Go type and returns the position of the last field it
// reaches, or of the type for the empty path.
func fieldPos(t *idl.Type, path string) (token.Position, bool) {
	if path == "" {
		return t.Pos, true
	}
	ref := &idl.TypeRef{Kind: idl.Named, Named: t}
	var pos token.Position
	steps := splitPath(path)
	if len(steps) > maxPathSteps {
		return pos, false
	}
	for _, s := range steps {
		switch s {
		case "[*]":
			r := deref(ref)
			if r == nil || (r.Kind != idl.Slice && r.Kind != idl.Array) {
				return pos, false
			}
			ref = r.Elem
		case "{*}":
			r := deref(ref)
			if r == nil || r.Kind != idl.Map {
				return pos, false
			}
			ref = r.Elem
		default:
			f := findField(deref(ref), s, 0)
			if f == nil {
				return pos, false
			}
			pos, ref = f.Pos, f.Type
		}
	}
	return pos, pos.IsValid()
}

// splitPath splits "a.b[*].c{*}" into "a", "b", "[*]", "c", "{*}".
func splitPath(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexAny(part, "[{")
			switch {
			case i < 0:
				out = append(out, part)
				part = ""
			case i > 0:
				out = append(out, part[:i])
				part = part[i:]
			default:
				out = append(out, part[:3])
				part = part[3:]
			}
		}
	}
	return out
}

// deref follows pointers and named types to the type expression that has
// a shape (struct, slice, map, basic).
func deref(r *idl.TypeRef) *idl.TypeRef {
	for i := 0; r != nil && i < maxPathSteps; i++ {
		switch {
		case r.Kind == idl.Pointer:
			r = r.Elem
		case r.Kind == idl.Named && r.Named != nil:
			r = r.Named.Underlying
		default:
			return r
		}
	}
	return nil
}

// findField finds the field with a JSON name in a struct, through inlined
// and embedded structs.
func findField(r *idl.TypeRef, name string, depth int) *idl.Field {
	if r == nil || r.Kind != idl.Struct || depth > 16 {
		return nil
	}
	for _, f := range r.Fields {
		if f.Skip {
			continue
		}
		if f.Inline {
			if found := findField(deref(f.Type), name, depth+1); found != nil {
				return found
			}
			continue
		}
		if f.JSONName == name {
			return f
		}
	}
	return nil
}
