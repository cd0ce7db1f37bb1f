package cel

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"maps"
	"slices"
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

var sharedRules sync.Map // shareKey → *nodeRules

// sharedCompile returns the compiled rules of a node with schema s,
// compiling them with compile the first time an equal schema is seen.
// compile gets the schema's fingerprint, which the compile cache
// (astcache.go) keys on too.
func sharedCompile(env *environment.EnvSet, limit uint64, root bool, s *schema.Structural, decl *apiservercel.DeclType, compile func(fp *[sha256.Size]byte) *nodeRules) *nodeRules {
	k := shareKey{env: env, limit: limit, root: root, fp: fingerprint(s, decl)}
	if r, ok := sharedRules.Load(k); ok {
		return r.(*nodeRules)
	}
	r, _ := sharedRules.LoadOrStore(k, compile(&k.fp))
	return r.(*nodeRules)
}

// fingerprint hashes what compiling s's rules depends on: the rules and
// the shape CEL types from (types, formats, properties, items, maps, list
// types, the int-or-string, preserve-unknown-fields and embedded-resource
// extensions, nullability and size limits), recursively; and the field
// names of the node's declared type, which has fields a resource root or
// an embedded resource ensures (apiVersion, kind, metadata.name, ...).
func fingerprint(s *schema.Structural, decl *apiservercel.DeclType) [sha256.Size]byte {
	h := sha256.New()
	writeShape(h, s)
	if decl != nil {
		for _, k := range slices.Sorted(maps.Keys(decl.Fields)) {
			h.Write([]byte(k))
			h.Write([]byte{0})
		}
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

func writeShape(h hash.Hash, s *schema.Structural) {
	str := func(v string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(v)))
		h.Write(n[:])
		h.Write([]byte(v))
	}
	flag := func(b bool) {
		if b {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	}
	ptr := func(p *int64) {
		flag(p != nil)
		if p != nil {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(*p))
			h.Write(n[:])
		}
	}
	if s == nil {
		str("<nil>")
		return
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
	}
	str("items")
	writeShape(h, s.Items)
	str("additional")
	if a := s.AdditionalProperties; a != nil {
		flag(a.Bool)
		writeShape(h, a.Structural)
	} else {
		str("<none>")
	}
	str("properties")
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		str(k)
		p := s.Properties[k]
		writeShape(h, &p)
	}
}
