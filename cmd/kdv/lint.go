package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/idl"
	"kdv.dev/lint"
)

type lintFlags struct {
	exceptions        string
	output            string
	showExcepted      bool
	kubernetesVersion string
	overlays          []string
	builtinOverlay    bool
}

func newLintCommand() *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [flags] PACKAGE...",
		Short: "Review Go API types: validation that differs between versions, and API-convention checks",
		Long: `Lint loads Go API packages (go list patterns), generates their schemas as
'kdv gen' does, and reports, each with the file and line of the Go field:

  - for the versions of one kind (autoscaling/v1 and autoscaling/v2, or the
    versions of one CRD), every field both versions have whose validation
    differs: enum values, bounds, formats, patterns, required or optional,
    list types and map keys, CEL rules, defaults, nullability
    (check "differs:<kind>", the change kinds of 'kdv compat');
  - on each version: a required field with a default
    (required-with-default), an enum type without constants
    (enum-no-values), a list without +listType in a CRD-style API
    (list-no-list-type), a map list without +listMapKey (map-list-no-keys),
    a rule using oldSelf below a set or atomic list (oldself-uncorrelatable),
    a CEL rule whose estimated cost exceeds its budget because of unbounded
    lists, maps or strings (rule-cost, with the factor and the budget).

An exception file (--exceptions) lists intended findings, one per line,
"<object> <path> <check>: <reason>" ("<object> <path>: <reason>" for every
check on the path); lines starting with # are comments. Entries that match
no finding are reported as unused.

Exit codes: 0 no finding outside the exception file, 1 findings, 2 usage,
packages that cannot be loaded, or a bad exception file.`,
		Example: `  kdv lint k8s.io/api/autoscaling/v1 k8s.io/api/autoscaling/v2
  kdv lint --exceptions lint.exceptions ./api/...
  kdv lint -o json ./api/v1alpha1 ./api/v1`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.exceptions, "exceptions", "", "file of intended findings, lines \"<object> <path> <check>: <reason>\"")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(lint.Formats(), ", "))
	fl.BoolVar(&f.showExcepted, "show-excepted", false, "list the excepted findings too, with their reasons (text output)")
	fl.StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes version whose CEL environment and cost limits the rule checks use, e.g. 1.37")
	fl.StringArrayVar(&f.overlays, "overlay", nil, "rule overlay file merged with the packages' tags (as kdv gen --overlay; repeatable)")
	fl.BoolVar(&f.builtinOverlay, "builtin-overlay", false, "apply kdv's rule overlay for k8s.io/api (off: lint the packages' own tags)")
	return cmd
}

func runLint(cmd *cobra.Command, args []string, f lintFlags) error {
	if !contains(lint.Formats(), f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(lint.Formats(), ", "))}
	}
	minor, err := parseKubernetesVersion(f.kubernetesVersion)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	stderr := cmd.ErrOrStderr()
	var ex *lint.Exceptions
	bad := false
	if f.exceptions != "" {
		data, err := os.ReadFile(f.exceptions)
		if err != nil {
			return &exitError{exitUsage, fmt.Errorf("--exceptions: %w", err)}
		}
		ex, err = lint.ParseExceptions(f.exceptions, data)
		if err != nil {
			printErrors(stderr, "--exceptions: ", err)
			bad = true
		}
	}
	overlays, err := loadOverlays(f.overlays, f.builtinOverlay)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	u, err := idl.Load(idl.Options{Overlays: overlays}, args...)
	if err != nil {
		printErrors(stderr, "", err)
		return &exitError{code: exitUsage}
	}
	if len(u.Packages) == 0 {
		return &exitError{exitUsage, fmt.Errorf("lint: no Go package matches %s%s", strings.Join(args, " "), moduleHint())}
	}
	for _, pat := range unmatchedPatterns(args, u.Packages) {
		fmt.Fprintf(stderr, "kdv: warning: lint: pattern %s matches no Go package\n", pat)
	}
	findings, err := lint.Run(u, lint.Options{KubernetesMinor: minor})
	if err != nil {
		printErrors(stderr, "", err)
		bad = true
	}
	unused := ex.Apply(findings)
	if err := lint.Write(cmd.OutOrStdout(), f.output, findings, unused, f.showExcepted); err != nil {
		return &exitError{exitInternal, err}
	}
	code := exitValid
	if lint.Failing(findings) > 0 {
		code = exitInvalid
	}
	if bad {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}
