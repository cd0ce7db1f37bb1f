package value

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

type fuzzObj struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Embedded          `json:",inline"`
	IOS               *intstr.IntOrString          `json:"ios,omitempty"`
	Q                 map[string]resource.Quantity `json:"q,omitempty"`
	F32               []float32                    `json:"f32,omitempty"`
	F64               *float64                     `json:"f64"`
	U8                uint8                        `json:"u8,omitempty"`
	Bytes             []byte                       `json:"bytes,omitempty"`
	Any               any                          `json:"any,omitempty"`
	Nested            []map[string]*inner          `json:"nested"`
	D                 *metav1.Duration             `json:"d,omitempty"`
}

// FuzzTypedMatchesJSON decodes arbitrary JSON into a typed object and checks
// that reading it typed equals its JSON round trip, and that nothing panics.
func FuzzTypedMatchesJSON(f *testing.F) {
	f.Add(`{"metadata":{"name":"a","labels":{"x":"y"},"creationTimestamp":"2024-01-01T00:00:00Z"},"ios":"80%","q":{"cpu":"1500m"},"f32":[0.1,3],"f64":2.0,"any":{"k":[1,"v",null]},"nested":[{"a":{"a":"x","b":2}},null],"d":"1m30s","e1":"x"}`)
	f.Add(`{"kind":"K","ios":5,"u8":255,"bytes":"aGVsbG8=","nested":null}`)
	f.Fuzz(func(t *testing.T, data string) {
		var obj fuzzObj
		if json.Unmarshal([]byte(data), &obj) != nil {
			return
		}
		b, err := json.Marshal(&obj)
		if err != nil {
			return
		}
		var want any
		if utiljson.Unmarshal(b, &want) != nil {
			return
		}
		got := Of(&obj).Unstructured()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("typed read differs from JSON round trip:\n got %#v\nwant %s", got, b)
		}
		if !Equal(Of(&obj), Of(want)) {
			t.Errorf("Equal(typed, unstructured) = false for %s", b)
		}
	})
}
