package bench

import (
	"k8s.io/apimachinery/pkg/runtime"
	api "k8s.io/kubernetes/pkg/apis/core"
)

// The Service REST storage (pkg/registry/core/service/storage) runs its own
// steps before the strategy: normalizeClusterIPs, and the allocation of
// cluster IPs and node ports (BeginCreate), or patchAllocatedValues
// (BeginUpdate). Importing that package would pull in etcd storage and the
// allocators, so these are small ports of its functions, with a fixed
// single-stack IPv4 "allocation" in place of the allocators: enough that a
// Service without clusterIP or nodePorts validates as it does on a real
// apiserver, where they have been allocated by then.

// serviceBeginCreate is REST.beginCreate without real allocators.
func serviceBeginCreate(obj runtime.Object) {
	svc, ok := obj.(*api.Service)
	if !ok {
		return
	}
	// normalizeClusterIPs on create: an old client's singular field
	// initialises the plural one.
	if svc.Spec.ClusterIP != "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	allocateService(svc)
}

// allocateService stands in for the allocators' allocateCreate: IP family
// fields of a single-stack IPv4 cluster, a cluster IP, node ports and the
// health-check node port where the Service needs them and has none.
func allocateService(svc *api.Service) {
	if !serviceNeedsClusterIP(svc) {
		return
	}
	if svc.Spec.IPFamilyPolicy == nil {
		p := api.IPFamilyPolicySingleStack
		svc.Spec.IPFamilyPolicy = &p
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
	}
	if svc.Spec.ClusterIP == "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIP = "10.96.0.10"
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if serviceNeedsNodePort(svc) {
		for i := range svc.Spec.Ports {
			if svc.Spec.Ports[i].NodePort == 0 {
				svc.Spec.Ports[i].NodePort = int32(30000 + i)
			}
		}
	}
	if serviceNeedsHCNodePort(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = 32000
	}
}

// serviceBeginUpdate is REST.beginUpdate's patchAllocatedValues and
// normalizeClusterIPs (allocateUpdate allocates only for type changes,
// done here as on create).
func serviceBeginUpdate(obj, oldObj runtime.Object) {
	svc, ok := obj.(*api.Service)
	old, ok2 := oldObj.(*api.Service)
	if !ok || !ok2 {
		return
	}
	// patchAllocatedValues
	if serviceNeedsClusterIP(old) && serviceNeedsClusterIP(svc) {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = old.Spec.ClusterIPs
		}
	}
	if serviceNeedsNodePort(old) && serviceNeedsNodePort(svc) {
		used := map[int32]bool{}
		inNew := map[int32]bool{}
		for _, p := range svc.Spec.Ports {
			inNew[p.NodePort] = true
		}
		np := map[string]int32{}
		for _, p := range old.Spec.Ports {
			if p.NodePort != 0 && inNew[p.NodePort] {
				used[p.NodePort] = true
			}
			np[p.Name] = p.NodePort
		}
		for i := range svc.Spec.Ports {
			p := &svc.Spec.Ports[i]
			if p.NodePort == 0 && !used[np[p.Name]] {
				p.NodePort = np[p.Name]
			}
		}
	}
	if serviceNeedsHCNodePort(old) && serviceNeedsHCNodePort(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = old.Spec.HealthCheckNodePort
	}
	// normalizeClusterIPs on update
	if len(old.Spec.ClusterIPs) > 0 && len(svc.Spec.ClusterIPs) == 0 && old.Spec.ClusterIP == svc.Spec.ClusterIP {
		svc.Spec.ClusterIPs = old.Spec.ClusterIPs
	}
	if old.Spec.ClusterIP != svc.Spec.ClusterIP {
		if old.Spec.ClusterIP != "" && svc.Spec.ClusterIP == "" {
			if sameStrings(old.Spec.ClusterIPs, svc.Spec.ClusterIPs) {
				svc.Spec.ClusterIPs = nil
			}
		} else if sameStrings(old.Spec.ClusterIPs, svc.Spec.ClusterIPs) {
			svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
		}
	}
	if svc.Spec.Type != old.Spec.Type {
		allocateService(svc)
	}
}

func serviceNeedsClusterIP(svc *api.Service) bool {
	return svc.Spec.Type != api.ServiceTypeExternalName
}

func serviceNeedsNodePort(svc *api.Service) bool {
	return svc.Spec.Type == api.ServiceTypeNodePort ||
		svc.Spec.Type == api.ServiceTypeLoadBalancer && (svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts)
}

func serviceNeedsHCNodePort(svc *api.Service) bool {
	return svc.Spec.Type == api.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
