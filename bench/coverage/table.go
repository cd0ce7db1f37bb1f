package coverage

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// ParseExceptions reads the exceptions file: one "Func Type field:
// [category] reason" line per site kind that data cannot declare ("-" for
// no field; category one of Categories); "#" starts a comment.
func ParseExceptions(data []byte) (map[string]Exception, error) {
	out := map[string]Exception{}
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
		e, err := parseCategory(strings.TrimSpace(why))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		out[strings.Join(strings.Fields(k), " ")] = e
	}
	return out, sc.Err()
}

// Counts are the totals of one group of sites.
type Counts struct {
	Sites, Declared, Excepted int
	// Unreachable counts the excepted sites whose category is Unreachable.
	Unreachable int
	// ByCategory counts the excepted sites per category.
	ByCategory map[string]int
}

// Reachable is the number of sites a v1 create or update of a served kind
// can reach in a default cluster.
func (c Counts) Reachable() int { return c.Sites - c.Unreachable }

// ReachablePercent is the share of declared sites among the reachable ones.
func (c Counts) ReachablePercent() float64 {
	if c.Reachable() == 0 {
		return 0
	}
	return 100 * float64(c.Declared) / float64(c.Reachable())
}

// Percent is the share of declared sites.
func (c Counts) Percent() float64 {
	if c.Sites == 0 {
		return 0
	}
	return 100 * float64(c.Declared) / float64(c.Sites)
}

func count(sites []Site) Counts {
	c := Counts{ByCategory: map[string]int{}}
	for _, s := range sites {
		c.Sites++
		if s.Rule != "" {
			c.Declared++
		} else if s.Exception != "" {
			c.Excepted++
			c.ByCategory[s.Category]++
			if cat, _ := category(s.Category); cat.Unreachable {
				c.Unreachable++
			}
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
	var sub []string
	for _, c := range Categories {
		if c.Unreachable {
			sub = append(sub, fmt.Sprintf("%d `%s`", all.ByCategory[c.Name], c.Name))
		}
	}
	fmt.Fprintf(&b, "Sites a v1 create or update of a served kind can reach in a default cluster: %d (the %d sites minus the %d not declarable because no such request reaches them: %s), **%d declared (%.1f%%)**.\n\n",
		all.Reachable(), all.Sites, all.Unreachable, strings.Join(sub, ", "), all.Declared, all.ReachablePercent())
	b.WriteString("Why the sites are not declarable:\n\n| category | sites | subtracted from reachable | definition |\n|---|---:|---|---|\n")
	for _, c := range Categories {
		yes := "no"
		if c.Unreachable {
			yes = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", c.Name, all.ByCategory[c.Name], yes, mdEscape(c.Definition))
	}
	fmt.Fprintf(&b, "| all | %d | %d | |\n\n", all.Excepted, all.Unreachable)
	byPkg := map[string][]Site{}
	var pkgs []string
	for _, s := range sites {
		if _, ok := byPkg[s.Package]; !ok {
			pkgs = append(pkgs, s.Package)
		}
		byPkg[s.Package] = append(byPkg[s.Package], s)
	}
	sort.Strings(pkgs)
	b.WriteString("| package | sites | declared | % | reachable | % of reachable | not declarable | open |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range pkgs {
		c := count(byPkg[p])
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %d | %.1f | %d | %d |\n", p, c.Sites, c.Declared, c.Percent(), c.Reachable(), c.ReachablePercent(), c.Excepted, c.Sites-c.Declared-c.Excepted)
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
			status = "— [" + s.Category + "] " + s.Exception
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
