package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Merge combines shard outputs (CSV or JSON lines, mixed as they like) into
// one table in sweep order — by the row column, so the result equals a
// single-process run of the same sweep but for wall_ms. It refuses inputs
// whose header differs from the first's, rows that appear twice (the same
// Key or the same row index, within one input or across two), and rows with
// no valid row index, naming the file. missing lists the row indices below
// the largest one that no input holds (an absent shard), which the caller
// should report.
func Merge(paths []string) (t *Table, missing []int, err error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("merge: no input files")
	}
	type placed struct {
		index int
		row   []string
	}
	var all []placed
	byKey := map[string]string{}
	byIndex := map[int]string{}
	var header []string
	for _, p := range paths {
		in, _, err := ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		if in.Header == nil {
			return nil, nil, fmt.Errorf("%s: empty (no header)", p)
		}
		if header == nil {
			header = in.Header
			if in.Col(ColRow) != 0 {
				return nil, nil, fmt.Errorf("%s: not a sweep output (its first column is %q, want %q)", p, in.Header[0], ColRow)
			}
		} else if !equal(in.Header, header) {
			return nil, nil, fmt.Errorf("%s: its columns differ from %s's (%s)", p, paths[0], headerDiff(in.Header, header))
		}
		for i, row := range in.Rows {
			idx, err := strconv.Atoi(row[0])
			if err != nil || idx < 0 {
				return nil, nil, fmt.Errorf("%s: row %d: row index %q: want a non-negative integer", p, i+1, row[0])
			}
			k := TableKey(header, row)
			if prev, ok := byKey[k]; ok {
				return nil, nil, fmt.Errorf("%s: row %d (%s) overlaps a row of %s", p, i+1, KeyLabel(header, row), prev)
			}
			if prev, ok := byIndex[idx]; ok {
				return nil, nil, fmt.Errorf("%s: row %d: row index %d overlaps a row of %s", p, i+1, idx, prev)
			}
			byKey[k], byIndex[idx] = p, p
			all = append(all, placed{idx, row})
		}
	}
	slices.SortFunc(all, func(a, b placed) int { return a.index - b.index })
	t = &Table{Header: header}
	next := 0
	for _, r := range all {
		for ; next < r.index; next++ {
			missing = append(missing, next)
		}
		next = r.index + 1
		t.Rows = append(t.Rows, r.row)
	}
	return t, missing, nil
}
