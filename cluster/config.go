// Package cluster connects kdv to a live Kubernetes cluster: it takes
// schemas from the cluster (its CustomResourceDefinitions and /openapi/v3,
// cached on disk and refetched only when the server says they changed) and
// audits every object the cluster stores against a chosen Kubernetes
// release's rules, as creates and as unchanged updates.
//
// The cluster is reached with client-go, from a kubeconfig as kubectl reads
// it (KUBECONFIG, ~/.kube/config, in-cluster config) or from a *rest.Config.
package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"kdv.dev/builtin"
)

// RESTConfig builds a client configuration as kubectl does: kubeconfig is
// the --kubeconfig file (empty: $KUBECONFIG, then ~/.kube/config, then the
// in-cluster configuration) and context the --context to use (empty: the
// current context).
func RESTConfig(kubeconfig, context string) (*rest.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if kubeconfig != "" {
		rules.ExplicitPath = kubeconfig
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: context}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return cfg, nil
}

// withRate returns a copy of cfg with kdv's client-side rate limit when
// cfg sets none: kdv reads a page per kind, a CRD per changed CRD and an
// OpenAPI document per group-version, and client-go's default of 5
// requests per second would make that crawl (kubectl's discovery uses 50).
func withRate(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	if cfg.QPS == 0 && cfg.RateLimiter == nil {
		cfg.QPS, cfg.Burst = 50, 100
	}
	return cfg
}

// ServerVersion returns the cluster's version as /version reports it
// (gitVersion, e.g. "v1.37.2").
func ServerVersion(ctx context.Context, cfg *rest.Config) (string, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return "", err
	}
	info, err := dc.ServerVersion()
	if err != nil {
		return "", fmt.Errorf("%s: reading /version: %w", cfg.Host, err)
	}
	return info.GitVersion, nil
}

// ChooseMinor picks the embedded Kubernetes minor version that matches a
// server's gitVersion ("v1.37.2", "v1.36.4-eks-abc"): the server's own
// when kdv embeds it, else the nearest embedded one; the newest for a
// version that is not 1.<minor> (a development build reports
// "v0.0.0-master+$Format:%H$"). note says what was chosen and why, for a
// line on stderr.
func ChooseMinor(gitVersion string) (minor int, note string, err error) {
	versions := builtin.Versions()
	if len(versions) == 0 {
		return 0, "", fmt.Errorf("kdv embeds no Kubernetes release")
	}
	lo, hi := versions[0], versions[len(versions)-1]
	server, ok := parseMinor(gitVersion)
	if !ok {
		return hi, fmt.Sprintf("the cluster reports version %q, not 1.<minor>: validating against 1.%d (--kubernetes-version to choose)", gitVersion, hi), nil
	}
	switch {
	case server < lo:
		return lo, fmt.Sprintf("the cluster runs %s, older than the oldest release kdv embeds: validating against 1.%d", gitVersion, lo), nil
	case server > hi:
		return hi, fmt.Sprintf("the cluster runs %s, newer than the newest release kdv embeds: validating against 1.%d", gitVersion, hi), nil
	}
	for _, v := range versions {
		if v >= server {
			if v == server {
				return v, fmt.Sprintf("the cluster runs %s: validating against 1.%d (--kubernetes-version to choose)", gitVersion, v), nil
			}
			return v, fmt.Sprintf("the cluster runs %s, which kdv does not embed: validating against 1.%d", gitVersion, v), nil
		}
	}
	return hi, "", nil // unreachable: server <= hi
}

// parseMinor reads the minor of "v1.37.2", "1.37", "v1.36.4-eks-1".
func parseMinor(gitVersion string) (int, bool) {
	parts := strings.SplitN(strings.TrimPrefix(gitVersion, "v"), ".", 3)
	if len(parts) < 2 || parts[0] != "1" {
		return 0, false
	}
	digits := parts[1]
	if i := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		digits = digits[:i] // "37+" of some managed clusters
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}
