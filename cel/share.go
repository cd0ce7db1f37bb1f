package cel

import (
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"kdv.dev/schema"
)

// Compiled rules shared between validators. The built-in kinds repeat the
// same types under different roots (a PodSpec under Pod, PodTemplate,
// Deployment, Job, ...), and compiling their hundreds of rules is most of
// a run's start-up. A node's compiled rules depend only on the
// environment, the cost limit, whether the node is a resource root, and
// the node's schema (its rules, and the types CEL sees below it), so
// unmetered (built-in) nodes with equal schemas share one compilation.
// CRD validators do not share: their compilation also reports the cost
// estimates, which kdv keeps per schema as the apiserver does.

type shareKey struct {
	env   *environment.EnvSet
	limit uint64
	root  bool
	fp    [sha256.Size]byte
}

var sharedRules sync.Map // shareKey → *sharedEntry

// sharedEntry is one shared compilation, made once: workers validating
// the first documents of several kinds reach the same pod template nodes
// at the same time, and would each compile them.
type sharedEntry struct {
	once  sync.Once
	rules *nodeRules
}

// sharedCompile returns the compiled rules of a node with schema s and
// fingerprint fp (fingerprint), compiling them with compile the first time
// an equal schema is seen; a caller that comes while another compiles them
// waits for its result.
func sharedCompile(env *environment.EnvSet, limit uint64, root bool, fp [sha256.Size]byte, compile func(fp *[sha256.Size]byte) *nodeRules) *nodeRules {
	k := shareKey{env: env, limit: limit, root: root, fp: fp}
	e, ok := sharedRules.Load(k)
	if !ok {
		e, _ = sharedRules.LoadOrStore(k, &sharedEntry{})
	}
	entry := e.(*sharedEntry)
	entry.once.Do(func() { entry.rules = compile(&k.fp) })
	return entry.rules
}

// fingerprint hashes what compiling s's rules depends on: the rules and
// the shape CEL types from (types, formats, properties, items, maps, list
// types, the int-or-string, preserve-unknown-fields and embedded-resource
// extensions, nullability and size limits), recursively; and the field
// names of the node's declared type, which has fields a resource root or
// an embedded resource ensures (apiVersion, kind, metadata.name, ...).
// memo, when not nil, keeps the hashes of subtrees (a subtree hash stands
// for the subtree in its parent's), so that fingerprinting every node of
// a schema costs its size, not its size times its depth.
func fingerprint(s *schema.Structural, decl *apiservercel.DeclType, memo *shapeMemo) [sha256.Size]byte {
	bp := shapeBufs.Get().(*[]byte)
	buf := memo.appendShape((*bp)[:0], s)
	if decl != nil {
		for _, k := range slices.Sorted(maps.Keys(decl.Fields)) {
			buf = append(buf, k...)
			buf = append(buf, 0)
		}
	}
	out := sha256.Sum256(buf)
	*bp = buf
	shapeBufs.Put(bp)
	return out
}

// shapeBufs recycles the buffers shapes are written to before hashing:
// one per schema node, allocated afresh, was a good part of building a
// built-in kind's validator.
var shapeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// shapeMemo keeps subtree hashes of one schema, by where the subtree is:
// its address (items, additionalProperties) or its properties map and key
// (property values are copied out of the map). The schema must outlive
// the memo, so that no address is reused; a validator's builder holds both.
type shapeMemo struct {
	mu    sync.Mutex
	nodes map[*schema.Structural][sha256.Size]byte
	props map[propLoc][sha256.Size]byte
}

type propLoc struct {
	m   uintptr
	key string
}

// subtree returns the hash of s's shape.
func (m *shapeMemo) subtree(s *schema.Structural) [sha256.Size]byte {
	if m != nil {
		m.mu.Lock()
		v, ok := m.nodes[s]
		m.mu.Unlock()
		if ok {
			return v
		}
	}
	v := m.hashShape(s)
	if m != nil {
		m.mu.Lock()
		if m.nodes == nil {
			m.nodes = map[*schema.Structural][sha256.Size]byte{}
		}
		m.nodes[s] = v
		m.mu.Unlock()
	}
	return v
}

// property returns the hash of the shape of props[key].
func (m *shapeMemo) property(props map[string]schema.Structural, key string) [sha256.Size]byte {
	p := props[key]
	if m == nil {
		return m.hashShape(&p)
	}
	loc := propLoc{m: reflect.ValueOf(props).Pointer(), key: key}
	m.mu.Lock()
	v, ok := m.props[loc]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.hashShape(&p)
	m.mu.Lock()
	if m.props == nil {
		m.props = map[propLoc][sha256.Size]byte{}
	}
	m.props[loc] = v
	m.mu.Unlock()
	return v
}

func (m *shapeMemo) hashShape(s *schema.Structural) [sha256.Size]byte {
	bp := shapeBufs.Get().(*[]byte)
	buf := m.appendShape((*bp)[:0], s)
	out := sha256.Sum256(buf)
	*bp = buf
	shapeBufs.Put(bp)
	return out
}

// appendShape appends what s's shape hash covers to buf: its own
// settings, and the hashes of its subtrees (memoized).
func (m *shapeMemo) appendShape(buf []byte, s *schema.Structural) []byte {
	str := func(v string) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(v)))
		buf = append(buf, v...)
	}
	flag := func(b bool) {
		if b {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	ptr := func(p *int64) {
		flag(p != nil)
		if p != nil {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(*p))
		}
	}
	if s == nil {
		str("<nil>")
		return buf
	}
	str(s.Type)
	flag(s.Nullable)
	flag(s.XPreserveUnknownFields)
	flag(s.XEmbeddedResource)
	flag(s.XIntOrString)
	flag(s.XListType != nil)
	if s.XListType != nil {
		str(*s.XListType)
	}
	str("keys")
	for _, k := range s.XListMapKeys {
		str(k)
	}
	if v := s.ValueValidation; v != nil {
		str(v.Format)
		ptr(v.MaxItems)
		ptr(v.MaxLength)
		ptr(v.MaxProperties)
	} else {
		str("<novv>")
	}
	str("rules")
	for _, r := range s.XValidations {
		str(r.Rule)
		str(r.Message)
		str(r.MessageExpression)
		str(r.FieldPath)
		flag(r.Reason != nil)
		if r.Reason != nil {
			str(*r.Reason)
		}
		flag(r.OptionalOldSelf != nil && *r.OptionalOldSelf)
		flag(r.Diff != nil)
		if d := r.Diff; d != nil {
			str(d.Path)
			str(d.Since)
			for _, l := range [][]string{d.Keep, d.Fill, d.Only} {
				str(strings.Join(l, "\x00"))
			}
		}
	}
	sub := func(c *schema.Structural) {
		if c == nil {
			str("<nil>")
			return
		}
		v := m.subtree(c)
		buf = append(buf, v[:]...)
	}
	str("items")
	sub(s.Items)
	str("additional")
	if a := s.AdditionalProperties; a != nil {
		flag(a.Bool)
		sub(a.Structural)
	} else {
		str("<none>")
	}
	str("properties")
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		str(k)
		v := m.property(s.Properties, k)
		buf = append(buf, v[:]...)
	}
	return buf
}
