package validation

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

type typedObj struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              typedSpec  `json:"spec"`
	Status            *typedStat `json:"status,omitempty"`
}

type typedCommon struct {
	Mode  string `json:"mode,omitempty"`
	Level int    `json:"level"`
}

type typedSpec struct {
	typedCommon `json:",inline"`
	Replicas    *int32             `json:"replicas,omitempty"`
	Name        string             `json:"name"`
	Port        intstr.IntOrString `json:"port,omitempty"`
	Memory      *resource.Quantity `json:"memory,omitempty"`
	Tags        []string           `json:"tags,omitempty"`
	Labels      map[string]string  `json:"labels,omitempty"`
	Items       []typedItem        `json:"items,omitempty"`
	Ratio       float64            `json:"ratio,omitempty"`
	Small       float32            `json:"small,omitempty"`
	Data        []byte             `json:"data,omitempty"`
	When        *metav1.Time       `json:"when,omitempty"`
	Timeout     *metav1.Duration   `json:"timeout,omitempty"`
	Any         any                `json:"any,omitempty"`
	Ignored     string             `json:"-"`
	NoTag       bool
	Nil         *typedItem    `json:"nil"`
	Counts      map[int]uint8 `json:"counts,omitempty"`
}

type typedItem struct {
	Name  string `json:"name"`
	Value *int64 `json:"value,omitempty"`
}

type typedStat struct {
	Ready bool `json:"ready"`
}

const typedSchema = `{"type":"object","properties":{
 "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
 "spec":{"type":"object","required":["name","mode"],"properties":{
  "mode":{"type":"string","enum":["a","b"]},"level":{"type":"integer","maximum":3},
  "replicas":{"type":"integer","format":"int32","minimum":0},
  "name":{"type":"string","pattern":"^[a-z]+$","maxLength":5},
  "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer","maximum":1000},{"type":"string","maxLength":3}]},
  "memory":{"x-kubernetes-int-or-string":true,"pattern":"^[0-9]+Mi$"},
  "tags":{"type":"array","maxItems":2,"x-kubernetes-list-type":"set","items":{"type":"string","minLength":2}},
  "labels":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string","maxLength":3}},
  "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"integer","multipleOf":2}}}},
  "ratio":{"type":"number","maximum":1,"exclusiveMaximum":true},
  "small":{"type":"number","minimum":0.5},
  "data":{"type":"string","format":"byte","maxLength":8},
  "when":{"type":"string","format":"date-time","nullable":true},
  "timeout":{"type":"string","pattern":"^[0-9]+s$"},
  "any":{"x-kubernetes-preserve-unknown-fields":true,"type":"object","properties":{"x":{"type":"integer"}}},
  "NoTag":{"type":"boolean","enum":[true]},
  "nil":{"type":"object"},
  "counts":{"type":"object","additionalProperties":{"type":"integer","maximum":5}}}},
 "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}`

func i32(i int32) *int32 { return &i }
func i64(i int64) *int64 { return &i }

// TestTypedMatchesUnstructured validates typed Go objects and their JSON
// round trip through the apiserver's decoder and expects the same errors.
func TestTypedMatchesUnstructured(t *testing.T) {
	v := mustValidator(t, typedSchema, Options{IsResourceRoot: true})
	q := resource.MustParse("1Gi")
	when := metav1.Unix(1700000000, 0)
	objs := []typedObj{
		{ObjectMeta: metav1.ObjectMeta{Name: "ok", Namespace: "ns"}, Spec: typedSpec{typedCommon: typedCommon{Mode: "a"}, Name: "abc", NoTag: true, Nil: &typedItem{}}},
		{TypeMeta: metav1.TypeMeta{APIVersion: "x/v1", Kind: "X"}, ObjectMeta: metav1.ObjectMeta{Name: "Bad_Name", Labels: map[string]string{"a": "b"}},
			Spec: typedSpec{
				typedCommon: typedCommon{Mode: "c", Level: 4},
				Replicas:    i32(-1), Name: "ABCDEFG", Port: intstr.FromString("http"), Memory: &q,
				Tags: []string{"x", "yy", "x"}, Labels: map[string]string{"aa": "long", "b": "ok"},
				Items: []typedItem{{Name: "a", Value: i64(3)}, {Name: "a"}}, Ratio: 1, Small: 0.25,
				Data: []byte("0123456789"), When: &when, Timeout: &metav1.Duration{Duration: 90e9},
				Any: map[string]any{"x": "notint", "y": []any{1}}, Ignored: "whatever",
				Counts: map[int]uint8{1: 9, 2: 1},
			},
			Status: &typedStat{Ready: true}},
		{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: typedSpec{Port: intstr.FromInt32(5000), Ratio: 0.5, Small: 2.0, Any: typedItem{Name: "n"}}},
	}
	for i := range objs {
		b, err := json.Marshal(&objs[i])
		if err != nil {
			t.Fatal(err)
		}
		var u map[string]any
		if err := utiljson.Unmarshal(b, &u); err != nil {
			t.Fatal(err)
		}
		want := sortedCopy(fieldStrings(v.Validate(context.Background(), u, nil)))
		got := sortedCopy(fieldStrings(v.Validate(context.Background(), &objs[i], nil)))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("object %d:\ntyped:\n\t%s\nunstructured:\n\t%s", i, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
		t.Logf("object %d: %d errors", i, len(want))
		if i == 1 && len(want) < 15 {
			t.Errorf("object %d: expected many errors, got %d: %v", i, len(want), want)
		}
		// Update: typed new against unstructured old and the reverse.
		gotU := sortedCopy(fieldStrings(v.Validate(context.Background(), &objs[i], u)))
		wantU := sortedCopy(fieldStrings(v.Validate(context.Background(), u, u)))
		if strings.Join(gotU, "\n") != strings.Join(wantU, "\n") {
			t.Errorf("object %d update:\ntyped:\n\t%s\nunstructured:\n\t%s", i, strings.Join(gotU, "\n\t"), strings.Join(wantU, "\n\t"))
		}
	}
}
