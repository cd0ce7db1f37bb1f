package defaulting

import "fmt"

// surroundingFunc wraps a default value found at some depth below an
// embedded resource (or the root) into the object around it, so that a
// default of, say, metadata.name can be checked as ObjectMeta:
//
//	rootFunc()(x) == x
//	rootFunc().child("metadata").child("name")(x) == {"metadata": {"name": x}}
//	rootFunc().index().child("foo")(x) == [{"foo": x}]  (an error: the root must be an object)
//
// It mirrors SurroundingObjectFunc of k8s.io/apiextensions-apiserver
// (pkg/apiserver/schema/defaulting/surroundingobject.go), without the
// accessor, which only PruneDefaults needs.
type surroundingFunc func(focus any) (map[string]any, error)

// rootFunc is the identity on objects.
func rootFunc() surroundingFunc {
	return func(x any) (map[string]any, error) {
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("object root default value must be of object type")
		}
		return obj, nil
	}
}

// withTypeMeta sets apiVersion and kind of the built object when absent.
func (f surroundingFunc) withTypeMeta(apiVersion, kind string) surroundingFunc {
	return func(x any) (map[string]any, error) {
		obj, err := f(x)
		if err != nil {
			return nil, err
		}
		if obj == nil {
			obj = map[string]any{}
		}
		if _, found := obj["kind"]; !found {
			obj["kind"] = kind
		}
		if _, found := obj["apiVersion"]; !found {
			obj["apiVersion"] = apiVersion
		}
		return obj, nil
	}
}

// child returns x => f({k: x}).
func (f surroundingFunc) child(k string) surroundingFunc {
	return func(x any) (map[string]any, error) {
		return f(map[string]any{k: x})
	}
}

// index returns x => f([x]).
func (f surroundingFunc) index() surroundingFunc {
	return func(x any) (map[string]any, error) {
		return f([]any{x})
	}
}
