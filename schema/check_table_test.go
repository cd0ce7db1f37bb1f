package schema

import (
	"strings"
	"testing"
)

func TestCheckMatchesAPIServer(t *testing.T) {
	if len(checkCases) < 40 {
		t.Fatalf("only %d cases", len(checkCases))
	}
	for _, tc := range checkCases {
		t.Run(tc.name, func(t *testing.T) {
			crd, err := ParseCRD([]byte(tc.crd))
			if err != nil {
				t.Fatal(err)
			}
			errs, _ := Check(crd, CheckOptions{})
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("%s\ngot:\n  %s\nwant:\n  %s", tc.src, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
