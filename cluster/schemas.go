package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"kdv.dev/builtin"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// crdResource is the resource of CustomResourceDefinitions.
var crdResource = k8sschema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// SchemaOptions configure LoadSchemas.
type SchemaOptions struct {
	// KubernetesMinor is the release whose embedded built-in schemas the
	// registry uses (0: the newest kdv embeds). Group-versions those
	// schemas cover are not fetched from /openapi/v3: kdv's embedded rules
	// say more than the published OpenAPI (which has no validation rules
	// for built-in kinds).
	KubernetesMinor int
	// CacheDir is the directory of the on-disk cache; empty means
	// DefaultCacheDir(). Each server (by host) gets its own subdirectory.
	CacheDir string
	// NoCache fetches everything and writes nothing to disk.
	NoCache bool
	// Keep, when set, reports the kinds the registry already defines and
	// that the cluster's schemas must not replace (kdv validate --crds: a
	// repository's own CRDs are newer than the cluster's).
	Keep func(k8sschema.GroupKind) bool
}

// SchemaStats says what LoadSchemas loaded and how much it had to fetch.
type SchemaStats struct {
	// CRDs is the number of CustomResourceDefinitions registered, of which
	// CRDsFetched were read from the server (the rest from the cache).
	CRDs, CRDsFetched int
	// GroupVersions is the number of /openapi/v3 group-versions registered
	// (aggregated APIs and kinds kdv does not embed), of which
	// GroupVersionsFetched were read from the server.
	GroupVersions, GroupVersionsFetched int
	// Kinds lists the kinds registered from /openapi/v3, sorted.
	Kinds []k8sschema.GroupVersionKind
}

// String words the statistics for a line on stderr.
func (s SchemaStats) String() string {
	return fmt.Sprintf("%s (%d fetched, %d cached), %s (%d fetched, %d cached)",
		count(s.CRDs, "CustomResourceDefinition"), s.CRDsFetched, s.CRDs-s.CRDsFetched,
		count(s.GroupVersions, "OpenAPI group-version"), s.GroupVersionsFetched, s.GroupVersions-s.GroupVersionsFetched)
}

// count is "1 thing" or "n things".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// DefaultCacheDir is os.UserCacheDir()/kdv/cluster.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kdv", "cluster"), nil
}

// LoadSchemas registers the cluster's schemas in reg: every
// CustomResourceDefinition (apiextensions.k8s.io/v1), and the /openapi/v3
// document of every group-version that is neither a custom resource's nor
// covered by kdv's embedded built-in schemas (aggregated APIs such as
// metrics.k8s.io, and built-in kinds newer than kdv).
//
// When the CRDs cannot be listed, their group-versions are read from
// /openapi/v3 too, and the error says why.
//
// Both are cached on disk: a CRD by its resourceVersion (a metadata-only
// list says which changed, and only those are fetched), an OpenAPI
// document by the hash the server publishes in /openapi/v3. One CRD or
// document that cannot be read or loaded does not stop the others: its
// error is returned joined with the rest, and for a CRD its kind is
// rejected with the reason, so objects of it say why they have no schema.
func LoadSchemas(ctx context.Context, cfg *rest.Config, reg *resource.Registry, opts SchemaOptions) (SchemaStats, error) {
	var stats SchemaStats
	cfg = withRate(cfg)
	c, err := newCache(cfg, opts)
	if err != nil {
		return stats, err
	}
	if opts.Keep == nil {
		opts.Keep = func(k8sschema.GroupKind) bool { return false }
	}
	crdGVs, err := loadCRDs(ctx, cfg, reg, c, opts.Keep, &stats)
	if crdGVs == nil {
		// The CRDs cannot be listed (RBAC lets few users): their kinds'
		// schemas as published in /openapi/v3, which every authenticated
		// user may read, are the next best (no scale subresource or
		// status-subresource knowledge; CEL rules and defaults are there).
		crdGVs = map[string]bool{}
	}
	errOpenAPI := loadOpenAPI(ctx, cfg, reg, c, crdGVs, opts, &stats)
	return stats, errors.Join(err, errOpenAPI)
}

