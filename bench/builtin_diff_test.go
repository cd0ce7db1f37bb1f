package bench

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// bcase is one request compared on both sides: a create (Old == nil) or an
// update of Old.
type bcase struct {
	Name     string
	Kind     string // group/kind, the table's row
	Mutation string // mutation kind, "corpus" for the unmutated example
	Obj, Old []byte
	// Stored marks a mutation as an unchanged update of itself: an
	// object stored before a rule applied, meeting it on an update.
	Stored bool
}

// bresult is the comparison of one case.
type bresult struct {
	Case     bcase
	Ref, KDV bverdict
	Err      error // a side could not judge the case
}

func (r *bresult) falseRejection() bool { return r.Err == nil && r.KDV.Rejected && !r.Ref.Rejected }
func (r *bresult) miss() bool           { return r.Err == nil && r.Ref.Rejected && !r.KDV.Rejected }

// builtinMutationsPerKind bounds the mutations of each mutation kind per
// example (chosen with a fixed seed), so the test stays within a few
// minutes on two cores; KDV_BUILTIN_SAMPLE raises it for a fuller run.
func builtinMutationsPerKind() int {
	n := 1
	if s := os.Getenv("KDV_BUILTIN_SAMPLE"); s != "" {
		fmt.Sscan(s, &n)
	}
	return n
}

// onlyKinds keeps the examples of the comma-separated kinds (as the
// per-kind table names them, e.g. "Node,VolumeAttachment.storage.k8s.io"),
// so work on a few kinds can list all their classes quickly; "" keeps all.
func onlyKinds(exs []builtinExample, kinds string) []builtinExample {
	if kinds == "" {
		return exs
	}
	want := map[string]bool{}
	for _, k := range strings.Split(kinds, ",") {
		want[strings.TrimSpace(k)] = true
	}
	var out []builtinExample
	for _, ex := range exs {
		if want[ex.GK.String()] {
			out = append(out, ex)
		}
	}
	return out
}

// builtinCases are the corpus examples as creates and unchanged updates,
// and sampled mutations of each as a create and as an update from the
// example.
func builtinCases(exs []builtinExample, perKind int) []bcase {
	reg, _ := kdvRegistry()
	var cases []bcase
	for _, ex := range exs {
		body := mustJSON(ex.Obj)
		kind := ex.GK.String()
		cases = append(cases,
			bcase{Name: ex.Name + " create", Kind: kind, Mutation: "corpus", Obj: body},
			bcase{Name: ex.Name + " update unchanged", Kind: kind, Mutation: "corpus", Obj: body, Old: body})
		v, err := reg.Validator(ex.GVK)
		if err != nil {
			continue
		}
		// An example that does not decode cannot have been stored: its
		// mutations are only creates.
		stored := false
		if r, err := CheckBuiltin(body, nil); err == nil && r.DecodeErr == "" {
			stored = true
		}
		ms := sample(builtinMutations(ex.Obj, v.Schema().Structural, ex.Namespaced), perKind, int64(len(ex.Name)))
		for _, m := range ms {
			n := fmt.Sprintf("%s %s %s", ex.Name, m.Kind, m.Path)
			mb := mustJSON(m.Obj)
			cases = append(cases, bcase{Name: n + " create", Kind: kind, Mutation: m.Kind, Obj: mb})
			// A changed name or namespace names another object: kubectl
			// would create it, not update the example.
			if stored && sameIdentity(ex.Obj, m.Obj) {
				cases = append(cases, bcase{Name: n + " update", Kind: kind, Mutation: m.Kind, Obj: mb, Old: body})
			}
			// The mutation as an unchanged update of itself: an object
			// stored before a rule existed (or by another release) meets
			// the rule again on every update. Hand-written validation does
			// not ratchet; validation-gen's and CRDs' does.
			if stored {
				cases = append(cases, bcase{Name: n + " update unchanged", Kind: kind, Mutation: m.Kind, Obj: mb, Old: mb, Stored: true})
			}
		}
	}
	return cases
}

// sameIdentity reports whether two versions of an object have the same
// name and namespace ("" and "default" being the same namespace).
func sameIdentity(a, b map[string]any) bool {
	id := func(o map[string]any) [2]string {
		md, _ := o["metadata"].(map[string]any)
		ns := md["namespace"]
		if ns == "" || ns == nil {
			ns = "default"
		}
		return [2]string{fmt.Sprint(md["name"]), fmt.Sprint(ns)}
	}
	return id(a) == id(b)
}

