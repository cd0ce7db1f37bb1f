package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
	"kdv.dev/schema"
)

func newCheckCommand() *cobra.Command {
	var (
		kubernetesVersion string
		output            string
		strict            bool
		input             inputFlags
	)
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...|-",
		Short: "Check CustomResourceDefinitions as the apiserver does on create",
		Long: `Check reads CustomResourceDefinitions (files, directories, - for stdin;
multi-document YAML) and reports what the apiserver would reject when they are
created: structural schema rules, list types, defaults that are not pruned or do
not validate, CEL rules that do not compile or exceed the cost budget, names and
versions. Unrecognized formats are warnings, as in the apiserver. Documents that
are not CRDs are reported and skipped.`,
		Example: `  kdv check config/crd/
  kdv check -o json crds.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd, &input)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			minor, err := parseKubernetesVersion(kubernetesVersion)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			ig, err := newIgnorer(input, cfg)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			docs, readErr := manifest.Read(args, cmd.InOrStdin(), manifest.Options{Ignore: ignoreFunc(ig)})
			res := &report.Result{}
			for i := range docs {
				res.Documents = append(res.Documents, checkDocument(&docs[i], resource.CheckOptions{KubernetesMinor: minor, StrictUnknownFields: strict}))
			}
			reportIgnored(cmd.ErrOrStderr(), ig, res, output, input)
			if err := report.Write(cmd.OutOrStdout(), output, res, reportOptions(cmd, output, input)); err != nil {
				return &exitError{exitUsage, err}
			}
			code := res.ExitCode()
			if readErr != nil {
				printErrors(cmd.ErrOrStderr(), "", readErr)
				code = max(code, exitUsage)
			}
			if code != exitValid {
				return &exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&kubernetesVersion, "kubernetes-version", "", "the Kubernetes version to check against, e.g. 1.37 (default: the newest kdv knows)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(report.Formats(), ", "))
	cmd.Flags().BoolVar(&strict, "strict", true, "treat schema keys unknown to apiextensions.k8s.io/v1 as errors (kubectl --validate=strict); false makes them warnings")
	addInputFlags(cmd, &input)
	return cmd
}

// checkDocument checks one document that should be a CRD.
func checkDocument(d *manifest.Document, opts resource.CheckOptions) report.DocumentResult {
	r := report.DocumentResult{File: d.File, Index: d.Index, Line: d.Line}
	r.Warnings = slices.Clone(d.Warnings) // repeated keys, decoded as kubectl sends them
	if d.NotManifest != "" {
		r.Skipped, r.NotManifest, r.SkipReason = true, true, "not a manifest: "+d.NotManifest
		return r
	}
	if d.Err != nil {
		r.Err, r.ErrKind = d.Err, report.ErrParse
		return r
	}
	r.GVK = d.GVK()
	apiVersion, _ := d.Object["apiVersion"].(string)
	kind, _ := d.Object["kind"].(string)
	if !schema.IsCRD(apiVersion, kind) {
		// Directories of CRDs often hold kustomizations and policies too.
		r.Skipped, r.SkipReason = true, fmt.Sprintf("not a CustomResourceDefinition (apiVersion %q, kind %q)", apiVersion, kind)
		return r
	}
	crd, err := schema.ParseCRDObject(d.Object)
	if err != nil {
		r.Err, r.ErrKind = err, report.ErrSchema
		return r
	}
	r.Name = crd.Metadata.Name
	errs, warnings := resource.CheckCRD(crd, opts)
	r.Errors, r.Warnings = errs, append(r.Warnings, warnings...)
	r.ErrorPos = func(e *field.Error) (int, int) { return d.Position(e.Field) }
	return r
}
