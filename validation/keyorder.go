package validation

import (
	"maps"
	"slices"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	v1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// inKeyOrder puts the errors of meta's labels and annotations in the order
// of their keys. apimachinery's ValidateLabels and ValidateAnnotations
// (called by ValidateObjectMeta*) range over Go maps, so the apiserver
// lists these errors in random order: every order is the apiserver's, and
// kdv picks the sorted one so that the same input always gives the same
// report. metaPath is where meta is (metadata, or an embedded resource's).
//
// Each run of consecutive errors at <metaPath>.labels (or .annotations) is
// rebuilt by validating one key at a time, in sorted order, with the same
// functions; the errors of the run that this does not produce (the
// annotations' total size, which no single key has) follow in their
// original order. A run whose errors the rebuild does not all account for
// otherwise is left as it was.
func inKeyOrder(errs field.ErrorList, meta *metav1.ObjectMeta, metaPath *field.Path) field.ErrorList {
	if len(meta.Labels) > 1 {
		errs = reorderRun(errs, metaPath.Child("labels"), func(fld *field.Path) field.ErrorList {
			var out field.ErrorList
			for _, k := range slices.Sorted(maps.Keys(meta.Labels)) {
				out = append(out, v1validation.ValidateLabels(map[string]string{k: meta.Labels[k]}, fld)...)
			}
			return out
		})
	}
	if len(meta.Annotations) > 1 {
		errs = reorderRun(errs, metaPath.Child("annotations"), func(fld *field.Path) field.ErrorList {
			var out field.ErrorList
			for _, k := range slices.Sorted(maps.Keys(meta.Annotations)) {
				// the key's errors only: the size limit is on all values
				out = append(out, metavalidation.ValidateAnnotations(map[string]string{k: ""}, fld)...)
			}
			return out
		})
	}
	return errs
}

// reorderRun replaces each run of consecutive errors at fld by the errors
// of sorted(fld) it holds, in that order, followed by the run's other
// errors (at most one: see inKeyOrder) in their order.
func reorderRun(errs field.ErrorList, fld *field.Path, sorted func(*field.Path) field.ErrorList) field.ErrorList {
	name := fld.String()
	for i := 0; i < len(errs); {
		if errs[i].Field != name {
			i++
			continue
		}
		j := i
		for j < len(errs) && errs[j].Field == name {
			j++
		}
		if j-i > 1 {
			reorder(errs[i:j], sorted(fld))
		}
		i = j
	}
	return errs
}

// reorder rewrites run in place in the order of want (see reorderRun),
// unless more than one of its errors is not in want.
func reorder(run, want field.ErrorList) {
	used := make([]bool, len(run))
	out := make(field.ErrorList, 0, len(run))
	for _, w := range want {
		for i, e := range run {
			if !used[i] && sameError(e, w) {
				used[i] = true
				out = append(out, e)
				break
			}
		}
	}
	if len(run)-len(out) > 1 {
		return
	}
	for i, e := range run {
		if !used[i] {
			out = append(out, e)
		}
	}
	copy(run, out)
}

// sameError compares what a report shows of a label or annotation error
// (their bad values are strings; others never match).
func sameError(a, b *field.Error) bool {
	as, aok := a.BadValue.(string)
	bs, bok := b.BadValue.(string)
	return aok && bok && as == bs && a.Type == b.Type && a.Field == b.Field && a.Detail == b.Detail
}
