package idl

import (
	"go/ast"
	"strings"
)

// commentLines splits a comment group into lines as gengo does (markers and
// one leading space removed).
func commentLines(cg *ast.CommentGroup) []string {
	if cg == nil {
		return nil
	}
	var lines []string
	for _, c := range cg.List {
		t := c.Text
		if strings.HasPrefix(t, "//") {
			t = strings.TrimPrefix(t[2:], " ")
			lines = append(lines, t)
			continue
		}
		t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
		lines = append(lines, strings.Split(t, "\n")...)
	}
	return lines
}

// Description turns doc comment lines into an OpenAPI description the way
// openapi-gen's generateDescription does: "+" tag lines and one-line TODOs
// dropped, everything after a "---" line dropped, paragraphs kept, indented
// lines on their own lines.
func Description(lines []string) string {
	var b strings.Builder
	del := func() {
		if b.Len() > 0 {
			s := b.String()
			b.Reset()
			b.WriteString(s[:len(s)-1])
		}
	}
	for _, line := range lines {
		if line == "---" {
			break
		}
		line = strings.TrimRight(line, " ")
		leading := strings.TrimLeft(line, " ")
		switch {
		case len(line) == 0:
			del()
			b.WriteString("\n\n")
		case strings.HasPrefix(leading, "TODO"):
		case strings.HasPrefix(leading, "+"):
		default:
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				del()
				line = "\n" + line + "\n"
			} else {
				line += " "
			}
			b.WriteString(line)
		}
	}
	return strings.TrimSpace(b.String())
}
