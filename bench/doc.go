// Package bench compares kdv with the apiserver's own code paths: a
// differential test (same CRD, same object: same errors) and benchmarks.
// It is a separate module so that kdv's main module does not depend on
// k8s.io/apiextensions-apiserver.
package bench
