package report_test

import (
	"errors"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/report"
)

// cmd/kdv fills a Result in input order, writes it in the chosen format and
// exits with its ExitCode.
func Example() {
	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	r := &report.Result{Documents: []report.DocumentResult{
		{File: "app.yaml", Index: 0, Line: 1, GVK: deployment, Namespace: "default", Name: "web"},
		{File: "app.yaml", Index: 1, Line: 12, GVK: deployment, Namespace: "default", Name: "api",
			Errors: field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), int64(-1),
				"spec.replicas in body should be greater than or equal to 0")},
			ErrorPos: func(e *field.Error) (int, int) { return 17, 3 }},
		{File: "app.yaml", Index: 2, Line: 30,
			Err: errors.New("no schema for extensions/v1beta1, Kind=Deployment"), ErrKind: report.ErrNoSchema},
	}}
	if err := report.Write(os.Stdout, "text", r, report.Options{}); err != nil {
		panic(err)
	}
	fmt.Println("exit code", r.ExitCode())
	// Output:
	// app.yaml:17: apps/Deployment default/api: spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
	// app.yaml:30: no schema for extensions/v1beta1, Kind=Deployment
	// 3 documents in 1 file: 1 valid, 1 invalid, 1 failed, 0 skipped (1 error, 0 warnings)
	// exit code 2
}
