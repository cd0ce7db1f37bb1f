// Package kdv is the Go front door of kdv: it tells a program or a unit
// test whether the kube-apiserver would accept an object, and with which
// errors, without an apiserver (no envtest, no etcd) and in microseconds.
//
// Build a Validator once, from CRD files or objects and the built-in
// schemas kdv embeds, then validate objects as creates or updates:
//
//	v, err := kdv.New(kdv.WithCRDFiles("config/crd/bases"))
//	...
//	res, err := v.Validate(ctx, myResource) // *unstructured.Unstructured, map[string]any or typed
//	...
//	if err := res.Err(); err != nil { // nil, or the apiserver's 400 or 422 *apierrors.StatusError
//		t.Error(err)
//	}
//
// Results carry field.ErrorList (k8s.io/apimachinery) with the
// apiserver's paths and messages, and its warnings. The checks are those
// of the apiserver of the release chosen with WithBuiltins (default: the
// newest kdv embeds); see the kdv README for what is covered.
//
// The packages underneath (kdv.dev/resource, kdv.dev/validation,
// kdv.dev/schema, ...) stay usable for finer control.
package kdv
