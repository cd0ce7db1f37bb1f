package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progressInterval bounds how often Progress redraws (about 10 times a second).
const progressInterval = 100 * time.Millisecond

// Progress draws "\rvalidated N/TOTAL documents" on a terminal. cmd/kdv uses
// it only when stderr is a terminal and there are more than
// ProgressThreshold documents; NewTerminalProgress makes that choice.
// It is safe for concurrent use, and a nil *Progress does nothing, so callers
// need no conditionals.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	total   int
	done    int
	last    time.Time
	width   int // length of the last line drawn, to clear it
	now     func() time.Time
	stopped bool
}

// NewProgress returns a Progress for total documents writing to w.
func NewProgress(w io.Writer, total int) *Progress {
	return &Progress{w: w, total: total, now: time.Now}
}

// Add records n more validated documents and redraws if at least 100ms have
// passed since the last redraw (the first call always draws). Write errors
// are ignored: progress is decoration.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if p.stopped {
		return
	}
	now := p.now()
	if !p.last.IsZero() && now.Sub(p.last) < progressInterval {
		return
	}
	p.last = now
	s := fmt.Sprintf("validated %d/%d documents", p.done, p.total)
	p.width = len(s)
	fmt.Fprint(p.w, "\r"+s)
}

// Done erases the progress line (if one was drawn) and stops further drawing.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 && !p.stopped {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
	}
	p.stopped = true
}
