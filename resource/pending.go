package resource

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

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
// counts once).
func RunPending(ctx context.Context, pending []manifest.Pending, reg *Registry, opts RunOptions) *report.Result {
	decoded := make([][]manifest.Document, len(pending))
	results := make([][]report.DocumentResult, len(pending))
	// early[i] marks pending[i] as decoded by the CRD pass; its CRDs have
	// results already, its other documents are validated with the rest.
	early := make([]bool, len(pending))
	isCRD := make([][]bool, len(pending))
	checks := make([][]crdCheck, len(pending))
	var crdChunks []int
	for i := range pending {
		if pending[i].Mentions("CustomResourceDefinition") {
			early[i] = true
			crdChunks = append(crdChunks, i)
		}
	}
	// Decode and check those in parallel (CheckCRD compiles every CEL
	// rule), then register the CRDs in input order.
	parallel(len(crdChunks), opts.Jobs, func(k int) {
		i := crdChunks[k]
		docs := pending[i].Decode()
		decoded[i], results[i] = docs, make([]report.DocumentResult, len(docs))
		isCRD[i], checks[i] = make([]bool, len(docs)), make([]crdCheck, len(docs))
		for j := range docs {
			d := &docs[j]
			results[i][j] = base(d)
			if d.Err != nil || d.Object == nil {
				continue
			}
			apiVersion, _ := d.Object["apiVersion"].(string)
			kind, _ := d.Object["kind"].(string)
			if kdvschema.IsCRD(apiVersion, kind) {
				isCRD[i][j] = true
				checks[i][j] = checkCRD(d, opts.Check)
			}
		}
	})
	for _, i := range crdChunks {
		for j := range decoded[i] {
			if isCRD[i][j] {
				registerCRD(&decoded[i][j], reg, checks[i][j], &results[i][j])
				decoded[i][j].Object = nil
			}
		}
		checks[i] = nil
	}
	olds := indexOld(opts.Old)
	skip := skipSet(opts.SkipKinds)

	var mu sync.Mutex
	done := 0
	parallel(len(pending), opts.Jobs, func(i int) {
		if !early[i] {
			docs := pending[i].Decode()
			decoded[i], results[i] = docs, make([]report.DocumentResult, len(docs))
			for j := range docs {
				results[i][j] = base(&docs[j])
			}
		}
		for j := range decoded[i] {
			d := &decoded[i][j]
			if early[i] && isCRD[i][j] {
				continue
			}
			validateDocument(ctx, d, reg, olds, skip, opts, &results[i][j])
			d.Object = nil // done with it; ErrorPos needs only the positions
		}
		if opts.Progress != nil {
			mu.Lock()
			done++
			opts.Progress(done)
			mu.Unlock()
		}
	})

	manifest.Number(pending, decoded)
	n := 0
	for _, r := range results {
		n += len(r)
	}
	res := &report.Result{Documents: make([]report.DocumentResult, 0, n)}
	for i := range results {
		for j := range results[i] {
			results[i][j].Index = decoded[i][j].Index
		}
		res.Documents = append(res.Documents, results[i]...)
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
