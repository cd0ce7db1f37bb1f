package report

import "os"

// ProgressThreshold is the number of documents above which cmd/kdv shows a
// progress line; smaller runs finish before it would be useful.
const ProgressThreshold = 300

// IsTerminal reports whether f is a character device, using only
// os.File.Stat so that no terminal library is needed. Besides terminals this
// is true for /dev/null, where colour or progress output is harmless.
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// UseColor reports whether text output to f should be coloured: f is a
// terminal and NO_COLOR is unset or empty (https://no-color.org).
func UseColor(f *os.File) bool {
	return os.Getenv("NO_COLOR") == "" && IsTerminal(f)
}

// NewTerminalProgress returns a Progress drawing on f when f is a terminal
// and total exceeds ProgressThreshold, and nil (a silent Progress) otherwise.
func NewTerminalProgress(f *os.File, total int) *Progress {
	if total <= ProgressThreshold || !IsTerminal(f) {
		return nil
	}
	return NewProgress(f, total)
}
