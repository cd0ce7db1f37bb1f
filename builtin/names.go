package builtin

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// NameValidation returns the name rule of the built-in kind gk: the
// ValidateNameFunc that the kind's hand-written validation in
// kubernetes/kubernetes pkg/apis/<group>/validation passes to
// ValidateObjectMeta on create. It is called with the name (prefix false)
// and with metadata.generateName (prefix true) and returns one message per
// violated rule, apimachinery's own messages, each reported as
// `metadata.name: Invalid value: "<name>": <message>`. The update path does
// not check names again (names are immutable). nil means apimachinery's
// NameIsDNSSubdomain, the rule of custom resources and of most built-in
// kinds, and of every kind not in the table below. The table was read from
// Kubernetes 1.33-1.37 sources (files named per group in names.go); the
// Go functions are apimachinery's where Kubernetes uses them, and copies of
// Kubernetes' small functions otherwise.
//
// Kinds whose rule differs from NameIsDNSSubdomain:
//
//   - core Service: NameIsDNS1035Label (NameIsDNSLabel from 1.36: see
//     NameValidationFor); Namespace: NameIsDNSLabel
//     (ValidateNamespaceName).
//   - core Event (v1): no name rule in its validation (legacyValidateEvent),
//     so only the registry's generic path segment check (k8s.io/apiserver
//     pkg/registry/rest ValidateCreate) applies. events.k8s.io Event keeps
//     NameIsDNSSubdomain.
//   - apps StatefulSet: NameIsDNSLabel.
//   - batch CronJob: NameIsDNSSubdomain plus "must be no more than 52
//     characters" (ValidateCronJobCreate; the apiserver reports it after
//     the spec errors, kdv with the metadata errors).
//   - rbac.authorization.k8s.io Role, ClusterRole, RoleBinding,
//     ClusterRoleBinding: path segment names (ValidateRBACName), so
//     "system:kube-scheduler" is valid.
//   - policy PodDisruptionBudget and certificates.k8s.io
//     CertificateSigningRequest: no name rule of their own, the generic
//     path segment check.
//   - networking.k8s.io IPAddress: a canonical IP address
//     (ValidateIPAddressName, utilvalidation.IsValidIP).
//   - coordination.k8s.io LeaseCandidate: a ConfigMap key
//     (ValidLeaseCandidateName, utilvalidation.IsConfigMapKey).
//   - internal.apiserver.k8s.io StorageVersion: <group>.<resource>
//     (ValidateStorageVersionName).
//
// The generic path segment check runs in the apiserver only when the kind's
// own validation found no error; kdv applies it always.
//
// ClusterTrustBundle's rule depends on spec.signerName (names "<signer with
// / as :>:<DNS subdomain>" when a signer is set, a DNS subdomain without
// ":" otherwise): the name function checks what does not depend on it (the
// part after the last ":" is a DNS subdomain), and the overlay's rule on
// ClusterTrustBundle the prefix.
//
// Not expressible as a name function, so not checked: Job's indexed-pod
// hostname rule (depends on spec.completions),
// PriorityClass's reserved "system-" prefix (depends on spec.value).
//
// DNS subdomain (verified): Pod, PodTemplate, ReplicationController, Node, LimitRange,
// ResourceQuota, Secret, ConfigMap, ServiceAccount, Endpoints,
// PersistentVolume, PersistentVolumeClaim; Deployment, ReplicaSet,
// DaemonSet, ControllerRevision; Job; HorizontalPodAutoscaler;
// NetworkPolicy, Ingress, IngressClass, ServiceCIDR; StorageClass,
// VolumeAttachment, CSIDriver, CSINode, CSIStorageCapacity,
// VolumeAttributesClass; PriorityClass, Workload, CompositePodGroup; Lease;
// PodCertificateRequest; ValidatingWebhookConfiguration,
// MutatingWebhookConfiguration, ValidatingAdmissionPolicy,
// ValidatingAdmissionPolicyBinding; EndpointSlice; FlowSchema,
// PriorityLevelConfiguration; RuntimeClass; DeviceClass, ResourceClaim,
// ResourceClaimTemplate, ResourceSlice, DeviceTaintRule;
// StorageVersionMigration; events.k8s.io Event.
//
// DNS subdomain (unverified, default): MutatingAdmissionPolicy,
// MutatingAdmissionPolicyBinding, PodGroup (core ValidatePodGroupName not
// located), ResourcePoolStatusRequest, lifecycle.k8s.io EvictionRequest
// (its coordination.k8s.io predecessor checks a UUID declaratively), and
// kinds that are not stored objects (reviews, options, Binding, Eviction,
// Scale, ...).
func NameValidation(gk k8sschema.GroupKind) func(name string, prefix bool) []string {
	return nameRules[gk]
}

