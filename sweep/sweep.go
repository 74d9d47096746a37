package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"vortexgfx/config"
)

// Sweep is a design-space sweep: every configuration of Base × Axes, every
// workload, Frames frames each.
type Sweep struct {
	Base      config.Config
	Axes      []Axis
	Workloads []Workload
	Frames    int
	// Shard and Shards select rows index mod Shards == Shard-1 (Shard is
	// 1-based, as --shard I/N); Shards 0 or 1 runs every row.
	Shard, Shards int
	// Workers is how many (configuration, workload) groups render at once
	// (0 or 1: one). The output is the same, row order included, for any
	// value: rows are written in sweep order.
	Workers int
	// ImagesDir, when set, receives each row's image as row-NNNNNN.png
	// (NNNNNN the row column).
	ImagesDir string
	Loader    *Loader
}

// Plan is a sweep laid out: its header, configurations and rows in order.
type Plan struct {
	Header  []string
	Axes    []Axis
	Configs []Configuration
	Rows    []PlannedRow
	sweep   *Sweep
}

// PlannedRow is one (configuration, workload, frame) with its index in the
// sweep: configurations in axis order, then workloads in command-line order,
// then frames.
type PlannedRow struct {
	Index, Config, Workload, Frame int
}

// Plan validates the sweep and lays out its rows.
func (s *Sweep) Plan() (*Plan, error) {
	if len(s.Workloads) == 0 {
		return nil, errors.New("no workloads: give --trace, --scene or --mesh")
	}
	if s.Frames < 1 {
		return nil, fmt.Errorf("--frames %d: want at least 1", s.Frames)
	}
	if s.Shards < 0 || s.Shards > 0 && (s.Shard < 1 || s.Shard > s.Shards) {
		return nil, fmt.Errorf("--shard %d/%d: want I/N with 1 <= I <= N", s.Shard, s.Shards)
	}
	seen := map[Workload]bool{}
	for _, w := range s.Workloads {
		if seen[w] {
			return nil, fmt.Errorf("workload %s at %dx%d given twice", w.Label(), w.Width, w.Height)
		}
		seen[w] = true
	}
	axes := append([]Axis(nil), s.Axes...)
	cfgs, err := Matrix(s.Base, axes)
	if err != nil {
		return nil, err
	}
	p := &Plan{Header: Header(axes), Axes: axes, Configs: cfgs, sweep: s}
	for ci := range cfgs {
		for wi := range s.Workloads {
			for f := range s.Frames {
				p.Rows = append(p.Rows, PlannedRow{len(p.Rows), ci, wi, f})
			}
		}
	}
	return p, nil
}

// Selected reports whether the shard runs row r: index mod N == I-1.
func (p *Plan) Selected(r PlannedRow) bool {
	s := p.sweep
	return s.Shards <= 1 || r.Index%s.Shards == s.Shard-1
}

// Key is the row's identity for --resume and merge: its configuration,
// workload, size and frame (the row index is not part of it, so that a row
// is recognised by what it measured).
func (p *Plan) Key(r PlannedRow) string {
	w := p.sweep.Workloads[r.Workload]
	parts := append(append([]string(nil), p.Configs[r.Config].Values...),
		w.Label(), strconv.Itoa(w.Width), strconv.Itoa(w.Height), strconv.Itoa(r.Frame))
	return strings.Join(parts, "\x00")
}

// keyColumns are the columns of Key, by name.
func keyColumns(header []string) []string {
	var out []string
	for _, h := range header {
		if h == ColWorkload {
			break
		}
		if h != ColRow {
			out = append(out, h)
		}
	}
	return append(out, ColWorkload, ColWidth, ColHeight, ColFrame)
}

// TableKey is Key of a row read back from a table with the given header.
func TableKey(header, row []string) string {
	var parts []string
	for _, k := range keyColumns(header) {
		for i, h := range header {
			if h == k {
				parts = append(parts, row[i])
			}
		}
	}
	return strings.Join(parts, "\x00")
}

// KeyLabel is a table row's key as COLUMN=VALUE pairs, for messages.
func KeyLabel(header, row []string) string {
	var parts []string
	for _, k := range keyColumns(header) {
		for i, h := range header {
			if h == k {
				parts = append(parts, k+"="+row[i])
			}
		}
	}
	return strings.Join(parts, " ")
}

// Summary is what a run did.
type Summary struct {
	Planned, Selected, Present, Written int
}

