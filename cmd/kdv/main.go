// Command kdv validates Kubernetes manifests and CustomResourceDefinitions
// offline, as the kube-apiserver would, and generates OpenAPI and CRDs from
// tagged Go types. Flags in, library calls out: the work happens in kdv's
// packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"time"

	"kdv.dev/report"
)

// Exit codes, as in DESIGN.md.
const (
	exitValid    = 0 // everything valid
	exitInvalid  = 1 // something invalid
	exitUsage    = 2 // usage error, or unreadable input or schema
	exitInternal = 3 // internal error
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func main() {
	// kdv's live heap is small (documents are dropped once validated)
	// while decoding and CEL allocate much: trading memory for fewer
	// collections cuts CPU by about a sixth on large inputs (10,000
	// HTTPRoutes and Gateways: 0.66 s to 0.56 s user+sys, 78 MB to 141 MB
	// peak). GOGC still wins when set.
	if os.Getenv("GOGC") == "" {
		collectLate()
	}
	useCompileCache()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// startUpHeap bounds the heap while collection is off at start-up.
const startUpHeap = 256 << 20

// collectLate sets the collector for a short-lived process: no collection
// for the first second (up to startUpHeap, where it collects anyway), then
// GOGC=400. Start-up (embedded schemas decoded, CRDs parsed, rules loaded)
// allocates much and keeps most of it, so collections then only cost: a
// fifth of the instructions of validating one HTTPRoute against the 13
// Gateway API CRDs. After it, kdv's live heap is small (documents are
// dropped once validated) while decoding and CEL allocate much: trading
// memory for fewer collections cuts CPU by about a sixth on large inputs
// (10,000 HTTPRoutes and Gateways: 0.66 s to 0.56 s user+sys, 78 MB to
// 141 MB peak). GOMEMLIMIT, when set, is kept.
func collectLate() {
	if os.Getenv("GOMEMLIMIT") != "" {
		debug.SetGCPercent(400)
		return
	}
	debug.SetMemoryLimit(startUpHeap)
	debug.SetGCPercent(-1)
	time.AfterFunc(time.Second, func() {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// useColor reports whether w is a terminal that wants colour.
func useColor(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && report.UseColor(f)
}

// run executes the CLI with args and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := newRootCommand()
	cmd.SetArgs(args)
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.Execute()
	if err == nil {
		return exitValid
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "kdv:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "kdv:", err)
	return exitUsage
}
