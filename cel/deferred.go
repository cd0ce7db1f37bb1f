package cel

import (
	"encoding/binary"
	"errors"
	"sync"

	celgo "github.com/google/cel-go/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"kdv.dev/schema"
)

// Deferred compilation of built-in rules. Reading a rule's checked AST from
// the compile cache (decoding it, astcodec.go) is most of the start-up of
// validating one built-in object, yet most of a node's rules are skipped
// as vacuous on most objects (vacuous.go): a PodSpec's rules for probes,
// volumes or security contexts the object does not have.
// What the skip needs, whether the rule reads oldSelf and its vacuity, is
// kept in the cache beside the AST (an entry of role metaRole), so a rule
// whose AST and meta entry are both stored is compiled only when an object
// first reaches it past the vacuity test. The result is the rule compiled
// as before; only when it is compiled changes.

// metaRole is the cache entry role of a rule's meta data (entryKey).
const metaRole = "meta"

// deferredRule compiles one built-in rule on first use.
type deferredRule struct {
	once    sync.Once
	compile func() compilationResult
	res     compilationResult
}

// get returns the compiled rule, compiling it on the first call.
func (d *deferredRule) get() *compilationResult {
	d.once.Do(func() {
		d.res = d.compile()
		d.compile = nil
	})
	return &d.res
}

// resolved returns c itself or, for a deferred rule, the rule compiled.
func (c *compilationResult) resolved() *compilationResult {
	if c.deferred != nil {
		return c.deferred.get()
	}
	return c
}

// deferRule returns a deferred result for rule when store holds both its
// checked AST and its meta entry; false otherwise (the rule is then
// compiled now, which stores both for the next run).
func deferRule(s *schema.Structural, rule schema.ValidationRule, env *celgo.Env, declType *apiservercel.DeclType, store *astStore) (compilationResult, bool) {
	optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
	if _, ok := store.get(entryKey("rule", optional, rule.Rule)); !ok {
		return compilationResult{}, false
	}
	if rule.MessageExpression != "" {
		if _, ok := store.get(entryKey("message", optional, rule.MessageExpression)); !ok {
			return compilationResult{}, false
		}
	}
	b, ok := store.get(entryKey(metaRole, optional, rule.Rule))
	if !ok {
		return compilationResult{}, false
	}
	usesOldSelf, vac, err := decodeRuleMeta(b)
	if err != nil {
		return compilationResult{}, false
	}
	d := &deferredRule{compile: func() compilationResult {
		// unmetered: no cost estimation, so no estimator or limits
		return compileRule(s, rule, env, nil, declType, 0, 0, true, store)
	}}
	return compilationResult{usesOldSelf: usesOldSelf, vacuity: vac, deferred: d}, true
}

// encodeRuleMeta encodes what deferRule needs of a compiled rule: a flags
// byte (1: reads oldSelf, 2: has a vacuity, 4: its fields are known), then
// the vacuity's fields and guards, each a count and length-prefixed names.
func encodeRuleMeta(usesOldSelf bool, v *vacuity) []byte {
	var flags byte
	if usesOldSelf {
		flags |= 1
	}
	out := []byte{0}
	if v != nil {
		flags |= 2
		if v.fields != nil {
			flags |= 4
		}
		out = appendNames(out, v.fields)
		out = appendNames(out, v.guards)
	}
	out[0] = flags
	return out
}

func appendNames(b []byte, names []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	return b
}

var errBadMeta = errors.New("malformed rule meta entry")

// decodeRuleMeta reverses encodeRuleMeta; an error for anything else (a
// cache file is a side input: deferRule then compiles the rule now).
func decodeRuleMeta(b []byte) (usesOldSelf bool, v *vacuity, err error) {
	if len(b) == 0 || b[0]&^7 != 0 {
		return false, nil, errBadMeta
	}
	flags, rest := b[0], b[1:]
	usesOldSelf = flags&1 != 0
	if flags&2 == 0 {
		if len(rest) != 0 {
			return false, nil, errBadMeta
		}
		return usesOldSelf, nil, nil
	}
	fields, rest, err := readNames(rest)
	if err != nil {
		return false, nil, err
	}
	guards, rest, err := readNames(rest)
	if err != nil || len(rest) != 0 {
		return false, nil, errBadMeta
	}
	if flags&4 != 0 && fields == nil {
		fields = []string{}
	}
	if flags&4 == 0 {
		if len(fields) != 0 {
			return false, nil, errBadMeta
		}
		fields = nil
	}
	return usesOldSelf, &vacuity{fields: fields, guards: guards}, nil
}

func readNames(b []byte) ([]string, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, nil, errBadMeta
	}
	b = b[k:]
	var names []string
	for range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, nil, errBadMeta
		}
		names = append(names, string(b[k:k+int(l)]))
		b = b[k+int(l):]
	}
	return names, b, nil
}
