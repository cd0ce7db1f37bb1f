package upgrade

import (
	"errors"
	"fmt"
	"slices"

	"kdv.dev/builtin"
	"kdv.dev/report"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// Category is the kind of a finding.
type Category string

const (
	// Removed: To no longer serves the document's built-in API version.
	Removed Category = "removed"
	// NewlyRejected: valid at From, rejected at To (on create, or as an
	// unchanged update).
	NewlyRejected Category = "newly-rejected"
	// Deprecated: To serves the API version with a deprecation warning.
	Deprecated Category = "deprecated"
	// WarningChanged: a warning To sends that From did not, or the
	// reverse (a gated field dropped at one release and kept at the
	// other).
	WarningChanged Category = "warning-changed"
	// NewlyAccepted: rejected at From, valid at To.
	NewlyAccepted Category = "newly-accepted"
	// Unchanged: rejected at both releases (a problem the upgrade neither
	// causes nor fixes).
	Unchanged Category = "unchanged"
	// Failed: the document could not be validated (unreadable, no
	// schema, a schema that does not compile), as kdv validate reports it.
	Failed Category = "failed"
	// Skipped: deliberately not validated (--skip, not a manifest, ...).
	Skipped Category = "skipped"
	// Unaffected: valid at both releases, with nothing to say.
	Unaffected Category = "unaffected"
)

// Categories lists the categories in the order findings are written.
var Categories = []Category{Removed, NewlyRejected, Deprecated, WarningChanged, NewlyAccepted, Unchanged, Failed, Skipped, Unaffected}

// Breaks reports whether a finding of c means the upgrade breaks the
// document (exit code 1).
func (c Category) Breaks() bool { return c == Removed || c == NewlyRejected }

// Finding is one thing that changes for a document.
type Finding struct {
	Category Category `json:"category"`
	// Message says it in one line (the API's warning text for Deprecated).
	Message string `json:"message"`
	// Errors are the errors behind the finding: those at To for
	// NewlyRejected and Unchanged, those at From for NewlyAccepted.
	Errors []Problem `json:"errors,omitempty"`
	// NewErrors are, for Unchanged, the errors at To that From did not
	// report.
	NewErrors []Problem `json:"newErrors,omitempty"`
	// OnUpdate marks a NewlyRejected finding about the unchanged update
	// only (the create is fine at both releases).
	OnUpdate bool `json:"onUpdate,omitempty"`
	// StoredObjects says, for NewlyRejected on create, what an unchanged
	// update of an object stored at From meets at To: "accepted" (the
	// update does not enforce the new errors: ratcheting, or a rule
	// checked on create only), "rejected", or "not compared" (another
	// document has the same name); "" for a version To does not serve.
	StoredObjects string `json:"storedObjects,omitempty"`
	// RemovedIn is the release that stops serving the API version, for
	// Removed and Deprecated ("" when none is planned).
	RemovedIn string `json:"removedIn,omitempty"`
	// DeprecatedIn is the release that deprecated it.
	DeprecatedIn string `json:"deprecatedIn,omitempty"`
	// Replacement is the API version and kind to use instead
	// ("storage.k8s.io/v1 VolumeAttributesClass"), "" when none.
	Replacement string `json:"replacement,omitempty"`
}

// classify compares the verdicts of one document.
func classify(v Verdicts, c comparison) Document {
	from, to := c.from, c.to
	doc := Document{Verdicts: v}
	fc, tc := &v.FromCreate, &v.ToCreate
	fs, ts := c.state(fc, from), c.state(tc, to)
	add := func(f Finding) { doc.Findings = append(doc.Findings, f) }

	var removed *resource.RemovedAPIError
	switch {
	case fs == stateSkipped || ts == stateSkipped:
		doc.Class = Skipped
		d := tc
		if ts != stateSkipped {
			d = fc
		}
		doc.SkipReason = d.SkipReason
		if d.Err != nil {
			// A missing schema, skipped after the comparison.
			doc.SkipReason = d.Err.Error()
		}
		return doc
	case errors.As(tc.Err, &removed):
		add(removedFinding(removed.Lifecycle, from))
	case fs == stateFailed || ts == stateFailed:
		d := tc
		if ts != stateFailed {
			d = fc
		}
		add(Finding{Category: Failed, Message: d.Err.Error(), Errors: Problems(d)})
	case fs == stateOK && ts == stateBad:
		add(Finding{Category: NewlyRejected, Message: rejectedMessage(tc, to), Errors: problemsAt(tc, to), StoredObjects: storedObjects(v, to)})
	case fs == stateBad && ts == stateOK:
		add(Finding{Category: NewlyAccepted, Message: fmt.Sprintf("rejected by %s, valid at %s", release(from), release(to)), Errors: problemsAt(fc, from)})
	case fs == stateBad && ts == stateBad:
		add(unchangedFinding(fc, tc, from, to))
	case fs == stateOK && ts == stateOK && v.UpdateCompared &&
		c.state(&v.FromUpdate, from) == stateOK && c.state(&v.ToUpdate, to) == stateBad:
		add(Finding{Category: NewlyRejected, OnUpdate: true, Message: fmt.Sprintf("an unchanged update is rejected by %s, accepted by %s", release(to), release(from)), Errors: Problems(&v.ToUpdate)})
	}
	if ts == stateOK || ts == stateBad {
		if f, ok := deprecatedFinding(tc, to); ok {
			add(f)
		}
	}
	if (fs == stateOK || fs == stateBad) && (ts == stateOK || ts == stateBad) {
		doc.Findings = append(doc.Findings, warningChanges(fc, tc, from, to)...)
	}
	slices.SortStableFunc(doc.Findings, func(a, b Finding) int {
		return slices.Index(Categories, a.Category) - slices.Index(Categories, b.Category)
	})
	doc.Class = Unaffected
	if len(doc.Findings) > 0 {
		doc.Class = doc.Findings[0].Category
	}
	return doc
}

// removedFinding says that To no longer serves a version, when it went
// away, and what replaces it.
func removedFinding(l builtin.Lifecycle, from int) Finding {
	f := Finding{Category: Removed, RemovedIn: l.Removed.String(), DeprecatedIn: l.Deprecated.String(), Replacement: gvkString(l.Replacement)}
	f.Message = fmt.Sprintf("%s %s was removed in v%s", gvkGroupVersion(l.GVK), l.GVK.Kind, l.Removed)
	if f.Replacement != "" {
		f.Message += "; use " + f.Replacement
	}
	if l.RemovedIn(from) {
		f.Message += fmt.Sprintf(" (already not served by %s)", release(from))
	}
	return f
}

// deprecatedFinding reports a built-in API version that To serves with
// the apiserver's deprecation warning (which the document's verdict at To
// carries), with its removal release.
func deprecatedFinding(tc *report.DocumentResult, to int) (Finding, bool) {
	l, ok := lifecycleOf(tc.GVK)
	if !ok || !l.DeprecatedIn(to) || l.RemovedIn(to) {
		return Finding{}, false
	}
	w := l.WarningMessage()
	if !slices.Contains(tc.Warnings, w) {
		// Not resolved as the built-in kind (a CRD of the same group
		// and kind): the apiserver would not send this warning.
		return Finding{}, false
	}
	return Finding{Category: Deprecated, Message: w, RemovedIn: l.Removed.String(), DeprecatedIn: l.Deprecated.String(), Replacement: gvkString(l.Replacement)}, true
}

// problemsAt is Problems of a verdict at 1.<minor>, where a version the
// release does not serve yet is said so, in this command's terms (the
// registry's error names --kubernetes-version).
func problemsAt(d *report.DocumentResult, minor int) []Problem {
	if d.Err != nil && notServed(d.GVK, minor) {
		l, _ := lifecycleOf(d.GVK)
		return []Problem{{Line: d.Line, Text: fmt.Sprintf("%s %s is not served by %s (introduced in v%s)", d.GVK.GroupVersion(), d.GVK.Kind, release(minor), l.Introduced)}}
	}
	return Problems(d)
}

// rejectedMessage is the summary of a NewlyRejected finding on create.
func rejectedMessage(tc *report.DocumentResult, to int) string {
	if notServed(tc.GVK, to) {
		return problemsAt(tc, to)[0].Text
	}
	n := len(Problems(tc))
	return fmt.Sprintf("rejected by %s (%s), valid before", release(to), plural(n, "error"))
}

// storedObjects is what an unchanged update of a stored object meets at
// To when the document is newly rejected on create.
func storedObjects(v Verdicts, to int) string {
	if notServed(v.ToCreate.GVK, to) {
		return "" // no object of the version can be stored or updated
	}
	if !v.UpdateCompared {
		return "not compared"
	}
	if stateOf(&v.ToUpdate, to) == stateOK {
		return "accepted"
	}
	return "rejected"
}

// unchangedFinding reports a document rejected at both releases, with the
// errors To adds.
func unchangedFinding(fc, tc *report.DocumentResult, from, to int) Finding {
	before := map[string]bool{}
	for _, p := range problemsAt(fc, from) {
		before[p.Text] = true
	}
	f := Finding{Category: Unchanged, Errors: problemsAt(tc, to)}
	for _, p := range f.Errors {
		if !before[p.Text] {
			f.NewErrors = append(f.NewErrors, p)
		}
	}
	f.Message = fmt.Sprintf("rejected by %s and %s (%s", release(from), release(to), plural(len(f.Errors), "error"))
	if len(f.NewErrors) > 0 {
		f.Message += fmt.Sprintf(", %d new", len(f.NewErrors))
	}
	f.Message += ")"
	return f
}

// warningChanges lists the warnings To sends that From does not, and the
// reverse; deprecation warnings are left to deprecatedFinding.
func warningChanges(fc, tc *report.DocumentResult, from, to int) []Finding {
	deprecation := ""
	if l, ok := lifecycleOf(tc.GVK); ok {
		deprecation = l.WarningMessage()
	}
	var out []Finding
	for _, w := range tc.Warnings {
		if w != deprecation && !slices.Contains(fc.Warnings, w) {
			out = append(out, Finding{Category: WarningChanged, Message: fmt.Sprintf("new warning at %s: %s", release(to), w)})
		}
	}
	for _, w := range fc.Warnings {
		if w != deprecation && !slices.Contains(tc.Warnings, w) {
			out = append(out, Finding{Category: WarningChanged, Message: fmt.Sprintf("no longer warned at %s: %s", release(to), w)})
		}
	}
	return out
}

// gvkGroupVersion is "group/version", or "version" for the core group.
func gvkGroupVersion(g kdvschema.GroupVersionKind) string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// gvkString is "group/version Kind", "" for the zero value.
func gvkString(g kdvschema.GroupVersionKind) string {
	if g == (kdvschema.GroupVersionKind{}) {
		return ""
	}
	return gvkGroupVersion(g) + " " + g.Kind
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
