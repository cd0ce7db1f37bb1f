package main

import (
	"encoding/json"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kdv.dev/builtin"
	"kdv.dev/builtin/overlay"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
	"kdv.dev/schema"
	"kdv.dev/validation"
)

func newGenCommand() *cobra.Command {
	var (
		out            string
		standardOnly   bool
		details        bool
		overlayFiles   []string
		builtinOverlay bool
	)
	cmd := &cobra.Command{
		Use:   "gen openapi|crd [flags] PACKAGE...",
		Short: "Generate OpenAPI v3 documents or CRDs from Go types and their tags",
		Long: `Gen loads Go packages (go list patterns) and turns their types and comment tags
(validation-gen +k8s: tags, KEP-4153 tags such as +minimum and +validationRule,
kubebuilder markers, +lifecycle) into OpenAPI v3 documents, one per
group-version (gen openapi), or CustomResourceDefinitions, one per kind
(gen crd). Every tag is published as an OpenAPI keyword, an x-kubernetes-*
extension or a CEL rule, or listed in the generation report (stderr) with the
reason it could not be. An unknown or malformed tag is an error with its file
and line. Packages that cannot be loaded, patterns that match no package and
packages that produce nothing (no +groupName, no kind, no kind marked
+kubebuilder:object:root=true) are reported on stderr: as warnings when other
packages produced something, with exit code 2 when nothing was generated.`,
		Example: `  kdv gen openapi --out openapi/ k8s.io/api/...
  kdv gen crd --out config/crd/ ./api/...`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			what, patterns := args[0], args[1:]
			if what != "openapi" && what != "crd" {
				return &exitError{exitUsage, fmt.Errorf("gen: want openapi or crd, got %q", what)}
			}
			stderr := cmd.ErrOrStderr()
			overlays, err := loadOverlays(overlayFiles, builtinOverlay)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			u, err := idl.Load(idl.Options{Overlays: overlays}, patterns...)
			if err != nil {
				// go/packages' errors, one per package that cannot be
				// loaded (not in a module, no Go files, does not compile).
				printErrors(stderr, "", err)
				return &exitError{code: exitUsage}
			}
			for _, w := range u.Warnings() {
				fmt.Fprintln(stderr, "kdv: warning:", w)
			}
			if len(u.Packages) == 0 {
				return &exitError{exitUsage, fmt.Errorf("gen: no Go package matches %s%s", strings.Join(patterns, " "), moduleHint())}
			}
			for _, pat := range unmatchedPatterns(patterns, u.Packages) {
				fmt.Fprintf(stderr, "kdv: warning: gen: pattern %s matches no Go package\n", pat)
			}
			opts := openapi.Options{StandardOnly: standardOnly, CRD: what == "crd"}
			var rep *openapi.Report
			produced := 0
			if what == "openapi" {
				res, err := openapi.Generate(u, opts)
				if err != nil {
					return &exitError{exitInvalid, err}
				}
				rep, produced = res.Report, len(res.Documents)
				if !standardOnly {
					annotateGates(stderr, res.Documents)
				}
				if err := writeOpenAPI(cmd.OutOrStdout(), out, res.Documents); err != nil {
					return &exitError{exitUsage, err}
				}
			} else {
				crds, r, err := openapi.CRDs(u, opts)
				if err != nil {
					return &exitError{exitInvalid, err}
				}
				rep, produced = r, len(crds)
				if err := writeCRDs(cmd.OutOrStdout(), out, crds); err != nil {
					return &exitError{exitUsage, err}
				}
			}
			if details {
				rep.WriteDetails(stderr)
			} else {
				rep.Write(stderr)
			}
			return reportEmpty(stderr, rep.Empty, produced, patterns)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write files to (default: stdout)")
	cmd.Flags().BoolVar(&standardOnly, "standard-only", false, "leave out extensions the apiserver does not publish (x-kubernetes-api-lifecycle), for consumers that reject them; the tags are reported instead")
	cmd.Flags().BoolVar(&details, "report-details", false, "list every tag that was not published, with its position and reason")
	cmd.Flags().StringArrayVar(&overlayFiles, "overlay", nil, "rule overlay file: tags for types and fields of a package, kept outside its source (format: kdv.dev/idl Overlay; repeatable)")
	cmd.Flags().BoolVar(&builtinOverlay, "builtin-overlay", true, "apply kdv's rule overlay for k8s.io/api (Go defaulters' defaults, ...) to the k8s.io/api packages loaded")
	return cmd
}

// loadOverlays parses the --overlay files and, with builtin, kdv's own
// overlay for k8s.io/api (applied only to the packages it names).
func loadOverlays(files []string, builtin bool) ([]*idl.Overlay, error) {
	var out []*idl.Overlay
	if builtin {
		// the newest release's rules (entries limited to older
		// releases are left out)
		o, err := overlay.ForRelease(validation.DefaultKubernetesMinor)
		if err != nil {
			return nil, err
		}
		out = append(out, o...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--overlay: %w", err)
		}
		o, err := idl.ParseOverlay(f, b)
		if err != nil {
			return nil, fmt.Errorf("--overlay: %w", err)
		}
		out = append(out, o)
	}
	return out, nil
}

// reportEmpty says which packages produced nothing, and why: as warnings
// when others produced something, as errors (exit 2) when nothing at all
// was produced, which is a wrong pattern or a package without API types,
// never a successful run.
func reportEmpty(stderr io.Writer, empty []openapi.EmptyPackage, produced int, patterns []string) error {
	empty = slices.Clone(empty)
	slices.SortStableFunc(empty, func(a, b openapi.EmptyPackage) int { return strings.Compare(a.Path, b.Path) })
	prefix := "kdv: warning: "
	if produced == 0 {
		prefix = "kdv: "
	}
	for _, e := range empty {
		fmt.Fprintf(stderr, "%s%s: nothing generated: %s\n", prefix, e.Path, e.Reason)
	}
	if produced == 0 {
		return &exitError{exitUsage, fmt.Errorf("gen: nothing generated from %s", strings.Join(patterns, " "))}
	}
	return nil
}

// moduleHint explains an empty load outside a Go module, where go list
// fails with a message go/packages does not pass on.
func moduleHint() string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if gomod := strings.TrimSpace(string(out)); err == nil && (gomod == "" || gomod == os.DevNull) {
		return ": the current directory is not in a Go module (go.mod not found here or in any parent directory)"
	}
	return ""
}

