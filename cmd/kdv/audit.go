package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"kdv.dev/cluster"
	"kdv.dev/report"
	"kdv.dev/resource"
)

type auditFlags struct {
	kubernetesVersion string
	output            string
	pageSize          int64
	jobs              int
	cluster           clusterFlags
}

func newAuditCommand() *cobra.Command {
	var f auditFlags
	cmd := &cobra.Command{
		Use:   "audit [flags]",
		Short: "Validate every object stored in a cluster against a Kubernetes release's rules",
		Long: `Audit reads every object stored in the cluster of the kubeconfig (every
served kind that can be listed, in its preferred version, one page at a time)
and validates each against --kubernetes-version's built-in rules and the
cluster's own CustomResourceDefinitions and aggregated APIs, twice: as a
create (what re-creating it from a backup or a repository meets) and as an
unchanged update (what controllers and kubectl apply meet after an upgrade:
values that were already there are ratcheted).

It reports per kind how many objects were read and how many are invalid as a
create and as an update, then the errors. Values in Secrets' errors are not
printed. APIs the cluster no longer serves cannot be listed: objects written
through a removed API version are read, and validated, in the versions that
remain.

Exit codes: 0 all valid, 1 something invalid, 2 usage error or kinds that
could not be audited, 3 internal error.`,
		Example: `  kdv audit --kubernetes-version 1.37
  kdv audit --context prod --kubernetes-version 1.37 -o json > audit.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAudit(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes release to audit against, e.g. 1.37 (default: the cluster's, clamped to the releases kdv embeds)")
	fl.StringVarP(&f.output, "output", "o", "text", "output format of the findings: "+strings.Join(report.Formats(), ", ")+" (the per-kind table goes to stdout with text, to stderr otherwise)")
	fl.Int64Var(&f.pageSize, "page-size", 500, "objects per list request, as kubectl --chunk-size")
	fl.IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "objects validated in parallel")
	addClusterFlags(fl, &f.cluster, false)
	return cmd
}

func runAudit(cmd *cobra.Command, f auditFlags) error {
	minor, err := parseKubernetesVersion(f.kubernetesVersion)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if !contains(report.Formats(), f.output) {
		return &exitError{exitUsage, fmt.Errorf("unknown output format %q: must be one of %s", f.output, strings.Join(report.Formats(), ", "))}
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	stderr, stdout := cmd.ErrOrStderr(), cmd.OutOrStdout()
	cfg, minor, err := connectCluster(ctx, stderr, f.cluster, minor)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: minor})
	if err := useBuiltin(reg, minor); err != nil {
		return &exitError{exitUsage, err}
	}
	bad := addClusterSchemas(ctx, stderr, "", cfg, reg, minor, f.cluster)
	plan, err := cluster.NewPlan(ctx, cfg)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	for _, p := range plan.Problems {
		fmt.Fprintf(stderr, "kdv: %v\n", p)
		bad = true
	}
	var progress *report.Progress
	if file, ok := stderr.(*os.File); ok {
		progress = report.NewTerminalProgress(file, plan.Total())
	}
	res, err := cluster.Audit(ctx, cfg, plan, cluster.AuditOptions{
		Registry:        reg,
		KubernetesMinor: minor,
		PageSize:        f.pageSize,
		Jobs:            f.jobs,
		Progress:        func() { progress.Add(1) },
	})
	progress.Done()
	if err != nil {
		return &exitError{exitInternal, err}
	}
	for _, w := range res.ServerWarnings {
		fmt.Fprintf(stderr, "kdv: the cluster warned: %s\n", w)
	}
	table := stderr
	if f.output == "text" {
		table = stdout
	}
	writeAuditTable(table, res, plan, kubernetesMinor(minor))
	opts := reportOptions(cmd, f.output, inputFlags{summary: false})
	if len(res.Report.Documents) > 0 || f.output != "text" {
		if err := report.Write(stdout, f.output, res.Report, opts); err != nil {
			return &exitError{exitInternal, err}
		}
	}
	code := exitValid
	if c, u := res.Invalid(); c+u > 0 {
		code = exitInvalid
	}
	if bad || res.Incomplete() {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}

// writeAuditTable writes one row per kind that has objects or could not
// be audited, then the totals.
func writeAuditTable(w io.Writer, res *cluster.AuditResult, plan *cluster.Plan, minor int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tVERSION\tOBJECTS\tINVALID AS CREATE\tINVALID AS UPDATE")
	empty, objects, notAudited := 0, 0, 0
	for _, k := range res.Kinds {
		objects += k.Objects
		if k.NotAudited != "" {
			notAudited++
		}
		if k.Objects == 0 && k.NotAudited == "" {
			empty++
			continue
		}
		kind := k.GVK.Kind
		if k.GVK.Group != "" {
			kind = k.GVK.Group + "/" + kind
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", kind, k.GVK.Version, k.Objects, k.InvalidCreate, k.InvalidUpdate)
	}
	tw.Flush()
	for _, k := range res.Kinds {
		if k.NotAudited != "" {
			fmt.Fprintf(w, "not audited: %s: %s\n", k.GVR(), k.NotAudited)
		}
	}
	c, u := res.Invalid()
	fmt.Fprintf(w, "audited %d objects of %d kinds against Kubernetes 1.%d: %d invalid as create, %d invalid as update",
		objects, len(res.Kinds), minor, c, u)
	if notAudited > 0 {
		fmt.Fprintf(w, "; %d kinds not (wholly) audited", notAudited)
	}
	fmt.Fprintf(w, " (%d kinds without objects, %d resources not listable)\n", empty, len(plan.NotListable))
}
