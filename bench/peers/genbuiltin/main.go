// Command genbuiltin writes the built-in-kind inputs of
// bench/peers/builtin.sh: Deployments (apps/v1), Services, ConfigMaps and
// Pods (v1) taken from the Kubernetes examples, repeated with varied names,
// labels, images, ports and data, so that kdv and kubeconform validate the
// same realistic objects of the same built-in kinds.
//
// Usage:
//
//	genbuiltin -seeds DIR -seed-dir DIR
//	genbuiltin -seeds DIR -out DIR [-docs 10000] [-files 1000] [-per-file 10] [-exclude ID,...]
//
// With -seed-dir it writes every seed object alone in a file,
// DIR/NNN.yaml, and prints one line per seed, "NNN.yaml ID" (ID is
// <path under -seeds>#<document index>, the name -exclude takes), so the
// script can ask each tool about each seed. With -out it writes
// DIR/one-file.yaml (-docs documents) and DIR/many-files/NNNN.yaml (-files
// files of -per-file documents each, the same objects as one-file.yaml when
// -docs = -files × -per-file), and prints the seed counts.
//
// Document i is of kind kinds[i%4] (a quarter each) and copies that kind's
// seed i/4 (cycling), varied by i: metadata.name <name>-<i>, an
// app.kubernetes.io/instance label (also on a Deployment's pod template),
// every container image re-tagged (digests are kept), Service ports and
// container ports shifted by i%100 (where that stays a valid port and no
// hostPort pins them) and, for ConfigMaps, extra data keys.
//
// With -mixed, the seeds are every object of a built-in API group in the
// examples (Services, Pods, ReplicationControllers, StorageClasses,
// PersistentVolumeClaims, Secrets, RBAC, HorizontalPodAutoscalers, ...),
// and document i copies seed i (cycling), so that kinds come in the
// proportions the examples have them, varied as above (name and label
// only for the kinds not listed there). -seed-dir always writes the seeds
// of every built-in kind, so that one check of the seeds serves both.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// kinds are the seed kinds, by apiVersion and kind, in the order documents
// cycle through them.
var kinds = []struct{ apiVersion, kind string }{
	{"apps/v1", "Deployment"},
	{"v1", "Service"},
	{"v1", "ConfigMap"},
	{"v1", "Pod"},
}

func main() {
	seedRoot := flag.String("seeds", "", "directory of Kubernetes example manifests")
	seedDir := flag.String("seed-dir", "", "write each seed alone in a file under this directory and list them")
	out := flag.String("out", "", "output directory for the inputs")
	docs := flag.Int("docs", 10000, "documents in one-file.yaml")
	files := flag.Int("files", 1000, "files in many-files/ (0: none)")
	perFile := flag.Int("per-file", 10, "documents per file in many-files/")
	exclude := flag.String("exclude", "", "comma-separated seed IDs (path#index) to leave out")
	mixed := flag.Bool("mixed", false, "seeds of every built-in kind, in the examples' proportions (default: Deployments, Services, ConfigMaps and Pods, a quarter each)")
	flag.Parse()
	if *seedRoot == "" || (*seedDir == "") == (*out == "") {
		fmt.Fprintln(os.Stderr, "genbuiltin: need -seeds and exactly one of -seed-dir, -out")
		flag.Usage()
		os.Exit(2)
	}
	skip := map[string]bool{}
	for _, s := range strings.Split(*exclude, ",") {
		if s = strings.TrimSpace(s); s != "" {
			skip[s] = true
		}
	}
	seeds, unparsed, err := readSeeds(*seedRoot, skip, *mixed || *seedDir != "")
	must(err)
	if unparsed > 0 {
		fmt.Fprintf(os.Stderr, "genbuiltin: %d documents under %s are not YAML objects (templates, duplicate keys): not seeds\n", unparsed, *seedRoot)
	}
	if *seedDir != "" {
		must(os.MkdirAll(*seedDir, 0o755))
		for i, s := range seeds {
			name := fmt.Sprintf("%03d.yaml", i)
			data, err := yaml.Marshal(s.obj)
			must(err)
			must(os.WriteFile(filepath.Join(*seedDir, name), data, 0o644))
			fmt.Printf("%s %s %s/%s\n", name, s.id, s.kind, s.name)
		}
		return
	}
	byKind := map[string][]seed{}
	for _, s := range seeds {
		byKind[s.kind] = append(byKind[s.kind], s)
	}
	doc := func(i int) map[string]any {
		if *mixed {
			return vary(seeds[i%len(seeds)], i)
		}
		k := kinds[i%len(kinds)].kind
		list := byKind[k]
		return vary(list[(i/len(kinds))%len(list)], i)
	}
	if *mixed && len(seeds) == 0 {
		must(fmt.Errorf("no seeds left in %s", *seedRoot))
	}
	for _, k := range kinds {
		if !*mixed && len(byKind[k.kind]) == 0 {
			must(fmt.Errorf("no %s seeds left in %s", k.kind, *seedRoot))
		}
	}
	must(os.MkdirAll(*out, 0o755))
	must(write(filepath.Join(*out, "one-file.yaml"), doc, 0, *docs))
	if *files > 0 {
		must(os.MkdirAll(filepath.Join(*out, "many-files"), 0o755))
		for f := 0; f < *files; f++ {
			must(write(filepath.Join(*out, "many-files", fmt.Sprintf("%04d.yaml", f)), doc, f**perFile, *perFile))
		}
	}
	if *mixed {
		fmt.Printf("genbuiltin: %d seeds of %d kinds, %d left out; %d docs in one-file.yaml", len(seeds), len(byKind), len(skip), *docs)
	} else {
		fmt.Printf("genbuiltin: %d seeds (%d Deployment, %d Service, %d ConfigMap, %d Pod), %d left out; %d docs in one-file.yaml",
			len(seeds), len(byKind["Deployment"]), len(byKind["Service"]), len(byKind["ConfigMap"]), len(byKind["Pod"]), len(skip), *docs)
	}
	if *files > 0 {
		fmt.Printf("; %d files x %d docs in many-files/", *files, *perFile)
	}
	fmt.Println()
}

