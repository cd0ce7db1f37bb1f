// Package helm renders Helm charts in-process, offline, for validation, as
// `helm template --include-crds` renders them: each rendered document comes
// with the template it was rendered from, so that an error can name it.
//
// It imports helm.sh/helm/v3's chart loading, values and template engine
// (not its actions, which talk to clusters and registries); no other runtime
// package needs them. cmd/kdv hands [Options.Build] to manifest.Options.Build.
package helm

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/strvals"
	"sigs.k8s.io/yaml"

	"kdv.dev/manifest"
)

// FileNames are the names of a chart's metadata file that make a directory
// a chart: helm's loader reads Chart.yaml only.
var FileNames = []string{"Chart.yaml"}

// Options are `helm template`'s flags that change what a chart renders to.
type Options struct {
	// ValuesFiles are the -f/--values files, merged in order over the chart's
	// values.yaml (later files win, maps merged key by key).
	ValuesFiles []string
	// Set are the --set k=v assignments, applied after the values files, in
	// helm's strvals syntax.
	Set []string
	// ReleaseName is .Release.Name; "" means "release-name", as helm
	// template's default.
	ReleaseName string
	// Namespace is .Release.Namespace; "" means "default".
	Namespace string
	// KubernetesMinor is the minor of .Capabilities.KubeVersion (1.<minor>.0);
	// 0 leaves helm's default.
	KubernetesMinor int
}

// File returns the Chart.yaml in dir, or "" when dir holds no chart.
func File(dir string) string {
	return manifest.FirstFile(dir, FileNames...)
}

// Build renders the chart in dir and returns its CRDs (the crds/ files of
// the chart and its dependencies, as helm template --include-crds emits
// them first) and then every rendered template, one manifest.Built per file
// (a template may render several documents), sorted by template name.
// NOTES.txt, partials and templates rendering to nothing are left out, as
// helm leaves them out. handled is false when dir holds no Chart.yaml.
//
// Nothing is fetched: dependencies must be vendored under charts/ (a
// missing one is an error naming it, as `helm template` without
// --dependency-update answers), `lookup` finds nothing (as in helm
// template), and a values schema that refers to a URL is an error.
func (o Options) Build(dir string) (handled bool, objs []manifest.Built, err error) {
	cfile := File(dir)
	if cfile == "" {
		return false, nil, nil
	}
	objs, err = o.render(dir, cfile)
	if err != nil {
		// The caller names the directory, as for a kustomization.
		return true, nil, fmt.Errorf("helm template: %w", err)
	}
	return true, objs, nil
}

func (o Options) render(dir, cfile string) ([]manifest.Built, error) {
	ch, err := loader.Load(dir)
	if err != nil {
		return nil, err
	}
	if t := ch.Metadata.Type; t != "" && t != "application" {
		// action.Install's checkIfInstallable.
		return nil, fmt.Errorf("%s charts are not installable", t)
	}
	if err := checkDependencies(ch); err != nil {
		return nil, err
	}
	if err := checkOfflineSchemas(ch); err != nil {
		return nil, err
	}
	vals, err := o.values()
	if err != nil {
		return nil, err
	}
	if err := chartutil.ProcessDependenciesWithMerge(ch, vals); err != nil {
		return nil, err
	}
	caps := chartutil.DefaultCapabilities.Copy()
	if o.KubernetesMinor > 0 {
		caps.KubeVersion = chartutil.KubeVersion{
			Version: fmt.Sprintf("v1.%d.0", o.KubernetesMinor),
			Major:   "1",
			Minor:   strconv.Itoa(o.KubernetesMinor),
		}
	}
	if kv := ch.Metadata.KubeVersion; kv != "" && !chartutil.IsCompatibleRange(kv, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", kv, caps.KubeVersion.String())
	}
	rel := chartutil.ReleaseOptions{
		Name:      or(o.ReleaseName, "release-name"),
		Namespace: or(o.Namespace, "default"),
		Revision:  1,
		IsInstall: true,
	}
	top, err := chartutil.ToRenderValues(ch, vals, rel, caps)
	if err != nil {
		return nil, err
	}
	files, err := engine.Engine{}.Render(ch, top)
	if err != nil {
		return nil, err
	}
	var out []manifest.Built
	for _, crd := range ch.CRDObjects() {
		out = append(out, manifest.Built{
			Via:      cfile,
			File:     onDisk(dir, ch.Name(), crd.Filename),
			Data:     crd.File.Data,
			Template: crd.Filename,
		})
	}
	names := make([]string, 0, len(files))
	for name, text := range files {
		if strings.HasSuffix(name, "NOTES.txt") || strings.TrimSpace(text) == "" {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, manifest.Built{
			Via:      cfile,
			File:     onDisk(dir, ch.Name(), name),
			Data:     []byte(files[name]),
			Template: name,
		})
	}
	return out, nil
}