// cache is the on-disk cache of one server; a nil *cache caches nothing.
type cache struct {
	dir string
}

func newCache(cfg *rest.Config, opts SchemaOptions) (*cache, error) {
	if opts.NoCache {
		return nil, nil
	}
	dir := opts.CacheDir
	if dir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory (--no-cache to run without one): %w", err)
		}
		dir = d
	}
	return &cache{dir: filepath.Join(dir, hostKey(cfg.Host))}, nil
}

// hostKey names a server's cache directory: the first 16 hex digits of
// the SHA-256 of its URL, so that URLs need no escaping.
func hostKey(host string) string {
	sum := sha256.Sum256([]byte(strings.TrimSuffix(host, "/")))
	return hex.EncodeToString(sum[:8])
}

// read returns a cached file, nil when absent or unreadable (the cache is
// only an optimisation: a broken entry is refetched).
func (c *cache) read(name string) []byte {
	if c == nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil {
		return nil
	}
	return data
}

// write stores a file atomically (a temporary file renamed into place), so
// that a concurrent kdv never reads half of it.
func (c *cache) write(name string, data []byte) error {
	if c == nil {
		return nil
	}
	p := filepath.Join(c.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// loadCRDs registers every CRD and returns the group-versions they serve.
// A nil map with an error means the CRDs could not be listed at all.
func loadCRDs(ctx context.Context, cfg *rest.Config, reg *resource.Registry, c *cache, keep func(k8sschema.GroupKind) bool, stats *SchemaStats) (map[string]bool, error) {
	mc, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	gvs := map[string]bool{}
	var errs []error
	cont := ""
	for {
		list, err := mc.Resource(crdResource).List(ctx, metav1.ListOptions{Limit: 500, Continue: cont})
		if err != nil {
			return nil, fmt.Errorf("%s: listing CustomResourceDefinitions: %w", cfg.Host, err)
		}
		for _, m := range list.Items {
			obj, fetched, err := crdObject(ctx, dc, c, m.Name, string(m.UID), m.ResourceVersion)
			if err != nil {
				errs = append(errs, fmt.Errorf("CustomResourceDefinition %s: %w", m.Name, err))
				continue
			}
			if fetched {
				stats.CRDsFetched++
			}
			source := "CustomResourceDefinition " + m.Name + " of the cluster"
			crd, err := kdvschema.ParseCRDObject(obj)
			if err == nil && keep(k8sschema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}) {
				for _, v := range crd.Spec.Versions {
					gvs[crd.Spec.Group+"/"+v.Name] = true
				}
				continue
			}
			if err == nil {
				err = reg.AddCRD(crd, source)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", source, err))
				if spec, ok := obj["spec"].(map[string]any); ok {
					names, _ := spec["names"].(map[string]any)
					g, _ := spec["group"].(string)
					k, _ := names["kind"].(string)
					reg.Reject(k8sschema.GroupKind{Group: g, Kind: k}, fmt.Sprintf("the %s could not be loaded: %v", source, err))
				}
				continue
			}
			stats.CRDs++
			for _, v := range crd.Spec.Versions {
				gvs[crd.Spec.Group+"/"+v.Name] = true
			}
		}
		if cont = list.Continue; cont == "" {
			break
		}
	}
	return gvs, errors.Join(errs...)
}

// crdObject returns a CRD as the server stores it at resourceVersion rv:
// from the cache when it holds that version of the same object (uid: a
// cluster recreated at the same address starts its resourceVersions
// again), else fetched (and cached).
func crdObject(ctx context.Context, dc dynamic.Interface, c *cache, name, uid, rv string) (obj map[string]any, fetched bool, err error) {
	file := path.Join("crds", name+".json")
	if data := c.read(file); data != nil {
		var cached map[string]any
		if utiljson.Unmarshal(data, &cached) == nil {
			if md, ok := cached["metadata"].(map[string]any); ok && md["resourceVersion"] == rv && md["uid"] == uid {
				return cached, false, nil
			}
		}
	}
	u, err := dc.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	// managedFields are of no use to validation and are often half the
	// size of a CRD.
	unstructuredDelete(u.Object, "metadata", "managedFields")
	if data, err := u.MarshalJSON(); err == nil {
		_ = c.write(file, data) // a cache that cannot be written only costs time
	}
	return u.Object, true, nil
}

func unstructuredDelete(obj map[string]any, parent, field string) {
	if m, ok := obj[parent].(map[string]any); ok {
		delete(m, field)
	}
}

// openAPIDiscovery is the /openapi/v3 document: each group-version's
// document with its content hash.
type openAPIDiscovery struct {
	Paths map[string]struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	} `json:"paths"`
}

