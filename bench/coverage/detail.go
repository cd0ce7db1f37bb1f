package coverage

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
)

// literalOrFormat returns a string literal, or the format of a
// fmt.Sprintf call (its verbs match anything, see detailMatches), else "".
func literalOrFormat(e ast.Expr) string {
	if c, ok := e.(*ast.CallExpr); ok {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(c.Args) > 0 {
			e = c.Args[0]
		}
	}
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		s, _ := strconv.Unquote(lit.Value)
		return s
	}
	return ""
}

// detailMatches reports whether a rule's message can be the detail a
// site builds: equal, or equal with the verbs (%d, %s, %v, %q) of either
// (a Sprintf format, a keyword's implied message) standing for anything.
func detailMatches(detail, msg string) bool {
	return detail == msg || formatMatches(detail, msg) || formatMatches(msg, detail)
}

// formatMatches reports whether s is an instance of format (a verb
// matches anything on one line).
func formatMatches(format, s string) bool {
	re := verbRE.ReplaceAllString(regexp.QuoteMeta(format), ".*")
	ok, _ := regexp.MatchString("^"+re+"$", s)
	return ok
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[dsvqtf]`)

// detailArg returns the detail argument of a constructor call.
func detailArg(ctor string, args []ast.Expr) ast.Expr {
	switch ctor {
	case "Invalid", "TypeInvalid":
		if len(args) == 3 {
			return args[2]
		}
	case "Required", "Forbidden":
		if len(args) == 2 {
			return args[1]
		}
	}
	return nil
}
