package fastyaml

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// scalars are plain, quoted and flow texts where YAML 1.1, go-yaml v2 and the JSON round trip
// disagree with intuition.
var scalars = []string{
	"a", "b c", "yes", "No", "off", "Y", "n", "~", "null", "NULL", "true", "False",
	"1", "-1", "+1", "01", "0777", "08", "0x1F", "0o17", "0b11", "-0b11", "1_000", "-0", "00",
	"1.5", "1.0", "1e3", "1E3", "-1.5e-3", ".5", "+.5", "1.", "1e999",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
	"1-2", "1.2.3", "12abc", "0x", "-", "-a", "?a", ":a", "a:b", "a::b",
	"http://x:80/", "a#b", "a # comment", "<br>", "é", "\u263A", "a  ",
	"''", "'it''s'", "'a # b'", "'a: b'", "\"\"", "\"a\\\"b\"", "\"\\n\\t\\\\\"", "\"\\u00e9\"",
	"\"\\x41\"", "\"a # b\"", "'yes'", "\"1\"",
	"[]", "{}", "[ ]", "[a, 1, 'b', \"c\", yes, ~]", "[a,b]", "{a: 1, 'b': [c, 0x1], 1: {d: e}}",
	"[{a: b}, [1, 2.5], []]", "{yes: no}",
}

// unsupported are scalars Decode leaves to the full decoder.
var unsupported = []string{".inf", "-.Inf", ".nan", "2001-12-14", "<<", "&a x", "*a", "!!str x", "{a: b}", "[[a]]", "[a,]"}

// gen writes random block documents made of the constructs Decode supports and, when risky,
// of a few it does not.
type gen struct {
	r     *rand.Rand
	b     strings.Builder
	risky bool
}

func (g *gen) pick(s []string) string {
	if g.risky && g.r.IntN(20) == 0 {
		s = unsupported
	}
	return s[g.r.IntN(len(s))]
}

// spread is a random indentation offset, sometimes a wrong one when risky.
func (g *gen) spread(good int) int {
	if g.risky {
		return g.r.IntN(good + 2)
	}
	return 1 + g.r.IntN(good)
}

func (g *gen) indent(n int) { g.b.WriteString(strings.Repeat(" ", n)) }

func (g *gen) maybeComment(n int) {
	switch g.r.IntN(12) {
	case 0:
		g.indent(g.r.IntN(n + 3))
		g.b.WriteString("# note: x\n")
	case 1:
		g.b.WriteString("\n")
	}
}

// value writes the value of an entry of a collection at column n, after "key:" or "-".
func (g *gen) value(n, depth int) {
	switch k := g.r.IntN(10); {
	case depth > 3 || k < 4:
		g.b.WriteString(" " + g.pick(scalars))
		if g.r.IntN(6) == 0 {
			g.b.WriteString(" # c")
		}
		if g.r.IntN(8) == 0 { // a continuation line, maybe badly indented
			g.b.WriteString("\n")
			if g.r.IntN(3) == 0 {
				g.b.WriteString("\n")
			}
			g.indent(n + g.spread(3))
			g.b.WriteString(g.pick(scalars))
		}
		g.b.WriteString("\n")
	case k == 4:
		headers := []string{"|", "|-", "|+", "|  # c", ">", ">-", ">+"}
		if g.risky {
			headers = append(headers, "|2", "|-1", ">1")
		}
		g.b.WriteString(" " + g.pick(headers) + "\n")
		ind := n + 1 + g.r.IntN(3)
		for range 1 + g.r.IntN(4) {
			switch g.r.IntN(5) {
			case 0:
				g.b.WriteString("\n")
			case 1:
				g.indent(ind + g.r.IntN(3))
				g.b.WriteString("\n")
			default:
				g.indent(ind + g.r.IntN(2))
				g.b.WriteString(g.pick(scalars) + "\n")
			}
		}
	case k == 5:
		q := g.pick([]string{"'", "\""})
		g.b.WriteString(" " + q + "a ")
		for range 1 + g.r.IntN(3) {
			g.b.WriteString(g.pick([]string{"\n", "\n\n", " \\\n", "  \n"}))
			g.indent(n + g.spread(3))
			g.b.WriteString(g.pick([]string{"b", "c d", "# e", "f: g", "''", "\\\"", "\\ h"}))
		}
		g.b.WriteString(q + "\n")
	default:
		g.b.WriteString("\n")
		g.node(n+g.spread(3), depth+1)
	}
}

