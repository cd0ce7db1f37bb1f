package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// oldReleases are the Kubernetes minors TestBuiltinOldReleases checks:
// KDV_OLD_RELEASES, a comma-separated list ("30", "30,36"), "none" for
// none; 30 by default.
func oldReleases(t *testing.T) []int {
	s := os.Getenv("KDV_OLD_RELEASES")
	if s == "" {
		s = "30"
	}
	if s == "none" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimPrefix(strings.TrimSpace(f), "1.")
		m, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("KDV_OLD_RELEASES=%q: %q is not a Kubernetes minor", s, f)
		}
		out = append(out, m)
	}
	return out
}

// releaseVerdict is one line of the old-release reference's output (see
// bench/releaseref: Verdict).
type releaseVerdict struct {
	Err       string `json:"err"`
	NotServed bool   `json:"notServed"`
	DecodeErr string `json:"decodeErr"`
	Unknown   []string
	Errors    []struct{ Type, Field, Detail, Message string }
	Warnings  []string
	// OldInvalid: the release rejects the update's old object on create.
	OldInvalid bool `json:"oldInvalid"`
}

// bverdict is the verdict as refBuiltin makes it of CheckBuiltin's.
func (r *releaseVerdict) bverdict() bverdict {
	v := bverdict{Rejected: r.DecodeErr != "" || len(r.Errors) > 0, Warnings: r.Warnings}
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
		v.Causes = append(v.Causes, cause{Field: e.Field, Type: e.Type})
		v.Messages = append(v.Messages, e.Message)
	}
	return v
}

// runReleaseRef runs every case through one process of the reference
// binary, one JSON line in and one out per case, in order.
func runReleaseRef(bin string, cases []bcase) ([]releaseVerdict, error) {
	cmd := exec.Command(bin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(in)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, c := range cases {
			old := json.RawMessage("null")
			if c.Old != nil {
				old = c.Old
			}
			if err := enc.Encode(struct {
				Obj json.RawMessage `json:"obj"`
				Old json.RawMessage `json:"old"`
			}{c.Obj, old}); err != nil {
				werr <- err
				in.Close()
				return
			}
		}
		err := w.Flush()
		in.Close()
		werr <- err
	}()
	rs := make([]releaseVerdict, 0, len(cases))
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var r releaseVerdict
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("reading the reference's line %d: %v", len(rs)+1, err)
		}
		rs = append(rs, r)
	}
	scanErr := sc.Err()
	if scanErr != nil {
		// Unblock the writer, then reap the process.
		cmd.Process.Kill()
		io.Copy(io.Discard, out)
	}
	writeErr := <-werr
	waitErr := cmd.Wait()
	switch {
	case scanErr != nil:
		return nil, fmt.Errorf("reading the reference's output: %v", scanErr)
	case writeErr != nil:
		return nil, fmt.Errorf("writing cases to the reference: %v; stderr: %s", writeErr, stderr.String())
	case waitErr != nil:
		return nil, fmt.Errorf("reference: %v; stderr: %s", waitErr, stderr.String())
	case len(rs) != len(cases):
		return nil, fmt.Errorf("reference answered %d of %d cases; stderr: %s", len(rs), len(cases), stderr.String())
	}
	return rs, nil
}

// oldResultsBegin and oldResultsEnd mark the section KDV_OLD_RESULTS
// writes in a file that has them (bench/RESULTS.md).
const (
	oldResultsBegin = "<!-- old-releases-results:begin -->"
	oldResultsEnd   = "<!-- old-releases-results:end -->"
)

