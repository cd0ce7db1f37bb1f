package cluster

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kdv.dev/report"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// Kind is one listable kind of the cluster, in its preferred version.
type Kind struct {
	GVK      k8sschema.GroupVersionKind
	Resource string
	// Namespaced is the kind's scope, from discovery.
	Namespaced bool
	// Estimate is how many objects the server said it stores when the
	// plan was made (the first page's items and remainingItemCount), -1
	// when it did not say.
	Estimate int
}

// GVR is the kind's group-version-resource.
func (k Kind) GVR() k8sschema.GroupVersionResource {
	return k.GVK.GroupVersion().WithResource(k.Resource)
}

// Plan is what an audit will read: every served kind that can be listed.
type Plan struct {
	Kinds []Kind
	// NotListable are the served resources without the list verb (such as
	// tokenreviews or bindings: create-only APIs that store nothing), as
	// "group/version resource".
	NotListable []string
	// Problems are what discovery could not read (an aggregated API whose
	// server is down: its kinds are not audited).
	Problems []error
}

// Total is the sum of the kinds' estimates, for a progress line.
func (p *Plan) Total() int {
	n := 0
	for _, k := range p.Kinds {
		n += max(k.Estimate, 0)
	}
	return n
}

// NewPlan asks discovery for every served kind, in the preferred version
// of its group (an object is stored once, whatever version it is read in),
// without subresources. Removed APIs are not served, so they cannot be
// listed: objects written through them are read in the versions that
// remain. Each kind is listed once with limit=1 to estimate its size.
func NewPlan(ctx context.Context, cfg *rest.Config) (*Plan, error) {
	// The server's warnings about the kinds (deprecations) come again when
	// Audit lists them, which reports them.
	cfg = withRate(cfg)
	cfg.WarningHandler = rest.NoWarnings{}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	lists, err := dc.ServerPreferredResources()
	p := &Plan{}
	if err != nil {
		var gdf *discovery.ErrGroupDiscoveryFailed
		if !errors.As(err, &gdf) || len(lists) == 0 {
			return nil, fmt.Errorf("%s: discovery: %w", cfg.Host, err)
		}
		for gv, e := range gdf.Groups {
			p.Problems = append(p.Problems, fmt.Errorf("%s: discovery of %s failed, its kinds are not audited: %w", cfg.Host, gv, e))
		}
		sort.Slice(p.Problems, func(i, j int) bool { return p.Problems[i].Error() < p.Problems[j].Error() })
	}
	for _, list := range lists {
		gv, err := k8sschema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			p.Problems = append(p.Problems, err)
			continue
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // subresources are views of their parent
			}
			if !hasVerb(r.Verbs, "list") {
				p.NotListable = append(p.NotListable, list.GroupVersion+" "+r.Name)
				continue
			}
			k := Kind{GVK: gv.WithKind(r.Kind), Resource: r.Name, Namespaced: r.Namespaced, Estimate: -1}
			if l, err := dyn.Resource(k.GVR()).List(ctx, metav1.ListOptions{Limit: 1}); err == nil {
				if rem := l.GetRemainingItemCount(); rem != nil {
					k.Estimate = len(l.Items) + int(*rem)
				} else if l.GetContinue() == "" {
					k.Estimate = len(l.Items)
				}
			}
			p.Kinds = append(p.Kinds, k)
		}
	}
	sort.Slice(p.Kinds, func(i, j int) bool { return kindLess(p.Kinds[i].GVK, p.Kinds[j].GVK) })
	sort.Strings(p.NotListable)
	return p, nil
}

func hasVerb(verbs []string, v string) bool {
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}

// kindLess orders kinds by group (core first), kind and version.
func kindLess(a, b k8sschema.GroupVersionKind) bool {
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return a.Version < b.Version
}

// AuditOptions configure Audit.
type AuditOptions struct {
	// Registry holds the schemas to validate against: the embedded
	// built-in schemas of the chosen release (resource.UseBuiltin) and
	// usually the cluster's own (LoadSchemas).
	Registry *resource.Registry
	// PageSize is the limit of each list request; 0 means 500, as kubectl.
	PageSize int64
	// Jobs is how many objects of a page are validated at once; 0 means
	// GOMAXPROCS.
	Jobs int
	// Progress, when set, is called after each object.
	Progress func()
	// KubernetesMinor is the release CustomResourceDefinitions are
	// checked against (0: the newest kdv embeds), as kdv check does.
	KubernetesMinor int
}

