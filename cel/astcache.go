package cel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"google.golang.org/protobuf/proto"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"kdv.dev/schema"
)

// The compile cache keeps the type-checked ASTs of compiled rules on disk,
// so that a process validating a few documents does not parse and check
// the same hundreds of rules every run: parsing and checking are most of
// kdv's start-up (a Deployment's rules take about 100 ms to compile, a
// checked AST a few microseconds to read back). A checked AST depends on
// the expression, the environment (the apiserver's base environment at a
// compatibility version, extended with self and oldSelf of the node's
// declared type) and the CEL libraries' declarations, so an entry is keyed
// by all of them: the node's schema fingerprint (share.go), the
// environment's compatibility version and kind, whether oldSelf is
// optional, and the running executable (path, size and modification time,
// which change with every build, and with them the libraries). What is
// read back is checked against its key and decoded as a CheckedExpr; an
// entry that does not decode is compiled again and rewritten. Only
// expressions that compile are cached: errors are always the compiler's
// own. The cache changes no result, only the time to reach it.

// compileCache is the process-wide disk cache; nil when disabled (the
// default: libraries and tests do not write to the disk unless asked).
var compileCache atomic.Pointer[diskCache]

// diskCache is a directory of cache files, one per schema node with rules.
type diskCache struct {
	dir  string
	salt [sha256.Size]byte
}

// cacheFormat names the file layout; bump it when the layout changes.
const cacheFormat = "kdv-cel-ast-1"

// SetCompileCacheDir makes compiled rules persist in dir (created if
// missing), shared by later processes running the same executable; dir ""
// turns the cache off. It affects every validator of the process, as the
// in-memory sharing of compiled rules does. An error (dir not creatable,
// executable not found) leaves the cache off. cmd/kdv sets it to
// $XDG_CACHE_HOME/kdv (os.UserCacheDir) unless KDV_CACHE_DIR says otherwise.
func SetCompileCacheDir(dir string) error {
	if dir == "" {
		compileCache.Store(nil)
		return nil
	}
	salt, err := executableSalt()
	if err != nil {
		compileCache.Store(nil)
		return err
	}
	dir = filepath.Join(dir, cacheFormat)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		compileCache.Store(nil)
		return fmt.Errorf("compile cache: %w", err)
	}
	compileCache.Store(&diskCache{dir: dir, salt: salt})
	return nil
}

// executableSalt identifies the running build: its path, size and
// modification time, and the module versions it was built with.
func executableSalt() ([sha256.Size]byte, error) {
	h := sha256.New()
	exe, err := os.Executable()
	if err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("compile cache: %w", err)
	}
	st, err := os.Stat(exe)
	if err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("compile cache: %w", err)
	}
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00", cacheFormat, exe, st.Size(), st.ModTime().UnixNano())
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "%s\x00%s\x00", bi.GoVersion, bi.Main.Version)
		for _, d := range bi.Deps {
			fmt.Fprintf(h, "%s@%s\x00", d.Path, d.Version)
		}
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out, nil
}

// envVersions maps the base environments kdv builds (baseEnvSet) to their
// compatibility version, the part of a cache key that names them.
var envVersions sync.Map // *environment.EnvSet → string

// astStore is the cache file of one node being compiled: the entries read
// from it and those compiled since.
type astStore struct {
	path string
	key  []byte // the file's full key, written at its start and checked on reading
	// mu guards entries and dirty: a node's rules may be compiled on
	// several goroutines (compileRules).
	mu      sync.Mutex
	entries map[string][]byte // entry key → marshalled CheckedExpr
	dirty   bool
}

// openStore returns the cache file of the node with schema s and declared
// type decl, compiled in env with kind; nil when the cache is off or env
// is not one of kdv's base environments.
func openStore(base *environment.EnvSet, kind envKind, s *schema.Structural, decl *apiservercel.DeclType, fp *[sha256.Size]byte) *astStore {
	c := compileCache.Load()
	if c == nil {
		return nil
	}
	ver, ok := envVersions.Load(base)
	if !ok {
		return nil
	}
	if fp == nil {
		f := fingerprint(s, decl, nil)
		fp = &f
	}
	h := sha256.New()
	h.Write(c.salt[:])
	fmt.Fprintf(h, "%s\x00%d\x00", ver, kind)
	if _, kdv := kdvEnvs.Load(base); kdv {
		h.Write([]byte("kdv\x00"))
	}
	h.Write(fp[:])
	key := h.Sum(nil)
	st := &astStore{path: filepath.Join(c.dir, hex.EncodeToString(key)[:40]), key: key}
	st.entries, _ = readStore(st.path, key)
	if st.entries == nil {
		st.entries = map[string][]byte{}
	}
	return st
}

