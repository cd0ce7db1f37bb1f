package bench

import (
	"fmt"
	"os"
	"testing"

	"kdv.dev/cel"
)

// TestMain runs the tests with kdv's CEL compile cache in the directory
// KDV_CACHE_DIR names, when set, as `kdv validate` would: built-in rules
// read from a warm cache are compiled on first need (cel/deferred.go), so
// running the differential tests twice with one directory checks that
// path against the apiserver too. Unset, nothing is cached.
func TestMain(m *testing.M) {
	if dir := os.Getenv("KDV_CACHE_DIR"); dir != "" && dir != "off" {
		if err := cel.SetCompileCacheDir(dir); err != nil {
			fmt.Fprintln(os.Stderr, "KDV_CACHE_DIR:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}