// runBuiltinCases runs every case on both sides in parallel.
func runBuiltinCases(cases []bcase) []bresult {
	return parallelMap(cases, compareBuiltin)
}

func compareBuiltin(c bcase) bresult {
	r := bresult{Case: c}
	var err error
	if r.Ref, err = refBuiltin(c.Obj, c.Old); err != nil {
		r.Err = fmt.Errorf("reference: %w", err)
		return r
	}
	if r.KDV, err = kdvBuiltin(c.Obj, c.Old); err != nil {
		r.Err = fmt.Errorf("kdv: %w", err)
	}
	return r
}

// agreement is one row of the agreement tables.
type agreement struct {
	Cases, RefRejects, KDVRejects, SameVerdict, SameCauses, SameMessages, FalseRejections, Misses int
}

func (a *agreement) add(r *bresult) {
	a.Cases++
	if r.Ref.Rejected {
		a.RefRejects++
	}
	if r.KDV.Rejected {
		a.KDVRejects++
	}
	if r.Ref.Rejected == r.KDV.Rejected {
		a.SameVerdict++
		if sameCauses(r.Ref.Causes, r.KDV.Causes) {
			a.SameCauses++
			if sameMessages(r.Ref.Messages, r.KDV.Messages) {
				a.SameMessages++
			}
		}
	}
	if r.falseRejection() {
		a.FalseRejections++
	}
	if r.miss() {
		a.Misses++
	}
}

// tabulate groups the judged results by key.
func tabulate(rs []bresult, key func(*bresult) string) (map[string]*agreement, *agreement) {
	rows := map[string]*agreement{}
	total := &agreement{}
	for i := range rs {
		r := &rs[i]
		if r.Err != nil {
			continue
		}
		k := key(r)
		if rows[k] == nil {
			rows[k] = &agreement{}
		}
		rows[k].add(r)
		total.add(r)
	}
	return rows, total
}

func agreementTable(title string, rows map[string]*agreement, total *agreement) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | cases | apiserver rejects | kdv rejects | same verdict | same causes | same messages | **false rejections** | misses |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", title)
	for _, k := range sortedKeys(rows) {
		a := rows[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", k, a.Cases, a.RefRejects, a.KDVRejects, a.SameVerdict, a.SameCauses, a.SameMessages, a.FalseRejections, a.Misses)
	}
	a := total
	fmt.Fprintf(&b, "| **total** | %d | %d | %d | %d | %d | %d | **%d** | %d |\n", a.Cases, a.RefRejects, a.KDVRejects, a.SameVerdict, a.SameCauses, a.SameMessages, a.FalseRejections, a.Misses)
	return b.String()
}

var indexRE = regexp.MustCompile(`\[[^\]]*\]`)

// rejectionClass groups false rejections (and misses) by what kdv (or the
// apiserver) objected to: the mutation kind, the first cause's type and
// its field with list indices and map keys elided.
func rejectionClass(r *bresult, v bverdict) string {
	c := cause{Type: "?"}
	if len(v.Causes) > 0 {
		c = v.Causes[0]
	}
	return fmt.Sprintf("%s: %s %s", r.Case.Mutation, c.Type, indexRE.ReplaceAllString(c.Field, "[*]"))
}

// causeDiffSide is, for a case both sides reject with different causes,
// a verdict holding the first cause only one side reports (the apiserver's
// when it has one kdv lacks, else kdv's extra one, marked "+"), so that
// classTable groups cause differences like misses.
func causeDiffSide(r *bresult) bverdict {
	has := func(cs []cause, c cause) bool {
		for _, x := range cs {
			if x == c {
				return true
			}
		}
		return false
	}
	for _, c := range r.Ref.Causes {
		if !has(r.KDV.Causes, c) {
			return bverdict{Causes: []cause{c}}
		}
	}
	for _, c := range r.KDV.Causes {
		if !has(r.Ref.Causes, c) {
			return bverdict{Causes: []cause{{Field: c.Field, Type: "+" + c.Type}}}
		}
	}
	return bverdict{}
}

