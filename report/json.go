package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WriteJSON writes r in kubectl-validate's `-o json` shape: one object mapping
// each file name to the list of metav1.Status of its documents, in document
// order, indented with four spaces and followed by a newline
// (kubectl-validate pkg/cmd/validate.go: json.MarshalIndent(res, "", "    ")).
// Files appear sorted by name, not in input order, because encoding/json
// sorts map keys, exactly as kubectl-validate's output does.
//
// Per document (see [DocumentResult.Status]): valid is {"metadata":{},"status":"Success"};
// invalid is apierrors.NewInvalid(GroupKind, name, Errors).ErrStatus, byte
// for byte what the apiserver puts in a 422 response body minus its
// kind/apiVersion, which kubectl-validate does not print either. An empty
// document (only comments or blank lines between two "---", [DocumentResult.Empty])
// is {"metadata":{},"status":"Success"} too, as kubectl-validate lists it
// (its ValidateFile appends a nil error for each such document), so that a
// status's position in the list is the document's position in the file for
// tools that index into the list.
//
// Warnings: the apiserver sends them beside the response body, as HTTP
// "Warning: 299 - ..." headers, never inside a Status, and metav1.Status has
// no field for them. A document with warnings therefore gets one extra
// member after the Status's own, "warnings": ["<text>", ...], in the
// document's order; a document without warnings is written exactly as
// kubectl-validate writes it. Adding a member keeps every kubectl-validate
// consumer working: encoding/json decoding into metav1.Status, jq and
// JSON-schema-less tools ignore unknown members, while moving warnings into
// the Status (as causes, or a message) would change its meaning and a new
// top-level key would be taken for a file name.
func WriteJSON(w io.Writer, r *Result, _ Options) error {
	res := map[string][]jsonStatus{}
	for i := range r.Documents {
		d := &r.Documents[i]
		res[d.File] = append(res[d.File], jsonStatus{Status: d.Status(), Warnings: d.Warnings})
	}
	data, err := json.MarshalIndent(res, "", "    ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// jsonStatus is one document's entry in the JSON format: its Status, whose
// members encoding/json writes inline and in order, then its warnings, left
// out when there are none.
type jsonStatus struct {
	metav1.Status
	Warnings []string `json:"warnings,omitempty"`
}

// Status returns the metav1.Status that the JSON format writes for d:
//
//   - valid, or empty: Status "Success" and nothing else (kubectl-validate).
//   - skipped: Status "Success" with Message "skipped: <reason>".
//   - invalid with a DecodeError: the apiserver's 400 with that message;
//   - invalid with unknown fields: the apiserver's 400 for a strict
//     decoding error, `<Kind> in version "<v>" cannot be handled as a
//     <Kind>: strict decoding error: unknown field "spec.x", ...`;
//   - invalid: apierrors.NewInvalid(d.GVK.GroupKind(), d.Name, d.Errors), the
//     apiserver's 422 Invalid status (k8s.io/apiserver rest.BeforeCreate).
//   - failed: if Err wraps an *apierrors.StatusError, its status; with
//     ErrInternal, apierrors.NewInternalError(Err) (code 500, what
//     kubectl-validate writes for every non-API error); otherwise
//     apierrors.NewBadRequest(Err.Error()) (code 400, reason BadRequest),
//     since the input, not kdv, is at fault.
func (d *DocumentResult) Status() metav1.Status {
	switch d.Outcome() {
	case Failed:
		var se *apierrors.StatusError
		if errors.As(d.Err, &se) {
			return se.ErrStatus
		}
		if d.ErrKind == ErrInternal {
			return apierrors.NewInternalError(d.Err).ErrStatus
		}
		return apierrors.NewBadRequest(d.Err.Error()).ErrStatus
	case Invalid:
		if d.DecodeError != "" {
			return apierrors.NewBadRequest(d.DecodeError).ErrStatus
		}
		if len(d.UnknownFields) > 0 {
			// The apiserver fails decoding before it validates: 400 with the
			// strict decoding error (k8s.io/apiserver handlers
			// transformDecodeError, apimachinery strictDecodingError).
			return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
				d.GVK.Kind, d.GVK.Version, d.GVK.Kind, strings.Join(d.UnknownFields, ", "))).ErrStatus
		}
		return apierrors.NewInvalid(d.GVK.GroupKind(), d.Name, d.Errors).ErrStatus
	case Skipped:
		msg := "skipped"
		if d.SkipReason != "" {
			msg += ": " + d.SkipReason
		}
		return metav1.Status{Status: metav1.StatusSuccess, Message: msg}
	}
	return metav1.Status{Status: metav1.StatusSuccess}
}
