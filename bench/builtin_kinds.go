package bench

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	aggregatorinstall "k8s.io/kube-aggregator/pkg/apis/apiregistration/install"
	"k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// The API groups the strategies below need in legacyscheme: versioned
	// types, defaulters, conversions, declarative validation.
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"

	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/resolver"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	noderegistry "k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
)

// builtinStrategy is what the generic store uses of a kind's strategy on
// create and update.
type builtinStrategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// builtinKind is one built-in resource: its strategy, its plural (the
// request's resource, which declarative validation reads) and the versions
// Kubernetes 1.37 serves by default.
type builtinKind struct {
	resource string
	versions []string
	strategy builtinStrategy
	// beginCreate and beginUpdate are the REST storage's own hooks
	// (store.BeginCreate/BeginUpdate), run before the strategy; nil for
	// most kinds.
	beginCreate func(obj runtime.Object)
	beginUpdate func(obj, old runtime.Object)
}

// noResolver stands in for the discovery-backed resolver the admission
// policy strategies use to authorize paramKind; with a nil authorizer (as
// for a superuser) it is never asked.
var noResolver = resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
	return schema.GroupVersionResource{}, fmt.Errorf("no resolver for %s", gvk)
})

// builtinKinds maps each covered group/kind to its registry strategy from
// k8s.io/kubernetes/pkg/registry. Strategies are the plain Strategy values
// the REST storages use, except the admission policies', built as their
// storages build them, without an authorizer.
var builtinKinds = map[schema.GroupKind]builtinKind{
	{Group: "", Kind: "Pod"}:                   {resource: "pods", versions: v1, strategy: pod.Strategy},
	{Group: "", Kind: "Service"}:               {resource: "services", versions: v1, strategy: service.Strategy, beginCreate: serviceBeginCreate, beginUpdate: serviceBeginUpdate},
	{Group: "", Kind: "ConfigMap"}:             {resource: "configmaps", versions: v1, strategy: configmap.Strategy},
	{Group: "", Kind: "Secret"}:                {resource: "secrets", versions: v1, strategy: secret.Strategy},
	{Group: "", Kind: "ServiceAccount"}:        {resource: "serviceaccounts", versions: v1, strategy: serviceaccount.Strategy},
	{Group: "", Kind: "Namespace"}:             {resource: "namespaces", versions: v1, strategy: namespace.Strategy},
	{Group: "", Kind: "PersistentVolumeClaim"}: {resource: "persistentvolumeclaims", versions: v1, strategy: persistentvolumeclaim.Strategy},
	{Group: "", Kind: "PersistentVolume"}:      {resource: "persistentvolumes", versions: v1, strategy: persistentvolume.Strategy},
	{Group: "", Kind: "Endpoints"}:             {resource: "endpoints", versions: v1, strategy: endpoint.Strategy},
	{Group: "", Kind: "LimitRange"}:            {resource: "limitranges", versions: v1, strategy: limitrange.Strategy},
	{Group: "", Kind: "ResourceQuota"}:         {resource: "resourcequotas", versions: v1, strategy: resourcequota.Strategy},
	{Group: "", Kind: "ReplicationController"}: {resource: "replicationcontrollers", versions: v1, strategy: replicationcontroller.Strategy},
	{Group: "", Kind: "PodTemplate"}:           {resource: "podtemplates", versions: v1, strategy: podtemplate.Strategy},
	{Group: "", Kind: "Node"}:                  {resource: "nodes", versions: v1, strategy: noderegistry.Strategy},
	{Group: "", Kind: "Event"}:                 {resource: "events", versions: v1, strategy: event.Strategy},
	{Group: "events.k8s.io", Kind: "Event"}:    {resource: "events", versions: v1, strategy: event.Strategy},

	{Group: "apps", Kind: "Deployment"}:         {resource: "deployments", versions: v1, strategy: deployment.Strategy},
	{Group: "apps", Kind: "StatefulSet"}:        {resource: "statefulsets", versions: v1, strategy: statefulset.Strategy},
	{Group: "apps", Kind: "DaemonSet"}:          {resource: "daemonsets", versions: v1, strategy: daemonset.Strategy},
	{Group: "apps", Kind: "ReplicaSet"}:         {resource: "replicasets", versions: v1, strategy: replicaset.Strategy},
	{Group: "apps", Kind: "ControllerRevision"}: {resource: "controllerrevisions", versions: v1, strategy: controllerrevision.Strategy},

	{Group: "batch", Kind: "Job"}:     {resource: "jobs", versions: v1, strategy: job.Strategy},
	{Group: "batch", Kind: "CronJob"}: {resource: "cronjobs", versions: v1, strategy: cronjob.Strategy},

	{Group: "networking.k8s.io", Kind: "Ingress"}:       {resource: "ingresses", versions: v1, strategy: ingress.Strategy},
	{Group: "networking.k8s.io", Kind: "IngressClass"}:  {resource: "ingressclasses", versions: v1, strategy: ingressclass.Strategy},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}: {resource: "networkpolicies", versions: v1, strategy: networkpolicy.Strategy},
	{Group: "networking.k8s.io", Kind: "IPAddress"}:     {resource: "ipaddresses", versions: v1, strategy: ipaddress.Strategy},
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:   {resource: "servicecidrs", versions: v1, strategy: servicecidr.Strategy},

	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               {resource: "roles", versions: v1, strategy: role.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        {resource: "clusterroles", versions: v1, strategy: clusterrole.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        {resource: "rolebindings", versions: v1, strategy: rolebinding.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: {resource: "clusterrolebindings", versions: v1, strategy: clusterrolebinding.Strategy},

	{Group: "policy", Kind: "PodDisruptionBudget"}:                    {resource: "poddisruptionbudgets", versions: v1, strategy: poddisruptionbudget.Strategy},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:           {resource: "horizontalpodautoscalers", versions: []string{"v1", "v2"}, strategy: horizontalpodautoscaler.Strategy},
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:               {resource: "priorityclasses", versions: v1, strategy: priorityclass.Strategy},
	{Group: "coordination.k8s.io", Kind: "Lease"}:                     {resource: "leases", versions: v1, strategy: lease.Strategy},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                {resource: "endpointslices", versions: v1, strategy: endpointslice.Strategy},
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                      {resource: "runtimeclasses", versions: v1, strategy: runtimeclass.Strategy},
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: {resource: "certificatesigningrequests", versions: v1, strategy: certificates.Strategy},

	{Group: "storage.k8s.io", Kind: "StorageClass"}:          {resource: "storageclasses", versions: v1, strategy: storageclass.Strategy},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:             {resource: "csidrivers", versions: v1, strategy: csidriver.Strategy},
	{Group: "storage.k8s.io", Kind: "CSINode"}:               {resource: "csinodes", versions: v1, strategy: csinode.Strategy},
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}:    {resource: "csistoragecapacities", versions: v1, strategy: csistoragecapacity.Strategy},
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:      {resource: "volumeattachments", versions: v1, strategy: volumeattachment.Strategy},
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}: {resource: "volumeattributesclasses", versions: v1, strategy: volumeattributesclass.Strategy},

	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                 {resource: "flowschemas", versions: v1, strategy: flowschema.Strategy},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}: {resource: "prioritylevelconfigurations", versions: v1, strategy: prioritylevelconfiguration.Strategy},

	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   {resource: "validatingwebhookconfigurations", versions: v1, strategy: validatingwebhookconfiguration.Strategy},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     {resource: "mutatingwebhookconfigurations", versions: v1, strategy: mutatingwebhookconfiguration.Strategy},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        {resource: "validatingadmissionpolicies", versions: v1, strategy: validatingadmissionpolicy.NewStrategy(nil, noResolver)},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: {resource: "validatingadmissionpolicybindings", versions: v1, strategy: validatingadmissionpolicybinding.NewStrategy(nil, nil, noResolver)},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:          {resource: "mutatingadmissionpolicies", versions: v1, strategy: mutatingadmissionpolicy.NewStrategy(nil, noResolver)},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}:   {resource: "mutatingadmissionpolicybindings", versions: v1, strategy: mutatingadmissionpolicybinding.NewStrategy(nil, nil, noResolver)},

	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}: {resource: "clustertrustbundles", versions: v1, strategy: clustertrustbundle.Strategy},
	// GA in 1.37 (gate PodCertificateRequest on by default); kubelets
	// create them, limited by the NodeRestriction admission plugin, which
	// is not run here
	{Group: "certificates.k8s.io", Kind: "PodCertificateRequest"}: {resource: "podcertificaterequests", versions: v1, strategy: podcertificaterequest.NewStrategy()},

	{Group: "resource.k8s.io", Kind: "DeviceClass"}:           {resource: "deviceclasses", versions: v1, strategy: deviceclass.Strategy},
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:         {resource: "resourceclaims", versions: v1, strategy: resourceclaim.NewStrategy(unlabelledNamespaces{}, nil)},
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: {resource: "resourceclaimtemplates", versions: v1, strategy: resourceclaimtemplate.NewStrategy(unlabelledNamespaces{})},
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}:         {resource: "resourceslices", versions: v1, strategy: resourceslice.Strategy},
	// resource.k8s.io/v1 in 1.37 (gate DRADeviceTaintRules GA, on)
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}: {resource: "devicetaintrules", versions: v1, strategy: devicetaintrule.Strategy},

	// storagemigration.k8s.io/v1: GA in 1.37 (StorageVersionMigrator on
	// by default, the version enabled by default)
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}: {resource: "storageversionmigrations", versions: v1, strategy: storagemigration.Strategy},

	// kube-aggregator's, served by kube-apiserver's aggregator (its
	// scheme is installed in legacyscheme below)
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: {resource: "apiservices", versions: v1, strategy: apiservice.NewStrategy(legacyscheme.Scheme)},
}

func init() {
	// The aggregator decodes APIServices with its own scheme (types,
	// defaulters, conversions of apiregistration.k8s.io); the reference
	// decodes every kind with legacyscheme, so the group is added there.
	aggregatorinstall.Install(legacyscheme.Scheme)
}

var v1 = []string{"v1"}

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

// BuiltinKinds lists the group/version/kinds the reference covers.
func BuiltinKinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for gk, k := range builtinKinds {
		for _, v := range k.versions {
			out = append(out, gk.WithVersion(v))
		}
	}
	return out
}
