package coverage

import (
	"fmt"
	"strings"
)

// Category is why a group of sites is not declarable. Each entry of the
// exceptions file names one, so a reader sees at a glance which gaps are
// out of reach of any manifest and which are kdv's own limits.
type Category struct {
	Name string
	// Definition is the one-line meaning printed in the tables.
	Definition string
	// Unreachable is true when no v1 create or update of a served kind
	// reaches the sites in a default cluster: they are left out of the
	// reachable headline.
	Unreachable bool
}

// Categories is the fixed set, in the tables' order. An exception whose
// category is not here fails the coverage test.
var Categories = []Category{
	{"unreachable", "no v1 create or update of the kind reaches the site: Go defaults set the value first, the strategy drops or resets the field, the Service REST layer allocates first, or the code is dead", true},
	{"status", "reached only from the status (or scale, approval) subresource: the main strategy resets the status on create and keeps the stored one on update", true},
	{"not-served", "the kind or version is not served by a default kube-apiserver of any release kdv embeds", true},
	{"gate-off", "the field's feature gate is off by default in every release kdv embeds where the field exists, so the strategy drops it before validation", true},
	{"cluster", "depends on kube-apiserver flags or cluster state (bootstrap objects, the stored object's status or history), not on the manifest", false},
	{"upstream", "enforced by upstream declarative validation (k8s.io/api +k8s: tags) already published in kdv's schemas, which the apiserver reports in place of the hand-written error", false},
	{"coarser", "declared, but at a coarser path or with a shorter detail than the apiserver's", false},
	{"mechanism", "needs a mechanism kdv lacks (the reason names it)", false},
}

// Exception is one entry of the exceptions file.
type Exception struct {
	Category string
	Reason   string
}

func category(name string) (Category, bool) {
	for _, c := range Categories {
		if c.Name == name {
			return c, true
		}
	}
	return Category{}, false
}

// parseCategory splits "[category] reason", failing on a missing or
// unknown category.
func parseCategory(why string) (Exception, error) {
	rest, ok := strings.CutPrefix(why, "[")
	name, reason, ok2 := strings.Cut(rest, "]")
	if !ok || !ok2 {
		return Exception{}, fmt.Errorf("reason %q does not start with a [category]", why)
	}
	if _, known := category(name); !known {
		names := make([]string, len(Categories))
		for i, c := range Categories {
			names[i] = c.Name
		}
		return Exception{}, fmt.Errorf("unknown category [%s] (known: %s)", name, strings.Join(names, ", "))
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Exception{}, fmt.Errorf("category [%s] without a reason", name)
	}
	return Exception{Category: name, Reason: reason}, nil
}
