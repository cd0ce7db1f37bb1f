package cel

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	"google.golang.org/protobuf/proto"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
)

// requireSameAST fails unless got is want: the same CheckedExpr (what the
// protobuf form of the cache held) and the same offset ranges (whose stop
// offsets the protobuf form dropped).
func requireSameAST(t testing.TB, name string, got, want *celgo.Ast) {
	t.Helper()
	gotPB, err := celgo.AstToCheckedExpr(got)
	if err != nil {
		t.Fatalf("%s: decoded: %v", name, err)
	}
	wantPB, err := celgo.AstToCheckedExpr(want)
	if err != nil {
		t.Fatalf("%s: original: %v", name, err)
	}
	if !proto.Equal(gotPB, wantPB) {
		t.Fatalf("%s: decoded AST differs\n got %v\nwant %v", name, gotPB, wantPB)
	}
	if g, w := got.NativeRep().SourceInfo().OffsetRanges(), want.NativeRep().SourceInfo().OffsetRanges(); !maps.Equal(g, w) {
		t.Fatalf("%s: offset ranges %v, want %v", name, g, w)
	}
	if got.Source().Content() != want.Source().Content() {
		t.Fatalf("%s: source %q, want %q", name, got.Source().Content(), want.Source().Content())
	}
}

// roundTrip encodes a, decodes it back and requires the same AST; it
// returns the encoding.
func roundTrip(t testing.TB, name string, a *celgo.Ast) []byte {
	t.Helper()
	b, err := encodeCachedAST(a)
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	got, err := decodeCachedAST(b, a.Source().Content())
	if err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	requireSameAST(t, name, got, a)
	if again, err := encodeCachedAST(got); err != nil || !bytes.Equal(again, b) {
		t.Fatalf("%s: re-encoding the decoded AST differs (%v)", name, err)
	}
	return b
}

// TestASTCodecBuiltinRoundTrip: every AST the compile cache stores for the
// built-in kinds of the newest release (rules, messageExpressions, diff
// expressions) decodes to the AST compiled.
func TestASTCodecBuiltinRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every rule of every built-in kind")
	}
	all := builtinCachedASTs(t)
	if len(all) < 1000 {
		t.Fatalf("only %d cached ASTs", len(all))
	}
	kinds := map[ast.ExprKind]int{}
	roles := map[string]int{}
	for _, e := range all {
		got, err := decodeCachedAST(e.enc, e.expr)
		if err != nil {
			t.Fatalf("%q: %v", e.key, err)
		}
		requireSameAST(t, e.key, got, e.ast)
		ast.PostOrderVisit(e.ast.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) { kinds[x.Kind()]++ }))
		role, _, _ := strings.Cut(e.key, "\x00")
		roles[role]++
	}
	t.Logf("%d ASTs (%v), expression kinds %v", len(all), roles, kinds)
}

