package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"kdv.dev/cluster"
	"kdv.dev/resource"
)

// clusterFlags are how kdv reaches a live cluster, as kubectl takes them.
type clusterFlags struct {
	enabled    bool // kdv validate --cluster
	kubeconfig string
	context    string
	noCache    bool
}

// addClusterFlags adds --kubeconfig, --context, --no-cache and, with
// withSwitch, --cluster (kdv validate; kdv audit always uses the cluster).
func addClusterFlags(fl *pflag.FlagSet, f *clusterFlags, withSwitch bool) {
	if withSwitch {
		fl.BoolVar(&f.enabled, "cluster", false, "also take schemas from the cluster of the kubeconfig: its CustomResourceDefinitions and /openapi/v3 (aggregated APIs), cached on disk; without --kubernetes-version, the cluster's version picks the built-in rules")
	}
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "the kubeconfig file, as kubectl --kubeconfig (default: $KUBECONFIG, then ~/.kube/config)")
	fl.StringVar(&f.context, "context", "", "the kubeconfig context to use, as kubectl --context (default: the current context)")
	fl.BoolVar(&f.noCache, "no-cache", false, "fetch the cluster's schemas again instead of using the on-disk cache (os.UserCacheDir()/kdv/cluster)")
}

// connectCluster builds the client configuration and, when minor is 0
// (no --kubernetes-version), picks the release from the server's /version,
// saying which on stderr.
func connectCluster(ctx context.Context, stderr io.Writer, f clusterFlags, minor int) (*rest.Config, int, error) {
	cfg, err := cluster.RESTConfig(f.kubeconfig, f.context)
	if err != nil {
		return nil, 0, err
	}
	if minor != 0 {
		return cfg, minor, nil
	}
	v, err := cluster.ServerVersion(ctx, cfg)
	if err != nil {
		return nil, 0, err
	}
	minor, note, err := cluster.ChooseMinor(v)
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(stderr, "kdv: %s\n", note)
	return cfg, minor, nil
}

// addClusterSchemas registers the cluster's schemas in reg, except for
// kinds reg already defines (from --crds or --schemas: the repository's
// own are newer). Problems go to stderr, each after prefix; bad says
// there were some.
func addClusterSchemas(ctx context.Context, stderr io.Writer, prefix string, cfg *rest.Config, reg *resource.Registry, minor int, f clusterFlags) (bad bool) {
	local := map[k8sschema.GroupKind]bool{}
	for _, gvk := range reg.Kinds() {
		local[gvk.GroupKind()] = true
	}
	stats, err := cluster.LoadSchemas(ctx, cfg, reg, cluster.SchemaOptions{
		KubernetesMinor: kubernetesMinor(minor),
		NoCache:         f.noCache,
		Keep:            func(gk k8sschema.GroupKind) bool { return local[gk] },
	})
	if err != nil {
		printErrors(stderr, prefix, err)
		bad = true
	}
	if err == nil || stats.CRDs+stats.GroupVersions > 0 {
		fmt.Fprintf(stderr, "kdv: schemas of %s: %s\n", cfg.Host, stats)
	}
	return bad
}
