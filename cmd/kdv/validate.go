package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
)

type validateFlags struct {
	crds                 []string
	schemas              []string
	kubernetesVersion    string
	old                  []string
	output               string
	ignoreMissingSchemas bool
	skip                 []string
	jobs                 int
	strictCRDs           bool
}

func newValidateCommand() *cobra.Command {
	var f validateFlags
	cmd := &cobra.Command{
		Use:   "validate [flags] PATH...|-",
		Short: "Validate manifests as the apiserver would on create (or update, with --old)",
		Long: `Validate reads manifests (files, directories, or - for stdin; multi-document
YAML, JSON, kind: List) and validates every object as the apiserver would:
decode (unknown fields are errors, as with strict field validation), prune,
default, then validate (OpenAPI value rules, formats, CEL rules, list types,
ObjectMeta). Schemas come from kdv's embedded built-in schemas, from --crds, from
CRDs found in the input (which are checked as by 'kdv check'), and from
OpenAPI v3 documents in --schemas.

Exit codes: 0 all valid, 1 something invalid, 2 usage or unreadable input or
schema, 3 internal error.`,
		Example: `  kdv validate manifests/
  kdv validate --crds config/crd/ examples/
  helm template chart/ | kdv validate -
  kdv validate --old main-branch/ -o sarif pr-branch/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.crds, "crds", nil, "CustomResourceDefinitions to validate against: a file or directory (repeatable)")
	fl.StringArrayVar(&f.schemas, "schemas", nil, "a directory of OpenAPI v3 documents to validate against (repeatable)")
	fl.StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes version to validate against, e.g. 1.37 (default: the newest kdv knows)")
	fl.StringArrayVar(&f.old, "old", nil, "the previous versions of the objects (file, directory or -): matching objects are validated as updates")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(report.Formats(), ", "))
	fl.BoolVar(&f.ignoreMissingSchemas, "ignore-missing-schemas", false, "skip documents whose kind has no schema instead of failing them")
	fl.StringSliceVar(&f.skip, "skip", nil, "kinds not to validate, as Kind or Kind.group (comma-separated)")
	fl.IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "documents validated in parallel")
	fl.BoolVar(&f.strictCRDs, "strict-crds", true, "treat schema keys unknown to apiextensions.k8s.io/v1 in CRDs of the input as errors (kubectl --validate=strict)")
	return cmd
}

func runValidate(cmd *cobra.Command, args []string, f validateFlags) error {
	minor, err := parseKubernetesVersion(f.kubernetesVersion)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if f.output != "" && !contains(report.Formats(), f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(report.Formats(), ", "))}
	}
	if countStdin(args, f.old, f.crds) > 1 {
		return &exitError{exitUsage, fmt.Errorf("stdin (-) can be read only once")}
	}
	reg, err := newRegistry(cmd.InOrStdin(), minor, f.crds, f.schemas)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	docs, readErr := manifest.ReadPending(args, cmd.InOrStdin(), manifest.Options{})
	var old []manifest.Document
	if len(f.old) > 0 {
		var err error
		old, err = manifest.Read(f.old, cmd.InOrStdin(), manifest.Options{})
		if err != nil {
			return &exitError{exitUsage, fmt.Errorf("reading --old: %w", err)}
		}
	}
	var progress *report.Progress
	if stderr, ok := cmd.ErrOrStderr().(*os.File); ok {
		progress = report.NewTerminalProgress(stderr, len(docs))
	}
	res := resource.RunPending(context.Background(), docs, reg, resource.RunOptions{
		Jobs:                 f.jobs,
		Old:                  old,
		SkipKinds:            f.skip,
		IgnoreMissingSchemas: f.ignoreMissingSchemas,
		Check:                resource.CheckOptions{KubernetesMinor: minor, StrictUnknownFields: f.strictCRDs},
		Progress:             func(int) { progress.Add(1) },
	})
	progress.Done()
	if err := report.Write(cmd.OutOrStdout(), f.output, res, report.Options{Color: useColor(cmd.OutOrStdout()) && f.output == "text", ToolVersion: version}); err != nil {
		return &exitError{exitInternal, err}
	}
	code := res.ExitCode()
	if readErr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "kdv:", readErr)
		if code < exitUsage {
			code = exitUsage
		}
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}

// newRegistry resolves schemas from --crds, --schemas and the built-in
// schemas of the given Kubernetes minor version.
func newRegistry(stdin io.Reader, minor int, crds, schemaDirs []string) (*resource.Registry, error) {
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: minor})
	if err := useBuiltin(reg, minor); err != nil {
		return nil, err
	}
	if len(crds) > 0 {
		if _, err := resource.LoadCRDs(reg, crds, stdin); err != nil {
			return nil, fmt.Errorf("loading --crds: %w", err)
		}
	}
	for _, dir := range schemaDirs {
		if _, err := resource.LoadOpenAPIDir(reg, dir, builtinScope(minor)); err != nil {
			return nil, fmt.Errorf("loading --schemas %s: %w", dir, err)
		}
	}
	return reg, nil
}

// parseKubernetesVersion turns "1.37", "v1.37" or "1.37.2" into the minor
// version 37; empty means 0 (the newest kdv knows).
func parseKubernetesVersion(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimPrefix(s, "v")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || parts[0] != "1" {
		return 0, fmt.Errorf("invalid --kubernetes-version %q: want 1.<minor>, e.g. 1.37", s)
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil || minor < 0 {
		return 0, fmt.Errorf("invalid --kubernetes-version %q: want 1.<minor>, e.g. 1.37", s)
	}
	return minor, nil
}

func countStdin(lists ...[]string) int {
	n := 0
	for _, l := range lists {
		for _, p := range l {
			if p == "-" {
				n++
			}
		}
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
