package bench

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// FuzzBuiltinDifferential feeds arbitrary documents (seeded with
// testdata/builtin, one object per covered kind; TestBuiltinDifferential
// covers their systematic mutations) to
// kdv and to the apiserver's code as creates, and as updates of the seed
// of the same kind. It always fails on a panic or on the reference being
// unable to judge an object it covers, and on a false rejection (kdv
// rejects, the apiserver accepts), so that the fuzzer keeps the input in
// testdata/fuzz. KDV_BUILTIN_FUZZ_LOGONLY=1 turns false rejections into
// log lines, and KDV_BUILTIN_FUZZ_LOG=file appends one line per new class
// to file, to survey them.
//
//	go test -run XXX -fuzz FuzzBuiltinDifferential -fuzztime 60s .
func FuzzBuiltinDifferential(f *testing.F) {
	seeds := loadBuiltinSeeds(f)
	bodies := map[string][]byte{}
	for _, ex := range seeds {
		body := mustJSON(ex.Obj)
		bodies[ex.GK.String()] = body
		f.Add(body)
	}
	// A false rejection fails, as in TestBuiltinDifferential;
	// KDV_BUILTIN_FUZZ_LOGONLY=1 only logs its class (with
	// KDV_BUILTIN_FUZZ_LOG) to survey many at once.
	failOnFR := os.Getenv("KDV_BUILTIN_FUZZ_LOGONLY") == ""
	logFile := os.Getenv("KDV_BUILTIN_FUZZ_LOG")
	var mu sync.Mutex
	seen := map[string]bool{}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, gvk, _, err := lookupBuiltin(data)
		if err != nil {
			return // not a covered object: nothing to compare
		}
		kind := gvk.GroupKind().String()
		for _, old := range [][]byte{nil, bodies[kind]} {
			res := compareBuiltin(bcase{Name: "fuzz", Kind: kind, Mutation: "fuzz", Obj: data, Old: old})
			if res.Err != nil {
				if errors.Is(res.Err, errPanic) {
					t.Fatalf("%v\ninput: %s", res.Err, data)
				}
				continue // kdv has no schema, an old object of another kind
			}
			if !res.falseRejection() {
				continue
			}
			class := res.Case.Kind + " " + rejectionClass(&res, res.KDV)
			if logFile != "" {
				mu.Lock()
				if !seen[class] {
					seen[class] = true
					if fh, err := os.OpenFile(logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
						fmt.Fprintf(fh, "%s (update %v)\n  input: %s\n  kdv: %s\n", class, old != nil, data, res.KDV)
						fh.Close()
					}
				}
				mu.Unlock()
			}
			if failOnFR {
				t.Errorf("false rejection (update %v): %s\napiserver: %s\nkdv: %s", old != nil, data, res.Ref, res.KDV)
			}
		}
	})
}
