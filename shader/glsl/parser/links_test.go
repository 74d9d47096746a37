package parser

import (
	"strings"
	"testing"
)

// TestChainLimit pins maxLinks: a left-associative chain longer than it (built in a
// loop, so maxDepth does not see it) is a syntax error at the operator that crosses
// the limit, not a tree so deep that the checker's and lowering's recursive walks
// exhaust the stack (a 400000-term sum crashed lowering that way). The budget is per
// statement, so long chains in separate statements still parse. spec: CONVENTIONS
// (bad input never panics or hangs).
func TestChainLimit(t *testing.T) {
	long := func(head, link string, n int) string { return head + strings.Repeat(link, n) }
	ok := "uniform float u;\nvoid main() {\n" +
		"\tfloat a = " + long("u", " + u", maxLinks-1) + ";\n" +
		"\tfloat b = " + long("u", " * u", maxLinks-1) + ";\n}\n"
	if _, err := ParseFile("ok.frag", ok, Options{}); err != nil {
		t.Fatalf("chains within the limit: %v", err)
	}
	for _, c := range []struct{ name, head, link string }{
		{"sum", "u", " + u"},
		{"comma", "(u", ", u"},
		{"swizzle", "v", ".x"},
		{"index", "w", "[0]"},
	} {
		src := "uniform float u;\nvoid main() {\n\tfloat a = " + long(c.head, c.link, maxLinks+5) + ";\n}\n"
		_, err := ParseFile("long.frag", src, Options{})
		if err == nil || !strings.Contains(err.Error(), "long.frag:3:") || !strings.Contains(err.Error(), "expression too long") {
			t.Errorf("%s: chain of %d: got %v, want an 'expression too long' error on line 3", c.name, maxLinks+5, err)
		}
	}
	global := "const float k = " + long("1.0", " + 1.0", maxLinks+1) + ";\n"
	if _, err := ParseFile("g.frag", global, Options{}); err == nil || !strings.Contains(err.Error(), "expression too long") {
		t.Errorf("global initializer: got %v, want an 'expression too long' error", err)
	}
}
