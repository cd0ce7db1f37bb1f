package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	defer func(f int64) { floor.Store(f) }(floor.Load())
	floor.Store(0) // before Apply: minLimit
	for _, c := range []struct{ live, want int64 }{
		{0, 96 << 20},
		{40 << 20, 96 << 20},
		{48 << 20, 96 << 20},
		{64 << 20, 128 << 20},
		{100 << 20, 200 << 20},
	} {
		if got := Limit(c.live); got != c.want {
			t.Errorf("Limit(%d) = %d, want %d", c.live, got, c.want)
		}
	}
	floor.Store(hugeLimit) // Apply with huge pages
	for _, c := range []struct{ live, want int64 }{
		{0, 160 << 20},
		{64 << 20, 160 << 20},
		{80 << 20, 160 << 20},
		{100 << 20, 200 << 20},
	} {
		if got := Limit(c.live); got != c.want {
			t.Errorf("huge pages: Limit(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestApply: the settings are made unless the environment sets them, and
// the limit follows a live heap that outgrows it.
func TestApply(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer func(m, h int64) { minLimit, hugeLimit = m, h }(minLimit, hugeLimit)
	defer watching.Store(false)
	minLimit, hugeLimit = 1<<20, 1<<20

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	Apply()
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("GOGC = %d after Apply, want %d", got, Percent)
	}
	if got := debug.SetMemoryLimit(-1); got < minLimit {
		t.Errorf("memory limit = %d after Apply, want at least %d", got, minLimit)
	}

	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < 2*64<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("memory limit %d did not follow a live heap of 64 MiB (want at least 128 MiB)", debug.SetMemoryLimit(-1))
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
}

func TestApplyLeavesEnvironment(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	Apply()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC = %d, want it left alone (the runtime read the environment at start)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit = %d, want it left alone", got)
	}
}

// The heap's huge pages come with the memory limit, and not at all with
// GODEBUG=disablethp=1, Go's switch for them.
func TestApplyHugePages(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer watching.Store(false)
	defer func(f func(int) bool) { hugePages = f }(hugePages)
	for _, c := range []struct {
		godebug, gomemlimit string
		want                int
	}{
		{"", "", int(hugeLimit)},
		{"http2client=0", "", int(hugeLimit)},
		{"disablethp=1", "", 0},
		{"http2client=0,disablethp=1", "", 0},
		{"disablethp=1,disablethp=0", "", int(hugeLimit)},
		{"", "1GiB", 0},
	} {
		asked := 0
		hugePages = func(n int) bool { asked = n; return true }
		debug.SetMemoryLimit(math.MaxInt64)
		t.Setenv("GOGC", "")
		t.Setenv("GODEBUG", c.godebug)
		t.Setenv("GOMEMLIMIT", c.gomemlimit)
		Apply()
		watching.Store(false)
		if asked != c.want {
			t.Errorf("GODEBUG=%q GOMEMLIMIT=%q: huge pages for %d bytes, want %d", c.godebug, c.gomemlimit, asked, c.want)
		}
		// the higher floor only with the advice taken
		want := int64(math.MaxInt64)
		switch {
		case c.gomemlimit != "":
		case asked != 0:
			want = hugeLimit
		default:
			want = minLimit
		}
		if got := debug.SetMemoryLimit(-1); got != want {
			t.Errorf("GODEBUG=%q GOMEMLIMIT=%q: memory limit %d, want %d", c.godebug, c.gomemlimit, got, want)
		}
	}
	// a kernel without transparent huge pages (or refusing the advice):
	// the lower floor
	hugePages = func(int) bool { return false }
	t.Setenv("GODEBUG", "")
	t.Setenv("GOMEMLIMIT", "")
	Apply()
	watching.Store(false)
	if got := debug.SetMemoryLimit(-1); got != minLimit {
		t.Errorf("advice refused: memory limit %d, want %d", got, minLimit)
	}
	if got := Limit(0); got != minLimit {
		t.Errorf("advice refused: Limit(0) = %d, want %d", got, minLimit)
	}
}
