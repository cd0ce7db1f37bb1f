package resource

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	kdvschema "kdv.dev/schema"
	"kdv.dev/validation"
)

// Registry resolves a group/version/kind to a compiled Validator. Schemas
// come from CRDs and OpenAPI v3 documents added to it and, for the rest,
// from a fallback (kdv's embedded built-in schemas). Each kind is compiled
// once, on first use; a Registry is safe for concurrent use.
type Registry struct {
	opts Options

	mu      sync.Mutex
	entries map[schema.GroupVersionKind]*entry
	// fallback resolves kinds no CRD or document defines.
	fallback func(schema.GroupVersionKind) (Schema, bool, error)
	// rejected remembers CRDs that failed their checks, to explain a
	// missing schema.
	rejected map[schema.GroupKind]string
	// failed lists schema sources (--crds, --schemas) that could not be
	// loaded and whose kinds are unknown: a possible cause of any missing
	// schema.
	failed []string
	// lookups: the fallback's answer for each kind asked
	lookups map[schema.GroupVersionKind]*fallbackLookup
	// prepared: the kinds Prepare was given; queue: those its
	// background compile has yet to reach (preparing while it runs)
	prepared  map[schema.GroupVersionKind]bool
	queue     []schema.GroupVersionKind
	preparing bool
}

// fallbackLookup is the fallback's answer for one kind, asked once.
type fallbackLookup struct {
	once  sync.Once
	s     Schema
	found bool
	err   error
}

type entry struct {
	schema Schema
	once   sync.Once
	v      *Validator
	err    error
}

// NewRegistry returns an empty registry whose validators use opts.
func NewRegistry(opts Options) *Registry {
	return &Registry{opts: opts, entries: map[schema.GroupVersionKind]*entry{}, rejected: map[schema.GroupKind]string{}}
}

// SetFallback sets the resolver for kinds not added explicitly; it returns
// found == false for kinds it does not know.
func (r *Registry) SetFallback(f func(schema.GroupVersionKind) (s Schema, found bool, err error)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fallback = f
	r.lookups = nil
}

// Add registers a schema, replacing any earlier one for its kind.
func (r *Registry) Add(s Schema) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries[s.GVK] = &entry{schema: s}
}

// AddCRD registers every served version of a CRD that has a schema. source
// names where the CRD came from, for messages. It fails, registering
// nothing, when a served version's schema cannot be converted (run
// CheckCRD first for the apiserver's verdict).
func (r *Registry) AddCRD(crd *kdvschema.CRD, source string) error {
	var add []Schema
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if !v.Served {
			continue
		}
		s, err := v.Structural()
		if err != nil {
			return fmt.Errorf("CustomResourceDefinition %s version %s: %w", crd.Metadata.Name, v.Name, err)
		}
		add = append(add, Schema{
			GVK:                   schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind},
			Structural:            s,
			StatusSubresource:     v.Subresources != nil && v.Subresources.Status != nil,
			Scale:                 scaleOf(v.Subresources),
			Namespaced:            crd.Spec.Scope != "Cluster",
			PreserveUnknownFields: crd.Spec.PreserveUnknownFields,
			DeprecationWarning:    crdDeprecation(crd, v),
			Source:                fmt.Sprintf("CustomResourceDefinition %s in %s", crd.Metadata.Name, source),
		})
	}
	for _, s := range add {
		r.Add(s)
	}
	return nil
}

// Reject records that a CRD for a group/kind was given but is invalid, so
// that objects of that kind get an explanation instead of a bare
// missing-schema error.
func (r *Registry) Reject(gk schema.GroupKind, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rejected[gk] = why
}

// unloaded records that a schema source could not be loaded, for kinds left
// without a schema.
func (r *Registry) unloaded(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, why)
}

// maxFailedReasons bounds how many unloaded sources a NoSchemaError names.
const maxFailedReasons = 3

