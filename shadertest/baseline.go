package shadertest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Baseline maps a test's path relative to the piglit root
// (tests/spec/... or generated_tests/spec/...) to its llvmpipe result
// (pass, fail, crash, skip).
type Baseline map[string]string

// ReadBaseline reads ../shared/data/piglit/llvmpipe-glsl.tsv:
// "result<TAB>path" per line.
func ReadBaseline(r io.Reader) (Baseline, error) {
	b := Baseline{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		res, path, ok := strings.Cut(line, "\t")
		if !ok || res == "" || path == "" {
			return nil, fmt.Errorf("baseline line %d: want result<TAB>path, got %q", n, line)
		}
		b[path] = res
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	return b, nil
}

// LoadBaseline reads a baseline file such as
// ../shared/data/piglit/llvmpipe-glsl.tsv.
func LoadBaseline(path string) (Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := ReadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// BaselineKey turns a result path into the baseline's key: the part from
// the last "generated_tests/spec/" or "tests/spec/" on ("" when neither
// occurs).
func BaselineKey(path string) string {
	p := filepath.ToSlash(path)
	for _, root := range []string{"generated_tests/spec/", "tests/spec/"} {
		if k := strings.LastIndex(p, root); k >= 0 && (k == 0 || p[k-1] == '/') {
			return p[k:]
		}
	}
	return ""
}

// Agreement compares a run with llvmpipe: of the tests llvmpipe passes,
// how many pass here. Tests llvmpipe passes that were not run count as
// not passing.
type Agreement struct {
	// LlvmpipePassed is the number of tests llvmpipe passes.
	LlvmpipePassed int
	// BothPassed is how many of those pass here.
	BothPassed int
	// NotRun lists tests llvmpipe passes that the run did not include.
	NotRun int
	// Regressions are the tests llvmpipe passes that fail or skip here,
	// sorted, with our result.
	Regressions []Result
	// Unknown counts results whose path is not in the baseline.
	Unknown int
}

// Percent is BothPassed as a percentage of LlvmpipePassed.
func (a Agreement) Percent() float64 {
	if a.LlvmpipePassed == 0 {
		return 0
	}
	return 100 * float64(a.BothPassed) / float64(a.LlvmpipePassed)
}

// String is the one-line report the CLI prints.
func (a Agreement) String() string {
	return fmt.Sprintf("agreement with llvmpipe: %d of %d llvmpipe passes pass (%.1f%%), %d not run",
		a.BothPassed, a.LlvmpipePassed, a.Percent(), a.NotRun)
}

// CompareBaseline computes the agreement of results with the baseline.
// Every test llvmpipe passes should pass here (README "vortex shadertest",
// --baseline).
func CompareBaseline(b Baseline, results []Result) Agreement {
	var a Agreement
	ours := map[string]Result{}
	for _, r := range results {
		k := BaselineKey(r.Path)
		if _, ok := b[k]; !ok {
			a.Unknown++
			continue
		}
		ours[k] = r
	}
	for path, res := range b {
		if res != "pass" {
			continue
		}
		a.LlvmpipePassed++
		r, ok := ours[path]
		switch {
		case !ok:
			a.NotRun++
		case r.Status == Pass:
			a.BothPassed++
		default:
			a.Regressions = append(a.Regressions, r)
		}
	}
	sort.Slice(a.Regressions, func(i, j int) bool { return a.Regressions[i].Path < a.Regressions[j].Path })
	return a
}
