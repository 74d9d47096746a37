package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Format is an output file's format, chosen by its extension.
type Format int

// The formats: CSV with a header row, or JSON lines (one object per row,
// keys in column order).
const (
	CSV Format = iota
	JSONL
)

// FormatOf picks the format from path's extension: .jsonl is JSON lines,
// .csv is CSV; anything else is an error naming the file.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, nil
	case ".jsonl":
		return JSONL, nil
	}
	return 0, fmt.Errorf("%s: want a .csv or .jsonl output", path)
}

// Table is a sweep's output: a header and rows of cells, one per column. An
// empty cell is a counter the row's workload does not expose.
type Table struct {
	Header []string
	Rows   [][]string
}

// Col returns the index of column name, or -1.
func (t *Table) Col(name string) int {
	for i, h := range t.Header {
		if h == name {
			return i
		}
	}
	return -1
}

// Writer writes rows one at a time, each flushed whole, so an interrupted
// sweep leaves complete rows (and at worst one partial last line, which
// --resume drops).
type Writer struct {
	w      io.Writer
	format Format
	header []string
	csv    *csv.Writer
}

// NewWriter returns a writer of rows with the given header; writeHeader says
// whether to write the CSV header line first (not when appending).
func NewWriter(w io.Writer, f Format, header []string, writeHeader bool) (*Writer, error) {
	wr := &Writer{w: w, format: f, header: header}
	if f == CSV {
		wr.csv = csv.NewWriter(w)
		if writeHeader {
			if err := wr.csv.Write(header); err != nil {
				return nil, err
			}
			wr.csv.Flush()
			return wr, wr.csv.Error()
		}
	}
	return wr, nil
}

// Write writes one row.
func (wr *Writer) Write(row []string) error {
	if len(row) != len(wr.header) {
		return fmt.Errorf("sweep: row of %d cells for %d columns", len(row), len(wr.header))
	}
	if wr.format == CSV {
		if err := wr.csv.Write(row); err != nil {
			return err
		}
		wr.csv.Flush()
		return wr.csv.Error()
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, h := range wr.header {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(h)
		b.Write(k)
		b.WriteByte(':')
		b.Write(jsonCell(h, row[i]))
	}
	b.WriteString("}\n")
	_, err := wr.w.Write(b.Bytes())
	return err
}

// jsonCell is a cell as JSON: null when empty, a number or bool when its text
// is one (counters, sizes, numeric and boolean axis values), else a string.
// Reading takes each back to the same text, so JSON lines round-trip.
func jsonCell(col, v string) []byte {
	if v == "" {
		return []byte("null")
	}
	if !stringColumns[col] {
		if v == "true" || v == "false" {
			return []byte(v)
		}
		if (v[0] == '-' || v[0] >= '0' && v[0] <= '9') && json.Valid([]byte(v)) {
			return []byte(v)
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// ReadFile reads a table written by Writer. A last line without its newline
// (a sweep interrupted mid-write) is left out and reported by complete =
// the byte length of the whole lines, so that a resumed run can cut it off.
func ReadFile(path string) (t *Table, complete int64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	f, err := FormatOf(path)
	if err != nil {
		return nil, 0, err
	}
	n := bytes.LastIndexByte(data, '\n') + 1
	t, err = parseTable(data[:n], f)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return t, int64(n), nil
}

func parseTable(data []byte, f Format) (*Table, error) {
	t := &Table{}
	if f == CSV {
		r := csv.NewReader(bytes.NewReader(data))
		recs, err := r.ReadAll()
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			t.Header, t.Rows = recs[0], recs[1:]
		}
		return t, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		keys, vals, err := jsonObject(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if t.Header == nil {
			t.Header = keys
		} else if !equal(keys, t.Header) {
			return nil, fmt.Errorf("line %d: keys %v differ from line 1's", line, keys)
		}
		t.Rows = append(t.Rows, vals)
	}
	return t, sc.Err()
}

// jsonObject reads one flat JSON object's keys in order and its scalar
// values as text (numbers as written, bools, strings unquoted, null empty).
func jsonObject(line []byte) (keys, vals []string, err error) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("want a JSON object")
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		v, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		var s string
		switch v := v.(type) {
		case nil:
		case string:
			s = v
		case json.Number:
			s = v.String()
		case bool:
			s = fmt.Sprint(v)
		default:
			return nil, nil, fmt.Errorf("key %v: want a scalar value", k)
		}
		keys, vals = append(keys, k.(string)), append(vals, s)
	}
	if _, err := d.Token(); err != nil {
		return nil, nil, err
	}
	return keys, vals, nil
}

// WriteFile writes t to path in the format its extension names.
func WriteFile(path string, t *Table) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(fh)
	wr, err := NewWriter(bw, f, t.Header, true)
	for i := 0; err == nil && i < len(t.Rows); i++ {
		err = wr.Write(t.Rows[i])
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
