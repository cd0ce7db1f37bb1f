package compat

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gatewayRelease unpacks testdata/gateway-api/<version>/*.yaml.gz (see its
// README) into a temporary directory and loads it.
func gatewayRelease(t *testing.T, version string) *API {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join("testdata", "gateway-api", version, "*.yaml.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs for %s: %v", version, err)
	}
	for _, f := range files {
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".gz")), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	api, err := Load([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// breaking returns the report lines of changes at breaks-clients or above.
func breaking(res Result) []string {
	var out []string
	for _, c := range res.Changes {
		if c.Severity >= BreaksClients {
			out = append(out, c.String())
		}
	}
	return out
}

// TestGatewayAPIReleases compares Gateway API releases (experimental
// channel). Every breaking change reported is listed and was checked
// against the release notes (CHANGELOG/1.5-CHANGELOG.md and
// 1.6-CHANGELOG.md of the v1.6.0 module) or by hand in the CRD YAML: 11
// for v1.5.1 to v1.6.0, 28 for v1.4.1 to v1.5.0.
func TestGatewayAPIReleases(t *testing.T) {
	for _, v := range []string{"v1.5.1", "v1.6.0"} {
		api := gatewayRelease(t, v)
		if res := Compare(api, api); len(res.Changes) != 0 || len(res.Errors) != 0 {
			t.Errorf("%s against itself: %v %v", v, res.Changes, res.Errors)
		}
	}

	t.Run("v1.5.1 to v1.6.0", func(t *testing.T) {
		res := Compare(gatewayRelease(t, "v1.5.1"), gatewayRelease(t, "v1.6.0"))
		if len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
		const gr, hr = "grpcroutes.gateway.networking.k8s.io/v1: ", "httproutes.gateway.networking.k8s.io/"
		want := []string{
			// 1.6 notes: "Remove the `idleTimeout` field from the experimental
			// SessionPersistence API. (#4771)": GRPCRoute, HTTPRoute (both
			// versions) and XBackendTrafficPolicy.
			gr + "spec.rules[*].sessionPersistence.idleTimeout: breaks-objects field-removed: field removed: its values are pruned from stored objects and rejected or dropped on write",
			// 1.6 notes: "API validation updated for HTTPRoute retries:
			// `retry.codes` must now be unique and `retry.attempts` must be
			// >= 1. (#4907)", in v1 and v1beta1.
			hr + "v1: spec.rules[*].retry.attempts: breaks-objects min-tightened: minimum 1 added",
			hr + "v1: spec.rules[*].retry.codes: breaks-objects list-type-changed: x-kubernetes-list-type changed from atomic to set",
			hr + "v1: spec.rules[*].sessionPersistence.idleTimeout: breaks-objects field-removed: field removed: its values are pruned from stored objects and rejected or dropped on write",
			hr + "v1beta1: spec.rules[*].retry.attempts: breaks-objects min-tightened: minimum 1 added",
			hr + "v1beta1: spec.rules[*].retry.codes: breaks-objects list-type-changed: x-kubernetes-list-type changed from atomic to set",
			hr + "v1beta1: spec.rules[*].sessionPersistence.idleTimeout: breaks-objects field-removed: field removed: its values are pruned from stored objects and rejected or dropped on write",
			// 1.6 notes: "Make `referencegrant.spec` field required. (#4845)".
			"referencegrants.gateway.networking.k8s.io/v1: spec: breaks-objects required-added: field became required: objects without it are rejected",
			"referencegrants.gateway.networking.k8s.io/v1beta1: spec: breaks-objects required-added: field became required: objects without it are rejected",
			// 1.6 notes: "TCPRoute has graduated to GA ... (#4920)": v1 is
			// added and made the storage version in the same release, which
			// the API-change guide advises against (rollback).
			"tcproutes.gateway.networking.k8s.io: spec.versions: breaks-clients storage-version-changed: storage version changed from v1alpha2 to v1, a version this release adds: an apiserver rolled back cannot decode objects stored in it (v1alpha2 was the storage version)",
			// #4771 again.
			"xbackendtrafficpolicies.gateway.networking.x-k8s.io/v1alpha1: spec.sessionPersistence.idleTimeout: breaks-objects field-removed: field removed: its values are pruned from stored objects and rejected or dropped on write",
		}
		if got := breaking(res); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Safe: the new TCPRoute version, v1alpha2's deprecation.
		if n := len(res.Changes) - len(want); n != 2 {
			t.Errorf("%d safe or ratcheted changes, want 2:\n%s", n, lines(res.Changes))
		}
	})

	t.Run("v1.4.1 to v1.5.0", func(t *testing.T) {
		res := Compare(gatewayRelease(t, "v1.4.1"), gatewayRelease(t, "v1.5.0"))
		if len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
		var want []string
		for _, v := range []string{"v1", "v1beta1"} {
			p := "httproutes.gateway.networking.k8s.io/" + v + ": spec.rules"
			header := `: breaks-objects pattern-changed: pattern "^[!-~]+([\\t ]?[!-~]+)*$" added`
			origins := `: breaks-objects pattern-changed: pattern changed from "(^\\*$)|(^([a-zA-Z][a-zA-Z0-9+\\-.]+):\\/\\/([^:/?#]+)(:([0-9]{1,5}))?$)" to "(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)"`
			max64 := ": breaks-objects max-tightened: maxItems 64 added"
			want = append(want,
				// 1.5 notes: "Added `minItems=1` validation to
				// `HTTPRoute.spec.rules` to prevent creation of HTTPRoute
				// resources without any rules. (#4301)".
				p+": breaks-objects min-tightened: minItems 1 added",
			)
			for _, f := range []string{"[*].backendRefs[*].filters[*]", "[*].filters[*]"} {
				want = append(want,
					// 1.5 notes: "CORS Origin values are now validated ... to
					// disallow unsupported values in the host portion (#4595)":
					// the pattern also limits the scheme to http and https
					// (ftp://a.example was valid in v1.4.1).
					p+f+".cors.allowOrigins[*]"+origins,
					// By hand: v1.5.0 httproutes.yaml line 940 adds maxItems: 64
					// to externalAuth's allowedHeaders lists, absent in v1.4.1
					// (line 908 on); not in the notes.
					p+f+".externalAuth.grpc.allowedHeaders"+max64,
					p+f+".externalAuth.http.allowedHeaders"+max64,
					p+f+".externalAuth.http.allowedResponseHeaders"+max64,
					// By hand: v1.5.0 line 1107 adds the RFC 7230 header-value
					// pattern (printable ASCII, single tabs or spaces) to
					// header modifier values; v1.4.1 has none (a value with
					// two spaces or a trailing space was valid).
					p+f+".requestHeaderModifier.add[*].value"+header,
					p+f+".requestHeaderModifier.set[*].value"+header,
					p+f+".responseHeaderModifier.add[*].value"+header,
					p+f+".responseHeaderModifier.set[*].value"+header,
				)
			}
			// The same pattern on header matches.
			want = append(want, p+"[*].matches[*].headers[*].value"+header)
		}
		got := breaking(res)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// New status codes 303, 307, 308 and the CORS filter type: the
		// descriptions say "values may be added to this enum", so safe.
		for _, c := range res.Changes {
			if c.Kind == "enum-value-added" && c.Severity != Safe {
				t.Errorf("%s: want safe (the description announces new values)", c)
			}
		}
	})
}
