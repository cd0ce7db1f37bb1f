// Command profile runs the library path of `kdv validate --crds CRDS PATH...`
// (kdv.dev/resource.NewRegistry, UseBuiltin, LoadCRDs, kdv.dev/manifest.ReadPending,
// kdv.dev/resource.RunPending, kdv.dev/report.Write) under the CPU profiler, and
// prints the wall time of each phase, so bench/peers/run.sh can show where
// kdv spends its time on the peer benchmark's inputs.
//
// Usage:
//
//	profile -crds DIR [-j N] [-count N] [-cpuprofile FILE] [-memprofile FILE] PATH...
//
// It exits 1 if any document is not valid, like the CLI.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"kdv.dev/cel"
	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400) // as cmd/kdv
	}
	var crds stringList
	flag.Var(&crds, "crds", "CRD file or directory (repeatable), as kdv validate --crds")
	jobs := flag.Int("j", runtime.NumCPU(), "documents validated in parallel, as kdv validate -j")
	count := flag.Int("count", 1, "times to run the whole pipeline (more samples)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	memprofile := flag.String("memprofile", "", "write a heap profile (in use and allocated) to this file, taken after the last run's validation, before the report")
	flag.Parse()
	if dir := os.Getenv("KDV_CACHE_DIR"); dir != "" && dir != "off" {
		// as cmd/kdv's compile cache (set KDV_CACHE_DIR to use one)
		if err := cel.SetCompileCacheDir(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer f.Close()
	}
	code := 0
	for i := 0; i < *count; i++ {
		code = run(crds, flag.Args(), *jobs, *memprofile)
	}
	pprof.StopCPUProfile()
	os.Exit(code)
}

// run is cmd/kdv's runValidate without flags and output: the same calls in
// the same order, timed.
func run(crds, paths []string, jobs int, memprofile string) int {
	t0 := time.Now()
	reg := resource.NewRegistry(resource.Options{})
	if err := resource.UseBuiltin(reg, 0); err != nil {
		fail(err)
	}
	if _, err := resource.LoadCRDs(reg, crds, os.Stdin); err != nil {
		fail(err)
	}
	t1 := time.Now()
	runOpts := resource.RunOptions{
		Jobs:  jobs,
		Check: resource.CheckOptions{StrictUnknownFields: true},
	}
	docs, err := manifest.ReadPending(paths, os.Stdin, manifest.Options{Split: resource.PrepareRead(reg, runOpts)})
	if err != nil {
		fail(err)
	}
	t2 := time.Now()
	res := resource.RunPending(context.Background(), docs, reg, runOpts)
	t3 := time.Now()
	if memprofile != "" {
		writeHeapProfile(memprofile)
		t3 = time.Now()
	}
	if err := report.Write(io.Discard, "text", res, report.Options{}); err != nil {
		fail(err)
	}
	t4 := time.Now()
	fmt.Printf("load CRDs %v, read %v, decode+validate (incl. compiling each kind on first use) %v, report %v, total %v: %s\n",
		t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond),
		t3.Sub(t2).Round(time.Millisecond), t4.Sub(t3).Round(time.Millisecond),
		t4.Sub(t0).Round(time.Millisecond), res.Summary())
	return res.ExitCode()
}

// writeHeapProfile writes the heap profile while the documents and results
// are still live (runtime.GC first, so in-use figures are current).
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "profile:", err)
	os.Exit(2)
}
