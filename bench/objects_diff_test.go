package bench

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// objCase is one request compared on both sides: a create (Old == nil) or
// an update.
type objCase struct {
	Name     string // example, mutation kind and path, operation
	Mutation string // mutation kind, "" for the unmutated example
	Kind     *kindPair
	Obj, Old map[string]any
}

// disagreement is a case where kdv's verdict differs from the apiserver's.
type disagreement struct {
	Case     objCase
	Ref, KDV verdict
	Class    string // allow-list class, "" when not allowed
}

// knownDifference is an allow-listed class of disagreements: kdv differs
// from the apiserver on purpose or by a documented limitation.
type knownDifference struct {
	Class  string
	Reason string
	// Gap marks a kdv limitation its owner should fix (logged as such), as
	// opposed to a deliberate difference.
	Gap   bool
	Match func(d *disagreement) bool
}

// knownObjectDifferences is the allow-list of object disagreements. Every
// entry has a one-line reason; anything else fails the test.
var knownObjectDifferences = []knownDifference{
	{
		Class:  "kind-mismatch",
		Reason: "kdv picks the schema by the object's kind, so it prunes and defaults; the apiserver serves by URL and skips pruning and defaulting when the body's kind differs (unreachable with kubectl, which routes by kind)",
		Match: func(d *disagreement) bool {
			return d.Case.Mutation == "kind" && len(d.Ref.Errors) > 0 && len(d.KDV.Errors) > 0 && d.Ref.Errors[0] == d.KDV.Errors[0] && strings.HasPrefix(d.Ref.Errors[0], "kind: ")
		},
	},
}

// diffErrors returns the errors only the apiserver reports (extra) and
// those only kdv reports (missing from the apiserver), as multisets.
func diffErrors(ref, kdv []string) (extra, missing []string) {
	count := map[string]int{}
	for _, e := range kdv {
		count[e]++
	}
	for _, e := range ref {
		if count[e] > 0 {
			count[e]--
		} else {
			extra = append(extra, e)
		}
	}
	for _, e := range sortedKeys(count) {
		for i := 0; i < count[e]; i++ {
			missing = append(missing, e)
		}
	}
	return extra, missing
}

// nondeterministicOrder is the class compareCase gives to differences in
// error order only, when the apiserver's own order varies between runs.
var nondeterministicOrder = knownDifference{
	Class:  "nondeterministic-order",
	Reason: "same errors; the apiserver's order varies from run to run (kube-openapi ranges over the properties map) and never matched kdv's in 200 runs",
}

// perKindSample bounds the mutations of each kind per example, so the
// whole differential test stays fast on two cores.
const perKindSample = 3

func objectCases(c *corpus) (cases []objCase, nMut int) {
	for _, ex := range c.Examples {
		cases = append(cases,
			objCase{Name: ex.Name + " create", Kind: ex.Kind, Obj: ex.Obj},
			objCase{Name: ex.Name + " update unchanged", Kind: ex.Kind, Obj: ex.Obj, Old: ex.Obj})
		ms := sample(mutations(ex.Obj, ex.Kind.Ref.Structural), perKindSample, int64(len(ex.Name)))
		nMut += len(ms)
		for i, m := range ms {
			n := fmt.Sprintf("%s %s %s", ex.Name, m.Kind, m.Path)
			cases = append(cases,
				objCase{Name: n + " create", Mutation: m.Kind, Kind: ex.Kind, Obj: m.Obj},
				objCase{Name: n + " update from valid", Mutation: m.Kind, Kind: ex.Kind, Obj: m.Obj, Old: ex.Obj})
			if i%4 == 0 {
				cases = append(cases,
					objCase{Name: n + " update to valid", Mutation: m.Kind, Kind: ex.Kind, Obj: ex.Obj, Old: m.Obj},
					objCase{Name: n + " update unchanged", Mutation: m.Kind, Kind: ex.Kind, Obj: m.Obj, Old: m.Obj})
			}
		}
	}
	return cases, nMut
}

