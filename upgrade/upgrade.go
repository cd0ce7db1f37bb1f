// Package upgrade tells what changes when the same manifests meet a newer
// (or older) apiserver: every document is validated as the apiserver of
// Kubernetes 1.<From> and of 1.<To> would validate it, once as a create and
// once as an unchanged update of the stored object (what a stored object
// meets after the upgrade, where ratcheting may let it through), and the
// verdicts are compared into findings: API versions removed, API versions
// deprecated, documents newly rejected or newly accepted, problems that stay
// (counted), and warnings that appear or go (dropped gated fields).
//
// The validation itself is kdv.dev/resource's, unchanged: each of the four
// passes runs resource.Run on its own registry, so the input's
// CustomResourceDefinitions are checked and registered in each release's
// terms.
package upgrade

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/builtin"
	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// Options configure Check.
type Options struct {
	// From and To are the Kubernetes minor versions compared (1.<From>
	// and 1.<To>). To may be older than From, which checks a rollback.
	From, To int
	// Registry returns a new registry that resolves kinds as Kubernetes
	// 1.<minor> does (built-in schemas of that release, --crds,
	// --schemas). Check calls it once per pass (four times), since each
	// pass registers the input's CRDs. It is also where a caller models a
	// cluster's feature gates per release, once resource.Options can say
	// them: nothing in Check assumes the release's default gates.
	Registry func(minor int) (*resource.Registry, error)
	// Run configures each pass (jobs, skipped and rejected kinds, missing
	// schemas, strict inputs, CRD checks). Check sets Check.KubernetesMinor
	// per pass and Old for the update passes, and ignores Progress.
	Run resource.RunOptions
}

// Verdicts are the four validations of one document.
type Verdicts struct {
	// FromCreate and ToCreate validate the document as a create at
	// From and at To.
	FromCreate, ToCreate report.DocumentResult
	// FromUpdate and ToUpdate validate it as an update whose old object
	// is the document itself (an unchanged update of the stored object):
	// errors on values the update leaves unchanged are ratcheted. Not
	// Compared when another document of the input has the same group,
	// kind, namespace and name (the old object would be that one).
	FromUpdate, ToUpdate report.DocumentResult
	// UpdateCompared says whether the update verdicts are meaningful.
	UpdateCompared bool
}

// Document is the outcome of one input document.
type Document struct {
	// Verdicts are the document's four validations; ToCreate gives its
	// location and identity (File, Line, GVK, Namespace, Name, Identity).
	Verdicts
	// Findings are what changes for the document, in the order
	// Categories lists them.
	Findings []Finding
	// Class is the document's overall class (one of Removed,
	// NewlyRejected, Unchanged, NewlyAccepted, Failed, Skipped,
	// Unaffected), for the summary.
	Class Category
	// SkipReason says why a Skipped document was not compared.
	SkipReason string
}

// Result is the outcome of Check: one Document per input document, in
// input order.
type Result struct {
	From, To  int
	Documents []Document
}

// Check validates docs at opts.From and opts.To and compares the verdicts.
// docs are not modified. It fails only when a registry cannot be built.
func Check(ctx context.Context, docs []manifest.Document, opts Options) (*Result, error) {
	if opts.Registry == nil {
		return nil, errors.New("upgrade: Options.Registry is nil")
	}
	pass := func(minor int, update bool) (*report.Result, error) {
		reg, err := opts.Registry(minor)
		if err != nil {
			return nil, err
		}
		ro := opts.Run
		ro.Progress = nil
		// Missing schemas are skipped after the comparison, which tells
		// them from versions one release does not serve yet.
		ro.IgnoreMissingSchemas = false
		ro.Check.KubernetesMinor = minor
		ro.Old = nil
		if update {
			ro.Old = docs
		}
		res := resource.Run(ctx, docs, reg, ro)
		if len(res.Documents) != len(docs) {
			return nil, fmt.Errorf("upgrade: %d results for %d documents", len(res.Documents), len(docs))
		}
		return res, nil
	}
	var runs [4]*report.Result
	for i, p := range []struct {
		minor  int
		update bool
	}{{opts.From, false}, {opts.To, false}, {opts.From, true}, {opts.To, true}} {
		r, err := pass(p.minor, p.update)
		if err != nil {
			return nil, err
		}
		runs[i] = r
	}
	dup := duplicateKeys(docs)
	out := &Result{From: opts.From, To: opts.To, Documents: make([]Document, len(docs))}
	for i := range docs {
		v := Verdicts{
			FromCreate: runs[0].Documents[i], ToCreate: runs[1].Documents[i],
			FromUpdate: runs[2].Documents[i], ToUpdate: runs[3].Documents[i],
			UpdateCompared: !dup[i],
		}
		out.Documents[i] = classify(v, comparison{from: opts.From, to: opts.To, ignoreMissing: opts.Run.IgnoreMissingSchemas})
	}
	return out, nil
}

