package manifest

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestSniffGVK: the kind a document names on its top-level lines, read
// from its text, agrees with the decoded document's GVK where it answers,
// and it does not answer where the text does not say plainly.
func TestSniffGVK(t *testing.T) {
	tests := []struct {
		name, in string
		want     schema.GroupVersionKind
		ok       bool
	}{
		{"plain", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, true},
		{"core, kind first, comment, CRLF", "kind: Service # web\r\napiVersion: v1\r\n", schema.GroupVersionKind{Version: "v1", Kind: "Service"}, true},
		{"after other keys", "metadata:\n  name: a\n  kind: Nested\napiVersion: batch/v1\nkind: Job\n", schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, true},
		{"nested only", "spec:\n  kind: Deployment\n  apiVersion: apps/v1\n", schema.GroupVersionKind{}, false},
		{"quoted", "apiVersion: \"v1\"\nkind: Pod\n", schema.GroupVersionKind{}, false},
		{"alias", "apiVersion: *v\nkind: Pod\n", schema.GroupVersionKind{}, false},
		{"no kind", "apiVersion: v1\nmetadata: {}\n", schema.GroupVersionKind{}, false},
		{"list", "apiVersion: v1\nkind: List\nitems: []\n", schema.GroupVersionKind{}, false},
		{"typed list", "apiVersion: v1\nkind: PodList\nitems: []\n", schema.GroupVersionKind{}, false},
		{"flow", "{apiVersion: v1, kind: Pod}\n", schema.GroupVersionKind{}, false},
		{"json", `{"apiVersion": "v1", "kind": "Pod"}`, schema.GroupVersionKind{}, false},
		{"empty value", "apiVersion:\nkind: Pod\n", schema.GroupVersionKind{}, false},
	}
	for _, tt := range tests {
		var got []schema.GroupVersionKind
		var oks []bool
		ps, err := ReadPending([]string{"-"}, strings.NewReader(tt.in), Options{Split: func(p *Pending) {
			g, ok := p.SniffGVK()
			got, oks = append(got, g), append(oks, ok)
		}})
		if err != nil || len(ps) != 1 || len(got) != 1 {
			t.Fatalf("%s: %d pending, %d split calls, err %v", tt.name, len(ps), len(got), err)
		}
		if got[0] != tt.want || oks[0] != tt.ok {
			t.Errorf("%s: SniffGVK = %v, %v; want %v, %v", tt.name, got[0], oks[0], tt.want, tt.ok)
		}
		if tt.ok {
			docs := ps[0].Decode()
			if len(docs) != 1 || docs[0].GVK() != tt.want {
				t.Errorf("%s: decoded %v, sniffed %v", tt.name, docs, tt.want)
			}
		}
	}
}