// entryKey tells apart a rule from a messageExpression and the oldSelf
// variants of one expression.
func entryKey(role string, optionalOldSelf bool, expr string) string {
	if optionalOldSelf {
		role += "?"
	}
	return role + "\x00" + expr
}

// compile returns the checked AST of expr in env, from the store when it
// holds a readable entry, else compiled (and added to the store when it
// compiles without issues).
func (st *astStore) compile(env *celgo.Env, key, expr string) (*celgo.Ast, *celgo.Issues) {
	if st != nil {
		st.mu.Lock()
		b, ok := st.entries[key]
		st.mu.Unlock()
		if ok {
			var pb exprpb.CheckedExpr
			if proto.Unmarshal(b, &pb) == nil {
				if ast, err := celgo.CheckedExprToAstWithSource(&pb, common.NewTextSource(expr)); err == nil {
					return ast, nil
				}
			}
			st.mu.Lock()
			delete(st.entries, key)
			st.mu.Unlock()
		}
	}
	ast, issues := env.Compile(expr)
	if st != nil && issues.Err() == nil {
		if pb, err := celgo.AstToCheckedExpr(ast); err == nil {
			if b, err := proto.Marshal(pb); err == nil {
				st.mu.Lock()
				st.entries[key] = b
				st.dirty = true
				st.mu.Unlock()
			}
		}
	}
	return ast, issues
}

// get returns the stored entry key.
func (st *astStore) get(key string) ([]byte, bool) {
	if st == nil {
		return nil, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	b, ok := st.entries[key]
	return b, ok
}

// put adds an entry (a no-op when it is there already or the cache is off).
func (st *astStore) put(key string, b []byte) {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if old, ok := st.entries[key]; ok && bytes.Equal(old, b) {
		return
	}
	st.entries[key] = b
	st.dirty = true
}

// save writes the store back when it gained entries: to a temporary file
// renamed over the old one, so concurrent processes never read a partial
// file. Errors are ignored: the cache is an optimisation.
func (st *astStore) save() {
	if st == nil || !st.dirty {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(st.path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(st.encode())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), st.path) != nil {
		os.Remove(tmp.Name())
	}
}

// encode lays out the file: the format name, the file's key, then pairs
// of entry key and value, each length-prefixed (a uvarint).
func (st *astStore) encode() []byte {
	var buf bytes.Buffer
	buf.WriteString(cacheFormat)
	putBytes := func(b []byte) {
		buf.Write(binary.AppendUvarint(nil, uint64(len(b))))
		buf.Write(b)
	}
	putBytes(st.key)
	for _, k := range slices.Sorted(maps.Keys(st.entries)) {
		putBytes([]byte(k))
		putBytes(st.entries[k])
	}
	return buf.Bytes()
}

// maxStoreSize bounds what is read from one cache file (a node's entries
// are a few kilobytes each).
const maxStoreSize = 64 << 20

// readStore reads a cache file; a missing, oversized or malformed file, or
// one written for another key, reads as empty.
func readStore(path string, key []byte) (map[string][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStoreSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStoreSize {
		return nil, errors.New("compile cache: oversized file")
	}
	return decodeStore(data, key)
}

// decodeStore parses the file layout: the format name, the file's key,
// then pairs of entry key and value, each length-prefixed.
func decodeStore(data, key []byte) (map[string][]byte, error) {
	rest, ok := bytes.CutPrefix(data, []byte(cacheFormat))
	if !ok {
		return nil, errors.New("compile cache: not a cache file")
	}
	next := func() ([]byte, bool) {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return nil, false
		}
		b := rest[w : w+int(n)]
		rest = rest[w+int(n):]
		return b, true
	}
	if k, ok := next(); !ok || !bytes.Equal(k, key) {
		return nil, errors.New("compile cache: file of another key")
	}
	out := map[string][]byte{}
	for len(rest) > 0 {
		k, ok1 := next()
		v, ok2 := next()
		if !ok1 || !ok2 {
			return nil, errors.New("compile cache: truncated file")
		}
		out[string(k)] = v
	}
	return out, nil
}