// NameValidationFor is NameValidation at Kubernetes 1.<minor> with that
// release's default feature gates (0: the newest kdv knows). It differs
// for Service from 1.36 on, where RelaxedServiceNameValidation (KEP-5311;
// beta and on by default in 1.36, GA in 1.37) makes ValidateService use
// NameIsDNSLabel instead of NameIsDNS1035Label, so "1abc" is a valid
// Service name (k8s.io/kubernetes pkg/apis/core/validation/validation.go
// ValidateService).
func NameValidationFor(gk k8sschema.GroupKind, minor int) func(name string, prefix bool) []string {
	if gk == (k8sschema.GroupKind{Kind: "Service"}) && (minor == 0 || minor >= 36) {
		return metavalidation.NameIsDNSLabel
	}
	if longNameKinds[gk] {
		if minor != 0 && minor < 35 {
			// ValidateObjectMeta with NameIsDNSSubdomain, which checks
			// generateName on its own too
			return metavalidation.NameIsDNSSubdomain
		}
		return declarativeLongName
	}
	return nameRules[gk]
}

// longNameKinds are the kinds whose name check is validate.LongName from
// 1.35: the hand-written ValidateReplicationController and
// ValidateDeviceClass call ValidateObjectMetaWithOpts with validate.LongName,
// marked MarkCoveredByDeclarative (validation-gen decides from 1.37,
// +k8s:beta(since: "1.37")=+k8s:format=k8s-long-name, with the same
// check). 1.34 and before call ValidateObjectMeta with
// NameIsDNSSubdomain.
var longNameKinds = map[k8sschema.GroupKind]bool{
	{Kind: "ReplicationController"}:                 true,
	{Group: "resource.k8s.io", Kind: "DeviceClass"}: true,
}

// declarativeLongName is validate.LongName as a name rule: the name's
// messages are content.IsDNS1123Subdomain's ("must be no more than 253
// bytes"), and generateName is not checked on its own
// (ValidateObjectMetaAccessorWithOpts checks only the generated name).
func declarativeLongName(name string, prefix bool) []string {
	if prefix {
		return nil
	}
	return content.IsDNS1123Subdomain(name)
}

