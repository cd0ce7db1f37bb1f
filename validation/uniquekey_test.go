package validation

import "testing"

// A unique key qualified by other properties ("nodePort+protocol", as
// k8s.io/kubernetes validateService keeps the (protocol, nodePort) pairs
// seen): the key repeats only with equal qualifiers (a missing one equal to
// its zero value), a zero key is not compared, and each repeat is reported
// at the key with its value. Keys joined with ";" are checked each on its
// own.
func TestUniqueKeyQualified(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"ports":{"type":"array","x-kubernetes-unique-key":"name;nodePort+protocol","items":{"type":"object","properties":{"name":{"type":"string"},"nodePort":{"type":"integer"},"protocol":{"type":"string"}}}}}}`, Options{})
	obj := mustJSON(t, `{"ports":[{"name":"a","nodePort":30000},{"name":"b","nodePort":30000,"protocol":"UDP"},{"name":"a","nodePort":30000,"protocol":""},
		{"name":"c","nodePort":0},{"name":"d","nodePort":0},{"name":"e","nodePort":30000,"protocol":"UDP"},{"name":"f","nodePort":30001}]}`)
	assertSameSet(t, 0, errStrings(t, v, obj, nil), []string{
		`ports[2].name: Duplicate value: "a"`,
		`ports[2].nodePort: Duplicate value: 30000`,
		`ports[5].nodePort: Duplicate value: 30000`,
	})
	assertSameSet(t, 1, errStrings(t, v, mustJSON(t, `{"ports":[{"nodePort":1,"protocol":"TCP"},{"nodePort":1,"protocol":"UDP"},{}]}`), nil), nil)
}
