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
// transparent huge pages: it allocates that much (the runtime maps fresh,
// untouched memory for it), advises the kernel to back it with huge pages
// (madvise MADV_HUGEPAGE, which outlives the objects: the runtime keeps
// the memory mapped and reuses it for the objects allocated next), and
// drops it. Go maps its heap without the advice, so where the kernel's
// policy is "madvise" (Debian's and Ubuntu's default) every 4 KiB page of
// a growing heap is a page fault. The memory is taken in pieces of
// pieceSize: a piece the runtime must clear (it starts on pages used and
// freed before) faults its 4 KiB pages then, and only that piece. It
// reports whether the kernel took the advice; it does nothing without
// support for transparent huge pages.
func preferHugePages(size int) bool {
	if size < 2*hugePageSize {
		return false
	}
	pieces := make([][]byte, 0, size/pieceSize+1)
	lo, hi := ^uintptr(0), uintptr(0)
	for n := 0; n < size; n += pieceSize {
		b := make([]byte, min(pieceSize, size-n))
		pieces = append(pieces, b)
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		lo, hi = min(lo, p), max(hi, p+uintptr(len(b)))
	}
	// the pieces are (nearly) contiguous; what lies between them is heap
	// memory too
	ok := advise(lo, hi)
	runtime.KeepAlive(pieces)
	pieces = nil
	// the heap is a few megabytes yet: the collection is short (3 ms),
	// and done before the memory limit is set (over the limit, the
	// runtime would hand the pages back to the kernel, and with them the
	// advice)
	runtime.GC()
	return ok
}

// pieceSize is the size of preferHugePages's allocations: the runtime's
// chunk of heap address space (pallocChunkBytes), two huge pages.
const pieceSize = 4 << 20

// adviseHugePages advises the whole huge pages inside b for transparent
// huge pages, and reports whether the kernel took the advice.
func adviseHugePages(b []byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return advise(p, p+uintptr(len(b)))
}

// advise advises the whole huge pages in [lo, hi) for transparent huge
// pages, and reports whether the kernel took the advice.
func advise(lo, hi uintptr) bool {
	beg := (lo + hugePageSize - 1) &^ (hugePageSize - 1)
	end := hi &^ (hugePageSize - 1)
	if beg >= end {
		return false
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, madvHugePage)
	return errno == 0
}
