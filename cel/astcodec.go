package cel

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
)

// The compile cache's entries are checked ASTs in a compact binary form of
// kdv's own, decoded straight into cel-go's structures. The protobuf form
// (CheckedExpr) it replaces cost twice: the messages were allocated and
// then converted, and cel-go converts every type and constant by
// marshalling it to another protobuf package and back; reading a built-in
// rule took ~160 µs and a thousand allocations, a third of kdv's start-up
// on one object. The codec keeps everything the protobuf form has (its
// tests compare the two), and the stop offsets the protobuf form drops.
//
// Layout, every integer a uvarint unless said otherwise (ids and offsets
// zig-zag varints where they may be negative):
//
//	version byte (astCodecVersion)
//	strings: count, each length, then all their bytes; later fields name a
//	         string by its index
//	types:   count, each a tag byte and its payload (astType*); a list,
//	         map, opaque or type-of-type names its parameters by their
//	         index, always lower than its own, so decoding needs no recursion
//	expr:    the root expression (astExpr*, below)
//	source:  description, line offsets, offset ranges (id delta, start,
//	         stop-start), macro calls (id delta, expr), extensions
//	types by id:      count, (id delta, type index)
//	references by id: count, (id delta, name, overload ids, constant)
//
// Maps are written in id order with the difference to the previous id, so
// files are deterministic. Decoding checks every count and length against
// the input left (each element takes a byte at least), so corrupt input
// cannot make it allocate more than a small multiple of its size, and it
// bounds expression nesting by astMaxDepth; it returns an error, never
// panics, on anything it did not write.

const (
	astCodecVersion = 1
	// astMaxDepth bounds expression nesting (cel-go's parser stops at 250).
	astMaxDepth = 1000
	// astMaxTypeSize bounds the size of a type as a tree: the table shares
	// parameters, so a few bytes could describe a type of 2^n nodes that
	// cel-go's conversions and printing walk in full (the protobuf form
	// was a tree, its size bounded by the input's). Real types are a few
	// nodes: an object type is a name.
	astMaxTypeSize = 1 << 12
)

// Expression tags.
const (
	astExprUnspecified   byte = iota // id (a macro call's reference to a subexpression)
	astExprLiteral                   // id, constant
	astExprIdent                     // id, name
	astExprSelect                    // id, field, operand
	astExprPresence                  // id, field, operand (has())
	astExprCall                      // id, function, argument count, arguments
	astExprMemberCall                // id, function, target, argument count, arguments
	astExprList                      // id, count, elements, optional index count, indices
	astExprMap                       // id, count, entries (id, optional, key, value)
	astExprStruct                    // id, type name, count, fields (id, name, optional, value)
	astExprComprehension             // id, iterVar, iterVar2, accuVar, range, init, condition, step, result
)

// Constant tags (literals and reference values).
const (
	astConstNone   byte = iota // no value (references only)
	astConstFalse              //
	astConstTrue               //
	astConstInt                // zig-zag varint
	astConstUint               // uvarint
	astConstDouble             // 8 bytes, IEEE 754 little endian
	astConstString             // string index
	astConstBytes              // length, bytes
	astConstNull               //
)

// Type tags: the shapes of common/types' protobuf conversion
// (TypeToExprType, ProtoAsType), decoded by the same constructors.
const (
	astTypeDyn byte = iota
	astTypeAny
	astTypeBool
	astTypeBytes
	astTypeDouble
	astTypeInt
	astTypeString
	astTypeUint
	astTypeDuration
	astTypeTimestamp
	astTypeError
	astTypeNull
	astTypeList      // element
	astTypeMap       // key, value
	astTypeOpaque    // name, count, parameters (optional_type and other abstract types)
	astTypeObject    // name
	astTypeParam     // name
	astTypeType      // type with no parameter
	astTypeTypeParam // type(parameter)

	// astTypeWrapper marks a primitive (bool to uint) as nullable: the
	// wrapper types google.protobuf.BoolValue and the like.
	astTypeWrapper byte = 0x40
)

var errASTCodec = errors.New("malformed cached AST")

