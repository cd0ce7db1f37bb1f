// Package v1 is a sample API for kdv's generator tests: every kubebuilder
// marker, KEP-4153 tag and validation-gen tag kdv publishes.
//
// +groupName=sample.kdv.dev
// +versionName=v1
package v1
