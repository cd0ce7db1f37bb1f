package manifest

import (
	"bytes"
	"path/filepath"
	"strings"
)

// Repositories hold YAML that is not Kubernetes objects next to their manifests: Helm chart
// files, Kustomize files, CI workflows, Compose files. kubectl fails them ("Object 'Kind' is
// missing"), which makes pointing a validator at a repository useless; kdv recognizes them
// and reports each as skipped (Document.NotManifest) unless Options.StrictInputs is set.
//
// Recognition is deliberately narrow, so that a manifest with a typo is never taken for
// something else: by file name (notManifestFile), by text for Helm template sources, and by
// content only for documents that have neither apiVersion nor kind nor anything else of an
// object's shape (NotManifestObject, notManifestValue). A document with one of apiVersion and kind but not the
// other is an error, as the apiserver answers.

// notManifestFile returns why the file called name is not a Kubernetes manifest, judged by
// its path alone, or "" when it may be one.
func notManifestFile(name string) string {
	if name == "-" {
		return ""
	}
	slashed := filepath.ToSlash(name)
	base := strings.ToLower(filepath.Base(slashed))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, dir := range strings.Split(filepath.Dir(slashed), "/") {
		if dir == ".github" {
			return "GitHub configuration (under .github/)"
		}
	}
	switch {
	case base == "chart.yaml" || base == "chart.yml" || base == "requirements.yaml":
		return "Helm chart metadata (" + filepath.Base(slashed) + ")"
	case isValuesName(stem) && hasExtension(base):
		return "Helm values file"
	case base == "kustomization.yaml" || base == "kustomization.yml" || filepath.Base(slashed) == "Kustomization":
		return "Kustomize kustomization"
	case base == ".kdv.yaml":
		return "kdv configuration"
	case base == ".gitlab-ci.yml" || base == ".gitlab-ci.yaml":
		return "GitLab CI configuration"
	case strings.HasPrefix(base, "docker-compose") || stem == "compose" || strings.HasPrefix(base, "compose."):
		// docker-compose.yml, docker-compose.override.yaml, compose.yaml (the Compose
		// specification's default names).
		return "Docker Compose file"
	}
	return ""
}

// isValuesName reports whether a file name without extension is a Helm values file's by the
// usual conventions: values, values-prod, values.prod, values_prod, prod-values, prod.values,
// prod_values (and values.schema, the values' JSON schema).
func isValuesName(stem string) bool {
	if stem == "values" {
		return true
	}
	for _, sep := range []string{"-", ".", "_"} {
		if strings.HasPrefix(stem, "values"+sep) || strings.HasSuffix(stem, sep+"values") {
			return true
		}
	}
	return false
}

// notManifestText returns why a file's text is not a manifest: a Helm template source (a
// file under a templates/ directory holding "{{"), which only rendering turns into
// manifests; "" otherwise.
func notManifestText(name string, data []byte) string {
	if name == "-" || !bytes.Contains(data, []byte("{{")) {
		return ""
	}
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(name)), "/") {
		if dir == "templates" {
			return "Helm template source; render the chart to validate what it produces"
		}
	}
	return ""
}

// kustomizeGroup is the API group of Kustomize's own files (Kustomization, Component), which
// no apiserver serves.
const kustomizeGroup = "kustomize.config.k8s.io"

// NotManifestObject returns why a decoded object is not a Kubernetes object, or "" when it is
// one or an attempt at one (which validation then judges): a Kustomize file (apiVersion in
// kustomize.config.k8s.io), whatever its file name; a mapping with neither apiVersion nor
// kind, unless it has metadata or a key that is apiVersion or kind in another case ("Kind",
// "apiversion"): those are manifests with a mistake, and their error is worth seeing. The
// reader leaves this judgement to its callers, so that decoding stays what kubectl does.
func NotManifestObject(m map[string]any) string {
	if av, ok := m["apiVersion"].(string); ok {
		if group, _, _ := strings.Cut(av, "/"); group == kustomizeGroup {
			kind, _ := m["kind"].(string)
			return "Kustomize configuration (" + av + " " + kind + ")"
		}
	}
	for k := range m {
		switch strings.ToLower(k) {
		case "apiversion", "kind", "metadata":
			return ""
		}
	}
	return "neither apiVersion nor kind"
}

// notManifestValue returns why a decoded document that is not a mapping is not a manifest: a
// list (Ansible playbooks, some CI files) has neither apiVersion nor kind. A scalar is not
// recognized: a mangled manifest ("apiVersion v1" without its colon) can read as one.
func notManifestValue(v any) string {
	if _, ok := v.([]any); ok {
		return "a list, neither apiVersion nor kind"
	}
	return ""
}

// helmSource returns the template named by the "# Source: chart/templates/x.yaml" comment
// that `helm template` writes before each rendered document, "" when raw has none among the
// comments before its first content line.
func helmSource(raw []byte) string {
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case bytes.HasPrefix(line, []byte("# Source: ")):
			return string(bytes.TrimSpace(line[len("# Source: "):]))
		case line[0] == '#':
		default:
			return ""
		}
	}
	return ""
}
