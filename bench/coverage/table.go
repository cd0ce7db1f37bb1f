package coverage

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// ParseExceptions reads the exceptions file: one "Func Type field: reason"
// line per site kind that data cannot declare ("-" for no field); "#"
// starts a comment.
func ParseExceptions(data []byte) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, why, ok := strings.Cut(l, ":")
		if !ok || len(strings.Fields(k)) != 3 || strings.TrimSpace(why) == "" {
			return nil, fmt.Errorf("line %d: want \"Func Type field: reason\", got %q", n, l)
		}
		out[strings.Join(strings.Fields(k), " ")] = strings.TrimSpace(why)
	}
	return out, sc.Err()
}

// Counts are the totals of one group of sites.
type Counts struct {
	Sites, Declared, Excepted int
}

// Percent is the share of declared sites.
func (c Counts) Percent() float64 {
	if c.Sites == 0 {
		return 0
	}
	return 100 * float64(c.Declared) / float64(c.Sites)
}

func count(sites []Site) Counts {
	var c Counts
	for _, s := range sites {
		c.Sites++
		if s.Rule != "" {
			c.Declared++
		} else if s.Exception != "" {
			c.Excepted++
		}
	}
	return c
}

// Markdown renders the coverage table: totals per package, per function,
// then every site.
func Markdown(sites []Site, version string) string {
	var b strings.Builder
	all := count(sites)
	fmt.Fprintf(&b, "Hand-written validation of k8s.io/kubernetes %s reached from the entry points of the kinds in scope: %d error sites, **%d declared (%.1f%%)**, %d not declarable (with the reason), %d not yet declared.\n\n",
		version, all.Sites, all.Declared, all.Percent(), all.Excepted, all.Sites-all.Declared-all.Excepted)
	byPkg := map[string][]Site{}
	var pkgs []string
	for _, s := range sites {
		if _, ok := byPkg[s.Package]; !ok {
			pkgs = append(pkgs, s.Package)
		}
		byPkg[s.Package] = append(byPkg[s.Package], s)
	}
	sort.Strings(pkgs)
	b.WriteString("| package | sites | declared | % | not declarable | open |\n|---|---:|---:|---:|---:|---:|\n")
	for _, p := range pkgs {
		c := count(byPkg[p])
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %d | %d |\n", p, c.Sites, c.Declared, c.Percent(), c.Excepted, c.Sites-c.Declared-c.Excepted)
	}
	b.WriteString("\n### Per function\n\n| function | sites | declared | not declarable | open |\n|---|---:|---:|---:|---:|\n")
	byFunc := map[string][]Site{}
	var fns []string
	for _, s := range sites {
		k := s.Package + " " + s.Func
		if _, ok := byFunc[k]; !ok {
			fns = append(fns, k)
		}
		byFunc[k] = append(byFunc[k], s)
	}
	sort.Strings(fns)
	for _, k := range fns {
		c := count(byFunc[k])
		_, fn, _ := strings.Cut(k, " ")
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", fn, c.Sites, c.Declared, c.Excepted, c.Sites-c.Declared-c.Excepted)
	}
	b.WriteString("\n### Sites\n\n| site | function | error | field | detail | declared by / why not |\n|---|---|---|---|---|---|\n")
	for _, s := range sites {
		status := ""
		switch {
		case s.Rule != "":
			status = "✓ " + s.Rule
		case s.Exception != "":
			status = "— " + s.Exception
		}
		d := s.Detail
		if len(d) > 60 {
			d = d[:57] + "..."
		}
		fmt.Fprintf(&b, "| %s:%d | %s | %s | %s | %s | %s |\n", s.File, s.Line, s.Func, s.Type, s.Field, mdEscape(d), mdEscape(status))
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