// unmatchedPatterns returns the patterns no root package matches, as go
// list matches them (a directory, "dir/..." for it and below, an import
// path with "..." wildcards); go/packages drops go list's "matched no
// packages" warning. Patterns it cannot judge (files, std, all) count as
// matched.
func unmatchedPatterns(patterns []string, pkgs []*idl.Package) []string {
	var out []string
	for _, pat := range patterns {
		if strings.HasSuffix(pat, ".go") || pat == "std" || pat == "all" || pat == "cmd" {
			continue
		}
		if !slices.ContainsFunc(pkgs, func(p *idl.Package) bool { return p.Root && matchPattern(pat, p) }) {
			out = append(out, pat)
		}
	}
	return out
}

// matchPattern reports whether a go list pattern matches a root package.
func matchPattern(pat string, p *idl.Package) bool {
	rest, recursive := strings.CutSuffix(pat, "/...")
	if pat == "..." || pat == "./..." {
		rest, recursive = ".", true
	}
	if build.IsLocalImport(pat) || filepath.IsAbs(pat) {
		if p.Dir == "" {
			return true // cannot tell
		}
		base, err := filepath.Abs(rest)
		if err != nil {
			return true
		}
		dir := p.Dir
		if b, err := filepath.EvalSymlinks(base); err == nil {
			base = b
		}
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d
		}
		return dir == base || recursive && strings.HasPrefix(dir, base+string(filepath.Separator))
	}
	re := strings.ReplaceAll(regexp.QuoteMeta(pat), `\.\.\.`, `.*`)
	if recursive {
		re = strings.ReplaceAll(regexp.QuoteMeta(rest), `\.\.\.`, `.*`) + `(/.*)?`
	}
	ok, err := regexp.MatchString("^"+re+"$", p.Path)
	return ok || err != nil
}

// openAPIFileName names a group-version's document as the apiserver's
// /openapi/v3 paths do: api__v1_openapi.json, apis__apps__v1_openapi.json.
func openAPIFileName(d *openapi.Document) string {
	if d.Group == "" {
		return "api__" + d.Version + "_openapi.json"
	}
	return "apis__" + d.Group + "__" + d.Version + "_openapi.json"
}

func writeOpenAPI(stdout io.Writer, dir string, docs []*openapi.Document) error {
	for _, d := range docs {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", d.GroupVersion(), err)
		}
		b = append(b, '\n')
		if dir == "" {
			if _, err := stdout.Write(b); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(filepath.Join(dir, openAPIFileName(d)), b); err != nil {
			return err
		}
	}
	return nil
}

func writeCRDs(stdout io.Writer, dir string, crds []*schema.CRD) error {
	for i, c := range crds {
		b, err := yaml.Marshal(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Metadata.Name, err)
		}
		if dir == "" {
			if i > 0 {
				b = append([]byte("---\n"), b...)
			}
			if _, err := stdout.Write(b); err != nil {
				return err
			}
			continue
		}
		// controller-gen's file names: <group>_<plural>.yaml.
		name := strings.ToLower(c.Spec.Group + "_" + c.Spec.Names.Plural + ".yaml")
		if err := writeFile(filepath.Join(dir, name), append([]byte("---\n"), b...)); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// annotateGates gives the gated fields of k8s.io/api's types (definitions
// io.k8s.*) their lifecycle in the newest Kubernetes release kdv knows, as
// the embedded schemas have it (builtin.AnnotateFeatureGates): status and
// minVersion from the gates' versioned specs, and entries for fields whose
// description says they need a gate. Gates it does not know are said.
func annotateGates(stderr io.Writer, docs []*openapi.Document) {
	seen := map[string]bool{}
	for _, doc := range docs {
		kube := map[string]*schema.Props{}
		for name, p := range doc.Schemas {
			if strings.HasPrefix(name, "io.k8s.") {
				kube[name] = p
			}
		}
		notes, err := builtin.AnnotateFeatureGates(kube, kubernetesMinor(0))
		if err != nil {
			fmt.Fprintln(stderr, "kdv: warning: gen:", err)
			return
		}
		for _, n := range notes {
			if !seen[n] {
				seen[n] = true
				fmt.Fprintln(stderr, "kdv: warning: gen:", n)
			}
		}
	}
}
