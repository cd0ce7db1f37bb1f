package gcpolicy

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// adviseHugePages leaves the memory it was given advised for huge pages
// (VmFlags "hg" in /proc/self/smaps), where the kernel has them, and
// preferHugePages does so for a heap of two huge pages or more.
func TestAdviseHugePages(t *testing.T) {
	policy, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(policy), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	b := make([]byte, 8<<20)
	if advised(t, b) {
		t.Fatal("fresh heap memory is advised for huge pages already: the test cannot tell")
	}
	if !adviseHugePages(b) {
		t.Fatal("madvise(MADV_HUGEPAGE) refused")
	}
	if !advised(t, b) {
		t.Error("the memory is not advised for huge pages")
	}
	if !preferHugePages(8 << 20) {
		t.Error("preferHugePages: the advice was refused")
	}
	if preferHugePages(hugePageSize) || adviseHugePages(make([]byte, 4096)) {
		t.Error("advised less than two huge pages")
	}
}

// advised reports whether the mapping holding b's middle has VmFlags hg.
func advised(t *testing.T, b []byte) bool {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	addr := uint64(uintptr(unsafe.Pointer(&b[len(b)/2])))
	in := false
	for _, l := range strings.Split(string(smaps), "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			lo, hi, _ := strings.Cut(f[0], "-")
			a, errA := strconv.ParseUint(lo, 16, 64)
			z, errZ := strconv.ParseUint(hi, 16, 64)
			in = errA == nil && errZ == nil && a <= addr && addr < z
			continue
		}
		if rest, ok := strings.CutPrefix(l, "VmFlags:"); ok && in {
			return strings.Contains(" "+rest+" ", " hg ")
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return false
}