// TestBuiltinOldReleases is TestBuiltinDifferential against older
// Kubernetes releases: for each minor of KDV_OLD_RELEASES, the harness's
// cases (builtinCases of the corpus and the seeds; KDV_BUILTIN_SAMPLE
// mutations per kind) whose kind that release serves by default, judged
// by that release's own k8s.io/kubernetes code (the reference of
// bench/releaseref, built by BuildReleaseRef: a cold build takes
// minutes, then it is cached) and by kdv with --kubernetes-version
// 1.<minor>. It fails on a false rejection (kdv rejects what that
// release's apiserver accepts), with both sides' errors; misses and
// message differences are counted. Stored objects (mutations as unchanged
// updates of themselves) are bounded as in TestBuiltinDifferential.
// KDV_OLD_RESULTS=file writes the tables as markdown (into the section
// between the old-releases-results markers when file has them).
func TestBuiltinOldReleases(t *testing.T) {
	releases := oldReleases(t)
	if len(releases) == 0 {
		t.Skip("KDV_OLD_RELEASES=none")
	}
	exs := append(loadBuiltinCorpus(t), loadBuiltinSeeds(t)...)
	cases := builtinCases(exs, builtinMutationsPerKind())
	var report strings.Builder
	fmt.Fprintf(&report, "%d documents (the corpus and testdata/builtin), %d cases of bench's built-in harness (%d mutation(s) of each kind per example), each judged by the release's own k8s.io/kubernetes code (bench/releaseref) and by `kdv validate --kubernetes-version 1.<minor>`; only kinds the release serves by default. A false rejection: kdv rejects what the apiserver accepts; a miss: the reverse.\n",
		len(exs), len(cases), builtinMutationsPerKind())
	for _, minor := range releases {
		t.Run(fmt.Sprintf("1.%d", minor), func(t *testing.T) {
			report.WriteString(checkOldRelease(t, minor, cases))
		})
	}
	if f := os.Getenv("KDV_OLD_RESULTS"); f != "" {
		if err := writeMarkedSection(f, oldResultsBegin, oldResultsEnd, report.String()); err != nil {
			t.Error(err)
		}
	}
}