// compareCase runs one case on both sides; nil when they agree.
//
// kube-openapi validates an object's properties by ranging over a Go map,
// so when several properties are invalid the apiserver's error order
// differs from run to run. When the two sides differ only in order, the
// reference is run again: kdv agrees if the apiserver ever produces kdv's
// order; if the apiserver's order varies but never matched, the
// disagreement is classed "nondeterministic-order".
func compareCase(c objCase) *disagreement {
	ref := refVerdict(c.Kind, c.Obj, c.Old)
	kdv := kdvVerdict(c.Kind, c.Obj, c.Old)
	if ref.equal(kdv) {
		return nil
	}
	d := &disagreement{Case: c, Ref: ref, KDV: kdv}
	if extra, missing := diffErrors(ref.Errors, kdv.Errors); len(extra) > 0 || len(missing) > 0 || ref.DecodeErr != kdv.DecodeErr || !equalStrings(ref.Unknown, kdv.Unknown) {
		return d
	}
	varies := false
	for range 200 {
		again := refVerdict(c.Kind, c.Obj, c.Old)
		if again.equal(kdv) {
			return nil
		}
		if !again.equal(ref) {
			varies = true
		}
	}
	if varies {
		d.Class = "nondeterministic-order"
	}
	return d
}

// compareCases runs every case on both sides in parallel and returns the
// disagreements in case order.
func compareCases(cases []objCase) []disagreement {
	out := parallelMap(cases, compareCase)
	var ds []disagreement
	for _, d := range out {
		if d != nil {
			ds = append(ds, *d)
		}
	}
	return ds
}

// TestDifferentialObjects compares kdv's decode and validation of every
// corpus example of a CRD kind, and of systematic mutations of it, on
// create and update, with the apiserver's own code.
func TestDifferentialObjects(t *testing.T) {
	c := loadCorpus(t)
	cases, nMut := objectCases(c)
	ds := compareCases(cases)
	if f := os.Getenv("KDV_BENCH_DUMP"); f != "" {
		dumpCases(t, f, cases)
	}
	reportDisagreements(t, "objects", len(c.Examples), nMut, len(cases), ds, knownObjectDifferences)
}

func reportDisagreements(t *testing.T, what string, nObjects, nMut, nCases int, ds []disagreement, known []knownDifference) {
	t.Helper()
	classes := map[string]int{}
	var bad []disagreement
	for i := range ds {
		d := &ds[i]
		if d.Class != "" {
			classes[d.Class]++
			continue
		}
		for _, k := range known {
			if k.Match(d) {
				d.Class = k.Class
				break
			}
		}
		if d.Class == "" {
			bad = append(bad, *d)
		} else {
			classes[d.Class]++
		}
	}
	t.Logf("%s: %d objects, %d mutations, %d cases, %d agree, %d allow-listed, %d disagree",
		what, nObjects, nMut, nCases, nCases-len(ds), len(ds)-len(bad), len(bad))
	for _, k := range append([]knownDifference{nondeterministicOrder}, known...) {
		if classes[k.Class] > 0 {
			t.Logf("allow-listed %-20s %5d  %s", k.Class, classes[k.Class], k.Reason)
		}
	}
	byMut := map[string]int{}
	for _, d := range bad {
		byMut[d.Case.Mutation]++
	}
	keys := sortedKeys(byMut)
	sort.SliceStable(keys, func(i, j int) bool { return byMut[keys[i]] > byMut[keys[j]] })
	var summary []string
	for _, k := range keys {
		summary = append(summary, fmt.Sprintf("%s=%d", k, byMut[k]))
	}
	if len(bad) > 0 {
		t.Logf("disagreements by mutation kind: %s", strings.Join(summary, " "))
	}
	for i, d := range bad {
		if i == 50 {
			t.Logf("... %d more", len(bad)-50)
			break
		}
		t.Errorf("%s:\napiserver:\n%skdv:\n%s", d.Case.Name, d.Ref, d.KDV)
	}
}

// dumpCases writes every case's apiserver verdict to file, for studying
// what the mutations exercise (KDV_BENCH_DUMP=file go test -run Objects).
func dumpCases(t *testing.T, file string, cases []objCase) {
	var b strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&b, "=== %s\n%s", c.Name, refVerdict(c.Kind, c.Obj, c.Old))
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}
