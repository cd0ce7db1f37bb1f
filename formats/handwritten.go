package formats

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	// The apiserver binary embeds the IANA database (cmd/kube-apiserver
	// imports time/tzdata for CronJob time zones), so a zone's validity does
	// not depend on the host: kdv embeds it too.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// handWrittenFormats are kdv's formats for checks of k8s.io/kubernetes's
// hand-written validation that no data can say; the rule overlay references
// them with +k8s:format. Their errors are the hand-written ones.
var handWrittenFormats = map[string]*namedFormat{
	"k8s-cron-schedule":         {valid: func(s string) bool { return cronScheduleError(s) == nil }, errs: cronScheduleErrors},
	"k8s-time-zone":             {valid: func(s string) bool { return len(timeZoneDetails(s)) == 0 }, errs: timeZoneErrors},
	"k8s-job-succeeded-indexes": {valid: func(s string) bool { return succeededIndexesError(s) == nil }, errs: succeededIndexesErrors},
}

// cronScheduleError parses s as k8s.io/kubernetes pkg/util/parsers
// ParseCronScheduleWithPanicRecovery does for a CronJob's schedule: the
// standard five fields, descriptors (@hourly, @every 1h) and a TZ= or
// CRON_TZ= prefix, with robfig/cron v3's errors; a panic of the parser is
// an error too. The empty schedule is valid here: validateCronJobSpec
// reports it as Required, not as a parse error, which is a rule of the
// overlay (batch_v1_more.tags).
func cronScheduleError(s string) (err error) {
	if s == "" {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	_, err = cron.ParseStandard(s)
	return err
}

func cronScheduleErrors(fldPath *field.Path, value string) field.ErrorList {
	if err := cronScheduleError(value); err != nil {
		return field.ErrorList{field.Invalid(fldPath, value, err.Error())}
	}
	return nil
}

// validTimeZoneCharacters is k8s.io/kubernetes pkg/apis/batch/validation's
// pattern for each '/'-separated part of a time zone name.
var validTimeZoneCharacters = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// timeZoneErrors returns the details of pkg/apis/batch/validation
// validateTimeZone's errors for a non-empty zone name (none when valid): the
// name's syntax (then nothing else), "Local" in any case, and
// time.LoadLocation's error ("local" draws the last two). The empty name,
// which that function reports with its own message, is left to a rule and
// valid here.
func timeZoneDetails(tz string) []string {
	if tz == "" {
		return nil
	}
	for _, part := range strings.Split(tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneCharacters.MatchString(part) {
			return []string{fmt.Sprintf("unknown time zone %s", tz)}
		}
	}
	var out []string
	if strings.EqualFold(tz, "Local") {
		out = append(out, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")
	}
	if _, err := time.LoadLocation(tz); err != nil {
		out = append(out, err.Error())
	}
	return out
}

func timeZoneErrors(fldPath *field.Path, value string) field.ErrorList {
	var errs field.ErrorList
	for _, d := range timeZoneDetails(value) {
		errs = append(errs, field.Invalid(fldPath, value, d))
	}
	return errs
}

// succeededIndexesError parses a Job success policy rule's
// succeededIndexes as k8s.io/kubernetes pkg/apis/batch/validation
// validateIndexesFormat does ("1,3-5,7": increasing indexes and intervals),
// with its errors. That function also bounds each index by the Job's
// completions, which a format does not know: here every index is bounded
// by math.MaxInt32, above any completions, and a rule on JobSpec
// (batch_v1.tags) checks the bound; the first error can then differ from
// the apiserver's when a too large index precedes a syntax error.
func succeededIndexesError(s string) error {
	if s == "" {
		return nil
	}
	var last *int
	for _, interval := range strings.Split(s, ",") {
		limits := strings.Split(interval, "-")
		if len(limits) > 2 {
			return fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", interval)
		}
		x, err := indexLimit(limits[0])
		if err != nil {
			return err
		}
		y := x
		if len(limits) > 1 {
			if y, err = indexLimit(limits[1]); err != nil {
				return err
			}
			if x >= y {
				return fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
			}
		}
		if last != nil && *last >= x {
			return fmt.Errorf("non-increasing order, previous: %d, current: %d", *last, x)
		}
		last = &y
	}
	return nil
}

// indexLimit is parseIndexInterval's strconv.Atoi and bound of one limit.
func indexLimit(s string) (int, error) {
	x, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("cannot convert string to integer for index: %q", s)
	}
	if x >= math.MaxInt32 {
		return 0, fmt.Errorf("too large index: %q", s)
	}
	return x, nil
}

func succeededIndexesErrors(fldPath *field.Path, value string) field.ErrorList {
	if err := succeededIndexesError(value); err != nil {
		return field.ErrorList{field.Invalid(fldPath, value, "error parsing succeededIndexes: "+err.Error())}
	}
	return nil
}
