package schema

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// MaxCheckErrors is the most errors Check (and ValidateStructural) reports
// for one CustomResourceDefinition. It is kdv's limit, not the
// apiserver's: the apiserver reports every error, and a schema 10,000
// levels deep with an error at each level has 10,000 errors whose paths
// are up to 10,000 levels long, gigabytes of text. Past the limit kdv
// stops building errors (and their paths, where the memory is) and ends
// the list with one notice saying how many more it found (see
// tooManyErrors). Below it, the errors are exactly the apiserver's.
const MaxCheckErrors = 1000

// MaxCheckErrorBytes bounds the text (field paths and details) of the
// errors Check reports for one CRD, with MaxCheckErrors: a path is as long
// as the schema is deep, and 1,000 paths 10,000 levels deep would be over
// 100 MB. An ordinary CRD's errors are a few hundred bytes each.
const MaxCheckErrorBytes = 4 << 20

// errBudget counts the errors of one Check call. The schema walkers call
// take before they build an error, so that past the budget they only count.
type errBudget struct {
	left    int
	bytes   int // text of the errors kept so far
	dropped int
	// partial is set when a step that could add errors (defaults or CEL
	// validation) was skipped because the budget was spent: the count of
	// dropped errors is then a lower bound.
	partial bool
	// at is the schema path where errors were first dropped.
	at *field.Path
}

func newErrBudget() *errBudget { return &errBudget{left: MaxCheckErrors} }

// take reserves room for one more error. It returns false, and counts the
// error as dropped, when the budget is spent: the caller then builds
// neither the error nor its path.
func (b *errBudget) take() bool {
	if b.left > 0 && b.bytes < MaxCheckErrorBytes {
		b.left--
		return true
	}
	b.dropped++
	return false
}

// spent reports whether no error can be added any more.
func (b *errBudget) spent() bool { return b.left == 0 || b.bytes >= MaxCheckErrorBytes }

// charge counts the text of a kept error.
func (b *errBudget) charge(e *field.Error) { b.bytes += len(e.Field) + len(e.Detail) }

// keep appends the errors of errs that fit in the budget to dst, counting
// the others as dropped, for errors built outside the walkers (the
// defaults and CEL hooks).
func (b *errBudget) keep(dst, errs field.ErrorList) field.ErrorList {
	for _, e := range errs {
		if b.take() {
			b.charge(e)
			dst = append(dst, e)
		}
	}
	return dst
}

// droppedAt records where errors were first dropped, if they were.
func (b *errBudget) droppedAt(p *field.Path) {
	if b.dropped > 0 && b.at == nil {
		b.at = p
	}
}

// notice returns the error that ends a list from which errors were
// dropped, or nil. Its type is TooMany, so that -o json reports it with
// reason FieldValueTooMany, and its path is the schema where errors were
// first dropped.
func (b *errBudget) notice() *field.Error {
	if b.dropped == 0 {
		return nil
	}
	return tooManyErrors(b.at, b.dropped, b.partial)
}

// tooManyErrors is the notice for n errors not reported: "<path>: Too
// many: 41 more errors not shown: kdv reports at most 1000 errors (4 MiB
// of paths and messages) per CustomResourceDefinition (the apiserver
// reports them all)".
func tooManyErrors(at *field.Path, n int, atLeast bool) *field.Error {
	if at == nil {
		at = field.NewPath("spec")
	}
	e := field.TooMany(at, -1, MaxCheckErrors) // -1 omits the value
	more := fmt.Sprintf("%d more", n)
	if atLeast {
		more = "at least " + more
	}
	word := "errors"
	if n == 1 && !atLeast {
		word = "error"
	}
	e.Detail = fmt.Sprintf("%s %s not shown: kdv reports at most %d errors (%d MiB of paths and messages) per CustomResourceDefinition (the apiserver reports them all)", more, word, MaxCheckErrors, MaxCheckErrorBytes>>20)
	return e
}

// errSink is one list of errors filled by the recursive schema walkers
// under a shared budget. The walkers append to it rather than return
// lists that every level would copy into its parent's: with an error at
// each of 10,000 levels that copying alone was quadratic.
type errSink struct {
	b    *errBudget
	errs field.ErrorList
}

// ok reserves room for one more error (see errBudget.take): build the
// error only when it returns true.
func (s *errSink) ok() bool { return s.b.take() }

// add appends an error for which ok returned true.
func (s *errSink) add(e *field.Error) {
	s.b.charge(e)
	s.errs = append(s.errs, e)
}