// nameRules holds the kinds whose rule is not NameIsDNSSubdomain. Sources
// of the kinds left at the default (kubernetes/kubernetes, pkg/apis/...):
// core/validation/validation.go (Validate*Name variables, ValidatePodTemplate),
// apps/validation/validation.go, batch/validation/validation.go (ValidateJob),
// autoscaling/validation/validation.go (ValidateHorizontalPodAutoscalerName),
// networking/validation/validation.go, storage/validation/validation.go,
// scheduling/validation/validation.go, coordination/validation/validation.go
// (ValidateLease), certificates/validation/validation.go
// (ValidatePodCertificateRequestCreate, ValidateClusterTrustBundle),
// admissionregistration/validation/validation.go, discovery/validation/
// validation.go, flowcontrol/validation/validation.go, node/validation/
// validation.go, resource/validation/validation.go, storagemigration/
// validation/validation.go, core/validation/events.go (events.k8s.io).
var nameRules = map[k8sschema.GroupKind]func(string, bool) []string{
	// pkg/apis/core/validation/validation.go: ValidateServiceName =
	// NameIsDNS1035Label, ValidateNamespaceName =
	// apimachineryvalidation.ValidateNamespaceName; the other Validate*Name
	// variables are NameIsDNSSubdomain. pkg/apis/core/validation/events.go:
	// ValidateEventCreate skips ValidateObjectMeta for core/v1 requests.
	{Kind: "Service"}:   metavalidation.NameIsDNS1035Label,
	{Kind: "Namespace"}: metavalidation.ValidateNamespaceName,
	{Kind: "Event"}:     pathSegmentName,

	// pkg/apis/apps/validation/validation.go: ValidateStatefulSetName.
	{Group: "apps", Kind: "StatefulSet"}: metavalidation.NameIsDNSLabel,

	// pkg/apis/batch/validation/validation.go: ValidateCronJobCreate.
	{Group: "batch", Kind: "CronJob"}: cronJobName,

	// pkg/apis/rbac/validation/validation.go: ValidateRBACName.
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               rbacName,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        rbacName,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        rbacName,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: rbacName,

	// pkg/apis/policy/validation/validation.go: ValidatePodDisruptionBudget
	// validates the spec only (pkg/registry/policy/poddisruptionbudget
	// strategy.go Validate calls nothing else).
	{Group: "policy", Kind: "PodDisruptionBudget"}: pathSegmentName,

	// k8s.io/kube-aggregator pkg/apis/apiregistration/validation
	// ValidateAPIService: content.IsPathSegmentName, then the name must be
	// spec.version + "." + spec.group (a rule on spec, not declared here:
	// a name function sees the name alone), so the core group's "v1."
	// is a valid name.
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: pathSegmentName,

	// pkg/apis/certificates/validation/validation.go:
	// ValidateCertificateRequestName returns nil ("We don't care what you
	// call your certificate requests.").
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: pathSegmentName,

	// pkg/apis/core/validation/names.go: ValidateClusterTrustBundleName,
	// which depends on spec.signerName; the name-only part is here, the
	// prefix rule is a CEL rule of the overlay (certificates_v1_rules.tags).
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}: clusterTrustBundleName,

	// pkg/apis/networking/validation/validation.go: ValidateIPAddressName.
	{Group: "networking.k8s.io", Kind: "IPAddress"}: ipAddressName,

	// pkg/apis/coordination/validation/validation.go: ValidLeaseCandidateName.
	{Group: "coordination.k8s.io", Kind: "LeaseCandidate"}: leaseCandidateName,

	// pkg/apis/core/validation/validation.go ValidateReplicationController
	// and pkg/apis/resource/validation/validation.go ValidateDeviceClass call
	// ValidateObjectMetaWithOpts with validate.LongName: generateName is not
	// checked with it.
	{Kind: "ReplicationController"}:                 withOpts(metavalidation.NameIsDNSSubdomain),
	{Group: "resource.k8s.io", Kind: "DeviceClass"}: withOpts(metavalidation.NameIsDNSSubdomain),

	// pkg/apis/apiserverinternal/validation/validation.go:
	// ValidateStorageVersionName.
	{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"}: storageVersionName,
}

// clusterTrustBundleName is the part of ValidateClusterTrustBundleName
// (pkg/apis/core/validation/names.go) that does not depend on
// spec.signerName: with a signer the name is "<signer with / as :>:" and a
// DNS subdomain, which holds no ":", so the part after the last ":" is that
// subdomain; without one the name holds no ":" and is a DNS subdomain
// itself. A name with ":" but no signer is the overlay rule's error.
func clusterTrustBundleName(name string, prefix bool) []string {
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:]
	}
	return metavalidation.NameIsDNSSubdomain(name, prefix)
}

// rbacName is ValidateRBACName: a path segment, prefix or not.
func rbacName(name string, _ bool) []string {
	return content.IsPathSegmentName(name)
}