func (g *gen) node(n, depth int) {
	if g.r.IntN(2) == 0 {
		g.mapping(n, depth, false)
	} else {
		g.sequence(n, depth, false)
	}
}

// keys are mapping keys; those in one group become the same JSON key.
var keys = []struct {
	text  string
	group int
}{
	{"k", 0}, {"'k'", 0}, {"\"k\"", 0}, {"k2", 1}, {"name", 2}, {"1", 3}, {"01", 3}, {"yes", 4}, {"true", 4},
	{"k x", 5}, {"0x1", 3}, {"1.0", 3}, {"'1'", 3}, {"no", 6}, {"~", 7}, {"-1", 8}, {"a:b", 9}, {"é", 10},
}

// mapping writes a block mapping at column n; inline means its first key goes where the
// writer is (after "- ").
func (g *gen) mapping(n, depth int, inline bool) {
	used := map[int]bool{}
	for i := range 1 + g.r.IntN(4) {
		if i > 0 || !inline {
			g.maybeComment(n)
			g.indent(n)
		}
		k := keys[g.r.IntN(len(keys))]
		for try := 0; !g.risky && (used[k.group] || k.text == "~") && try < 20; try++ {
			k = keys[g.r.IntN(len(keys))]
		}
		if !g.risky && used[k.group] {
			continue
		}
		used[k.group] = true
		g.b.WriteString(k.text + ":")
		if depth < 4 && g.r.IntN(5) == 0 { // a sequence at the key's indentation
			g.b.WriteString("\n")
			g.sequence(n, depth+1, false)
			continue
		}
		g.value(n, depth)
	}
}

// sequence writes a block sequence at column n; inline means its first dash goes where the
// writer is (after "- ").
func (g *gen) sequence(n, depth int, inline bool) {
	for i := range 1 + g.r.IntN(4) {
		if i > 0 || !inline {
			g.maybeComment(n)
			g.indent(n)
		}
		g.b.WriteString("-")
		switch g.r.IntN(6) {
		case 0: // "- key: v" with more keys below
			sp := 1 + g.r.IntN(2)
			g.indent(sp)
			g.mapping(n+1+sp, depth+1, true)
		case 1: // "- - x"
			if depth < 4 {
				g.b.WriteString(" ")
				g.sequence(n+2, depth+1, true)
				continue
			}
			g.value(n, depth)
		default:
			g.value(n, depth)
		}
	}
}

// TestRandomDocuments compares Decode with the full decoder on random documents built from
// the supported constructs and their near misses.
func TestRandomDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	fast := 0
	for range n {
		g := &gen{r: r, risky: r.IntN(2) == 0}
		if r.IntN(5) == 0 {
			g.b.WriteString("---\n")
		}
		g.node(r.IntN(2), 0)
		doc := []byte(g.b.String())
		got, ok := Decode(doc)
		if !ok {
			continue
		}
		fast++
		want, err := slow(doc)
		if err != nil {
			t.Fatalf("Decode(%q) = %#v, but the slow path fails: %v", doc, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q)\n got %#v\nwant %#v", doc, got, want)
		}
	}
	t.Logf("fast path took %d of %d random documents", fast, n)
	if fast < n/5 {
		t.Errorf("fast path took only %d of %d random documents", fast, n)
	}
}
