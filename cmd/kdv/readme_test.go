package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock matches a fenced block of the README that shows a command
// (a first line "$ kdv ...") and what it prints.
var readmeBlock = regexp.MustCompile("(?s)```\n\\$ (kdv [^\n]*)\n(.*?)```")

// The README's printed outputs are byte for byte what the commands print:
// each block starting with "$ kdv ..." is run from the repository root and
// compared (the commands use only files shipped in the repository).
func TestReadmeOutputs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	blocks := readmeBlock.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("no command blocks found in README.md")
	}
	for _, b := range blocks {
		args := strings.Fields(b[1])[1:]
		_, out, errOut := kdv(t, "", args...)
		if got := out + errOut; got != b[2] {
			t.Errorf("README block %q differs from the command's output:\n--- README\n%s--- got\n%s", b[1], b[2], got)
		}
	}
}