// messageDiffSide is, for a case both sides reject for the same causes
// with different messages, a verdict whose one cause is the field of the
// first apiserver message kdv does not print (or, marked "+", of kdv's
// first extra message), typed by the message's text with values elided,
// so that classTable groups message differences.
func messageDiffSide(r *bresult) bverdict {
	count := map[string]int{}
	for _, m := range r.KDV.Messages {
		count[m]++
	}
	mark := ""
	first := ""
	for _, m := range r.Ref.Messages {
		if count[m] > 0 {
			count[m]--
			continue
		}
		first = m
		break
	}
	if first == "" {
		count = map[string]int{}
		for _, m := range r.Ref.Messages {
			count[m]++
		}
		for _, m := range r.KDV.Messages {
			if count[m] > 0 {
				count[m]--
				continue
			}
			first, mark = m, "+"
			break
		}
	}
	field, rest, _ := strings.Cut(first, ": ")
	typ, _, _ := strings.Cut(rest, ": ")
	return bverdict{Causes: []cause{{Field: field, Type: mark + typ}}}
}

// classTable lists the classes of false rejections or misses, most
// frequent first, with one example each.
func classTable(rs []bresult, pick func(*bresult) bool, side func(*bresult) bverdict, limit int) string {
	type class struct {
		n   int
		ex  *bresult
		key string
	}
	byKey := map[string]*class{}
	for i := range rs {
		r := &rs[i]
		if !pick(r) {
			continue
		}
		k := r.Case.Kind + " " + rejectionClass(r, side(r))
		if byKey[k] == nil {
			byKey[k] = &class{ex: r, key: k}
		}
		byKey[k].n++
	}
	var cs []*class
	for _, c := range byKey {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].n != cs[j].n {
			return cs[i].n > cs[j].n
		}
		return cs[i].key < cs[j].key
	})
	var b strings.Builder
	b.WriteString("| n | class (kind, mutation: cause field) | example case | apiserver | kdv |\n|---:|---|---|---|---|\n")
	for i, c := range cs {
		if i == limit {
			fmt.Fprintf(&b, "| | ... %d more classes | | | |\n", len(cs)-limit)
			break
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", c.n, mdEscape(c.key), mdEscape(c.ex.Case.Name), mdEscape(short(c.ex.Ref.String(), 200)), mdEscape(short(c.ex.KDV.String(), 200)))
	}
	return b.String()
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// TestBuiltinDifferential compares kdv on built-in kinds with the
// apiserver's own code (k8s.io/kubernetes v1.37.2, see CheckBuiltin): every
// built-in document of the corpus and sampled mutations of it, as creates
// and as updates. It fails on a false rejection (kdv rejects what the
// apiserver accepts: issue 11 holds kdv to zero), a panic on either side,
// or the reference unable to judge an object it covers; misses and
// different messages are kdv's known gaps, counted and logged.
// KDV_BUILTIN_RESULTS=file writes the
// tables as markdown (into the marked section of file when it has one).
func TestBuiltinDifferential(t *testing.T) {
	exs := onlyKinds(append(loadBuiltinCorpus(t), loadBuiltinSeeds(t)...), os.Getenv("KDV_BUILTIN_KINDS"))
	cases := builtinCases(exs, builtinMutationsPerKind())
	rs := runBuiltinCases(cases)
	if f := os.Getenv("KDV_BUILTIN_DIFFS"); f != "" {
		if err := writeBuiltinDiffs(f, rs); err != nil {
			t.Error(err)
		}
	}
	var judged, stored []bresult
	skipped := 0
	for _, r := range rs {
		switch {
		case r.Err == nil && r.Case.Stored:
			stored = append(stored, r)
		case r.Err == nil:
			judged = append(judged, r)
		case errors.Is(r.Err, errKDVNoSchema):
			skipped++
		default:
			t.Errorf("%s: %v", r.Case.Name, r.Err)
		}
	}
	byKind, total := tabulate(judged, func(r *bresult) string { return r.Case.Kind })
	byMut, _ := tabulate(judged, func(r *bresult) string { return r.Case.Mutation })
	t.Logf("%d examples, %d cases (%d without a kdv schema)", len(exs), len(cases), skipped)
	t.Logf("per kind:\n%s", agreementTable("kind", byKind, total))
	t.Logf("per mutation:\n%s", agreementTable("mutation", byMut, total))
	fr := func(r *bresult) bool { return r.falseRejection() }
	miss := func(r *bresult) bool { return r.miss() }
	kdvSide := func(r *bresult) bverdict { return r.KDV }
	refSide := func(r *bresult) bverdict { return r.Ref }
	t.Logf("false rejection classes:\n%s", classTable(judged, fr, kdvSide, 60))
	if total.FalseRejections > 0 {
		t.Errorf("%d false rejections (kdv rejects what the apiserver accepts); classes above", total.FalseRejections)
	}
	// The corpus documents themselves (kubernetes/examples among them),
	// unmutated, as creates: the same verdict as the apiserver, misses
	// included.
	for _, r := range judged {
		if r.Case.Mutation == "corpus" && r.Case.Old == nil && r.KDV.Rejected != r.Ref.Rejected {
			t.Errorf("%s: apiserver %s; kdv %s", r.Case.Name, r.Ref, r.KDV)
		}
	}
	t.Logf("miss classes:\n%s", classTable(judged, miss, refSide, 40))
	// Stored objects: the hand-written update validation checks the whole
	// new object again, except where it drops the errors of an unchanged
	// field or loosens a check for an old object that breaks it; kdv
	// declares those places (x-kubernetes-ratcheting, transition rules).
	// None may be a false rejection, as for the other cases.
	storedByKind, storedTotal := tabulate(stored, func(r *bresult) string { return r.Case.Kind })
	t.Logf("stored objects (invalid mutations as unchanged updates), per kind:\n%s", agreementTable("kind", storedByKind, storedTotal))
	t.Logf("stored objects, false rejection classes:\n%s", classTable(stored, fr, kdvSide, 60))
	if storedTotal.FalseRejections > 0 {
		t.Errorf("stored objects: %d false rejections of %d cases; classes above", storedTotal.FalseRejections, storedTotal.Cases)
	}
	tricky := runTrickyCases(t)
	if f := os.Getenv("KDV_BUILTIN_RESULTS"); f != "" {
		var b strings.Builder
		fmt.Fprintf(&b, "%d documents (the corpus and testdata/builtin) of %d built-in kinds, %d cases (each example as a create and an unchanged update; %d mutation(s) of each kind per example, as a create and as an update from the example). A false rejection: kdv rejects what the apiserver accepts; a miss: the reverse. Causes are compared as sets of (field, type), messages as multisets.\n\n",
			len(exs), len(byKind), total.Cases, builtinMutationsPerKind())
		b.WriteString("### Per kind\n\n" + agreementTable("kind", byKind, total))
		b.WriteString("\n### Per mutation\n\n" + agreementTable("mutation", byMut, total))
		b.WriteString("\n### False-rejection classes\n\n" + classTable(judged, fr, kdvSide, 60))
		b.WriteString("\n### Miss classes\n\n" + classTable(judged, miss, refSide, 40))
		causeDiff := func(r *bresult) bool {
			return r.Err == nil && r.Ref.Rejected && r.KDV.Rejected && !sameCauses(r.Ref.Causes, r.KDV.Causes)
		}
		b.WriteString("\n### Cause-difference classes\n\nBoth reject, with different causes: the first cause the apiserver reports that kdv does not (or, marked +, the first kdv reports that the apiserver does not).\n\n" + classTable(judged, causeDiff, causeDiffSide, 40))
		msgDiff := func(r *bresult) bool {
			return r.Err == nil && r.Ref.Rejected && r.KDV.Rejected && sameCauses(r.Ref.Causes, r.KDV.Causes) && !sameMessages(r.Ref.Messages, r.KDV.Messages)
		}
		b.WriteString("\n### Message-difference classes\n\nBoth reject for the same causes, with different messages: the field and error type of the first message the apiserver prints that kdv does not (or, marked +, the first kdv prints that the apiserver does not).\n\n" + classTable(judged, msgDiff, messageDiffSide, 40))
		b.WriteString("\n### Tricky inputs\n\n" + tricky)
		fmt.Fprintf(&b, "\n### Stored objects: invalid mutations as unchanged updates\n\nEach mutation above also as an unchanged update of itself (%d cases): an object stored before a rule applied (an older release, a rule added since) meets the rule again on every update. The hand-written update validation checks the whole new object again, except where it drops the errors of an unchanged field (Endpoints subsets, a ClusterTrustBundle's bundle, a CronJob's time zone, admission match conditions, PriorityClass and ControllerRevision beyond their immutable fields), where it loosens a check for an old object that already breaks it (CSR usages, StatefulSet service names, webhook names), and where validation-gen's declarative validation, which ratchets, replaced it. kdv declares those places (x-kubernetes-ratcheting on the field, builtin/overlay/*_ratcheting.tags, or a transition rule) and checks everything else again. A list that ratchets is unchanged when it equals the old list, so an item without its list-map key ratchets with it; a RawExtension (a ControllerRevision's data) decodes any JSON value, and its type ratchets. False rejections: %d (the test fails on any).\n\n", storedTotal.Cases, storedTotal.FalseRejections)
		b.WriteString(agreementTable("kind", storedByKind, storedTotal))
		b.WriteString("\n#### False-rejection classes (stored objects)\n\n" + classTable(stored, fr, kdvSide, 60))
		b.WriteString("\n#### Miss classes (stored objects)\n\n" + classTable(stored, miss, refSide, 20))
		if err := writeResultsSection(f, b.String()); err != nil {
			t.Error(err)
		}
	}
}

// writeBuiltinDiffs writes every judged case whose verdict, causes or
// messages differ, with both sides' messages in full, to file
// (KDV_BUILTIN_DIFFS; stored objects left out): the class tables show one
// example per class, this shows them all.
func writeBuiltinDiffs(file string, rs []bresult) error {
	var b strings.Builder
	for i := range rs {
		r := &rs[i]
		if r.Err != nil || r.Case.Stored || (r.Ref.Rejected == r.KDV.Rejected && sameCauses(r.Ref.Causes, r.KDV.Causes) && sameMessages(r.Ref.Messages, r.KDV.Messages)) {
			continue
		}
		fmt.Fprintf(&b, "=== %s [%s]\n", r.Case.Name, r.Case.Kind)
		for _, side := range []struct {
			name string
			v    bverdict
		}{{"apiserver", r.Ref}, {"kdv", r.KDV}} {
			if !side.v.Rejected {
				fmt.Fprintf(&b, "  %s: accept\n", side.name)
			}
			for _, m := range side.v.Messages {
				fmt.Fprintf(&b, "  %s: %s\n", side.name, m)
			}
		}
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

const (
	resultsBegin = "<!-- builtin-results:begin -->"
	resultsEnd   = "<!-- builtin-results:end -->"
)

// writeResultsSection replaces the marked section of file with s, or
// writes s as the whole file when it has no markers.
func writeResultsSection(file, s string) error {
	return writeMarkedSection(file, resultsBegin, resultsEnd, s)
}

// writeMarkedSection replaces the section of file between the begin and
// end markers with s, or writes s as the whole file when it has none.
func writeMarkedSection(file, begin, end, s string) error {
	old, err := os.ReadFile(file)
	if err == nil {
		text := string(old)
		i, j := strings.Index(text, begin), strings.Index(text, end)
		if i >= 0 && j > i {
			s = text[:i+len(begin)] + "\n" + s + text[j:]
		}
	}
	return os.WriteFile(file, []byte(s), 0o644)
}

// TestBuiltinSeeds checks the harness: the reference accepts every seed
// object, as a create and as an unchanged update, and covers every kind
// the brief asks for. kdv's verdicts are logged.
func TestBuiltinSeeds(t *testing.T) {
	exs := loadBuiltinSeeds(t)
	seen := map[string]bool{}
	for _, ex := range exs {
		seen[ex.GVK.String()] = true
		body := mustJSON(ex.Obj)
		for _, old := range [][]byte{nil, body} {
			ref, err := refBuiltin(body, old)
			if err != nil {
				t.Errorf("%s: %v", ex.Name, err)
				continue
			}
			// PUT semantics: a Job's selector is generated on create and
			// immutable, so replacing a Job with its manifest fails.
			if ref.Rejected && !(old != nil && ex.GK.Kind == "Job") {
				t.Errorf("%s (update %v): the reference rejects a seed: %s", ex.Name, old != nil, ref)
			}
			if kdv, err := kdvBuiltin(body, old); err != nil {
				t.Errorf("%s: kdv: %v", ex.Name, err)
			} else if kdv.Rejected {
				t.Logf("%s (update %v): kdv rejects: %s", ex.Name, old != nil, kdv)
			}
		}
	}
	reg, err := kdvRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, gvk := range BuiltinKinds() {
		if _, err := reg.Validator(gvk); err != nil {
			t.Logf("%s: kdv has no schema: %v", gvk, err)
		}
		if !seen[gvk.String()] && gvk.Kind != "CertificateSigningRequest" && gvk.Kind != "CSINode" && gvk.Kind != "CSIStorageCapacity" && gvk.Kind != "VolumeAttachment" && gvk.Kind != "VolumeAttributesClass" && gvk.Kind != "ServiceCIDR" && gvk.Kind != "FlowSchema" {
			t.Errorf("%s: no seed in %s", gvk, builtinSeedDir)
		}
	}
}