// checkOldRelease compares one release and returns its markdown section.
func checkOldRelease(t *testing.T, minor int, cases []bcase) string {
	start := time.Now()
	bin, err := BuildReleaseRef(minor, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	if _, err := kdvRegistryFor(minor); err != nil {
		t.Fatalf("kdv --kubernetes-version 1.%d: %v", minor, err)
	}
	refStart := time.Now()
	refs, err := runReleaseRef(bin, cases)
	if err != nil {
		t.Fatal(err)
	}
	refTime := time.Since(refStart)
	// The cases of kinds the release serves; the others are counted.
	var kept []bresult
	notServed := map[string]int{}
	oldUndecodable := 0
	// Updates of an old object the release rejects on create: it cannot
	// have been created by this release (a field the example uses is
	// gated off there, a rule added since), and the release's update
	// validation may then skip checks (1.34's StatefulSet skips the pod
	// template when the old one is invalid). Judged apart, not failed;
	// stored objects (a mutation as its own old object) are invalid by
	// design and stay in their own table.
	oldInvalid := map[int]bool{}
	for i, c := range cases {
		r := refs[i]
		switch {
		case r.NotServed:
			notServed[c.Kind]++
		case r.Err != "" && strings.HasPrefix(r.Err, "old object: "):
			// The example does not decode in this release (a field it
			// lacks): it cannot have been stored, so no update of it.
			oldUndecodable++
		case r.Err != "":
			t.Errorf("%s: reference: %s", c.Name, r.Err)
		default:
			if r.OldInvalid {
				oldInvalid[len(kept)] = true
			}
			kept = append(kept, bresult{Case: c, Ref: r.bverdict()})
		}
	}
	kdvStart := time.Now()
	rs := parallelMap(kept, func(r bresult) bresult {
		r.KDV, r.Err = kdvBuiltinAt(minor, r.Case.Obj, r.Case.Old)
		return r
	})
	kdvTime := time.Since(kdvStart)
	var judged, stored, fromInvalid []bresult
	noSchema := map[string]int{}
	for i, r := range rs {
		switch {
		case r.Err == nil && oldInvalid[i] && !r.Case.Stored:
			fromInvalid = append(fromInvalid, r)
		case r.Err == nil && r.Case.Stored:
			stored = append(stored, r)
		case r.Err == nil:
			judged = append(judged, r)
		case errors.Is(r.Err, errKDVNoSchema):
			noSchema[r.Case.Kind]++
		default:
			t.Errorf("%s: kdv: %v", r.Case.Name, r.Err)
		}
	}
	t.Logf("Kubernetes 1.%d: reference built or found in %v, %d cases through it in %v, through kdv in %v", minor, built.Round(time.Millisecond), len(cases), refTime.Round(time.Millisecond), kdvTime.Round(time.Millisecond))
	t.Logf("%d cases of kinds 1.%d serves; not served: %v; updates of examples that do not decode in 1.%d: %d; kinds kdv has no 1.%d schema for: %v", len(kept), minor, notServed, minor, oldUndecodable, minor, noSchema)
	byKind, total := tabulate(judged, func(r *bresult) string { return r.Case.Kind })
	byMut, _ := tabulate(judged, func(r *bresult) string { return r.Case.Mutation })
	storedByKind, storedTotal := tabulate(stored, func(r *bresult) string { return r.Case.Kind })
	fr := func(r *bresult) bool { return r.falseRejection() }
	miss := func(r *bresult) bool { return r.miss() }
	kdvSide := func(r *bresult) bverdict { return r.KDV }
	refSide := func(r *bresult) bverdict { return r.Ref }
	t.Logf("per kind:\n%s", agreementTable("kind", byKind, total))
	t.Logf("false rejection classes:\n%s", classTable(judged, fr, kdvSide, 60))
	t.Logf("miss classes:\n%s", classTable(judged, miss, refSide, 40))
	t.Logf("stored objects, per kind:\n%s", agreementTable("kind", storedByKind, storedTotal))
	t.Logf("stored objects, false rejection classes:\n%s", classTable(stored, fr, kdvSide, 60))
	t.Logf("stored objects, miss classes:\n%s", classTable(stored, miss, refSide, 20))
	_, invalidTotal := tabulate(fromInvalid, func(r *bresult) string { return r.Case.Kind })
	t.Logf("updates of an old object 1.%d rejects on create: %d, false rejections among them (not failed):\n%s", minor, invalidTotal.Cases, classTable(fromInvalid, fr, kdvSide, 20))
	const maxListed = 40
	known := knownOldFalseRejections(t, minor)
	unknown := unlistedFalseRejections(judged, known)
	for i, r := range unknown {
		if i == maxListed {
			break
		}
		t.Errorf("false rejection on 1.%d: %s\n  apiserver: %s\n  kdv: %s", minor, r.Case.Name, r.Ref, r.KDV)
	}
	if len(unknown) > 0 {
		t.Errorf("1.%d: %d false rejections (%d listed), %d known; classes above", minor, len(unknown), min(len(unknown), maxListed), total.FalseRejections-len(unknown))
	}
	// Stored objects: the listed ones (a gated-off field the old
	// manifest sets, as above) are known; there may be no other, as in
	// TestBuiltinDifferential.
	storedFR := len(unlistedFalseRejections(stored, known))
	for name := range known {
		t.Errorf("1.%d: %s is listed in %s but is no false rejection: remove the line", minor, name, knownOldFalseRejectionsFile)
	}
	if storedFR > 0 {
		t.Errorf("1.%d stored objects: %d false rejections not listed in %s of %d cases; classes above", minor, storedFR, knownOldFalseRejectionsFile, storedTotal.Cases)
	}
	// The corpus documents as creates: misses are logged here, not held
	// to zero as for 1.37.
	for _, r := range judged {
		if r.Case.Mutation == "corpus" && r.Case.Old == nil && r.miss() {
			t.Logf("corpus miss on 1.%d: %s: apiserver %s", minor, r.Case.Name, r.Ref)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Kubernetes 1.%d (k8s.io/kubernetes %s)\n\n", minor, ReleaseRefVersions[minor])
	fmt.Fprintf(&b, "%d cases of kinds 1.%d serves (%d judged, %d stored objects)", len(kept), minor, total.Cases, storedTotal.Cases)
	if len(notServed) > 0 {
		fmt.Fprintf(&b, "; kinds it does not serve by default, left out: %s", strings.Join(sortedKeys(notServed), ", "))
	}
	if oldUndecodable > 0 {
		fmt.Fprintf(&b, "; %d updates left out whose old object does not decode in 1.%d", oldUndecodable, minor)
	}
	if len(noSchema) > 0 {
		fmt.Fprintf(&b, "; kinds kdv has no 1.%d schema for: %s", minor, strings.Join(sortedKeys(noSchema), ", "))
	}
	if invalidTotal.Cases > 0 {
		fmt.Fprintf(&b, "; %d updates of an old object 1.%d rejects on create, judged apart (%d false rejections, not failed: such an object can only come from another release)", invalidTotal.Cases, minor, invalidTotal.FalseRejections)
	}
	b.WriteString(".\n\n#### Per kind\n\n" + agreementTable("kind", byKind, total))
	b.WriteString("\n#### Per mutation\n\n" + agreementTable("mutation", byMut, total))
	b.WriteString("\n#### False-rejection classes\n\n" + classTable(judged, fr, kdvSide, 60))
	b.WriteString("\n#### Miss classes\n\n" + classTable(judged, miss, refSide, 40))
	b.WriteString("\n#### Stored objects: invalid mutations as unchanged updates\n\n" + agreementTable("kind", storedByKind, storedTotal))
	b.WriteString("\n##### False-rejection classes (stored objects)\n\n" + classTable(stored, fr, kdvSide, 60))
	if invalidTotal.FalseRejections > 0 {
		b.WriteString("\n#### False-rejection classes: updates of an old object the release rejects on create\n\n" + classTable(fromInvalid, fr, kdvSide, 20))
	}
	return b.String()
}

// TestReleaseRefSources checks which sources the scratch module of each
// release gets: go mod tidy reads every file whatever its build
// constraint, so a file importing packages the release lacks must stay
// out, and the Service hooks must come in as package main.
func TestReleaseRefSources(t *testing.T) {
	for _, tc := range []struct {
		minor     int
		in, notIn []string
	}{
		{30, []string{"main.go", "kinds.go", "kinds_130.go", "builtin_service.go"}, []string{"kinds_133.go", "kinds_134.go"}},
		{32, []string{"kinds_130.go"}, []string{"kinds_133.go", "kinds_134.go"}},
		{33, []string{"kinds_133.go"}, []string{"kinds_130.go", "kinds_134.go"}},
		{34, []string{"main.go", "kinds.go", "kinds_133.go", "kinds_134.go", "builtin_service.go"}, []string{"kinds_130.go"}},
		{35, []string{"kinds_133.go", "kinds_134.go"}, []string{"kinds_130.go"}},
	} {
		files, err := releaseRefSources([]string{"releaseref", fmt.Sprintf("k8s1%d", tc.minor)})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.in {
			if files[n] == nil {
				t.Errorf("1.%d: %s missing", tc.minor, n)
			}
		}
		for _, n := range tc.notIn {
			if files[n] != nil {
				t.Errorf("1.%d: %s included", tc.minor, n)
			}
		}
		if svc := string(files["builtin_service.go"]); !strings.HasPrefix(svc, "//go:build releaseref\n\npackage main\n") {
			t.Errorf("1.%d: builtin_service.go starts %q", tc.minor, short(svc, 40))
		}
	}
	for _, tc := range []struct {
		src  string
		tags []string
		want bool
	}{
		{"package main\n", nil, true},
		{"//go:build releaseref\n\npackage main\n", []string{"releaseref"}, true},
		{"//go:build releaseref\n\npackage main\n", nil, false},
		{"// Comment.\n\n//go:build releaseref && (k8s134 || k8s135)\n\npackage main\n", []string{"releaseref", "k8s130"}, false},
		{"//go:build releaseref && (k8s134 || k8s135)\n\npackage main\n", []string{"releaseref", "k8s135"}, true},
		// A //go:build line after the package clause is no constraint.
		{"package main\n//go:build never\n", nil, true},
	} {
		if got, err := satisfiesTags([]byte(tc.src), tc.tags); err != nil || got != tc.want {
			t.Errorf("satisfiesTags(%q, %v) = %v, %v; want %v", tc.src, tc.tags, got, err, tc.want)
		}
	}
}

// knownOldFalseRejectionsFile lists the false rejections of old releases
// that kdv knowingly does not model, each with its reason.
const knownOldFalseRejectionsFile = "testdata/old-releases-known-false-rejections.txt"

// knownOldFalseRejections returns the case names listed for 1.<minor>.
// unlistedFalseRejections returns the false rejections of rs whose case
// is not in known, deleting from known those that are (what is left in
// known is listed but no false rejection).
func unlistedFalseRejections(rs []bresult, known map[string]string) []bresult {
	var out []bresult
	for _, r := range rs {
		if !r.falseRejection() {
			continue
		}
		if _, ok := known[r.Case.Name]; ok {
			delete(known, r.Case.Name)
			continue
		}
		out = append(out, r)
	}
	return out
}

func knownOldFalseRejections(t *testing.T, minor int) map[string]string {
	t.Helper()
	b, err := os.ReadFile(knownOldFalseRejectionsFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[2] == "" {
			t.Fatalf("%s:%d: want release, case name and reason, tab-separated", knownOldFalseRejectionsFile, i+1)
		}
		if f[0] == fmt.Sprintf("1.%d", minor) {
			out[f[1]] = f[2]
		}
	}
	return out
}
