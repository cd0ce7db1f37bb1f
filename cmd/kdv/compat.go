package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"kdv.dev/compat"
	"kdv.dev/manifest"
)

type compatFlags struct {
	output            string
	failOn            string
	minSeverity       string
	objects           []string
	kubernetesVersion string
	config            string
}

func newCompatCommand() *cobra.Command {
	var f compatFlags
	cmd := &cobra.Command{
		Use:   "compat [flags] OLD NEW",
		Short: "Report breaking changes between two versions of CRDs or OpenAPI schemas",
		Long: `Compat compares OLD and NEW (CRD files, OpenAPI v3 documents, directories of
them, or Go packages) and reports every change with a severity, as the Kubernetes API-change
guide judges it: breaks-objects (values existing objects may hold become
invalid or are lost), breaks-clients (objects stay valid, clients written
against OLD break), ratcheted (new CEL rules without oldSelf: safe for
existing objects only through validation ratcheting) and safe.

CRDs are matched by name, OpenAPI kinds by group, version and kind.

An argument that is not an existing file or directory, ends in /..., or is
a directory holding .go files and no .yaml, .yml or .json file, is a Go
package pattern: its CRDs are generated in memory as 'kdv gen crd' would
(or, for packages without +kubebuilder:object:root kinds, its OpenAPI
documents as 'kdv gen openapi' would) and compared.

--objects validates existing objects (files, directories, multi-document
YAML) with kdv's validator: under OLD as creates, then under NEW as creates
(no ratcheting) and as updates that leave the stored object unchanged (CRD
validation ratcheting applies; transition rules are never ratcheted). Every
object valid under OLD that NEW rejects either way is stranded, listed with
the errors; the run then exits 1.

Exit codes: 0 nothing at or above --fail-on and no stranded object, 1
something at or above it or a stranded object, 2 usage or unreadable input.`,
		Example: `  kdv compat old/crds/ new/crds/
  kdv compat --fail-on breaks-objects -o json v1.5/crd.yaml v1.6/crd.yaml
  kdv compat -o sarif <(git show main:config/crd/foo.yaml) config/crd/foo.yaml
  kdv compat --objects backup/ v1.5/crds/ v1.6/crds/
  kdv compat ../main-checkout/api/v1 ./api/v1`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompat(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(compat.Formats(), ", "))
	fl.StringVar(&f.failOn, "fail-on", "breaks-clients", "exit 1 when a change has this severity or a higher one: breaks-objects, breaks-clients, ratcheted, safe")
	fl.StringVar(&f.minSeverity, "min-severity", "safe", "list only changes of this severity or a higher one")
	fl.StringArrayVar(&f.objects, "objects", nil, "existing objects (file, directory or -) to validate against OLD and NEW: which would NEW strand (repeatable)")
	fl.StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes version whose validation --objects reproduces, e.g. 1.37 (default: the newest kdv knows)")
	fl.StringVar(&f.config, "config", "", "a policy file: failOn, a severity per change kind, changes to ignore with a reason (see kdv.dev/compat Config)")
	return cmd
}

func runCompat(cmd *cobra.Command, args []string, f compatFlags) error {
	failOn, err := compat.ParseSeverity(f.failOn)
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("--fail-on: %w", err)}
	}
	var cfg *compat.Config
	if f.config != "" {
		if cfg, err = compat.LoadConfig(f.config); err != nil {
			return &exitError{exitUsage, err}
		}
		if cfg.FailOn != nil && !cmd.Flags().Changed("fail-on") {
			failOn = *cfg.FailOn
		}
	}
	minSev, err := compat.ParseSeverity(f.minSeverity)
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("--min-severity: %w", err)}
	}
	if !contains(compat.Formats(), f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(compat.Formats(), ", "))}
	}
	minor, err := parseKubernetesVersion(f.kubernetesVersion)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if countStdin(args, f.objects) > 1 {
		return &exitError{exitUsage, fmt.Errorf("stdin (-) can be read only once")}
	}
	stderr := cmd.ErrOrStderr()
	old, oldErr := loadCompatSide(args[0], cmd.InOrStdin(), stderr)
	if oldErr != nil {
		printErrors(stderr, "OLD: ", oldErr)
	}
	new, newErr := loadCompatSide(args[1], cmd.InOrStdin(), stderr)
	if newErr != nil {
		printErrors(stderr, "NEW: ", newErr)
	}
	res := compat.Compare(old, new)
	res.Changes = cfg.Apply(res.Changes)
	for _, e := range res.Errors {
		printErrors(stderr, "", e)
	}
	var objErr bool
	if len(f.objects) > 0 {
		docs, err := manifest.Read(f.objects, cmd.InOrStdin(), manifest.Options{})
		if err != nil {
			printErrors(stderr, "--objects: ", err)
			objErr = true
		}
		res.Objects = compat.CheckObjects(context.Background(), old, new, docs, compat.ObjectOptions{KubernetesMinor: minor})
		if res.Objects == nil {
			res.Objects = []compat.ObjectResult{}
		}
		for _, o := range res.Objects {
			objErr = objErr || o.Status == compat.ObjectError
		}
	}
	if err := compat.Write(cmd.OutOrStdout(), f.output, res, compat.WriteOptions{MinSeverity: minSev, FailOn: failOn, ToolVersion: version}); err != nil {
		return &exitError{exitInternal, err}
	}
	code := exitValid
	if worst, ok := compat.Worst(res.Changes); ok && worst >= failOn || compat.AnyStranded(res.Objects) {
		code = exitInvalid
	}
	if oldErr != nil || newErr != nil || len(res.Errors) > 0 || objErr {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}