// failedReason joins the unloaded sources into one reason; r.mu is held.
func (r *Registry) failedReason() string {
	if len(r.failed) <= maxFailedReasons {
		return strings.Join(r.failed, "; ")
	}
	return strings.Join(r.failed[:maxFailedReasons], "; ") + fmt.Sprintf("; and %d more", len(r.failed)-maxFailedReasons)
}

// MaxOpenAPIDocumentNodes bounds the schema nodes, once references are
// resolved, of all the kinds of one OpenAPI document together. Resolved
// schemas share subtrees (a document with 1,000 kinds referring to one
// definition of 200,000 nodes is small) but converted ones do not (about
// 1 KB a node), so each kind passing schema.MaxResolvedNodes is not
// enough. It is kdv's limit: twice schema.MaxResolvedNodes, so that a
// document may hold a kind at that limit and more, and ten times the
// whole of Kubernetes 1.37's published schemas (about 40,000 nodes in
// swagger.json; 15,031 in api/v1, the largest group-version).
const MaxOpenAPIDocumentNodes = 2 * kdvschema.MaxResolvedNodes

// AddOpenAPI registers every kind of an OpenAPI v3 document (schemas with
// x-kubernetes-group-version-kind). OpenAPI documents do not say whether a
// kind is namespaced; namespaced reports it per kind (nil: namespaced).
// It stops at the first kind whose schema cannot be resolved or converted,
// or that would take the document's kinds past MaxOpenAPIDocumentNodes;
// its error names the file, the schema and the kinds left unregistered.
func (r *Registry) AddOpenAPI(doc *kdvschema.Document, namespaced func(schema.GroupVersionKind) bool) error {
	gvks := doc.GVKs()
	nodes := 0
	for i, g := range gvks {
		gvk := schema.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind}
		name := doc.NameForGVK(g)
		n, err := doc.ResolvedNodes(name)
		if err == nil && nodes+n > MaxOpenAPIDocumentNodes {
			err = fmt.Errorf("%s: schema %s of %s: the document's kinds have more than %d schema nodes together after resolving references (resource.MaxOpenAPIDocumentNodes)", doc.Name(), name, g, MaxOpenAPIDocumentNodes)
		}
		var s *kdvschema.Structural
		if err == nil {
			s, _, err = doc.SchemaForGVK(g)
		}
		if err != nil {
			return notRegistered(kindError(err, name, g), len(gvks)-i)
		}
		nodes += n
		ns := true
		if namespaced != nil {
			ns = namespaced(gvk)
		}
		// A cluster's OpenAPI serves what it serves, removed versions
		// included; deprecated built-in ones still get their warning.
		warn := ""
		if minor, err := builtinMinor(r.opts.KubernetesMinor); err == nil {
			warn = builtinDeprecation(gvk, minor)
		}
		r.Add(Schema{GVK: gvk, Structural: s, Namespaced: ns, DeprecationWarning: warn, Source: fmt.Sprintf("OpenAPI schema %s in %s", name, doc.Name())})
	}
	return nil
}

// kindError names the schema and kind an error of the document's resolver
// is about when it does not already: the resolver's errors start with the
// file and the path where the problem is, which may be in another schema
// the kind's refers to.
func kindError(err error, name string, g kdvschema.GroupVersionKind) error {
	if strings.Contains(err.Error(), fmt.Sprintf("[%q]", name)) || strings.Contains(err.Error(), "schema "+name+" ") {
		return err
	}
	return fmt.Errorf("%w (resolving schema %s of %s)", err, name, g)
}

// notRegistered says how many kinds of a document an error left
// unregistered, when more than the one it is about.
func notRegistered(err error, n int) error {
	if n <= 1 {
		return err
	}
	return fmt.Errorf("%w; this and %d more kinds of the document are not registered", err, n-1)
}

