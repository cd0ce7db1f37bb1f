package pruning

import (
	"reflect"
	"testing"
)

// copySimpleMeta must give exactly what the ObjectMeta round trip
// (GetObjectMeta then SetObjectMeta) gives, whenever it accepts metadata.
func TestCopySimpleMetaMatchesRoundTrip(t *testing.T) {
	for _, c := range []struct {
		md     map[string]any
		simple bool
	}{
		{map[string]any{}, true},
		{map[string]any{"name": "a"}, true},
		{map[string]any{"name": "a", "namespace": "ns", "generateName": "g-"}, true},
		{map[string]any{"name": "a", "labels": map[string]any{"app": "x", "empty": ""}, "annotations": map[string]any{"k": "v"}}, true},
		// the round trip drops empty values (omitempty)
		{map[string]any{"name": ""}, false},
		{map[string]any{"name": "a", "labels": map[string]any{}}, false},
		// a type error, a field kept only through ObjectMeta, a null
		{map[string]any{"name": "a", "labels": map[string]any{"n": int64(1)}}, false},
		{map[string]any{"name": "a", "uid": "u"}, false},
		{map[string]any{"name": "a", "creationTimestamp": nil}, false},
		// JSON encoding replaces invalid UTF-8
		{map[string]any{"name": "bad\xffutf8"}, false},
		{map[string]any{"name": 5}, false},
	} {
		md := c.md
		copied, ok := copySimpleMeta(md)
		if ok != c.simple {
			t.Errorf("%v: simple %v, want %v", md, ok, c.simple)
		}
		if !ok {
			continue
		}
		obj := map[string]any{"metadata": md}
		meta, found, unknown, err := GetObjectMeta(obj, nil, MetaOptions{ReturnUnknownFieldPaths: true})
		if err != nil || !found || len(unknown) > 0 {
			t.Errorf("%v: accepted, but the round trip gives err=%v found=%v unknown=%v", md, err, found, unknown)
			continue
		}
		if err := SetObjectMeta(obj, meta); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(obj["metadata"], map[string]any(copied)) {
			t.Errorf("%v: copy %#v, round trip %#v", md, copied, obj["metadata"])
		}
	}
}
