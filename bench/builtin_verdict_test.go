package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"kdv.dev/manifest"
	"kdv.dev/resource"
)

// builtinMinor is the Kubernetes minor of the reference (k8s.io/kubernetes
// v1.37.2); kdv is run with the same --kubernetes-version.
const builtinMinor = 37

// cause is one reason for a rejection, compared between the two sides
// without its message: the field path and the error type
// (field.ErrorType, or "unknown field", "duplicate field", "decode").
type cause struct{ Field, Type string }

// bverdict is one side's answer on a built-in object.
type bverdict struct {
	Rejected bool
	Causes   []cause
	Messages []string
	Warnings []string
}

func (v bverdict) String() string {
	if !v.Rejected {
		return "accept"
	}
	return "reject: " + strings.Join(v.Messages, "; ")
}

// strictCause reads the cause of a strict decoding message, `unknown field
// "spec.x"` or `duplicate field "x"`.
func strictCause(msg string) cause {
	for _, t := range []string{"unknown field", "duplicate field"} {
		if strings.HasPrefix(msg, t+" ") {
			return cause{Field: strings.Trim(strings.TrimPrefix(msg, t+" "), `"`), Type: t}
		}
	}
	return cause{Type: "decode"}
}

// refBuiltin is the reference's verdict; err for inputs it cannot judge.
func refBuiltin(doc, old []byte) (v bverdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: reference: %v", errPanic, r)
		}
	}()
	r, err := CheckBuiltin(doc, old)
	if err != nil {
		return v, err
	}
	v.Rejected = r.Rejected()
	switch {
	case len(r.Unknown) > 0:
		for _, u := range r.Unknown {
			v.Causes = append(v.Causes, strictCause(u))
			v.Messages = append(v.Messages, u)
		}
	case r.DecodeErr != "":
		v.Causes = append(v.Causes, cause{Type: "decode"})
		v.Messages = append(v.Messages, r.DecodeErr)
	}
	for _, e := range r.Errors {
		v.Causes = append(v.Causes, cause{Field: e.Field, Type: string(e.Type)})
		v.Messages = append(v.Messages, e.Error())
	}
	v.Warnings = r.Warnings
	return v, nil
}

var (
	kdvRegMu sync.Mutex
	kdvRegs  = map[int]*kdvRegEntry{}
)

type kdvRegEntry struct {
	once sync.Once
	reg  *resource.Registry
	err  error
}

// kdvRegistry is the registry `kdv validate --kubernetes-version 1.37`
// builds: kdv's embedded built-in schemas, nothing else.
func kdvRegistry() (*resource.Registry, error) { return kdvRegistryFor(builtinMinor) }

// kdvRegistryFor is the registry of `kdv validate --kubernetes-version
// 1.<minor>`, built once per minor.
func kdvRegistryFor(minor int) (*resource.Registry, error) {
	kdvRegMu.Lock()
	e := kdvRegs[minor]
	if e == nil {
		e = &kdvRegEntry{}
		kdvRegs[minor] = e
	}
	kdvRegMu.Unlock()
	e.once.Do(func() {
		e.reg = resource.NewRegistry(resource.Options{KubernetesMinor: minor})
		e.err = resource.UseBuiltin(e.reg, minor)
	})
	return e.reg, e.err
}

// errPanic marks a side that panicked: never a known gap.
var errPanic = errors.New("panic")

// errKDVNoSchema marks kinds kdv has no built-in schema for.
var errKDVNoSchema = errors.New("kdv has no schema")

// kdvBuiltin runs kdv as `kdv validate [--old]` does on one document: the
// manifest reader, then the kind's validator from the built-in registry.
func kdvBuiltin(doc, old []byte) (v bverdict, err error) {
	return kdvBuiltinAt(builtinMinor, doc, old)
}

