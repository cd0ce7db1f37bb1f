package cel

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"google.golang.org/protobuf/proto"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"

	"kdv.dev/builtin"
)

// cachedAST is one AST the compile cache stored: its entry key, the
// expression, the AST as compiled and its encoding.
type cachedAST struct {
	key, expr string
	ast       *celgo.Ast
	enc       []byte
}

var builtinASTs struct {
	once sync.Once
	all  []cachedAST
	err  error
}

// builtinCachedASTs returns every checked AST the compile cache stores
// when the rules of every built-in kind of the newest embedded release are
// compiled: rules, messageExpressions and the diff expressions kdv derives
// from them, each as compiled, the cheapest honest sample of what the
// cache holds in kdv validate. kinds, when not empty, restricts the kinds
// (by name); the result over all kinds is computed once per process.
func builtinCachedASTs(tb testing.TB, kinds ...string) []cachedAST {
	tb.Helper()
	if len(kinds) > 0 {
		all, err := collectCachedASTs(tb.TempDir(), kinds)
		if err != nil {
			tb.Fatal(err)
		}
		return all
	}
	builtinASTs.once.Do(func() {
		dir, err := os.MkdirTemp("", "kdv-codec-")
		if err != nil {
			builtinASTs.err = err
			return
		}
		defer os.RemoveAll(dir)
		builtinASTs.all, builtinASTs.err = collectCachedASTs(dir, nil)
	})
	if builtinASTs.err != nil {
		tb.Fatal(builtinASTs.err)
	}
	return builtinASTs.all
}

func collectCachedASTs(dir string, only []string) ([]cachedAST, error) {
	versions := builtin.Versions()
	minor := versions[len(versions)-1]
	kinds, err := builtin.Kinds(minor)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var out []cachedAST
	defer func(orig func(string, *celgo.Ast) ([]byte, error)) { encodeEntry = orig }(encodeEntry)
	encodeEntry = func(key string, ast *celgo.Ast) ([]byte, error) {
		b, err := encodeCachedAST(ast)
		if err != nil {
			return nil, err
		}
		_, expr, _ := strings.Cut(key, "\x00")
		mu.Lock()
		out = append(out, cachedAST{key: key, expr: expr, ast: ast, enc: b})
		mu.Unlock()
		return b, nil
	}
	if err := SetCompileCacheDir(dir); err != nil {
		return nil, err
	}
	defer SetCompileCacheDir("")
	for _, k := range kinds {
		if strings.HasSuffix(k.Kind, "List") || len(only) > 0 && !slices.Contains(only, k.Kind) {
			continue
		}
		s, err := builtin.Lookup(minor, k.GroupVersionKind)
		if err != nil {
			return nil, err
		}
		v, _ := NewValidator(s, true, Options{KubernetesMinor: minor, BuiltIn: true, SkipCheck: true})
		v.CompileErrors() // compiles (and stores) every rule
	}
	slices.SortStableFunc(out, func(a, b cachedAST) int { return strings.Compare(a.key, b.key) })
	return out, nil
}

// BenchmarkDecodeCachedAST times reading back one compile-cache entry of a
// built-in rule (Pod and Deployment of the newest release): the protobuf
// form kdv stored before the codec (proto.Unmarshal, then
// CheckedExprToAstWithSource) against the codec (decodeCachedAST).
func BenchmarkDecodeCachedAST(b *testing.B) {
	entries := builtinCachedASTs(b, "Pod", "Deployment")
	pbs := make([][]byte, len(entries))
	codec := make([][]byte, len(entries))
	var pbSize, codecSize int
	for i, e := range entries {
		pb, err := celgo.AstToCheckedExpr(e.ast)
		if err != nil {
			b.Fatal(err)
		}
		if pbs[i], err = proto.Marshal(pb); err != nil {
			b.Fatal(err)
		}
		codec[i] = e.enc
		pbSize += len(pbs[i])
		codecSize += len(codec[i])
	}
	b.Logf("%d entries: protobuf %d bytes, codec %d bytes", len(entries), pbSize, codecSize)
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e := i % len(entries)
			var pb exprpb.CheckedExpr
			if err := proto.Unmarshal(pbs[e], &pb); err != nil {
				b.Fatal(err)
			}
			if _, err := celgo.CheckedExprToAstWithSource(&pb, common.NewTextSource(entries[e].expr)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("codec", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e := i % len(entries)
			if _, err := decodeCachedAST(codec[e], entries[e].expr); err != nil {
				b.Fatal(err)
			}
		}
	})
}
