package formats

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestHandWrittenFormats: the details are what k8s.io/kubernetes v1.37.2's
// CronJob validation reports for the same values (bench/cmd/builtin-verdict).
func TestHandWrittenFormats(t *testing.T) {
	r := New(Options{Declarative: true})
	for _, tc := range []struct {
		format, value string
		want          []string
	}{
		{"k8s-cron-schedule", "", nil},
		{"k8s-cron-schedule", "*/5 * * * *", nil},
		{"k8s-cron-schedule", "@every 1h", nil},
		{"k8s-cron-schedule", "0 0 31 2 *", nil},
		{"k8s-cron-schedule", "CRON_TZ=UTC 0 * * * *", nil},
		{"k8s-cron-schedule", "*/5 * * *", []string{"expected exactly 5 fields, found 4: [*/5 * * *]"}},
		{"k8s-cron-schedule", "@bogus", []string{"unrecognized descriptor: @bogus"}},
		{"k8s-cron-schedule", "70 * * * *", []string{"end of range (70) above maximum (59): 70"}},
		{"k8s-time-zone", "", nil},
		{"k8s-time-zone", "America/New_York", nil},
		{"k8s-time-zone", "Etc/GMT+5", nil},
		{"k8s-time-zone", "Mars/Olympus", []string{"unknown time zone Mars/Olympus"}},
		{"k8s-time-zone", "../etc", []string{"unknown time zone ../etc"}},
		{"k8s-time-zone", "Local", []string{"timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"}},
		{"k8s-time-zone", "local", []string{"timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones", "unknown time zone local"}},
		{"k8s-job-succeeded-indexes", "", nil},
		{"k8s-job-succeeded-indexes", "0,2-4,7", nil},
		{"k8s-job-succeeded-indexes", "+1,007", nil},
		{"k8s-job-succeeded-indexes", "1-2-3", []string{`error parsing succeededIndexes: the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`}},
		{"k8s-job-succeeded-indexes", "1,a", []string{`error parsing succeededIndexes: cannot convert string to integer for index: "a"`}},
		{"k8s-job-succeeded-indexes", "1,,2", []string{`error parsing succeededIndexes: cannot convert string to integer for index: ""`}},
		{"k8s-job-succeeded-indexes", "3-3", []string{"error parsing succeededIndexes: non-increasing order, previous: 3, current: 3"}},
		{"k8s-job-succeeded-indexes", "1-4,3", []string{"error parsing succeededIndexes: non-increasing order, previous: 4, current: 3"}},
		{"k8s-job-succeeded-indexes", "2147483647", []string{`error parsing succeededIndexes: too large index: "2147483647"`}},
	} {
		c, ok := r.Lookup(tc.format)
		if !ok || c.Family() != HandWritten {
			t.Fatalf("%s: not a hand-written format", tc.format)
		}
		var got []string
		for _, e := range c.Errors(field.NewPath("spec", "x"), tc.value) {
			if e.Type != field.ErrorTypeInvalid || e.BadValue != tc.value {
				t.Errorf("%s %q: error %v", tc.format, tc.value, e)
			}
			got = append(got, e.Detail)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q: got %q, want %q", tc.format, tc.value, got, tc.want)
		}
		if c.Valid(tc.value) != (len(tc.want) == 0) {
			t.Errorf("%s %q: Valid disagrees with Errors", tc.format, tc.value)
		}
	}
	if _, ok := New(Options{}).Lookup("k8s-time-zone"); ok {
		t.Error("hand-written formats are enforced for custom resources")
	}
}