// Run runs the sweep into out (CSV or JSON lines by its extension). With
// resume, the rows out already holds (by Key) are kept and skipped, a
// partial last line is cut off, and the rest are appended; out must have
// been written by the same sweep (same header) and may hold only its rows,
// each once.
func (s *Sweep) Run(ctx context.Context, out string, resume bool) (Summary, error) {
	var sum Summary
	format, err := FormatOf(out)
	if err != nil {
		return sum, err
	}
	p, err := s.Plan()
	if err != nil {
		return sum, err
	}
	sum.Planned = len(p.Rows)
	present := map[string]bool{}
	fresh := true
	if resume {
		if fresh, err = p.present(out, present); err != nil {
			return sum, err
		}
	}
	var todo []PlannedRow
	for _, r := range p.Rows {
		if !p.Selected(r) {
			continue
		}
		sum.Selected++
		if present[p.Key(r)] {
			sum.Present++
			continue
		}
		todo = append(todo, r)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !fresh {
		flags = os.O_WRONLY | os.O_APPEND
	}
	fh, err := os.OpenFile(out, flags, 0o644)
	if err != nil {
		return sum, err
	}
	wr, err := NewWriter(fh, format, p.Header, fresh)
	if err != nil {
		fh.Close()
		return sum, fmt.Errorf("%s: %w", out, err)
	}
	if s.ImagesDir != "" {
		if err := os.MkdirAll(s.ImagesDir, 0o755); err != nil {
			fh.Close()
			return sum, err
		}
	}
	err = p.execute(ctx, todo, func(row []string) error {
		if err := wr.Write(row); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		sum.Written++
		return nil
	})
	if cerr := fh.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", out, cerr)
	}
	return sum, err
}

// present reads out's rows into keys for --resume, checks they belong to
// this sweep, and cuts off a partial last line. fresh reports that out is
// absent or empty, so the header is still to be written.
func (p *Plan) present(out string, keys map[string]bool) (fresh bool, err error) {
	t, complete, err := ReadFile(out)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if t.Header == nil {
		return true, nil
	}
	if !equal(t.Header, p.Header) {
		return false, fmt.Errorf("%s: --resume: its columns differ from this sweep's (%s)", out, headerDiff(t.Header, p.Header))
	}
	index := map[string]int{}
	for _, r := range p.Rows {
		index[p.Key(r)] = r.Index
	}
	rowCol := t.Col(ColRow)
	for i, row := range t.Rows {
		k := TableKey(t.Header, row)
		want, ok := index[k]
		if !ok {
			return false, fmt.Errorf("%s: --resume: row %d (%s) is not a row of this sweep", out, i+1, KeyLabel(t.Header, row))
		}
		if keys[k] {
			return false, fmt.Errorf("%s: --resume: row %d (%s) is there twice", out, i+1, KeyLabel(t.Header, row))
		}
		if row[rowCol] != strconv.Itoa(want) {
			return false, fmt.Errorf("%s: --resume: row %d has row index %s, this sweep's is %d", out, i+1, row[rowCol], want)
		}
		keys[k] = true
	}
	if err := os.Truncate(out, complete); err != nil {
		return false, err
	}
	return false, nil
}

// headerDiff names the first column where two headers differ.
func headerDiff(have, want []string) string {
	for i := range min(len(have), len(want)) {
		if have[i] != want[i] {
			return fmt.Sprintf("column %d is %q, want %q", i+1, have[i], want[i])
		}
	}
	return fmt.Sprintf("%d columns, want %d", len(have), len(want))
}

// group is the rows of one (configuration, workload): rendered together so
// that a scene is prepared once.
type group struct {
	config, workload int
	rows             []PlannedRow
	out              chan rowResult
}

type rowResult struct {
	cells []string
	err   error
}

// execute renders rows (in sweep order) and passes each row's cells to emit
// in that order, whatever the worker count.
func (p *Plan) execute(ctx context.Context, rows []PlannedRow, emit func([]string) error) error {
	var groups []*group
	for _, r := range rows {
		if n := len(groups); n > 0 && groups[n-1].config == r.Config && groups[n-1].workload == r.Workload {
			groups[n-1].rows = append(groups[n-1].rows, r)
			continue
		}
		groups = append(groups, &group{config: r.Config, workload: r.Workload, rows: []PlannedRow{r}})
	}
	// Every channel holds its whole group, so a worker never blocks on a
	// consumer that has stopped at an error.
	for _, g := range groups {
		g.out = make(chan rowResult, len(g.rows))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan *group)
	var wg sync.WaitGroup
	for range max(p.sweep.Workers, 1) {
		wg.Go(func() {
			for g := range next {
				p.runGroup(ctx, g)
			}
		})
	}
	go func() {
		defer close(next)
		for i, g := range groups {
			select {
			case next <- g:
			case <-ctx.Done():
				for _, g := range groups[i:] {
					close(g.out)
				}
				return
			}
		}
	}()
	var err error
	for _, g := range groups {
		for res := range g.out {
			if err = res.err; err == nil {
				err = emit(res.cells)
			}
			if err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	cancel()
	wg.Wait()
	return err
}
