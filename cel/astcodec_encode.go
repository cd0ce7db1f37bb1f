package cel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The encoding half of the compile cache's AST codec (astcodec.go).

// encodeCachedAST encodes a checked AST (layout above). An error for what
// the protobuf form could not hold either, an unchecked AST or a syntax
// version (only ASTs read from protobuf have one): such an AST is simply
// not cached.
func encodeCachedAST(a *celgo.Ast) ([]byte, error) {
	if !a.IsChecked() {
		return nil, errors.New("cannot encode an unchecked AST")
	}
	n := a.NativeRep()
	info := n.SourceInfo()
	if info.SyntaxVersion() != "" {
		return nil, errors.New("cannot encode a syntax version")
	}
	e := &astEncoder{strIdx: map[string]int{}, typeIdx: map[*types.Type]int{}, typeKey: map[string]int{}}
	e.expr(n.Expr(), 0)
	e.str(info.Description())
	e.uint(uint64(len(info.LineOffsets())))
	for _, l := range info.LineOffsets() {
		e.int(int64(l))
	}
	ranges := info.OffsetRanges()
	ids(e, ranges, func(r ast.OffsetRange) {
		e.int(int64(r.Start))
		e.int(int64(r.Stop) - int64(r.Start))
	})
	ids(e, info.MacroCalls(), func(x ast.Expr) { e.expr(x, 0) })
	e.uint(uint64(len(info.Extensions())))
	for _, x := range info.Extensions() {
		e.str(x.ID)
		e.int(x.Version.Major)
		e.int(x.Version.Minor)
		e.uint(uint64(len(x.Components)))
		for _, c := range x.Components {
			e.int(int64(c))
		}
	}
	ids(e, n.TypeMap(), func(t *types.Type) { e.uint(uint64(e.typ(t))) })
	ids(e, n.ReferenceMap(), func(r *ast.ReferenceInfo) {
		e.str(r.Name)
		e.uint(uint64(len(r.OverloadIDs)))
		for _, o := range r.OverloadIDs {
			e.str(o)
		}
		e.constant(r.Value, true)
	})
	if e.err != nil {
		return nil, e.err
	}
	out := make([]byte, 0, len(e.body)+len(e.types)+16*len(e.strs)+64)
	out = append(out, astCodecVersion)
	out = binary.AppendUvarint(out, uint64(len(e.strs)))
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range e.strs {
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(e.ntypes))
	out = append(out, e.types...)
	return append(out, e.body...), nil
}

// astEncoder accumulates the body and the string and type tables.
type astEncoder struct {
	body    []byte
	strs    []string
	strIdx  map[string]int
	types   []byte
	ntypes  int
	typeIdx map[*types.Type]int
	typeKey map[string]int // a type's encoding → its index
	err     error
}

func (e *astEncoder) uint(v uint64) { e.body = binary.AppendUvarint(e.body, v) }
func (e *astEncoder) int(v int64)   { e.body = binary.AppendVarint(e.body, v) }

func (e *astEncoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("encoding AST: "+format, args...)
	}
}

// strIndex returns the index of s in the string table, adding it.
func (e *astEncoder) strIndex(s string) int {
	i, ok := e.strIdx[s]
	if !ok {
		i = len(e.strs)
		e.strs = append(e.strs, s)
		e.strIdx[s] = i
	}
	return i
}

func (e *astEncoder) str(s string) { e.uint(uint64(e.strIndex(s))) }

// ids writes a map by id: its size, then (id delta, value) in id order.
func ids[V any](e *astEncoder, m map[int64]V, value func(V)) {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.uint(uint64(len(keys)))
	prev := int64(0)
	for _, k := range keys {
		e.uint(uint64(k - prev))
		prev = k
		value(m[k])
	}
}

func (e *astEncoder) expr(x ast.Expr, depth int) {
	if depth > astMaxDepth {
		e.fail("nesting deeper than %d", astMaxDepth)
		return
	}
	if x == nil {
		e.body = append(e.body, astExprUnspecified, 0)
		return
	}
	depth++
	switch x.Kind() {
	case ast.UnspecifiedExprKind:
		e.body = append(e.body, astExprUnspecified)
		e.uint(uint64(x.ID()))
	case ast.LiteralKind:
		e.body = append(e.body, astExprLiteral)
		e.uint(uint64(x.ID()))
		e.constant(x.AsLiteral(), false)
	case ast.IdentKind:
		e.body = append(e.body, astExprIdent)
		e.uint(uint64(x.ID()))
		e.str(x.AsIdent())
	case ast.SelectKind:
		s := x.AsSelect()
		tag := astExprSelect
		if s.IsTestOnly() {
			tag = astExprPresence
		}
		e.body = append(e.body, tag)
		e.uint(uint64(x.ID()))
		e.str(s.FieldName())
		e.expr(s.Operand(), depth)
	case ast.CallKind:
		c := x.AsCall()
		tag := astExprCall
		if c.IsMemberFunction() {
			tag = astExprMemberCall
		}
		e.body = append(e.body, tag)
		e.uint(uint64(x.ID()))
		e.str(c.FunctionName())
		if c.IsMemberFunction() {
			e.expr(c.Target(), depth)
		}
		e.uint(uint64(len(c.Args())))
		for _, a := range c.Args() {
			e.expr(a, depth)
		}
	case ast.ListKind:
		l := x.AsList()
		e.body = append(e.body, astExprList)
		e.uint(uint64(x.ID()))
		e.uint(uint64(len(l.Elements())))
		for _, el := range l.Elements() {
			e.expr(el, depth)
		}
		e.uint(uint64(len(l.OptionalIndices())))
		for _, i := range l.OptionalIndices() {
			e.int(int64(i))
		}
	case ast.MapKind:
		m := x.AsMap()
		e.body = append(e.body, astExprMap)
		e.uint(uint64(x.ID()))
		e.uint(uint64(len(m.Entries())))
		for _, en := range m.Entries() {
			if en.Kind() != ast.MapEntryKind {
				e.fail("map entry of kind %v", en.Kind())
				return
			}
			me := en.AsMapEntry()
			e.uint(uint64(en.ID()))
			e.bool(me.IsOptional())
			e.expr(me.Key(), depth)
			e.expr(me.Value(), depth)
		}
	case ast.StructKind:
		s := x.AsStruct()
		e.body = append(e.body, astExprStruct)
		e.uint(uint64(x.ID()))
		e.str(s.TypeName())
		e.uint(uint64(len(s.Fields())))
		for _, f := range s.Fields() {
			if f.Kind() != ast.StructFieldKind {
				e.fail("struct field of kind %v", f.Kind())
				return
			}
			sf := f.AsStructField()
			e.uint(uint64(f.ID()))
			e.str(sf.Name())
			e.bool(sf.IsOptional())
			e.expr(sf.Value(), depth)
		}
	case ast.ComprehensionKind:
		c := x.AsComprehension()
		e.body = append(e.body, astExprComprehension)
		e.uint(uint64(x.ID()))
		e.str(c.IterVar())
		e.str(c.IterVar2())
		e.str(c.AccuVar())
		for _, sub := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
			e.expr(sub, depth)
		}
	default:
		e.fail("expression of kind %v", x.Kind())
	}
}