// decodeCachedAST decodes an entry of encodeCachedAST into a checked AST
// whose source is expr (the text the entry was compiled from, as
// CheckedExprToAstWithSource was given). Any input it did not write is
// an error.
func decodeCachedAST(b []byte, expr string) (*celgo.Ast, error) {
	d := &astDecoder{b: b, fac: ast.NewExprFactory()}
	if d.byte() != astCodecVersion {
		return nil, errASTCodec
	}
	d.strings()
	d.typeTable()
	root := d.expr(0)
	desc := d.str()
	lines := make([]int32, d.count())
	for i := range lines {
		lines[i] = d.int32()
	}
	info := ast.NewSourceInfo(&infoSource{desc: desc, lines: lines})
	for n, id := d.count(), int64(0); n > 0 && d.err == nil; n-- {
		id = d.nextID(id)
		start := d.int32()
		info.SetOffsetRange(id, ast.OffsetRange{Start: start, Stop: int32(int64(start) + d.varint())})
	}
	for n, id := d.count(), int64(0); n > 0 && d.err == nil; n-- {
		id = d.nextID(id)
		info.SetMacroCall(id, d.expr(0))
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		name := d.str()
		ver := ast.NewExtensionVersion(d.varint(), d.varint())
		comps := make([]ast.ExtensionComponent, d.count())
		for i := range comps {
			comps[i] = ast.ExtensionComponent(d.varint())
		}
		info.AddExtension(ast.NewExtension(name, ver, comps...))
	}
	n := d.count()
	typeMap := make(map[int64]*types.Type, n)
	for id := int64(0); n > 0 && d.err == nil; n-- {
		id = d.nextID(id)
		i := d.uint()
		if i >= uint64(len(d.types)) {
			d.fail()
			break
		}
		typeMap[id] = d.types[i]
	}
	n = d.count()
	refMap := make(map[int64]*ast.ReferenceInfo, n)
	for id := int64(0); n > 0 && d.err == nil; n-- {
		id = d.nextID(id)
		r := &ast.ReferenceInfo{Name: d.str()}
		if k := d.count(); k > 0 {
			r.OverloadIDs = make([]string, k)
			for i := range r.OverloadIDs {
				r.OverloadIDs[i] = d.str()
			}
		}
		r.Value = d.constant(true)
		refMap[id] = r
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	// cel.Ast has no constructor from a native AST: make one whose
	// source is expr and replace its (empty) AST with the decoded one.
	out := celgo.ParsedExprToAstWithSource(&exprpb.ParsedExpr{}, common.NewTextSource(expr))
	*out.NativeRep() = *ast.NewCheckedAST(ast.NewAST(root, info), typeMap, refMap)
	return out, nil
}

// astDecoder reads the layout; the first error sticks, and every read
// after it returns a zero value, so loops end at once.
type astDecoder struct {
	b     []byte
	strs  []string
	types []*types.Type
	fac   ast.ExprFactory
	err   error
}

func (d *astDecoder) fail() {
	if d.err == nil {
		d.err = errASTCodec
	}
	d.b = nil
}

func (d *astDecoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *astDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *astDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *astDecoder) int32() int32 {
	v := d.varint()
	if v != int64(int32(v)) {
		d.fail()
		return 0
	}
	return int32(v)
}

// count reads a number of elements still to come: each takes a byte at
// least, so a count beyond the input left is corrupt (and would otherwise
// size an allocation).
func (d *astDecoder) count() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *astDecoder) nextID(prev int64) int64 { return prev + int64(d.uint()) }

func (d *astDecoder) id() int64 { return int64(d.uint()) }

func (d *astDecoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

// strings reads the string table into one allocation.
func (d *astDecoder) strings() {
	n := d.count()
	lens := make([]int, n)
	total := uint64(0)
	for i := range lens {
		l := d.uint()
		total += l
		if l > uint64(len(d.b)) || total > uint64(len(d.b)) {
			d.fail()
			return
		}
		lens[i] = int(l)
	}
	all := string(d.b[:total])
	d.b = d.b[total:]
	d.strs = make([]string, n)
	for i, l := range lens {
		d.strs[i], all = all[:l], all[l:]
	}
}

func (d *astDecoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.strs)) {
		d.fail()
		return ""
	}
	return d.strs[i]
}

// typeTable reads the type table; a parameter names an earlier type.
func (d *astDecoder) typeTable() {
	d.types = make([]*types.Type, d.count())
	sizes := make([]int, len(d.types)) // each type's size as a tree
	param := func(i int) *types.Type {
		p := d.uint()
		if p >= uint64(i) {
			d.fail()
			return types.DynType
		}
		if sizes[i] += sizes[p]; sizes[i] > astMaxTypeSize {
			d.fail()
		}
		return d.types[p]
	}
	primitives := [...]*types.Type{astTypeBool: types.BoolType, astTypeBytes: types.BytesType,
		astTypeDouble: types.DoubleType, astTypeInt: types.IntType, astTypeString: types.StringType, astTypeUint: types.UintType}
	for i := range d.types {
		sizes[i] = 1
		var t *types.Type
		switch tag := d.byte(); tag {
		case astTypeDyn:
			t = types.DynType
		case astTypeAny:
			t = types.AnyType
		case astTypeBool, astTypeBytes, astTypeDouble, astTypeInt, astTypeString, astTypeUint:
			t = primitives[tag]
		case astTypeBool | astTypeWrapper, astTypeBytes | astTypeWrapper, astTypeDouble | astTypeWrapper,
			astTypeInt | astTypeWrapper, astTypeString | astTypeWrapper, astTypeUint | astTypeWrapper:
			t = types.NewNullableType(primitives[tag&^astTypeWrapper])
		case astTypeDuration:
			t = types.DurationType
		case astTypeTimestamp:
			t = types.TimestampType
		case astTypeError:
			t = types.ErrorType
		case astTypeNull:
			t = types.NullType
		case astTypeList:
			t = types.NewListType(param(i))
		case astTypeMap:
			k := param(i)
			t = types.NewMapType(k, param(i))
		case astTypeOpaque:
			name := d.str()
			params := make([]*types.Type, d.count())
			for j := range params {
				params[j] = param(i)
			}
			t = types.NewOpaqueType(name, params...)
		case astTypeObject:
			t = types.NewObjectType(d.str())
		case astTypeParam:
			t = types.NewTypeParamType(d.str())
		case astTypeType:
			t = types.TypeType
		case astTypeTypeParam:
			t = types.NewTypeTypeWithParam(param(i))
		default:
			d.fail()
		}
		if d.err != nil {
			return
		}
		d.types[i] = t
	}
}

