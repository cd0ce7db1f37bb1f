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
// unable to judge an object it covers. False rejections (kdv rejects, the
// apiserver accepts) are kdv's known gaps today: they fail the target only
// with KDV_BUILTIN_FUZZ_FAIL=1 (so the fuzzer keeps the input in
// testdata/fuzz), and KDV_BUILTIN_FUZZ_LOG=file appends one line per new
// class to file.
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
	failOnFR := os.Getenv("KDV_BUILTIN_FUZZ_FAIL") != ""
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