// kdvBuiltinAt is kdvBuiltin with `--kubernetes-version 1.<minor>`.
func kdvBuiltinAt(minor int, doc, old []byte) (v bverdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: kdv: %v", errPanic, r)
		}
	}()
	reg, err := kdvRegistryFor(minor)
	if err != nil {
		return v, err
	}
	name := "doc.yaml"
	if isJSON(doc) {
		name = "doc.json"
	}
	docs := manifest.Parse(name, doc, manifest.Options{})
	if len(docs) != 1 {
		return v, fmt.Errorf("kdv read %d documents", len(docs))
	}
	d := docs[0]
	if d.Err != nil {
		return bverdict{Rejected: true, Causes: []cause{{Type: "decode"}}, Messages: []string{d.Err.Error()}}, nil
	}
	val, err := reg.Validator(d.GVK())
	if err != nil {
		var ns *resource.NoSchemaError
		if errors.As(err, &ns) {
			return v, fmt.Errorf("%w: %v", errKDVNoSchema, err)
		}
		return v, err
	}
	var oldObj map[string]any
	if old != nil {
		od := manifest.Parse(name, old, manifest.Options{})
		if len(od) == 1 && od[0].Err == nil {
			oldObj = od[0].Object
		}
	}
	out := val.Validate(context.Background(), d.Object, oldObj)
	v.Rejected = out.Invalid()
	if out.DecodeErr != nil {
		v.Causes = append(v.Causes, cause{Type: "decode"})
		v.Messages = append(v.Messages, out.DecodeErr.Error())
	}
	if out.DecodeError != "" {
		// the typed decoder's 400, alone as in the apiserver
		v.Causes = append(v.Causes, cause{Type: "decode"})
		v.Messages = append(v.Messages, out.DecodeError)
	}
	for _, u := range out.UnknownFields {
		if !strings.HasPrefix(u, "unknown field ") {
			u = fmt.Sprintf(`unknown field "%s"`, u)
		}
		v.Causes = append(v.Causes, strictCause(u))
		v.Messages = append(v.Messages, u)
	}
	for _, e := range out.Errors {
		v.Causes = append(v.Causes, cause{Field: e.Field, Type: string(e.Type)})
		v.Messages = append(v.Messages, e.Error())
	}
	v.Warnings = out.Warnings
	return v, nil
}

func isJSON(doc []byte) bool {
	for _, c := range doc {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// builtinExample is one built-in document of the corpus.
type builtinExample struct {
	Name       string
	GK         k8sschema.GroupKind
	GVK        k8sschema.GroupVersionKind
	Obj        map[string]any
	Namespaced bool
}

var (
	builtinCorpusOnce sync.Once
	builtinCorpusVal  []builtinExample
	builtinCorpusErr  error
)

// loadBuiltinCorpus reads every document of the corpus whose kind both the
// reference and kdv cover, skipping the test when the corpus is absent.
func loadBuiltinCorpus(tb testing.TB) []builtinExample {
	tb.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		tb.Skipf("corpus %s absent: %v", corpusDir, err)
	}
	builtinCorpusOnce.Do(func() { builtinCorpusVal, builtinCorpusErr = readBuiltinExamples(corpusDir) })
	if builtinCorpusErr != nil {
		tb.Fatal(builtinCorpusErr)
	}
	return builtinCorpusVal
}

// builtinSeedDir holds one valid object of each covered kind.
const builtinSeedDir = "testdata/builtin"

// loadBuiltinSeeds reads testdata/builtin.
func loadBuiltinSeeds(tb testing.TB) []builtinExample {
	tb.Helper()
	exs, err := readBuiltinExamples(builtinSeedDir)
	if err != nil {
		tb.Fatal(err)
	}
	return exs
}

// readBuiltinExamples reads the documents under root that both the
// reference and kdv cover, named by their path relative to root.
func readBuiltinExamples(root string) ([]builtinExample, error) {
	reg, err := kdvRegistry()
	if err != nil {
		return nil, err
	}
	var out []builtinExample
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			return nil
		}
		docs, err := readDocs(p)
		if err != nil {
			return nil // templates and other non-manifests
		}
		rel, _ := filepath.Rel(root, p)
		if root == builtinSeedDir {
			rel = "seed:" + rel
		}
		for i, obj := range docs {
			apiVersion, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			gv, err := k8sschema.ParseGroupVersion(apiVersion)
			if err != nil || kind == "" {
				continue
			}
			gvk := gv.WithKind(kind)
			k, ok := builtinKinds[gvk.GroupKind()]
			if !ok || !servedVersion(k, gvk.Version) {
				continue
			}
			v, err := reg.Validator(gvk)
			if err != nil {
				continue // counted by TestBuiltinKindsCovered
			}
			out = append(out, builtinExample{Name: fmt.Sprintf("%s#%d", rel, i), GK: gvk.GroupKind(), GVK: gvk, Obj: obj, Namespaced: v.Schema().Namespaced})
		}
		return nil
	})
	return out, err
}

// mustJSON renders a case's object as the JSON body both sides read.
func mustJSON(obj map[string]any) []byte {
	if obj == nil {
		return nil
	}
	b, err := utiljson.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return b
}

// sameCauses compares the causes as sets.
func sameCauses(a, b []cause) bool {
	set := func(cs []cause) []string {
		m := map[string]bool{}
		for _, c := range cs {
			m[c.Field+"\x00"+c.Type] = true
		}
		return sortedKeys(m)
	}
	return equalStrings(set(a), set(b))
}

// sameMessages compares the messages as multisets.
func sameMessages(a, b []string) bool {
	x, y := append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	return equalStrings(x, y)
}