// KindAudit counts the objects of one kind.
type KindAudit struct {
	Kind
	// Objects is how many were read.
	Objects int
	// InvalidCreate is how many the release's rules reject as a create
	// (what re-creating them, from a backup or a GitOps repository, meets).
	InvalidCreate int
	// InvalidUpdate is how many they reject as an unchanged update (what
	// controllers and kubectl apply meet after an upgrade; ratcheting lets
	// most values that were already there through).
	InvalidUpdate int
	// NotAudited says why the kind, or part of it, was not audited (no
	// schema, list forbidden, list expired); empty when all of it was.
	NotAudited string
}

// AuditResult is the outcome of Audit.
type AuditResult struct {
	Kinds []KindAudit
	// Report holds the objects with findings: for each, its result as a
	// create (when invalid, failed or warned) and as an unchanged update
	// (when invalid or failed), in kind order then list order. Valid
	// objects are only counted, so that memory stays bounded by the
	// findings, not the cluster's size.
	Report *report.Result
	// ServerWarnings are the warnings the server sent while the objects
	// were listed (deprecated kinds: "v1 ComponentStatus is deprecated in
	// v1.19+"), each once, in the order they came.
	ServerWarnings []string
}

// warningSet collects a server's warnings, each once.
type warningSet struct {
	mu   sync.Mutex
	seen map[string]bool
	list []string
}

// HandleWarningHeader implements rest.WarningHandler.
func (w *warningSet) HandleWarningHeader(code int, _ string, text string) {
	if code != 299 || text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.seen[text] {
		w.seen[text] = true
		w.list = append(w.list, text)
	}
}

// Invalid is the number of objects invalid as a create or an update.
func (r *AuditResult) Invalid() (create, update int) {
	for _, k := range r.Kinds {
		create += k.InvalidCreate
		update += k.InvalidUpdate
	}
	return create, update
}

// Incomplete reports whether some kind was not (wholly) audited.
func (r *AuditResult) Incomplete() bool {
	for _, k := range r.Kinds {
		if k.NotAudited != "" {
			return true
		}
	}
	return false
}

// Audit reads every object of the plan's kinds, one page at a time, and
// validates each as a create and as an unchanged update against
// opts.Registry. Objects are dropped once validated; only findings are
// kept. A kind that cannot be listed or has no schema is counted with the
// reason and the others are still audited; err is only for a cancelled
// context.
func Audit(ctx context.Context, cfg *rest.Config, plan *Plan, opts AuditOptions) (*AuditResult, error) {
	warnings := &warningSet{seen: map[string]bool{}}
	cfg = withRate(cfg)
	cfg.WarningHandler = warnings
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 500
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	res := &AuditResult{Report: &report.Result{}}
	defer func() {
		warnings.mu.Lock()
		res.ServerWarnings = warnings.list
		warnings.mu.Unlock()
	}()
	for _, k := range plan.Kinds {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		ka := KindAudit{Kind: k}
		auditKind(ctx, dyn.Resource(k.GVR()), &ka, res.Report, opts)
		res.Kinds = append(res.Kinds, ka)
	}
	return res, ctx.Err()
}

// auditKind lists one kind page by page and validates each page. The
// kind's validator is compiled when its first object arrives: most served
// kinds have no objects, and a kind without a schema but also without
// objects has nothing to report.
func auditKind(ctx context.Context, ri dynamic.ResourceInterface, ka *KindAudit, rep *report.Result, opts AuditOptions) {
	var v *resource.Validator
	cont := ""
	for {
		list, err := ri.List(ctx, metav1.ListOptions{Limit: opts.PageSize, Continue: cont})
		if err != nil {
			switch {
			case apierrors.IsResourceExpired(err) || apierrors.IsGone(err):
				ka.NotAudited = fmt.Sprintf("the list expired after %d objects (410 Gone: the cluster changed faster than kdv read it); the rest was not audited", ka.Objects)
			default:
				ka.NotAudited = fmt.Sprintf("listing %s after %d objects: %v", ka.GVR(), ka.Objects, err)
			}
			return
		}
		if v == nil && len(list.Items) > 0 {
			var err error
			v, err = opts.Registry.Validator(ka.GVK)
			if err != nil && ka.GVK != crdKind {
				ka.NotAudited = err.Error()
				return
			}
		}
		auditPage(ctx, list.Items, v, ka, rep, opts)
		if cont = list.GetContinue(); cont == "" {
			return
		}
	}
}

// pageResult is the verdict on one object of a page.
type pageResult struct {
	create, update report.DocumentResult
}

