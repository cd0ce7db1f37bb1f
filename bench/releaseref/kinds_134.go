//go:build releaseref && (k8s134 || k8s135 || k8s136)

package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	_ "k8s.io/kubernetes/pkg/apis/resource/install"

	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
)

// The kinds Kubernetes 1.34 to 1.36 serve by default beyond 1.33's
// (kinds_133.go): storage.k8s.io/v1 VolumeAttributesClass and
// resource.k8s.io/v1 (GA in 1.34). MutatingAdmissionPolicy (v1beta1 in 1.34
// and 1.35; kinds_136.go) and ClusterTrustBundle (v1beta1) are beta APIs,
// off by default. ResourceClaim's strategy takes other arguments from 1.36
// on: resourceclaim_134.go, kinds_136.go.
func init() {
	for gk, k := range map[schema.GroupKind]builtinKind{
		{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:  {resource: "volumeattributesclasses", versions: v1, strategy: volumeattributesclass.Strategy},
		{Group: "resource.k8s.io", Kind: "DeviceClass"}:           {resource: "deviceclasses", versions: v1, strategy: deviceclass.Strategy},
		{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: {resource: "resourceclaimtemplates", versions: v1, strategy: resourceclaimtemplate.NewStrategy(unlabelledNamespaces{})},
		{Group: "resource.k8s.io", Kind: "ResourceSlice"}:         {resource: "resourceslices", versions: v1, strategy: resourceslice.Strategy},
	} {
		builtinKinds[gk] = k
	}
}

// unlabelledNamespaces stands in for the namespace client the
// ResourceClaim and ResourceClaimTemplate strategies ask when a request
// sets adminAccess: every namespace exists without labels, as "default"
// does in a fresh cluster, so admin access is forbidden. Only Get is
// implemented.
type unlabelledNamespaces struct {
	corev1client.NamespaceInterface
}

// Get returns a namespace of that name without labels.
func (unlabelledNamespaces) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Namespace, error) {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, nil
}
