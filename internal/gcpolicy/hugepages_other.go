//go:build !linux

package gcpolicy

// preferHugePages does nothing where there are no transparent huge pages
// to ask for.
func preferHugePages(size int) bool { return false }