// auditPage validates a page's objects in parallel and records them in
// list order.
func auditPage(ctx context.Context, items []unstructured.Unstructured, v *resource.Validator, ka *KindAudit, rep *report.Result, opts AuditOptions) {
	out := make([]pageResult, len(items))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(opts.Jobs, len(items)) {
		wg.Go(func() {
			for i := range next {
				out[i] = auditObject(ctx, items[i].Object, v, ka.Kind, ka.Objects+i, opts.KubernetesMinor)
				if opts.Progress != nil {
					opts.Progress()
				}
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range out {
		c, u := &out[i].create, &out[i].update
		ka.Objects++
		if c.Outcome() == report.Invalid {
			ka.InvalidCreate++
		}
		if u.Outcome() == report.Invalid {
			ka.InvalidUpdate++
		}
		if c.Outcome() != report.Valid || len(c.Warnings) > 0 {
			rep.Documents = append(rep.Documents, *c)
		}
		if u.Outcome() != report.Valid {
			rep.Documents = append(rep.Documents, *u)
		}
	}
}

// crdKind is the kind of CustomResourceDefinitions, which are checked as
// kdv check checks them.
var crdKind = crdResource.GroupVersion().WithKind("CustomResourceDefinition")

// auditObject validates one stored object as a create (without what the
// server sets: a create must not carry a resourceVersion, and uid,
// creationTimestamp, generation and managedFields are the server's) and as
// an update that changes nothing.
//
// A CustomResourceDefinition is checked as a create by resource.CheckCRD,
// as kdv validate and kdv check do (schema rules, defaults, CEL
// compilation and cost at the release), and as an update against its
// kind's schema only (v, from /openapi/v3; nil when there is none): the
// apiserver ratchets CRD updates in ways kdv does not model, so the
// create check's errors would be wrong for an unchanged update.
func auditObject(ctx context.Context, obj map[string]any, v *resource.Validator, k Kind, index, minor int) pageResult {
	stored := obj
	var r pageResult
	if k.GVK == crdKind {
		r.create = checkCRD(forCreate(obj), k, index, minor)
	} else {
		r.create = verdict(v.Validate(ctx, forCreate(obj), nil), k, "create", index, stored)
	}
	if v != nil {
		r.update = verdict(v.Validate(ctx, stored, stored), k, "update", index, stored)
	} else {
		r.update = verdict(resource.Outcome{}, k, "update", index, stored)
	}
	return r
}

// checkCRD checks a stored CRD as a create.
func checkCRD(obj map[string]any, k Kind, index, minor int) report.DocumentResult {
	r := verdict(resource.Outcome{}, k, "create", index, obj)
	crd, err := kdvschema.ParseCRDObject(obj)
	if err != nil {
		r.Err, r.ErrKind = err, report.ErrSchema
		return r
	}
	r.Errors, r.Warnings = resource.CheckCRD(crd, resource.CheckOptions{KubernetesMinor: minor})
	return r
}

// serverSetMetadata are the metadata fields the server sets on create.
var serverSetMetadata = []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"}

// forCreate returns obj with a copy of its metadata lacking what the
// server sets; the rest is shared (Validate does not modify its input).
func forCreate(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		m := make(map[string]any, len(md))
		for k, v := range md {
			m[k] = v
		}
		for _, f := range serverSetMetadata {
			delete(m, f)
		}
		out["metadata"] = m
	}
	return out
}

// verdict turns an Outcome into a report entry named after the kind and
// the mode ("apps/v1 deployments (as create)"). Values in a Secret's
// errors are left out: an audit report must not leak them.
func verdict(o resource.Outcome, k Kind, mode string, index int, obj map[string]any) report.DocumentResult {
	r := report.DocumentResult{
		File:  fmt.Sprintf("%s %s (as %s)", k.GVK.GroupVersion(), k.Resource, mode),
		Index: index,
		GVK:   k.GVK,
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		r.Name, _ = md["name"].(string)
		r.Namespace, _ = md["namespace"].(string)
	}
	if o.DecodeErr != nil {
		r.Err, r.ErrKind = o.DecodeErr, report.ErrDocument
		return r
	}
	r.DecodeError, r.DecodeErrorField = o.DecodeError, o.DecodeErrorField
	r.UnknownFields = o.UnknownFields
	r.Errors = o.Errors
	r.Warnings = o.Warnings
	if k.GVK.Group == "" && k.GVK.Kind == "Secret" {
		r.Errors = redact(r.Errors)
	}
	return r
}

// redact drops the values from errors.
func redact(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return errs
	}
	out := make(field.ErrorList, len(errs))
	for i, e := range errs {
		c := *e
		c.BadValue = field.OmitValueType{}
		out[i] = &c
	}
	return out
}
