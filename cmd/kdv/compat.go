package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/compat"
)

type compatFlags struct {
	output      string
	failOn      string
	minSeverity string
}

func newCompatCommand() *cobra.Command {
	var f compatFlags
	cmd := &cobra.Command{
		Use:   "compat [flags] OLD NEW",
		Short: "Report breaking changes between two versions of CRDs or OpenAPI schemas",
		Long: `Compat compares OLD and NEW (CRD files, OpenAPI v3 documents, or directories of
them) and reports every change with a severity, as the Kubernetes API-change
guide judges it: breaks-objects (values existing objects may hold become
invalid or are lost), breaks-clients (objects stay valid, clients written
against OLD break), ratcheted (new CEL rules without oldSelf: safe for
existing objects only through validation ratcheting) and safe.

CRDs are matched by name, OpenAPI kinds by group, version and kind.

Exit codes: 0 nothing at or above --fail-on, 1 something at or above it,
2 usage or unreadable input.`,
		Example: `  kdv compat old/crds/ new/crds/
  kdv compat --fail-on breaks-objects -o json v1.5/crd.yaml v1.6/crd.yaml
  kdv compat -o sarif <(git show main:config/crd/foo.yaml) config/crd/foo.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompat(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(compat.Formats(), ", "))
	fl.StringVar(&f.failOn, "fail-on", "breaks-clients", "exit 1 when a change has this severity or a higher one: breaks-objects, breaks-clients, ratcheted, safe")
	fl.StringVar(&f.minSeverity, "min-severity", "safe", "list only changes of this severity or a higher one")
	return cmd
}

func runCompat(cmd *cobra.Command, args []string, f compatFlags) error {
	failOn, err := compat.ParseSeverity(f.failOn)
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("--fail-on: %w", err)}
	}
	minSev, err := compat.ParseSeverity(f.minSeverity)
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("--min-severity: %w", err)}
	}
	if !contains(compat.Formats(), f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(compat.Formats(), ", "))}
	}
	if args[0] == "-" && args[1] == "-" {
		return &exitError{exitUsage, fmt.Errorf("stdin (-) can be read only once")}
	}
	stderr := cmd.ErrOrStderr()
	old, oldErr := compat.Load(args[:1], cmd.InOrStdin())
	if oldErr != nil {
		printErrors(stderr, "OLD: ", oldErr)
	}
	new, newErr := compat.Load(args[1:], cmd.InOrStdin())
	if newErr != nil {
		printErrors(stderr, "NEW: ", newErr)
	}
	res := compat.Compare(old, new)
	for _, e := range res.Errors {
		printErrors(stderr, "", e)
	}
	if err := compat.Write(cmd.OutOrStdout(), f.output, res, compat.WriteOptions{MinSeverity: minSev, FailOn: failOn, ToolVersion: version}); err != nil {
		return &exitError{exitInternal, err}
	}
	code := exitValid
	if worst, ok := compat.Worst(res.Changes); ok && worst >= failOn {
		code = exitInvalid
	}
	if oldErr != nil || newErr != nil || len(res.Errors) > 0 {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}