// onDisk is the file of the chart in dir that helm names name
// ("<chart>/templates/x.yaml", "<chart>/charts/sub/templates/y.yaml"), or
// "" when it is not a plain file there (a dependency vendored as a .tgz).
func onDisk(dir, chartName, name string) string {
	rel, ok := strings.CutPrefix(name, chartName+"/")
	if !ok {
		return ""
	}
	p := filepath.Join(dir, filepath.FromSlash(path.Clean(rel)))
	if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return p
}

// values merges the values files and --set assignments as helm's
// values.Options.MergeValues does, from local files only.
func (o Options) values() (map[string]any, error) {
	base := map[string]any{}
	for _, f := range o.ValuesFiles {
		if strings.Contains(f, "://") {
			return nil, fmt.Errorf("values file %s is remote; kdv renders charts offline: download it and give the local copy", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("values file: %w", err)
		}
		cur := map[string]any{}
		if err := yaml.Unmarshal(data, &cur); err != nil {
			return nil, fmt.Errorf("values file %s: %w", f, err)
		}
		base = mergeMaps(base, cur)
	}
	for _, s := range o.Set {
		if err := strvals.ParseInto(s, base); err != nil {
			return nil, fmt.Errorf("--set %s: %w", s, err)
		}
	}
	return base, nil
}

// mergeMaps is helm's values merge: b over a, maps merged key by key.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(bv, v)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// checkDependencies is action.CheckDependencies over the chart and its
// vendored dependencies: every dependency Chart.yaml lists must be under
// charts/, as `helm template` without --dependency-update requires.
func checkDependencies(ch *chart.Chart) error {
	var missing []string
	for _, r := range ch.Metadata.Dependencies {
		found := false
		for _, d := range ch.Dependencies() {
			if d.Name() == r.Name {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, r.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("found in Chart.yaml, but missing in charts/ directory: %s; kdv renders charts offline: vendor them (helm dependency build)", strings.Join(missing, ", "))
	}
	var errs []error
	for _, d := range ch.Dependencies() {
		if err := checkDependencies(d); err != nil {
			errs = append(errs, fmt.Errorf("dependency %s: %w", d.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// remoteRef finds a JSON schema $ref to a URL, which helm's schema
// validation would fetch.
var remoteRef = regexp.MustCompile(`"\$ref"\s*:\s*"(https?://[^"]*)"`)

// checkOfflineSchemas fails a chart whose values.schema.json (or a
// dependency's) refers to a schema by URL: validating the values would
// fetch it.
func checkOfflineSchemas(ch *chart.Chart) error {
	if m := remoteRef.FindSubmatch(ch.Schema); m != nil {
		return fmt.Errorf("%s/values.schema.json refers to %s; kdv renders charts offline", ch.ChartFullPath(), m[1])
	}
	for _, d := range ch.Dependencies() {
		if err := checkOfflineSchemas(d); err != nil {
			return err
		}
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
