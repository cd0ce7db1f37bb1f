// Package gcpolicy sets the garbage collector's policy of kdv's processes,
// which are short batch runs: a small live heap (the schemas, compiled
// rules and the documents in flight) and much short-lived garbage
// (decoding, pruning, defaulting and CEL).
//
// Two settings, each left alone when its environment variable is set:
//
//   - GOGC 400 (the heap may grow to five times the live heap before a
//     collection): fewer collections, about a sixth less CPU on large
//     inputs than Go's default of 100 (10,000 HTTPRoutes and Gateways:
//     0.66 s to 0.56 s user+sys on an idle machine);
//   - a soft memory limit (runtime/debug.SetMemoryLimit) of 96 MiB, or
//     twice the live heap when that is more. Without it, GOGC 400 lets a
//     large input's garbage grow into fresh memory, and a fresh page is a
//     page fault, which on virtual machines that hand unused memory back
//     to the host costs more than the collections GOGC 400 saves (10,000
//     built-in documents on a 2-CPU Firecracker VM: 0.95 s at GOGC 400,
//     0.80 s with a 128 MiB limit, 0.86 s at GOGC 100; peak RSS 235 MB,
//     167 MB, 158 MB). Such a run's live heap is about 40 MB; at 96 MiB
//     instead of 128 it faults 24,000 pages instead of 31,000 (timed
//     interleaved: 0.78 s to 0.70 s; 10,000 Gateway API documents 0.67 s
//     to 0.63 s; 20,000 built-in documents, whose live heap sets the
//     limit, unchanged).
//
// The limit follows the live heap (after each collection it is raised to
// twice the live heap the collection found), so a large live heap never
// makes the collector run back to back, as a fixed limit near the live
// heap does (a 64 MiB limit doubled the time of the run above).
//
// With the limit, the heap is advised to the kernel as transparent huge
// pages (preferHugePages; Linux only, and not with GODEBUG=disablethp=1,
// Go's own switch for them). A fresh page is still a page fault, but one
// 2 MiB page replaces 512 of 4 KiB: on the VM above, 10,000 built-in
// documents fault 3,500 pages instead of 23,000, one Pod 3,000 instead of
// 9,000 (0.94 s to 0.50 s, and 0.22 s to 0.12 s). Since a fresh page then
// costs little, the limit is higher when the kernel takes the advice
// (hugeLimit, 160 MiB, all of it advised): fewer collections, as GOGC 400
// intends. 10,000 documents of 24 built-in kinds, whose live heap is about
// 60 MB (the schemas and rules of every kind), collected every 30 MB at
// 96 MiB: 0.79 s to 0.58 s, peak RSS 180 MB to 206 MB (7 runs each,
// interleaved; 192 and 256 MiB gained nothing more, one document is
// unchanged).
package gcpolicy

import (
	"strings"

	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Percent is the GOGC kdv uses when GOGC is not set.
const Percent = 400

// minLimit is the soft memory limit, in bytes, until the live heap is more
// than half of it, without huge pages (a variable for tests).
var minLimit int64 = 96 << 20

// hugeLimit replaces minLimit when the kernel takes the advice for huge
// pages for that much of the heap (a variable for tests).
var hugeLimit int64 = 160 << 20

// floor is the limit in force while the live heap is under half of it:
// minLimit or hugeLimit, chosen by Apply.
var floor atomic.Int64

// liveFactor: the limit is at least this many times the live heap.
const liveFactor = 2

// Apply sets GOGC to Percent unless GOGC is set, and the soft memory limit
// unless GOMEMLIMIT is set, with the advice for huge pages below it unless
// GODEBUG has disablethp=1. Call it once, first thing in main.
func Apply() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := minLimit
	if godebug("disablethp") != "1" && hugePages(int(hugeLimit)) {
		limit = hugeLimit
	}
	floor.Store(limit)
	debug.SetMemoryLimit(limit)
	watching.Store(true)
	watch()
}

// hugePages is preferHugePages (a variable for tests).
var hugePages = preferHugePages

// godebug returns the value of the GODEBUG setting name ("" when unset),
// the last one when it is given twice, as the runtime reads it.
func godebug(name string) string {
	v := ""
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if k, val, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == name {
			v = val
		}
	}
	return v
}

// watching: the limit follows the live heap (tests turn it off).
var watching atomic.Bool

// sentinel is an object whose only use is to be collected: its cleanup
// runs after each collection that finds it unreachable. It holds a pointer
// so that it is not batched with other tiny objects, whose collection
// waits for all of them.
type sentinel struct {
	_ *byte
	_ [16]byte
}

// watch arranges for the limit to be adjusted after the next collection,
// and again after each one after it.
func watch() {
	runtime.AddCleanup(new(sentinel), func(struct{}) {
		if watching.Load() {
			adjust()
			watch()
		}
	}, struct{}{})
}

// adjust raises the limit to liveFactor times the live heap the last
// collection found, when that is above the floor.
func adjust() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	debug.SetMemoryLimit(Limit(int64(s[0].Value.Uint64())))
}

// Limit is the soft memory limit, in bytes, for a live heap of live bytes:
// the floor Apply chose (96 MiB, or 160 MiB with huge pages; 96 MiB before
// Apply), or twice the live heap when that is more.
func Limit(live int64) int64 {
	f := floor.Load()
	if f == 0 {
		f = minLimit
	}
	return max(f, liveFactor*live)
}