type seed struct {
	id, kind, name string
	obj            map[string]any
}

// readSeeds returns the objects of the seed kinds (all: of every built-in
// API group) in the YAML files under root, in path order, except those
// whose ID is in skip, and the number of documents that do not parse (the
// examples hold a few templates with {{ }} and objects with duplicate
// keys): those are not seeds.
func readSeeds(root string, skip map[string]bool, all bool) ([]seed, int, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(paths)
	want := map[string]string{}
	for _, k := range kinds {
		want[k.kind] = k.apiVersion
	}
	var seeds []seed
	unparsed := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		rel, _ := filepath.Rel(root, p)
		for i, doc := range splitDocs(data) {
			var obj map[string]any
			if err := yaml.Unmarshal(doc, &obj); err != nil {
				unparsed++
				continue
			}
			if obj == nil {
				continue
			}
			kind, _ := obj["kind"].(string)
			av, _ := obj["apiVersion"].(string)
			if want[kind] != av && !(all && kind != "" && builtinGroup(av)) {
				continue
			}
			meta, _ := obj["metadata"].(map[string]any)
			name, _ := meta["name"].(string)
			id := fmt.Sprintf("%s#%d", rel, i)
			if name == "" || skip[id] {
				continue
			}
			seeds = append(seeds, seed{id: id, kind: kind, name: name, obj: obj})
		}
	}
	return seeds, unparsed, nil
}

// builtinGroup reports whether apiVersion is of the core group or of a
// *.k8s.io or unqualified (apps, batch, policy, autoscaling) group: those a
// kube-apiserver serves, not custom resources (monitoring.coreos.com).
// Versions no longer served are left to the check of the seeds.
func builtinGroup(apiVersion string) bool {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return apiVersion != ""
	}
	return !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io")
}

// splitDocs splits a YAML stream at "---" lines.
func splitDocs(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		t := bytes.TrimRight(line, " \t\r\n")
		if bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")) {
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	return append(docs, cur.Bytes())
}