// loadOpenAPI registers the kinds of the group-versions of /openapi/v3
// that neither CRDs nor embedded built-in schemas cover.
func loadOpenAPI(ctx context.Context, cfg *rest.Config, reg *resource.Registry, c *cache, crdGVs map[string]bool, opts SchemaOptions, stats *SchemaStats) error {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return err
	}
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return err
	}
	data, _, err := get(ctx, hc, base, "/openapi/v3", "")
	if err != nil {
		return fmt.Errorf("%s: reading /openapi/v3: %w", cfg.Host, err)
	}
	var disc openAPIDiscovery
	if err := utiljson.Unmarshal(data, &disc); err != nil {
		return fmt.Errorf("%s: /openapi/v3: %w", cfg.Host, err)
	}
	embedded := map[string]bool{}
	if kinds, err := builtin.Kinds(opts.KubernetesMinor); err == nil {
		for _, k := range kinds {
			embedded[k8sschema.GroupVersion{Group: k.Group, Version: k.Version}.String()] = true
		}
	}
	keys := make([]string, 0, len(disc.Paths))
	for k := range disc.Paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	var errs []error
	for _, key := range keys {
		gv, ok := groupVersionOf(key)
		if !ok || crdGVs[gv.String()] || embedded[gv.String()] {
			continue
		}
		if err := loadGroupVersion(ctx, hc, base, dc, reg, c, gv, key, disc.Paths[key].ServerRelativeURL, opts.Keep, stats); err != nil {
			errs = append(errs, fmt.Errorf("%s: /openapi/v3/%s: %w", cfg.Host, key, err))
		}
	}
	return errors.Join(errs...)
}

// groupVersionOf reads "api/v1" and "apis/<group>/<version>"; the other
// paths of /openapi/v3 ("apis", "version", "openid/v1/jwks", ...) serve no
// kinds.
func groupVersionOf(key string) (k8sschema.GroupVersion, bool) {
	parts := strings.Split(key, "/")
	switch {
	case len(parts) == 2 && parts[0] == "api":
		return k8sschema.GroupVersion{Version: parts[1]}, true
	case len(parts) == 3 && parts[0] == "apis":
		return k8sschema.GroupVersion{Group: parts[1], Version: parts[2]}, true
	}
	return k8sschema.GroupVersion{}, false
}

