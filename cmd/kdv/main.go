// Command kdv validates Kubernetes manifests and CustomResourceDefinitions
// offline, as the kube-apiserver would, and generates OpenAPI and CRDs from
// tagged Go types. Flags in, library calls out: the work happens in kdv's
// packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"kdv.dev/internal/gcpolicy"
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
	// GOGC 400 and a soft memory limit that follows the live heap, with
	// huge pages below it, unless the environment sets them
	// (kdv.dev/internal/gcpolicy).
	gcpolicy.Apply()
	useCompileCache()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
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
