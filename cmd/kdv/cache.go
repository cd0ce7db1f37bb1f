package main

import (
	"os"
	"path/filepath"

	"kdv.dev/cel"
)

// useCompileCache turns on kdv.dev/cel's disk cache of compiled rules,
// which takes most of the start-up away from runs after the first: in
// $KDV_CACHE_DIR, or kdv/ in the user cache directory (os.UserCacheDir:
// $XDG_CACHE_HOME or ~/.cache on Linux). KDV_CACHE_DIR=off turns it off.
// A cache that cannot be set up (no home, read-only disk) is left off
// silently: it changes no result, only the time to reach it.
func useCompileCache() {
	dir := os.Getenv("KDV_CACHE_DIR")
	switch dir {
	case "off":
		return
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return
		}
		dir = filepath.Join(base, "kdv")
	}
	_ = cel.SetCompileCacheDir(dir)
}
