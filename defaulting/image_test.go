package defaulting

import (
	"strings"
	"testing"
)

// The expectations are k8s.io/kubernetes v1.37.2 pkg/util/parsers
// ParseImageName's tag for each image (printed by a throwaway program
// calling it), the tag SetDefaults_Container decides imagePullPolicy by.
func TestImageTag(t *testing.T) {
	hex64 := strings.Repeat("a", 64)
	for _, c := range []struct{ image, tag string }{
		{"", ""},
		{"nginx", "latest"},
		{"nginx:latest", "latest"},
		{"nginx:1.25", "1.25"},
		{"nginx:Latest", "Latest"},
		{"docker.io/library/nginx", "latest"},
		{"library/nginx:1", "1"},
		{"localhost:5000/app", "latest"},
		{"localhost:5000/app:v2", "v2"},
		{"registry.example.com:443/a/b/c:tag_1.2-x", "tag_1.2-x"},
		{"nginx@sha256:" + hex64, ""},
		{"nginx:1.2@sha256:" + hex64, "1.2"},
		{"nginx:latest@sha256:" + strings.Repeat("0", 64), "latest"},
		{"nginx@sha256:abc", ""},
		{"nginx@md5:" + strings.Repeat("a", 32), ""},
		{"nginx@sha512:" + strings.Repeat("b", 128), ""},
		{"nginx@sha384:" + strings.Repeat("c", 96), ""},
		{hex64, ""},
		{strings.Repeat("a", 63), "latest"},
		{"Nginx", ""},
		{"NGINX:latest", ""},
		{"repo/LATEST", ""},
		{"nginx:", ""},
		{":latest", ""},
		{"nginx::1", ""},
		{"nginx:" + strings.Repeat("t", 128), strings.Repeat("t", 128)},
		{"nginx:" + strings.Repeat("t", 129), ""},
		{"ubuntu:-bad", ""},
		{strings.Repeat("a", 256), ""},
		{strings.Repeat("a/", 128) + "b", ""},
		{"a b", ""},
		{" nginx", ""},
		{"nginx ", ""},
		{"a..b", ""},
		{"[::1]:5000/app:v1", "v1"},
		{"example.com/a__b:x", "x"},
		{"my-registry/image_name:tag-._", "tag-._"},
		{"gcr.io/google-containers/pause:3.9", "3.9"},
		{"quay.io/x/y:latest", "latest"},
	} {
		if got := ImageTag(c.image); got != c.tag {
			t.Errorf("ImageTag(%q) = %q, want %q", c.image, got, c.tag)
		}
	}
}