// loadGroupVersion registers the kinds of one group-version's OpenAPI
// document, read from the cache when its hash matches the server's.
func loadGroupVersion(ctx context.Context, hc *http.Client, base *url.URL, dc discovery.DiscoveryInterface, reg *resource.Registry, c *cache, gv k8sschema.GroupVersion, key, rel string, keep func(k8sschema.GroupKind) bool, stats *SchemaStats) error {
	u, err := url.Parse(rel)
	if err != nil {
		return err
	}
	hash := u.Query().Get("hash")
	file := path.Join("openapi", strings.ReplaceAll(key, "/", "_")+".json")
	var data []byte
	if hash != "" && string(c.read(file+".hash")) == hash {
		data = c.read(file)
	}
	if data == nil {
		var etag string
		data, etag, err = get(ctx, hc, base, u.Path, u.RawQuery)
		if err != nil {
			return err
		}
		stats.GroupVersionsFetched++
		if hash == "" {
			hash = etag
		}
		if c.write(file, data) == nil && hash != "" {
			_ = c.write(file+".hash", []byte(hash))
		}
	}
	doc, err := kdvschema.LoadOpenAPIDocument("/openapi/v3/"+key, data)
	if err != nil {
		return err
	}
	// OpenAPI documents do not carry scope: discovery does.
	scope := map[string]bool{}
	if list, err := dc.ServerResourcesForGroupVersion(gv.String()); err == nil {
		for _, r := range list.APIResources {
			if !strings.Contains(r.Name, "/") {
				scope[r.Kind] = r.Namespaced
			}
		}
	}
	n, err := addOpenAPIKinds(reg, doc, gv, scope, keep, stats)
	if n > 0 {
		stats.GroupVersions++
	}
	return err
}

// addOpenAPIKinds registers the kinds of gv in doc. Every group-version's
// document also lists kinds of others (meta/v1 DeleteOptions and
// WatchEvent carry a group-version-kind for every group): those are left
// to their own documents or the embedded schemas.
func addOpenAPIKinds(reg *resource.Registry, doc *kdvschema.Document, gv k8sschema.GroupVersion, scope map[string]bool, keep func(k8sschema.GroupKind) bool, stats *SchemaStats) (int, error) {
	n, nodes := 0, 0
	var errs []error
	for _, g := range doc.GVKs() {
		if g.Group != gv.Group || g.Version != gv.Version || keep(k8sschema.GroupKind{Group: g.Group, Kind: g.Kind}) {
			continue
		}
		gvk := gv.WithKind(g.Kind)
		name := doc.NameForGVK(g)
		size, err := doc.ResolvedNodes(name)
		if err == nil && nodes+size > resource.MaxOpenAPIDocumentNodes {
			err = fmt.Errorf("the document's kinds have more than %d schema nodes together (resource.MaxOpenAPIDocumentNodes)", resource.MaxOpenAPIDocumentNodes)
		}
		var s *kdvschema.Structural
		if err == nil {
			s, _, err = doc.SchemaForGVK(g)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("schema %s of %s: %w", name, gvk, err))
			reg.Reject(gvk.GroupKind(), fmt.Sprintf("its schema %s in /openapi/v3 could not be loaded: %v", name, err))
			continue
		}
		nodes += size
		ns, known := scope[g.Kind]
		if !known {
			ns = true // as LoadOpenAPIDir: namespaced unless told otherwise
		}
		reg.Add(resource.Schema{GVK: gvk, Structural: s, Namespaced: ns, Source: fmt.Sprintf("OpenAPI schema %s in the cluster's %s", name, doc.Name())})
		stats.Kinds = append(stats.Kinds, gvk)
		n++
	}
	return n, errors.Join(errs...)
}

// get reads base+p?query with the client's credentials, at most
// resource.MaxOpenAPIFileBytes, and returns the body and its ETag.
func get(ctx context.Context, hc *http.Client, base *url.URL, p, query string) ([]byte, string, error) {
	u := *base
	u.Path = strings.TrimSuffix(u.Path, "/") + p
	u.RawQuery = query
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, resource.MaxOpenAPIFileBytes+1))
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s: %s", resp.Status, firstLine(data))
	}
	if len(data) > resource.MaxOpenAPIFileBytes {
		return nil, "", fmt.Errorf("larger than %d MiB (resource.MaxOpenAPIFileBytes)", resource.MaxOpenAPIFileBytes>>20)
	}
	return data, resp.Header.Get("ETag"), nil
}

// firstLine is the start of a response body for an error message.
func firstLine(data []byte) string {
	s, _, _ := strings.Cut(string(data), "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
