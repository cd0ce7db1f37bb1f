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

// ControllerGenDescription turns doc comment lines into a description the
// way controller-tools does for CRDs (pkg/markers/zip.go extractDoc):
// marker lines ("+...") dropped, lines kept with their line breaks, empty
// lines as paragraph breaks, one-line TODOs dropped and everything from a
// "---" line on dropped, outside markdown code fences.
func ControllerGenDescription(lines []string) string {
	var kept []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "+") {
			continue
		}
		kept = append(kept, strings.TrimRight(l, " \t"))
	}
	// CommentGroup.Text: no leading/trailing empty lines, runs of empty
	// lines reduced to one.
	var text []string
	for _, l := range kept {
		if l == "" && (len(text) == 0 || text[len(text)-1] == "") {
			continue
		}
		text = append(text, l)
	}
	for len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	var out []string
	inCode := false
	for _, l := range text {
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			inCode = !inCode
		}
		if !inCode {
			if strings.HasPrefix(l, "TODO") {
				continue
			}
			if strings.HasPrefix(l, "---") {
				break
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
