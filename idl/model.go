package idl

import "go/token"

// Kind is the shape of a type expression.
type Kind int

const (
	// Basic is a predeclared type: string, bool, int32, float64, ...
	Basic Kind = iota
	// Named is a reference to a declared (named or alias) type.
	Named
	// Pointer is *Elem.
	Pointer
	// Slice is []Elem.
	Slice
	// Array is [Len]Elem.
	Array
	// Map is map[Key]Elem.
	Map
	// Struct is an anonymous struct with Fields.
	Struct
	// Interface is any interface type (any, runtime.Object).
	Interface
	// Unsupported is a func, chan or other type with no JSON form.
	Unsupported
)

// TypeRef is a type expression as written on a field or in a declaration.
type TypeRef struct {
	Kind Kind
	// Basic is the predeclared name for Kind Basic ("uint8" for byte).
	Basic string
	// Named is the declared type for Kind Named.
	Named *Type
	// Elem is the element of Pointer, Slice, Array and Map.
	Elem *TypeRef
	// Key is a Map's key.
	Key *TypeRef
	// Len is an Array's length.
	Len int64
	// Fields are an anonymous Struct's fields.
	Fields []*Field
	// Text is the Go spelling, for messages.
	Text string
}

// Package is one loaded Go package.
type Package struct {
	// Path is the import path, Name the package name, Dir its directory.
	Path, Name, Dir string
	// Root says the package matched the load patterns (rather than being a
	// dependency loaded on demand).
	Root bool
	// Tags are the tags in the comments before the package clause of any
	// file (doc.go's +groupName, +versionName, +kubebuilder:validation:...).
	Tags []*Tag
	// Types are the exported named types declared in the package, sorted
	// by name. Only root packages list them.
	Types []*Type
}

// Type is a declared Go type: a defined type ("type T struct{...}",
// "type S string") or an alias ("type A = B").
type Type struct {
	// Package is the declaring package's import path; Name the type name.
	Package, Name string
	// Alias is set for "type A = B".
	Alias bool
	// Underlying is the type expression the declaration names: the struct,
	// the basic type, or (for aliases and "type A B") the named type B.
	Underlying *TypeRef
	// Doc is the description: the doc comment with tag lines and "---"
	// tails removed as openapi-gen does.
	Doc string
	// Comments are the raw doc comment lines.
	Comments []string
	// Tags are the tags of the doc comment and of the comment block right
	// above it (gengo's second-closest comment lines).
	Tags []*Tag
	// Consts are the package-level constants of this type, in source order
	// (enum values).
	Consts []*Const
	// Pos is the declaration's position.
	Pos token.Position
}

// ID returns "pkgpath.Name".
func (t *Type) ID() string { return t.Package + "." + t.Name }

// Fields returns the fields when the type is a struct (directly, not
// through a named underlying type).
func (t *Type) Fields() []*Field {
	if t.Underlying != nil && t.Underlying.Kind == Struct {
		return t.Underlying.Fields
	}
	return nil
}

// Field is one struct field.
type Field struct {
	// Name is the Go name; for embedded fields the type name.
	Name string
	// JSONName is the name in the json tag, or Name when there is none.
	JSONName string
	// OmitEmpty and OmitZero mirror the json tag options; Inline is set for
	// ",inline" and for embedded fields without a json name.
	OmitEmpty, OmitZero, Inline bool
	// Embedded is an anonymous field.
	Embedded bool
	// Skip is json:"-" or an unexported field.
	Skip bool
	Type *TypeRef
	// Doc, Comments, Tags and Pos as for Type.
	Doc      string
	Comments []string
	Tags     []*Tag
	Pos      token.Position
}

// Const is a package-level constant.
type Const struct {
	Name string
	// Value is string, int64, float64 or bool.
	Value any
	Doc   string
	Pos   token.Position
}
