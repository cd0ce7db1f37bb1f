package resource

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/manifest"
	"kdv.dev/report"
	kdvschema "kdv.dev/schema"
)

// RunPending is Run over documents that are not decoded yet
// (manifest.ReadPending): each worker decodes a document, validates it and
// drops the decoded object, so memory grows with the documents in flight
// and the results, not with the decoded input (which, held whole, makes the
// garbage collector's marking grow with the input too). The results are
// Run's, in input order and numbered as manifest.Read numbers documents.
// CustomResourceDefinitions are found as Run finds them: every document
// whose text mentions CustomResourceDefinition is decoded first, and the
// CRDs among them are checked and registered before any other document is
// validated. opts.Progress is called once per pending document (a List
// counts once). An empty, comment-only or null document of an input file
// (not of built or rendered output) has a result marked Empty, which only
// the JSON format shows.
func RunPending(ctx context.Context, pending []manifest.Pending, reg *Registry, opts RunOptions) *report.Result {
	decoded, results := runGroups(ctx, groups{
		n:          len(pending),
		decode:     func(i int) []manifest.Document { return pending[i].Decode() },
		mayHoldCRD: func(i int) bool { return pending[i].Mentions("CustomResourceDefinition") },
		drop:       true,
	}, reg, opts)
	manifest.Number(pending, decoded)
	for i := range results {
		for j := range results[i] {
			results[i][j].Index = decoded[i][j].Index
		}
		if decoded[i] == nil && pending[i].Via() == "" {
			// An empty, comment-only or null document of a file as
			// written: nothing to validate, but kubectl-validate's JSON
			// lists it, and so does kdv's (report.WriteJSON).
			results[i] = []report.DocumentResult{{File: pending[i].File(), Index: -1, Empty: true}}
		}
	}
	return flatten(results)
}

// groups describes the input of runGroups: n groups of documents (a
// pending document, or one decoded document), each decoded once by
// decode. Groups for which mayHoldCRD is true are decoded before any
// validation, and their CRDs checked and registered; drop sets each
// document's Object to nil once it is done with.
type groups struct {
	n          int
	decode     func(i int) []manifest.Document
	mayHoldCRD func(i int) bool
	drop       bool
}

// runGroups is the pipeline of Run and RunPending: the CRDs of the
// groups that may hold one are decoded and checked in parallel (CheckCRD
// compiles every CEL rule) and registered in input order; then every
// other document is validated on opts.Jobs workers. It returns each
// group's documents and results.
func runGroups(ctx context.Context, g groups, reg *Registry, opts RunOptions) ([][]manifest.Document, [][]report.DocumentResult) {
	decoded := make([][]manifest.Document, g.n)
	results := make([][]report.DocumentResult, g.n)
	early := make([]bool, g.n) // decoded by the CRD pass
	isCRD := make([][]bool, g.n)
	checks := make([][]crdCheck, g.n)
	var crdGroups []int
	for i := 0; i < g.n; i++ {
		if g.mayHoldCRD(i) {
			early[i] = true
			crdGroups = append(crdGroups, i)
		}
	}
	decodeGroup := func(i int) {
		docs := g.decode(i)
		decoded[i], results[i] = docs, make([]report.DocumentResult, len(docs))
		for j := range docs {
			results[i][j] = base(&docs[j])
		}
	}
	parallel(len(crdGroups), opts.Jobs, func(k int) {
		i := crdGroups[k]
		decodeGroup(i)
		isCRD[i], checks[i] = make([]bool, len(decoded[i])), make([]crdCheck, len(decoded[i]))
		for j := range decoded[i] {
			if d := &decoded[i][j]; isCRDDocument(d) {
				isCRD[i][j] = true
				checks[i][j] = checkCRD(d, opts.Check)
			}
		}
	})
	reject := kindSet(opts.RejectKinds)
	for _, i := range crdGroups {
		for j := range decoded[i] {
			if isCRD[i][j] {
				registerCRD(&decoded[i][j], reg, checks[i][j], &results[i][j])
				if e := rejected(decoded[i][j].GVK(), reject); e != nil {
					results[i][j].Errors = append(field.ErrorList{e}, results[i][j].Errors...)
				}
				if g.drop {
					decoded[i][j].Object = nil
				}
			}
		}
		checks[i] = nil
	}

	olds := indexOld(opts.Old)
	skip := skipSet(opts.SkipKinds)
	var mu sync.Mutex
	done := 0
	parallel(g.n, opts.Jobs, func(i int) {
		if !early[i] {
			decodeGroup(i)
		}
		for j := range decoded[i] {
			if early[i] && isCRD[i][j] {
				continue
			}
			d := &decoded[i][j]
			validateDocument(ctx, d, g.drop, reg, olds, skip, reject, opts, &results[i][j])
			if g.drop {
				d.Object = nil // done with it; ErrorPos needs only the positions
			}
		}
		if opts.Progress != nil {
			mu.Lock()
			done++
			opts.Progress(done)
			mu.Unlock()
		}
	})
	return decoded, results
}

// isCRDDocument reports whether d decoded to a CustomResourceDefinition.
func isCRDDocument(d *manifest.Document) bool {
	if d.Err != nil || d.Object == nil {
		return false
	}
	apiVersion, _ := d.Object["apiVersion"].(string)
	kind, _ := d.Object["kind"].(string)
	return kdvschema.IsCRD(apiVersion, kind)
}

// flatten concatenates the groups' results in order.
func flatten(results [][]report.DocumentResult) *report.Result {
	n := 0
	for _, r := range results {
		n += len(r)
	}
	res := &report.Result{Documents: make([]report.DocumentResult, 0, n)}
	for _, r := range results {
		res.Documents = append(res.Documents, r...)
	}
	return res
}

// parallel calls fn(0..n-1) on up to jobs goroutines (0: the number of CPUs).
func parallel(n, jobs int, fn func(int)) {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