// write writes documents start..start+n-1 to name.
func write(name string, doc func(int) map[string]any, start, n int) error {
	var buf bytes.Buffer
	for i := start; i < start+n; i++ {
		data, err := yaml.Marshal(doc(i))
		if err != nil {
			return err
		}
		buf.WriteString("---\n")
		buf.Write(data)
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// vary returns a deep copy of s's object varied by i, still valid: a
// distinct name (a DNS label of at most 63 characters, as Service names
// must be; an APIService's version.group, with a group of its own), an
// instance label, new image tags, shifted ports, more data.
func vary(s seed, i int) map[string]any {
	obj := deepCopy(s.obj).(map[string]any)
	base := s.name
	if len(base) > 50 {
		base = strings.TrimRight(base[:50], "-.")
	}
	name := fmt.Sprintf("%s-%05d", base, i)
	meta := obj["metadata"].(map[string]any)
	meta["name"] = name
	setLabel(meta, name)
	shift := float64(i % 100)
	switch s.kind {
	case "Deployment":
		spec, _ := obj["spec"].(map[string]any)
		tmpl, _ := spec["template"].(map[string]any)
		if tm, ok := tmpl["metadata"].(map[string]any); ok {
			setLabel(tm, name) // the selector still matches: it is a subset
		}
		if ps, ok := tmpl["spec"].(map[string]any); ok {
			varyPodSpec(ps, i, shift)
		}
	case "Pod":
		if ps, ok := obj["spec"].(map[string]any); ok {
			varyPodSpec(ps, i, shift)
		}
	case "Service":
		spec, _ := obj["spec"].(map[string]any)
		ports, _ := spec["ports"].([]any)
		if fits(ports, "port", shift) {
			for _, p := range ports {
				pm := p.(map[string]any)
				pm["port"] = pm["port"].(float64) + shift
			}
		}
	case "APIService":
		// the name must be spec.version + "." + spec.group: a group of
		// its own (a DNS subdomain) names each copy
		spec, _ := obj["spec"].(map[string]any)
		group, _ := spec["group"].(string)
		version, _ := spec["version"].(string)
		if group != "" && version != "" {
			spec["group"] = fmt.Sprintf("g%05d.%s", i, group)
			name = version + "." + spec["group"].(string)
			meta["name"] = name
			setLabel(meta, name)
		}
	case "ConfigMap":
		data, _ := obj["data"].(map[string]any)
		if data == nil {
			data = map[string]any{}
			obj["data"] = data
		}
		for k := 0; k <= i%4; k++ {
			data[fmt.Sprintf("setting-%d.properties", k)] = fmt.Sprintf("instance=%s\nreplica=%d\nlevel=%d\n", name, i, k)
		}
	}
	return obj
}

func setLabel(meta map[string]any, v string) {
	labels, _ := meta["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	labels["app.kubernetes.io/instance"] = v
}

// varyPodSpec re-tags every image and shifts container ports that no
// hostPort or hostNetwork ties to the host.
func varyPodSpec(ps map[string]any, i int, shift float64) {
	hostNet, _ := ps["hostNetwork"].(bool)
	for _, field := range []string{"initContainers", "containers"} {
		cs, _ := ps[field].([]any)
		for _, c := range cs {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			if img, ok := cm["image"].(string); ok {
				cm["image"] = retag(img, i)
			}
			ports, _ := cm["ports"].([]any)
			if hostNet || !fits(ports, "containerPort", shift) {
				continue
			}
			for _, p := range ports {
				pm := p.(map[string]any)
				if _, pinned := pm["hostPort"]; !pinned {
					pm["containerPort"] = pm["containerPort"].(float64) + shift
				}
			}
		}
	}
}

// fits reports whether every item of ports has a numeric key that stays a
// valid port (1-65535) when shifted.
func fits(ports []any, key string, shift float64) bool {
	for _, p := range ports {
		pm, ok := p.(map[string]any)
		if !ok {
			return false
		}
		n, ok := pm[key].(float64)
		if !ok || n+shift > 65535 {
			return false
		}
	}
	return true
}

// retag gives an image reference the tag 1.<i%50>.<i%7>, keeping the
// repository; references pinned by digest are kept as they are.
func retag(img string, i int) string {
	if strings.Contains(img, "@") || img == "" {
		return img
	}
	repo := img
	if slash, colon := strings.LastIndex(img, "/"), strings.LastIndex(img, ":"); colon > slash {
		repo = img[:colon]
	}
	return fmt.Sprintf("%s:1.%d.%d", repo, i%50, i%7)
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = deepCopy(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for k, x := range v {
			c[k] = deepCopy(x)
		}
		return c
	}
	return v
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbuiltin:", err)
		os.Exit(1)
	}
}