// duplicateKeys marks the documents that share group, kind, namespace and
// name with another one: resource.Run matches an old object by these
// (an empty namespace standing for the default one), so their update
// verdicts would compare against another document.
func duplicateKeys(docs []manifest.Document) []bool {
	type key struct{ group, kind, ns, name string }
	keyOf := func(d *manifest.Document) (key, bool) {
		if d.Err != nil || d.Object == nil {
			return key{}, false
		}
		gvk := d.GVK()
		k := key{group: gvk.Group, kind: gvk.Kind}
		if md, ok := d.Object["metadata"].(map[string]any); ok {
			k.name, _ = md["name"].(string)
			k.ns, _ = md["namespace"].(string)
		}
		if k.ns == "" {
			k.ns = "default"
		}
		return k, true
	}
	first := map[key]int{}
	dup := make([]bool, len(docs))
	for i := range docs {
		k, ok := keyOf(&docs[i])
		if !ok {
			continue
		}
		if j, seen := first[k]; seen {
			dup[i], dup[j] = true, true
			continue
		}
		first[k] = i
	}
	return dup
}

// Problem is one error of a verdict: a field error, an unknown field, a
// decode error or a document-level error, as the text format words it.
type Problem struct {
	Line int    `json:"line,omitempty"`
	Text string `json:"message"`
}

// Problems lists the errors of a verdict, in the text format's order:
// document-level error, decode error, unknown fields, field errors.
func Problems(d *report.DocumentResult) []Problem {
	var out []Problem
	at := func(path string) int {
		if d.ErrorPos != nil && path != "" {
			if l, _ := d.ErrorPos(&field.Error{Field: path}); l > 0 {
				return l
			}
		}
		return d.Line
	}
	if d.Err != nil {
		out = append(out, Problem{d.Line, d.Err.Error()})
	}
	if d.DecodeError != "" {
		out = append(out, Problem{at(d.DecodeErrorField), d.DecodeError})
	}
	for _, msg := range d.UnknownFields {
		path := strings.TrimSuffix(strings.TrimPrefix(msg, `unknown field "`), `"`)
		out = append(out, Problem{at(path), msg})
	}
	for _, e := range d.Errors {
		line := d.Line
		if d.ErrorPos != nil {
			if l, _ := d.ErrorPos(e); l > 0 {
				line = l
			}
		}
		out = append(out, Problem{line, e.Error()})
	}
	return out
}

// state is a verdict reduced to what the comparison needs.
type state int

const (
	stateOK      state = iota // valid
	stateBad                  // invalid, or a version the release does not serve
	stateFailed               // not validated: unreadable, no schema, schema error
	stateSkipped              // deliberately not validated
)

// comparison is what classify needs besides the verdicts.
type comparison struct {
	from, to int
	// ignoreMissing is RunOptions.IgnoreMissingSchemas: a kind without a
	// schema at a release that is not a built-in version the release does
	// not serve yet is skipped.
	ignoreMissing bool
}

// state reduces a verdict at 1.<minor>.
func (c comparison) state(d *report.DocumentResult, minor int) state {
	s := stateOf(d, minor)
	if s == stateFailed && c.ignoreMissing && d.ErrKind == report.ErrNoSchema {
		return stateSkipped
	}
	return s
}

func stateOf(d *report.DocumentResult, minor int) state {
	switch d.Outcome() {
	case report.Valid:
		return stateOK
	case report.Invalid:
		return stateBad
	case report.Skipped:
		return stateSkipped
	}
	var removed *resource.RemovedAPIError
	if errors.As(d.Err, &removed) {
		return stateBad
	}
	if notServed(d.GVK, minor) {
		return stateBad
	}
	return stateFailed
}

// lifecycleOf returns the lifecycle of a built-in kind.
func lifecycleOf(gvk schema.GroupVersionKind) (builtin.Lifecycle, bool) {
	return builtin.APILifecycle(kdvschema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind})
}

// notServed reports whether Kubernetes 1.<minor> does not serve a built-in
// kind's version yet (introduced in a later release).
func notServed(gvk schema.GroupVersionKind, minor int) bool {
	l, ok := lifecycleOf(gvk)
	return ok && l.NotYetIn(minor)
}

// release is "1.<minor>".
func release(minor int) string { return fmt.Sprintf("1.%d", minor) }

// Decode decodes pending documents (manifest.ReadPending) and numbers them
// as manifest.Read does. Check validates every document four times, so it
// takes them decoded: the whole input is held in memory, unlike kdv
// validate's streaming run.
func Decode(pending []manifest.Pending) []manifest.Document {
	decoded := make([][]manifest.Document, len(pending))
	n := 0
	for i := range pending {
		decoded[i] = pending[i].Decode()
		n += len(decoded[i])
	}
	manifest.Number(pending, decoded)
	docs := make([]manifest.Document, 0, n)
	for _, d := range decoded {
		docs = append(docs, d...)
	}
	return docs
}