// pathSegmentName is validatePathSegment of k8s.io/apiserver
// pkg/registry/rest/create.go, the check every kind gets after its own
// validation passed.
func pathSegmentName(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// withOpts is the name rule of a kind whose validation calls
// ValidateObjectMetaWithOpts: the name is checked with nameFn, but
// generateName only by the generic path segment check (k8s.io/apimachinery
// pkg/api/validation ValidateObjectMetaAccessorWithOpts leaves it out,
// since name generation has happened by then; the apiserver's create
// handler checks it with ValidatePathSegmentName).
func withOpts(nameFn func(string, bool) []string) func(string, bool) []string {
	return func(name string, prefix bool) []string {
		if prefix {
			return content.IsPathSegmentPrefix(name)
		}
		return nameFn(name, false)
	}
}

// cronJobMaxName is DNS1035LabelMaxLength-11: the CronJob controller names
// its Jobs <cronjob>-<11 characters>.
const cronJobMaxName = utilvalidation.DNS1035LabelMaxLength - 11

// cronJobName is ValidateCronJobCreate's name checks: the
// ReplicationController rule (NameIsDNSSubdomain), then the length of the
// final name (not of a generateName prefix).
func cronJobName(name string, prefix bool) []string {
	msgs := metavalidation.NameIsDNSSubdomain(name, prefix)
	if !prefix && len(name) > cronJobMaxName {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d characters", cronJobMaxName))
	}
	return msgs
}

// ipAddressName is ValidateIPAddressName: the name is an IP address in
// canonical form; prefix is not considered (IPAddress has no generated
// names).
func ipAddressName(name string, _ bool) []string {
	var msgs []string
	for _, e := range utilvalidation.IsValidIP(&field.Path{}, name) {
		msgs = append(msgs, e.Detail)
	}
	return msgs
}

// leaseCandidateName is ValidLeaseCandidateName.
func leaseCandidateName(name string, _ bool) []string {
	return utilvalidation.IsConfigMapKey(name)
}

// storageVersionName is ValidateStorageVersionName: <group>.<resource>, a
// DNS subdomain and a DNS-1035 label split at the last dot.
func storageVersionName(name string, _ bool) []string {
	var msgs []string
	idx := strings.LastIndex(name, ".")
	if idx < 0 {
		return append(msgs, "name must be in the form of <group>.<resource>")
	}
	for _, msg := range utilvalidation.IsDNS1123Subdomain(name[:idx]) {
		msgs = append(msgs, "the group segment "+msg)
	}
	for _, msg := range utilvalidation.IsDNS1035Label(name[idx+1:]) {
		msgs = append(msgs, "the resource segment "+msg)
	}
	return msgs
}

// MetaValidatedOnUpdate reports whether the update validation of the
// built-in kind gk runs the kind's create-time ObjectMeta validation again
// (its Validate<Kind>Update calls Validate<Kind>, which calls
// ValidateObjectMeta with the kind's name rule), so that on update
// metadata.generateName, labels, annotations, ... are checked once more,
// generateName with NameValidation(gk) instead of the path segment rule of
// rest.ValidateUpdate. The table comes from the reference (bench/
// cmd/builtin-verdict, Kubernetes 1.37): an unchanged object of each kind
// updated with generateName "Bad_Prefix-". Kinds not in it (Service,
// ResourceQuota, workloads, RBAC, Event, PodDisruptionBudget, HPA,
// PriorityClass, CSIDriver, Lease, NetworkPolicy, and the kinds the
// reference does not cover) are not re-checked: a miss at worst.
func MetaValidatedOnUpdate(gk k8sschema.GroupKind) bool {
	return metaOnUpdate[gk]
}

// MetaValidatedOnUpdateFor is MetaValidatedOnUpdate at Kubernetes
// 1.<minor> (0: the newest kdv knows): before their strategies stopped
// calling the create validation on update, more kinds check their
// ObjectMeta again (metaOnUpdateUntil).
func MetaValidatedOnUpdateFor(gk k8sschema.GroupKind, minor int) bool {
	if metaOnUpdate[gk] {
		return true
	}
	until, ok := metaOnUpdateUntil[gk]
	return ok && minor != 0 && minor <= until
}

// metaOnUpdateUntil holds the kinds whose update validation ran the
// create-time validation of the new object (with its ObjectMeta) until
// the release given, from the k8s.io/kubernetes sources of 1.30 to 1.36
// and bench's old-release references (an update with generateName
// "Bad_Prefix-"): ValidateServiceUpdate returned ValidateService(service)
// until 1.33; the DaemonSet and ReplicaSet strategies' ValidateUpdate
// called ValidateDaemonSet and ValidateReplicaSet until 1.33, the
// ReplicationController, DeviceClass, ResourceClaim, VolumeAttachment and
// RBAC ones ValidateReplicationController, ValidateDeviceClass,
// ValidateResourceClaim, ValidateVolumeAttachment and ValidateRole (and
// the other three) until 1.34, the NetworkPolicy one ValidateNetworkPolicy
// until 1.35, the Job one ValidateJob until 1.36.
var metaOnUpdateUntil = map[k8sschema.GroupKind]int{
	{Group: "batch", Kind: "Job"}:                                    36,
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                34,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:              34,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               34,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        34,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        34,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: 34,
	{Kind: "Service"}:                                   33,
	{Group: "apps", Kind: "DaemonSet"}:                  33,
	{Group: "apps", Kind: "ReplicaSet"}:                 33,
	{Kind: "ReplicationController"}:                     34,
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:     34,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}: 35,
}

