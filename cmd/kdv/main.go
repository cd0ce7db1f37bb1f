// Command kdv validates Kubernetes manifests and CustomResourceDefinitions
// offline, as the kube-apiserver would, and generates OpenAPI and CRDs from
// tagged Go types. Flags in, library calls out: the work happens in kdv's
// packages.
package main

import (
	"errors"
	"fmt"
	"os"
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
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the process exit code.
func run(args []string) int {
	cmd := newRootCommand()
	cmd.SetArgs(args)
	err := cmd.Execute()
	if err == nil {
		return exitValid
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(os.Stderr, "kdv:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "kdv:", err)
	return exitUsage
}