func (e *astEncoder) bool(b bool) {
	if b {
		e.body = append(e.body, 1)
	} else {
		e.body = append(e.body, 0)
	}
}

// constant writes a literal or a reference's value (nil only there).
func (e *astEncoder) constant(v ref.Val, orNone bool) {
	switch v := v.(type) {
	case nil:
		if !orNone {
			e.fail("literal without a value")
		}
		e.body = append(e.body, astConstNone)
	case types.Bool:
		if v {
			e.body = append(e.body, astConstTrue)
		} else {
			e.body = append(e.body, astConstFalse)
		}
	case types.Int:
		e.body = append(e.body, astConstInt)
		e.int(int64(v))
	case types.Uint:
		e.body = append(e.body, astConstUint)
		e.uint(uint64(v))
	case types.Double:
		e.body = append(e.body, astConstDouble)
		e.body = binary.LittleEndian.AppendUint64(e.body, math.Float64bits(float64(v)))
	case types.String:
		e.body = append(e.body, astConstString)
		e.str(string(v))
	case types.Bytes:
		e.body = append(e.body, astConstBytes)
		e.uint(uint64(len(v)))
		e.body = append(e.body, v...)
	case types.Null:
		e.body = append(e.body, astConstNull)
	default:
		e.fail("constant of type %v", v.Type())
	}
}

// typ returns the index of t in the type table, adding it (and its
// parameters first) as TypeToExprType would convert it.
func (e *astEncoder) typ(t *types.Type) int {
	if i, ok := e.typeIdx[t]; ok {
		return i
	}
	rec := []byte{0}
	param := func(p *types.Type) { rec = binary.AppendUvarint(rec, uint64(e.typ(p))) }
	name := func() { rec = binary.AppendUvarint(rec, uint64(e.strIndex(t.TypeName()))) }
	params := t.Parameters()
	primitive := func(tag byte) {
		if t.IsAssignableType(types.NullType) {
			tag |= astTypeWrapper
		}
		rec[0] = tag
	}
	switch t.Kind() {
	case types.DynKind:
		rec[0] = astTypeDyn
	case types.AnyKind:
		rec[0] = astTypeAny
	case types.BoolKind:
		primitive(astTypeBool)
	case types.BytesKind:
		primitive(astTypeBytes)
	case types.DoubleKind:
		primitive(astTypeDouble)
	case types.IntKind:
		primitive(astTypeInt)
	case types.StringKind:
		primitive(astTypeString)
	case types.UintKind:
		primitive(astTypeUint)
	case types.DurationKind:
		rec[0] = astTypeDuration
	case types.TimestampKind:
		rec[0] = astTypeTimestamp
	case types.ErrorKind:
		rec[0] = astTypeError
	case types.NullTypeKind:
		rec[0] = astTypeNull
	case types.ListKind, types.MapKind:
		if want := map[types.Kind]int{types.ListKind: 1, types.MapKind: 2}[t.Kind()]; len(params) != want {
			e.fail("%v with %d parameters", t, len(params))
			return 0
		}
		rec[0] = astTypeList
		if t.Kind() == types.MapKind {
			rec[0] = astTypeMap
		}
		for _, p := range params {
			param(p)
		}
	case types.OpaqueKind:
		rec[0] = astTypeOpaque
		name()
		rec = binary.AppendUvarint(rec, uint64(len(params)))
		for _, p := range params {
			param(p)
		}
	case types.StructKind:
		rec[0] = astTypeObject
		name()
	case types.TypeParamKind:
		rec[0] = astTypeParam
		name()
	case types.TypeKind:
		rec[0] = astTypeType
		if len(params) == 1 {
			rec[0] = astTypeTypeParam
			param(params[0])
		}
	default:
		e.fail("type %v", t)
		return 0
	}
	i, ok := e.typeKey[string(rec)]
	if !ok {
		i = e.ntypes
		e.ntypes++
		e.typeKey[string(rec)] = i
		e.types = append(e.types, rec...)
	}
	e.typeIdx[t] = i
	return i
}