var metaOnUpdate = map[k8sschema.GroupKind]bool{
	{Kind: "Pod"}: true, {Kind: "ConfigMap"}: true, {Kind: "Secret"}: true,
	{Kind: "ServiceAccount"}: true, {Kind: "Namespace"}: true,
	{Kind: "PersistentVolumeClaim"}: true, {Kind: "PersistentVolume"}: true,
	{Kind: "Endpoints"}: true, {Kind: "LimitRange"}: true, {Kind: "Node"}: true,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                     true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                                true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "apps", Kind: "ControllerRevision"}:                                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                                 true,
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}:                         true,
	// ValidateCSINodeUpdate, ValidateFlowSchemaUpdate,
	// ValidateMutatingAdmissionPolicy(Binding)Update,
	// ValidateClusterTrustBundleUpdate and ValidateVolumeAttributesClassUpdate
	// call the create-time validation; the CSIStorageCapacity strategy's
	// ValidateUpdate calls ValidateCSIStorageCapacity too. Checked against
	// the reference with generateName "Bad_Prefix-" on an update, changed
	// or not (no ratcheting: the whole ObjectMeta is validated again).
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}:                           true,
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                        true,
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}:                      true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                     true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}: true,
	// ValidateStorageVersionMigrationUpdate calls
	// ValidateStorageVersionMigration (checked the same way).
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}: true,
	// k8s.io/kube-aggregator's ValidateAPIServiceUpdate calls
	// ValidateAPIService (the same check against the reference).
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: true,
}

// ErrorsFiltered reports whether the registry strategy of the built-in kind
// gk ends its validation with the filter of rest.DeclarativeValidation
// (from 1.37), which drops repeated errors: the k8s.io/kubernetes
// strategies do. k8s.io/kube-aggregator's APIService strategy does not, so
// an APIService's bad label is reported four times on update
// (rest.ValidateUpdate's two common checks, ValidateAPIServiceUpdate's
// ObjectMeta update check and ValidateAPIService's create-time one), as
// bench's reference reports it.
func ErrorsFiltered(gk k8sschema.GroupKind) bool {
	return gk != k8sschema.GroupKind{Group: "apiregistration.k8s.io", Kind: "APIService"}
}

// NameGeneratedOnCreate reports whether the registry of the built-in kind
// gk names an object created without a name (its strategy's
// PrepareForCreate sets a random UUID), so that an empty metadata.name is
// valid on create. Only LimitRange does (k8s.io/kubernetes
// pkg/registry/core/limitrange/strategy.go).
func NameGeneratedOnCreate(gk k8sschema.GroupKind) bool {
	return gk == k8sschema.GroupKind{Kind: "LimitRange"}
}
