package openapi

import (
	"reflect"
	"testing"
)

func TestSplitTopLevel(t *testing.T) {
	for in, want := range map[string][]string{
		".a,.b[*].c":                        {".a", ".b[*].c"},
		".a if size(self.x) > 0, .b":        {".a if size(self.x) > 0", " .b"},
		".a if self.m['k,l'] == 'x,y',.b":   {".a if self.m['k,l'] == 'x,y'", ".b"},
		".a if [1, 2].exists(x, x == 1),.b": {".a if [1, 2].exists(x, x == 1)", ".b"},
		".a if self.s == \"q\\\",\",.b":     {".a if self.s == \"q\\\",\"", ".b"},
		".a":                                {".a"},
	} {
		if got := splitTopLevel(in); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