// codecEnv declares what the handwritten expressions need: every
// expression kind, constant and type shape the codec writes.
func codecEnv(t testing.TB) *celgo.Env {
	env, err := celgo.NewEnv(
		celgo.OptionalTypes(),
		ext.TwoVarComprehensions(),
		celgo.EnableMacroCallTracking(),
		celgo.Types(&exprpb.SourceInfo{}),
		celgo.Variable("x", celgo.DynType),
		celgo.Variable("a", celgo.AnyType),
		celgo.Variable("l", celgo.ListType(celgo.IntType)),
		celgo.Variable("m", celgo.MapType(celgo.StringType, celgo.IntType)),
		celgo.Variable("w", celgo.NullableType(celgo.IntType)),
		celgo.Variable("ws", celgo.NullableType(celgo.StringType)),
		celgo.Variable("ts", celgo.TimestampType),
		celgo.Variable("d", celgo.DurationType),
		celgo.Variable("o", celgo.OptionalType(celgo.ListType(celgo.StringType))),
		celgo.Variable("info", celgo.ObjectType("google.api.expr.v1alpha1.SourceInfo")),
	)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// codecExprs cover every expression kind, constant and type shape.
var codecExprs = []string{
	`[1, 2u, 3.5, -0.5, 'a', "", b'\x00\xff', b'', null, true, false, 9223372036854775807, -9223372036854775808, 18446744073709551615u].size() > 0`,
	`{'a': 1, ?'b': optional.of(2), 'c': m.?z.orValue(3)}.size() == 3`,
	`[?optional.none(), 1, ?m.?a].size() >= 1`,
	`m.all(k, v, k != '' && v > 0) && l.exists(i, v, i < v) && l.transformList(i, v, v * i).size() == 2`,
	`l.map(e, e + 1).filter(e, e > 2).exists_one(e, e == 3) && has(m.a) && has(info.location)`,
	`ts + d > timestamp('2020-01-01T00:00:00Z') && d < duration('1s')`,
	`type(1) == int && type(x) != type(l) && type(w) == int && dyn(x) == a`,
	`google.api.expr.v1alpha1.SourceInfo{location: 'x', ?syntax_version: optional.of('y'), line_offsets: [1, 2]}.location == 'x'`,
	`w == null || ws != null ? w + 1 > 0 : ws.size() > 0`,
	`x.f.g == x['h'] && o.hasValue() && o.value()[0] == 'z' && o.orValue([]).size() < 3`,
	"1 +\n  2 ==\n\t3 && 'multi\\nline' != ''",
	`google.protobuf.Int64Value{value: 1} == 1 && info.line_offsets.size() > 0`,
	`m.transformMap(k, v, v + 1)['a'] == m['a'] + 1 && [[1], [2, 3]].map(s, s.map(e, e * 2)).size() == 2`,
	`[1, 2].sortBy(e, -e)[0] == 2 || true`,
}

// TestASTCodecHandwritten: expressions of every kind, constant and type
// shape round-trip, macro calls included.
func TestASTCodecHandwritten(t *testing.T) {
	env := codecEnv(t)
	seen := map[ast.ExprKind]bool{}
	macros := 0
	for _, src := range codecExprs {
		a, iss := env.Compile(src)
		if iss.Err() != nil {
			if strings.Contains(src, "sortBy") {
				continue // an ext library this env does not load
			}
			t.Fatalf("%s: %v", src, iss.Err())
		}
		roundTrip(t, src, a)
		ast.PostOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) { seen[x.Kind()] = true }))
		macros += len(a.NativeRep().SourceInfo().MacroCalls())
	}
	for _, k := range []ast.ExprKind{ast.LiteralKind, ast.IdentKind, ast.SelectKind, ast.CallKind, ast.ListKind, ast.MapKind, ast.StructKind, ast.ComprehensionKind} {
		if !seen[k] {
			t.Errorf("no expression of kind %v", k)
		}
	}
	if macros == 0 {
		t.Error("no macro calls")
	}
}

