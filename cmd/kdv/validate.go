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
	"k8s.io/client-go/rest"

	"kdv.dev/builtin"
	"kdv.dev/config"
	"kdv.dev/helm"
	"kdv.dev/kustomize"
	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
)

// sourceFlags are the flags of the commands that read and validate
// manifests as 'kdv validate' does (validate, upgrade-check): schemas,
// kinds, inputs and Helm rendering.
type sourceFlags struct {
	crds                 []string
	schemas              []string
	ignoreMissingSchemas bool
	skip                 []string
	reject               []string
	jobs                 int
	strictCRDs           bool
	strictInputs         bool
	values               []string
	set                  []string
	releaseName          string
	namespace            string
	input                inputFlags
}

// addSourceFlags declares sourceFlags on cmd; verb names what the
// command does with documents ("validate", "check").
func addSourceFlags(cmd *cobra.Command, f *sourceFlags, verb string) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.crds, "crds", nil, "CustomResourceDefinitions to validate against: a file or directory (repeatable)")
	fl.StringArrayVar(&f.schemas, "schemas", nil, "a directory of OpenAPI v3 documents to validate against (repeatable)")
	fl.BoolVar(&f.ignoreMissingSchemas, "ignore-missing-schemas", false, "skip documents whose kind has no schema instead of failing them")
	fl.StringSliceVar(&f.skip, "skip", nil, "kinds not to "+verb+", as Kind or Kind.group (comma-separated)")
	fl.StringSliceVar(&f.reject, "reject", nil, "kinds that must not appear, as Kind or Kind.group (comma-separated): their documents are invalid")
	fl.IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "documents validated in parallel")
	fl.BoolVar(&f.strictCRDs, "strict-crds", true, "treat schema keys unknown to apiextensions.k8s.io/v1 in CRDs of the input as errors (kubectl --validate=strict)")
	fl.BoolVar(&f.strictInputs, "strict-inputs", false, "read every file as manifests, as kubectl does: Helm chart files, kustomizations, CI workflows and documents with neither apiVersion nor kind are errors instead of skipped")
	fl.StringArrayVar(&f.values, "values", nil, "Helm charts: a values file merged over the chart's values.yaml, as helm -f (repeatable; later files win)")
	fl.StringArrayVar(&f.set, "set", nil, "Helm charts: set a value, as helm --set key=value (repeatable)")
	fl.StringVar(&f.releaseName, "release-name", "release-name", "Helm charts: the release name (.Release.Name)")
	fl.StringVar(&f.namespace, "namespace", "default", "Helm charts: the release namespace (.Release.Namespace), as helm --namespace")
	addInputFlags(cmd, &f.input)
}

type validateFlags struct {
	sourceFlags
	kubernetesVersion string
	old               []string
	output            string
	warningsAsErrors  bool
	featureGates      string
	lifecycleWarnings string
	cluster           clusterFlags
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
  kdv validate --values prod-values.yaml --set replicas=3 chart/
  helm template chart/ | kdv validate -
  kdv validate --old main-branch/ -o sarif pr-branch/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// The configuration sets the flags it names before f is read.
			cfg, err := loadConfig(cmd, &f.input)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			return runValidate(cmd, args, f, cfg)
		},
	}
	fl := cmd.Flags()
	addSourceFlags(cmd, &f.sourceFlags, "validate")
	fl.StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes version to validate against, e.g. 1.37 (default: the newest kdv knows)")
	fl.StringArrayVar(&f.old, "old", nil, "the previous versions of the objects (file, directory or -): matching objects are validated as updates")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(report.Formats(), ", "))
	fl.BoolVar(&f.warningsAsErrors, "warnings-as-errors", false, "exit 1 when there are warnings (deprecated API versions, ...) and nothing worse")
	fl.StringVar(&f.featureGates, "feature-gates", "", "the cluster's feature gates, as kube-apiserver --feature-gates: Gate=true,Other=false (AllAlpha, AllBeta); fields of built-in kinds whose gates are off are dropped, as the apiserver drops them")
	fl.StringVar(&f.lifecycleWarnings, "lifecycle-warnings", resource.LifecycleWarnAlpha, "warn about gated fields in use by maturity: alpha, beta (alpha and beta) or none")
	addClusterFlags(fl, &f.cluster, true)
	return cmd
}

// buildDirs builds kustomization directories and renders chart
// directories, for manifest.Options.Build.
func buildDirs(f sourceFlags, minor int) manifest.BuildFunc {
	charts := helm.Options{ValuesFiles: f.values, Set: f.set, ReleaseName: f.releaseName, Namespace: f.namespace, KubernetesMinor: minor}
	return func(dir string) (bool, []manifest.Built, error) {
		if handled, objs, err := kustomize.Build(dir); handled {
			return handled, objs, err
		}
		return charts.Build(dir)
	}
}

