package gcpolicy

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on the platforms
// kdv is built for (x86-64 and arm64 with 4 KiB base pages).
const hugePageSize = 2 << 20

// madvHugePage is MADV_HUGEPAGE (14 on every Linux architecture).
const madvHugePage = 14

// preferHugePages makes the first size bytes of the heap eligible for
// transparent huge pages: it allocates one object of that size (the
// runtime maps fresh, untouched memory for it), advises the kernel to
// back it with huge pages (madvise MADV_HUGEPAGE, which outlives the
// object: the runtime keeps the memory mapped and reuses it for the
// objects allocated next), and drops it. Go maps its heap without the
// advice, so where the kernel's policy is "madvise" (Debian's and
// Ubuntu's default) every 4 KiB page of a growing heap is a page fault.
// It reports whether the kernel took the advice; it does nothing without
// support for transparent huge pages.
func preferHugePages(size int) bool {
	if size < 2*hugePageSize {
		return false
	}
	b := make([]byte, size)
	ok := adviseHugePages(b)
	runtime.KeepAlive(b)
	b = nil
	// the heap is a few megabytes yet: the collection is short (3 ms),
	// and done before the memory limit is set (over the limit, the
	// runtime would hand the pages back to the kernel, and with them the
	// advice)
	runtime.GC()
	return ok
}

// adviseHugePages advises the whole huge pages inside b for transparent
// huge pages, and reports whether the kernel took the advice.
func adviseHugePages(b []byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePageSize - 1) &^ (hugePageSize - 1)
	end := (p + uintptr(len(b))) &^ (hugePageSize - 1)
	if beg >= end {
		return false
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, madvHugePage)
	return errno == 0
}