// Kinds lists the kinds added explicitly, sorted.
func (r *Registry) Kinds() []schema.GroupVersionKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]schema.GroupVersionKind, 0, len(r.entries))
	for k := range r.entries {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// NoSchemaError says that no schema is known for a kind. Its message is
// `no schema for <group/version>, Kind=<kind>`, with a reason when one is
// known.
type NoSchemaError struct {
	GVK    schema.GroupVersionKind
	Reason string
}

func (e *NoSchemaError) Error() string {
	// GroupVersionKind.String without the leading "/" of the core group.
	msg := fmt.Sprintf("no schema for %s, Kind=%s", e.GVK.GroupVersion().String(), e.GVK.Kind)
	if e.Reason != "" {
		msg += " (" + e.Reason + ")"
	}
	return msg
}

// Validator returns the compiled validator of a kind, compiling it on first
// use. The error is a *NoSchemaError when no schema is known, and a
// *RemovedAPIError for a built-in API version the release no longer serves
// (UseBuiltin).
func (r *Registry) Validator(gvk schema.GroupVersionKind) (*Validator, error) {
	r.mu.Lock()
	e, ok := r.entries[gvk]
	if !ok {
		fallback := r.fallback
		why := r.rejected[gvk.GroupKind()]
		if why == "" {
			why = r.failedReason()
		}
		if fallback == nil {
			r.mu.Unlock()
			return nil, &NoSchemaError{GVK: gvk, Reason: why}
		}
		// one lookup per kind, however many workers (and Prepare) ask
		l := r.lookups[gvk]
		if l == nil {
			if r.lookups == nil {
				r.lookups = map[schema.GroupVersionKind]*fallbackLookup{}
			}
			l = &fallbackLookup{}
			r.lookups[gvk] = l
		}
		r.mu.Unlock()
		l.once.Do(func() { l.s, l.found, l.err = fallback(gvk) })
		if l.err != nil {
			return nil, l.err
		}
		if !l.found {
			return nil, &NoSchemaError{GVK: gvk, Reason: why}
		}
		r.mu.Lock()
		if e, ok = r.entries[gvk]; !ok {
			e = &entry{schema: l.s}
			r.entries[gvk] = e
		}
	}
	r.mu.Unlock()
	e.once.Do(func() { e.v, e.err = Compile(e.schema, r.opts) })
	return e.v, e.err
}

// Prepare starts compiling the validator of gvk in the background, so that
// the first Validator call for it, typically from a worker that has a
// document of that kind in hand, finds it compiled or being compiled
// instead of starting then. One goroutine compiles the kinds given, one at
// a time, in the order given (the input's order), and ends when none is
// left: kdv validate calls Prepare for each document's kind as the input is
// read (manifest.Options.Split), so compiling overlaps reading. A kind
// without a schema, or whose compile fails, is left for Validator to
// report. It is safe for concurrent use and never blocks.
func (r *Registry) Prepare(gvk schema.GroupVersionKind) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prepared[gvk] {
		return
	}
	if r.prepared == nil {
		r.prepared = map[schema.GroupVersionKind]bool{}
	}
	r.prepared[gvk] = true
	r.queue = append(r.queue, gvk)
	if !r.preparing {
		r.preparing = true
		go r.prepareQueued()
	}
}

// prepareQueued compiles Prepare's queue until it is empty.
func (r *Registry) prepareQueued() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.preparing = false
			r.mu.Unlock()
			return
		}
		gvk := r.queue[0]
		r.queue = r.queue[1:]
		r.mu.Unlock()
		_, _ = r.Validator(gvk) // the error is Validator's to report, when asked
	}
}

// scaleOf reads a version's scale subresource (specReplicasPath,
// statusReplicasPath, labelSelectorPath).
func scaleOf(sub *kdvschema.CRDSubresources) *validation.Scale {
	if sub == nil || sub.Scale == nil {
		return nil
	}
	m := *sub.Scale
	sc := &validation.Scale{}
	sc.SpecReplicasPath, _ = m["specReplicasPath"].(string)
	sc.StatusReplicasPath, _ = m["statusReplicasPath"].(string)
	if sel, ok := m["labelSelectorPath"].(string); ok {
		sc.LabelSelectorPath = &sel
	}
	return sc
}
