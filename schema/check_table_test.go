package schema

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// checkCase is one entry of testdata/apiserver_check_cases.json: a CRD with
// invalid (or, for a few, valid) schemas and the exact errors that
// k8s.io/apiextensions-apiserver v0.37.2 ValidateCustomResourceDefinition
// returns for it after v1 defaulting and conversion — obtained by running the
// apiserver's own validation on the document, outside this module. src
// names the apiserver test case (validation_test.go of
// pkg/apis/apiextensions/validation or pkg/apiserver/schema) the shape is
// taken from. Where the apiserver orders errors by Go map iteration, the
// cases avoid several errors from one map.
type checkCase struct {
	Name string   `json:"name"`
	Src  string   `json:"src"`
	CRD  string   `json:"crd"`
	Want []string `json:"want"`
}

func loadCheckCases(t testing.TB) []checkCase {
	b, err := os.ReadFile("testdata/apiserver_check_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []checkCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestCheckMatchesAPIServer(t *testing.T) {
	cases := loadCheckCases(t)
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			crd, err := ParseCRD([]byte(tc.CRD))
			if err != nil {
				t.Fatal(err)
			}
			errs, _ := Check(crd, CheckOptions{})
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.Want, "\n") {
				t.Errorf("%s\ngot:\n  %s\nwant:\n  %s", tc.Src, strings.Join(got, "\n  "), strings.Join(tc.Want, "\n  "))
			}
		})
	}
}