// syntheticAST wraps a native AST as cel.Ast, with what the checker never
// leaves in a type or reference map: every type shape (type parameters,
// error, abstract types of several parameters, type of type) and
// references with constant values, extensions.
func syntheticAST(t testing.TB) *celgo.Ast {
	fac := ast.NewExprFactory()
	root := fac.NewCall(1, "f",
		fac.NewIdent(2, "x"),
		fac.NewPresenceTest(3, fac.NewIdent(4, "y"), "z"),
		fac.NewUnspecifiedExpr(5),
		fac.NewMemberCall(6, "g", fac.NewLiteral(7, types.Bytes{}), fac.NewLiteral(8, types.Double(-0.0))))
	info := ast.NewSourceInfo(nil)
	info.SetOffsetRange(1, ast.OffsetRange{Start: 0, Stop: 9})
	info.SetOffsetRange(2, ast.OffsetRange{Start: 3, Stop: 1})
	info.SetMacroCall(1, fac.NewCall(0, "has", fac.NewUnspecifiedExpr(3)))
	info.AddExtension(ast.NewExtension("json_name", ast.NewExtensionVersion(1, 1), ast.ComponentRuntime, ast.ComponentParser))
	tp := types.NewTypeParamType("T")
	typeMap := map[int64]*types.Type{
		1:  types.NewOpaqueType("pair", tp, types.NewMapType(types.StringType, types.NewListType(types.ErrorType))),
		2:  types.NewTypeTypeWithParam(types.NewOptionalType(types.NewNullableType(types.BytesType))),
		3:  types.TypeType,
		4:  types.NewObjectType("k8s.io.Thing"),
		5:  types.NewNullableType(types.DoubleType),
		6:  types.NewNullableType(types.BoolType),
		7:  types.NewNullableType(types.UintType),
		8:  types.NullType,
		9:  types.AnyType,
		10: types.NewMapType(types.DurationType, types.TimestampType),
		-3: types.NewOpaqueType("nothing"),
	}
	refMap := map[int64]*ast.ReferenceInfo{
		1: ast.NewFunctionReference("f_dyn", "f_int"),
		2: ast.NewIdentReference("x", types.Int(-3)),
		4: ast.NewIdentReference("y", nil),
		6: ast.NewIdentReference("E.V", types.Uint(7)),
		7: ast.NewIdentReference("s", types.String("z")),
	}
	out := celgo.ParsedExprToAstWithSource(&exprpb.ParsedExpr{}, nil)
	*out.NativeRep() = *ast.NewCheckedAST(ast.NewAST(root, info), typeMap, refMap)
	return out
}