func runValidate(cmd *cobra.Command, args []string, f validateFlags, cfg *config.File) error {
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
	ig, err := newIgnorer(f.input, cfg)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	stderr := cmd.ErrOrStderr()
	// the cluster's /version may choose the release, which the feature
	// gates depend on
	var restCfg *rest.Config
	if f.cluster.enabled {
		if restCfg, minor, err = connectCluster(context.Background(), stderr, f.cluster, minor); err != nil {
			return &exitError{exitUsage, err}
		}
	}
	gates, err := builtin.ParseFeatureGates(f.featureGates, kubernetesMinor(minor))
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("--feature-gates: %w", err)}
	}
	switch f.lifecycleWarnings {
	case resource.LifecycleWarnAlpha, resource.LifecycleWarnBeta, resource.LifecycleWarnNone:
	default:
		return &exitError{exitUsage, fmt.Errorf("--lifecycle-warnings %q: must be alpha, beta or none", f.lifecycleWarnings)}
	}
	reg, badSchemas, err := newRegistry(cmd.InOrStdin(), stderr, resource.Options{KubernetesMinor: minor, FeatureGates: gates, LifecycleWarnings: f.lifecycleWarnings}, f.crds, f.schemas)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if restCfg != nil && addClusterSchemas(context.Background(), stderr, "--cluster: ", restCfg, reg, minor, f.cluster) {
		badSchemas = true
	}
	runOpts := resource.RunOptions{
		Jobs:                 f.jobs,
		SkipKinds:            f.skip,
		RejectKinds:          f.reject,
		IgnoreMissingSchemas: f.ignoreMissingSchemas,
		StrictInputs:         f.strictInputs,
		Check:                resource.CheckOptions{KubernetesMinor: minor, StrictUnknownFields: f.strictCRDs},
	}
	docs, readErr := manifest.ReadPending(args, cmd.InOrStdin(), manifest.Options{StrictInputs: f.strictInputs, Build: buildDirs(f.sourceFlags, kubernetesMinor(minor)), Ignore: ignoreFunc(ig), Split: resource.PrepareRead(reg, runOpts)})
	var badOld bool
	runOpts.Old, badOld = readOld(stderr, cmd.InOrStdin(), f.old)
	var progress *report.Progress
	if stderr, ok := cmd.ErrOrStderr().(*os.File); ok {
		progress = report.NewTerminalProgress(stderr, len(docs))
	}
	runOpts.Progress = func(int) { progress.Add(1) }
	res := resource.RunPending(context.Background(), docs, reg, runOpts)
	progress.Done()
	reportIgnored(stderr, ig, res, f.output, f.input)
	if err := report.Write(cmd.OutOrStdout(), f.output, res, reportOptions(cmd, f.output, f.input)); err != nil {
		return &exitError{exitInternal, err}
	}
	code := res.ExitCode()
	if f.warningsAsErrors && res.Summary().Warnings > 0 {
		code = max(code, exitInvalid)
	}
	if readErr != nil {
		printErrors(stderr, "", readErr)
	}
	if readErr != nil || badSchemas || badOld {
		code = max(code, exitUsage)
	}
	if code != exitValid {
		return &exitError{code: code}
	}
	return nil
}

// newRegistry resolves schemas from --crds, --schemas and the built-in
// schemas of the Kubernetes minor version of opts. A bad --crds or --schemas
// source does not stop the run: each problem is written to stderr, the
// kinds it leaves without a schema fail with it as the reason, and bad says
// there was one (the exit code is then at least 2). err is for what stops
// everything: the built-in schemas cannot be loaded.
func newRegistry(stdin io.Reader, stderr io.Writer, opts resource.Options, crds, schemaDirs []string) (reg *resource.Registry, bad bool, err error) {
	minor := opts.KubernetesMinor
	reg = resource.NewRegistry(opts)
	if err := useBuiltin(reg, minor); err != nil {
		return nil, false, err
	}
	if len(crds) > 0 {
		if _, err := resource.LoadCRDs(reg, crds, stdin); err != nil {
			printErrors(stderr, "--crds: ", err)
			bad = true
		}
	}
	for _, dir := range schemaDirs {
		if _, err := resource.LoadOpenAPIDir(reg, dir, builtinScope(minor)); err != nil {
			printErrors(stderr, "--schemas: ", err)
			bad = true
		}
	}
	return reg, bad, nil
}

// readOld reads the --old paths. Problems (a path that cannot be read, a
// document that does not decode) are written to stderr and make bad true;
// the documents they concern are validated as creates.
func readOld(stderr io.Writer, stdin io.Reader, paths []string) (old []manifest.Document, bad bool) {
	if len(paths) == 0 {
		return nil, false
	}
	old, err := manifest.Read(paths, stdin, manifest.Options{})
	if err != nil {
		printErrors(stderr, "--old: ", err)
		bad = true
	}
	for i := range old {
		if old[i].Err != nil {
			printErrors(stderr, "--old: ", old[i].Err)
			bad = true
		}
	}
	return old, bad
}

// printErrors writes each error joined in err (errors.Join) on its own
// line, as "kdv: <prefix><error>".
func printErrors(w io.Writer, prefix string, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			printErrors(w, prefix, e)
		}
		return
	}
	fmt.Fprintf(w, "kdv: %s%v\n", prefix, err)
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
