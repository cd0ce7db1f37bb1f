package report

import (
	"bytes"
	"os"
	"sync"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 1000)
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }

	p.Add(1) // first call draws
	want := "\rvalidated 1/1000 documents"
	if buf.String() != want {
		t.Fatalf("after first Add: %q", buf.String())
	}
	clock = clock.Add(50 * time.Millisecond)
	p.Add(10) // within 100ms: no redraw
	if buf.String() != want {
		t.Fatalf("redrew within the interval: %q", buf.String())
	}
	clock = clock.Add(60 * time.Millisecond)
	p.Add(1) // 110ms since the last draw
	want += "\rvalidated 12/1000 documents"
	if buf.String() != want {
		t.Fatalf("after interval: %q", buf.String())
	}
	p.Done()
	want += "\r" + "                           " + "\r"
	if buf.String() != want {
		t.Fatalf("after Done: %q", buf.String())
	}
	clock = clock.Add(time.Second)
	p.Add(1)
	p.Done()
	if buf.String() != want {
		t.Errorf("wrote after Done: %q", buf.String())
	}
}

func TestProgressNoDrawNoClear(t *testing.T) {
	var buf bytes.Buffer
	NewProgress(&buf, 5).Done()
	if buf.Len() != 0 {
		t.Errorf("Done without Add wrote %q", buf.String())
	}
	var p *Progress // nil is a valid, silent Progress
	p.Add(1)
	p.Done()
}

func TestProgressConcurrent(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 400)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				p.Add(1)
			}
		})
	}
	wg.Wait()
	if p.done != 400 {
		t.Errorf("done = %d, want 400", p.done)
	}
	p.Done()
}

func TestTerminalDetection(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, x := range []*os.File{f, w, nil} {
		if IsTerminal(x) || UseColor(x) {
			t.Errorf("%v detected as a terminal", x)
		}
		if p := NewTerminalProgress(x, 10000); p != nil {
			t.Errorf("progress on non-terminal %v", x)
		}
	}
	// /dev/null is a character device: the cheapest stand-in for a tty.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil || !IsTerminal(null) {
		t.Skipf("no character device %s to test with", os.DevNull)
	}
	defer null.Close()
	if NewTerminalProgress(null, ProgressThreshold) != nil {
		t.Error("progress at the threshold")
	}
	if NewTerminalProgress(null, ProgressThreshold+1) == nil {
		t.Error("no progress above the threshold")
	}
	t.Setenv("NO_COLOR", "")
	if !UseColor(null) {
		t.Error("UseColor false with empty NO_COLOR")
	}
	t.Setenv("NO_COLOR", "1")
	if UseColor(null) {
		t.Error("UseColor true with NO_COLOR=1")
	}
}
