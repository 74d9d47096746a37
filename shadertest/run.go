package shadertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Options configure Run.
type Options struct {
	// Jobs is the number of tests run at once (values below 1 mean 1).
	// Output order does not depend on it.
	Jobs int
	// JSON writes one JSON object per test and a final summary object
	// instead of text lines.
	JSON bool
	// Timeout bounds one test (0: none). A test that overruns is a
	// failure; its goroutine is abandoned and the run goes on.
	Timeout time.Duration
}

// Summary counts the results of a run.
type Summary struct {
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Skipped int      `json:"skipped"`
	Results []Result `json:"-"`
}

// Line is the closing line of a run: "N passed, M failed, K skipped".
func (s Summary) Line() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", s.Passed, s.Failed, s.Skipped)
}

func (s *Summary) add(r Result) {
	switch r.Status {
	case Pass:
		s.Passed++
	case Fail:
		s.Failed++
	default:
		s.Skipped++
	}
	s.Results = append(s.Results, r)
}

// Collect expands paths into the test files to run: a file is taken as
// given; a directory is walked recursively for *.shader_test files, each
// named as the directory argument joined with its path below it. The list
// is sorted and duplicates are dropped.
func Collect(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".shader_test") {
				return nil
			}
			rel, err := filepath.Rel(p, path)
			if err != nil {
				return err
			}
			name := filepath.Join(p, rel)
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// Run runs the shader tests under paths on backend and writes one line per
// test — "pass|fail|skip PATH [reason]", in path order whatever
// opts.Jobs is — then the summary line. A panic or timeout in one test is
// that test's failure. The error reports an unreadable path or a failed
// write, never a failing test.
// Each test prints one line (README "vortex shadertest").
func Run(ctx context.Context, paths []string, backend Backend, opts Options, out io.Writer) (Summary, error) {
	var sum Summary
	files, err := Collect(paths)
	if err != nil {
		return sum, err
	}
	jobs := max(opts.Jobs, 1)
	results := make([]chan Result, len(files))
	for i := range results {
		results[i] = make(chan Result, 1)
	}
	work := make(chan int)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(jobs, max(len(files), 1)) {
		go func() {
			for i := range work {
				results[i] <- runOne(wctx, files[i], backend, opts.Timeout)
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range files {
			select {
			case work <- i:
			case <-wctx.Done():
				for j := i; j < len(files); j++ {
					results[j] <- Result{Path: files[j], Status: Fail, Reason: "run cancelled"}
				}
				return
			}
		}
	}()
	enc := json.NewEncoder(out)
	for i := range files {
		r := <-results[i]
		sum.add(r)
		if err := writeResult(out, enc, r, opts.JSON); err != nil {
			return sum, err
		}
	}
	if opts.JSON {
		err = enc.Encode(struct {
			Summary Summary `json:"summary"`
		}{sum})
	} else {
		_, err = fmt.Fprintln(out, sum.Line())
	}
	return sum, err
}

func writeResult(out io.Writer, enc *json.Encoder, r Result, asJSON bool) error {
	if asJSON {
		return enc.Encode(r)
	}
	line := r.Status.String() + " " + r.Path
	if r.Reason != "" {
		line += " " + oneLine(r.Reason)
	}
	_, err := fmt.Fprintln(out, line)
	return err
}

// oneLine keeps a reason on its result line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const maxReason = 400
	if len(s) > maxReason {
		s = s[:maxReason] + "..."
	}
	return s
}

// runOne runs a test in its own goroutine so that a timeout can end it.
func runOne(ctx context.Context, path string, b Backend, timeout time.Duration) Result {
	if timeout <= 0 {
		return RunFile(ctx, path, b)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan Result, 1)
	go func() { done <- RunFile(tctx, path, b) }()
	select {
	case r := <-done:
		return r
	case <-tctx.Done():
		if ctx.Err() != nil {
			return Result{Path: path, Status: Fail, Reason: "run cancelled"}
		}
		return Result{Path: path, Status: Fail, Reason: fmt.Sprintf("timeout after %v", timeout)}
	}
}