func TestASTCodecSyntheticShapes(t *testing.T) {
	a := syntheticAST(t)
	b, err := encodeCachedAST(a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeCachedAST(b, "")
	if err != nil {
		t.Fatal(err)
	}
	requireSameAST(t, "synthetic", got, a)
	if ext := got.NativeRep().SourceInfo().Extensions(); len(ext) != 1 || len(ext[0].Components) != 2 {
		t.Errorf("extensions %v", ext)
	}
	// the type table is shared: one entry per distinct type
	if got.NativeRep().GetType(5) != got.NativeRep().TypeMap()[5] {
		t.Error("type lookup")
	}
}

// TestASTCodecRejects: input the encoder did not write is an error: every
// truncation of a real encoding, trailing bytes, another version, counts
// beyond the input, nesting beyond astMaxDepth (written or read).
func TestASTCodecRejects(t *testing.T) {
	env := codecEnv(t)
	a, iss := env.Compile(codecExprs[1])
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	good := roundTrip(t, "good", a)
	for n := range len(good) {
		if _, err := decodeCachedAST(good[:n], ""); err == nil {
			t.Errorf("truncated to %d of %d bytes: decoded", n, len(good))
		}
	}
	for name, b := range map[string][]byte{
		"trailing":      append(bytes.Clone(good), 0),
		"version":       append([]byte{astCodecVersion + 1}, good[1:]...),
		"empty":         nil,
		"string count":  {astCodecVersion, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"string length": {astCodecVersion, 1, 0xff, 0xff, 0x03, 'a'},
		"type index":    {astCodecVersion, 0, 1, astTypeList, 0},
		"type tag":      {astCodecVersion, 0, 1, 0x3f},
		"list count":    {astCodecVersion, 0, 0, astExprList, 1, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := decodeCachedAST(b, ""); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}

	// nesting: a chain of selects, within the bound and beyond it
	nested := func(depth int) *celgo.Ast {
		fac := ast.NewExprFactory()
		e := fac.NewIdent(1, "x")
		for i := range depth {
			e = fac.NewSelect(int64(i+2), e, "f")
		}
		out := celgo.ParsedExprToAstWithSource(&exprpb.ParsedExpr{}, nil)
		*out.NativeRep() = *ast.NewCheckedAST(ast.NewAST(e, ast.NewSourceInfo(nil)), map[int64]*types.Type{1: types.DynType}, nil)
		return out
	}
	roundTrip(t, "deep", nested(astMaxDepth))
	if _, err := encodeCachedAST(nested(astMaxDepth + 1)); err == nil {
		t.Error("encoded an AST nested beyond the bound")
	}
	// raw: one string ("f"), no types, depth selects of an ident, empty
	// source info and maps
	raw := func(depth int) []byte {
		b := []byte{astCodecVersion, 1, 1, 'f', 0}
		for range depth {
			b = append(b, astExprSelect, 1, 0)
		}
		return append(b, astExprIdent, 1, 0, 0, 0, 0, 0, 0, 0, 0)
	}
	if _, err := decodeCachedAST(raw(astMaxDepth), ""); err != nil {
		t.Errorf("nesting %d: %v", astMaxDepth, err)
	}
	if _, err := decodeCachedAST(raw(astMaxDepth+1), ""); err == nil {
		t.Error("decoded an AST nested beyond the bound")
	}

	// types sharing their parameters: type i is map(type i-1, type i-1),
	// 2^(i+1)-1 nodes as a tree, which cel-go's conversions walk in full
	dag := func(n int) []byte {
		b := []byte{astCodecVersion, 1, 1, 'f', byte(n), astTypeDyn}
		for i := 1; i < n; i++ {
			b = append(b, astTypeMap, byte(i-1), byte(i-1))
		}
		return append(b, astExprLiteral, 1, astConstTrue, 0, 0, 0, 0, 0, 1, 1, byte(n-1), 0)
	}
	if a, err := decodeCachedAST(dag(12), ""); err != nil {
		t.Errorf("type of 4095 nodes: %v", err)
	} else if _, err := celgo.AstToCheckedExpr(a); err != nil {
		t.Error(err)
	}
	if _, err := decodeCachedAST(dag(13), ""); err == nil {
		t.Error("decoded a type of 8191 nodes")
	}
}

// FuzzASTCodec: any bytes decode to an error or to an AST that converts
// to protobuf and encodes back to the same AST; never a panic.
func FuzzASTCodec(f *testing.F) {
	env := codecEnv(f)
	for _, src := range codecExprs {
		if a, iss := env.Compile(src); iss.Err() == nil {
			b, err := encodeCachedAST(a)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	if b, err := encodeCachedAST(syntheticAST(f)); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := decodeCachedAST(data, "x")
		if err != nil {
			return
		}
		if !a.IsChecked() {
			return // nothing the cache stores (encode refuses it)
		}
		b, err := encodeCachedAST(a)
		if err != nil {
			t.Fatalf("decoded AST does not encode: %v", err)
		}
		again, err := decodeCachedAST(b, "x")
		if err != nil {
			t.Fatalf("re-encoded AST does not decode: %v", err)
		}
		requireSameAST(t, "fuzz", again, a)
	})
}

// TestASTStoreCorruptEntry: an entry that does not decode (a protobuf
// CheckedExpr of the old format, garbage) is compiled again and replaced
// by its encoding; a good one is decoded, not compiled.
func TestASTStoreCorruptEntry(t *testing.T) {
	env := codecEnv(t)
	src := codecExprs[3]
	want, iss := env.Compile(src)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	pb, err := celgo.AstToCheckedExpr(want)
	if err != nil {
		t.Fatal(err)
	}
	old, err := proto.Marshal(pb)
	if err != nil {
		t.Fatal(err)
	}
	good, err := encodeCachedAST(want)
	if err != nil {
		t.Fatal(err)
	}
	for name, entry := range map[string][]byte{"protobuf": old, "garbage": {astCodecVersion, 0xff}, "good": good} {
		st := &astStore{entries: map[string][]byte{"rule\x00" + src: entry}}
		got, iss := st.compile(env, "rule\x00"+src, src)
		if iss != nil && iss.Err() != nil {
			t.Fatalf("%s: %v", name, iss.Err())
		}
		requireSameAST(t, name, got, want)
		if !bytes.Equal(st.entries["rule\x00"+src], good) || st.dirty != (name != "good") {
			t.Errorf("%s: entry not replaced by its encoding (dirty %v)", name, st.dirty)
		}
	}
}
