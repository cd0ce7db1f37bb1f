//go:build releaseref && (k8s133 || k8s134 || k8s135 || k8s136)

package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
)

// The kinds Kubernetes 1.33 to 1.36 serve by default beyond 1.30's:
// networking.k8s.io/v1 IPAddress and ServiceCIDR (GA in 1.33; v1beta1,
// off by default, in 1.31 and 1.32).
func init() {
	for gk, k := range map[schema.GroupKind]builtinKind{
		{Group: "networking.k8s.io", Kind: "IPAddress"}:   {resource: "ipaddresses", versions: v1, strategy: ipaddress.Strategy},
		{Group: "networking.k8s.io", Kind: "ServiceCIDR"}: {resource: "servicecidrs", versions: v1, strategy: servicecidr.Strategy},
	} {
		builtinKinds[gk] = k
	}
}
