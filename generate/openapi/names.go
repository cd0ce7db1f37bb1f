package openapi

import (
	"strings"

	"kdv.dev/schema/refs"
)

// DefinitionName is the components.schemas name the apiserver publishes for
// the Go type pkgPath.name: the first path element's domain reversed, the
// rest joined with dots ("k8s.io/api/apps/v1", "Deployment" ->
// "io.k8s.api.apps.v1.Deployment"), as kube-openapi's
// util.ToRESTFriendlyName does.
func DefinitionName(pkgPath, name string) string {
	parts := strings.Split(pkgPath, "/")
	dom := strings.Split(parts[0], ".")
	for i, j := 0, len(dom)-1; i < j; i, j = i+1, j-1 {
		dom[i], dom[j] = dom[j], dom[i]
	}
	parts[0] = strings.Join(dom, ".")
	return strings.Join(parts, ".") + "." + name
}

// RefPrefix is where OpenAPI v3 documents keep their schemas: every $ref
// the generator writes is RefPrefix followed by a definition name. It is
// refs.RefPrefix, the prefix the resolver of those $refs expects.
const RefPrefix = refs.RefPrefix