// constant reads a literal or a reference's value (astConstNone only
// there, as nil).
func (d *astDecoder) constant(orNone bool) ref.Val {
	switch d.byte() {
	case astConstNone:
		if orNone {
			return nil
		}
	case astConstFalse:
		return types.False
	case astConstTrue:
		return types.True
	case astConstInt:
		return types.Int(d.varint())
	case astConstUint:
		return types.Uint(d.uint())
	case astConstDouble:
		if len(d.b) < 8 {
			break
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
		return types.Double(v)
	case astConstString:
		return types.String(d.str())
	case astConstBytes:
		n := d.count()
		v := types.Bytes(slices.Clone(d.b[:n]))
		d.b = d.b[n:]
		return v
	case astConstNull:
		return types.NullValue
	}
	d.fail()
	return types.NullValue
}

// expr reads an expression; depth bounds the nesting.
func (d *astDecoder) expr(depth int) ast.Expr {
	if depth > astMaxDepth {
		d.fail()
	}
	tag := d.byte()
	id := d.id()
	if d.err != nil {
		return d.fac.NewUnspecifiedExpr(0)
	}
	depth++
	switch tag {
	case astExprUnspecified:
		return d.fac.NewUnspecifiedExpr(id)
	case astExprLiteral:
		return d.fac.NewLiteral(id, d.constant(false))
	case astExprIdent:
		return d.fac.NewIdent(id, d.str())
	case astExprSelect, astExprPresence:
		field := d.str()
		op := d.expr(depth)
		if tag == astExprPresence {
			return d.fac.NewPresenceTest(id, op, field)
		}
		return d.fac.NewSelect(id, op, field)
	case astExprCall:
		fn := d.str()
		return d.fac.NewCall(id, fn, d.exprs(depth)...)
	case astExprMemberCall:
		fn := d.str()
		target := d.expr(depth)
		return d.fac.NewMemberCall(id, fn, target, d.exprs(depth)...)
	case astExprList:
		elems := d.exprs(depth)
		var opt []int32
		if n := d.count(); n > 0 {
			opt = make([]int32, n)
			for i := range opt {
				opt[i] = d.int32()
			}
		}
		return d.fac.NewList(id, elems, opt)
	case astExprMap:
		entries := make([]ast.EntryExpr, d.count())
		for i := range entries {
			eid := d.id()
			optional := d.bool()
			k := d.expr(depth)
			entries[i] = d.fac.NewMapEntry(eid, k, d.expr(depth), optional)
		}
		return d.fac.NewMap(id, entries)
	case astExprStruct:
		name := d.str()
		fields := make([]ast.EntryExpr, d.count())
		for i := range fields {
			fid := d.id()
			field := d.str()
			optional := d.bool()
			fields[i] = d.fac.NewStructField(fid, field, d.expr(depth), optional)
		}
		return d.fac.NewStruct(id, name, fields)
	case astExprComprehension:
		iterVar, iterVar2, accuVar := d.str(), d.str(), d.str()
		var sub [5]ast.Expr
		for i := range sub {
			sub[i] = d.expr(depth)
		}
		return d.fac.NewComprehensionTwoVar(id, sub[0], iterVar, iterVar2, accuVar, sub[1], sub[2], sub[3], sub[4])
	}
	d.fail()
	return d.fac.NewUnspecifiedExpr(0)
}

// exprs reads a count and that many expressions.
func (d *astDecoder) exprs(depth int) []ast.Expr {
	out := make([]ast.Expr, d.count())
	for i := range out {
		out[i] = d.expr(depth)
	}
	return out
}

// infoSource is the common.Source ast.NewSourceInfo is given to set a
// decoded AST's description and line offsets (SourceInfo has no setters
// for them); the base line and column it derives from offset 0 are 0, as
// for a text source.
type infoSource struct {
	desc  string
	lines []int32
}

func (s *infoSource) Content() string                              { return "" }
func (s *infoSource) Description() string                          { return s.desc }
func (s *infoSource) LineOffsets() []int32                         { return s.lines }
func (s *infoSource) LocationOffset(common.Location) (int32, bool) { return 0, false }
func (s *infoSource) OffsetLocation(int32) (common.Location, bool) { return common.NoLocation, false }
func (s *infoSource) NewLocation(line, col int) common.Location    { return common.NoLocation }
func (s *infoSource) Snippet(int) (string, bool)                   { return "", false }
