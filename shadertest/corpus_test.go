package shadertest

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPiglitCorpus parses every *.shader_test under $SHADERTEST_PIGLIT (an
// extracted piglit package, never part of the repository) and checks that
// each parses, logging how often each [test] command occurs.
func TestPiglitCorpus(t *testing.T) {
	root := os.Getenv("SHADERTEST_PIGLIT")
	if root == "" {
		t.Skip("SHADERTEST_PIGLIT not set: no piglit corpus to parse")
	}
	files, err := Collect([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	bad := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(path, data)
		if err != nil {
			bad++
			t.Errorf("%v", err)
			continue
		}
		for _, c := range f.Commands {
			counts[commandKey(&c)]++
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + ": ")
		b.WriteString(itoa(counts[k]))
		b.WriteString("\n")
	}
	t.Logf("%d files under %s, %d with parse errors; commands:\n%s", len(files), filepath.Clean(root), bad, b.String())

	// Run the whole corpus on the fake back end: no test may panic, and
	// the reasons for skips show what the runner cannot map.
	var out strings.Builder
	sum, err := Run(context.Background(), []string{root}, newFake(), Options{Jobs: 2}, &out)
	if err != nil {
		t.Fatal(err)
	}
	skips := map[string]int{}
	for _, r := range sum.Results {
		if strings.Contains(r.Reason, "panic") {
			t.Errorf("%s: %s", r.Path, r.Reason)
		}
		if r.Status == Skip {
			skips[r.Reason]++
		}
	}
	t.Logf("fake back end: %s; skip reasons: %v", sum.Line(), skips)
}

// commandKey names a command by its leading words.
func commandKey(c *Command) string {
	w := strings.Fields(c.Text)
	n := 1
	switch w[0] {
	case "probe", "draw", "clear", "link", "texture", "shade", "clip", "uniform", "enable", "disable":
		n = 2
	case "relative":
		n = 3
	}
	if w[0] == "probe" && len(w) > 2 && (w[1] == "rect" || w[1] == "all" || w[1] == "warn") {
		n = 3
	}
	if w[0] == "relative" && len(w) > 3 && w[2] == "rect" {
		n = 4
	}
	return strings.Join(w[:min(n, len(w))], " ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
