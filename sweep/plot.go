package sweep

import (
	"cmp"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotOptions say what to chart from a sweep table.
type PlotOptions struct {
	// Y is the charted column (numeric); X the column along the x axis; By,
	// when set, the column whose values are the series (one line or bar
	// colour each).
	Y, X, By string
	// Where keeps only rows with COL=VALUE, each (all must hold).
	Where []string
	// Bar draws grouped bars; otherwise a numeric X is a line chart and any
	// other X is bars too.
	Bar bool
	// Width and Height are the image size (0: 16 cm × 10 cm).
	Width, Height vg.Length
}

// cell is one chart point's rows: the mean of Y over them is charted.
type cell struct {
	sum float64
	n   int
	row []string // the first row, for Grid
}

// series lays t's rows out by (By value, X value), each in first-appearance
// order, after the Where filters.
type series struct {
	xs, bys []string
	cells   map[[2]string]*cell
	maxN    int
}

func (o PlotOptions) collect(t *Table, needY bool) (*series, error) {
	col := func(name, flag string) (int, error) {
		i := t.Col(name)
		if i < 0 {
			return 0, fmt.Errorf("%s %s: no such column (columns: %s)", flag, name, strings.Join(t.Header, ", "))
		}
		return i, nil
	}
	xi, err := col(o.X, "--x")
	if err != nil {
		return nil, err
	}
	yi, bi := -1, -1
	if needY {
		if yi, err = col(o.Y, "--y"); err != nil {
			return nil, err
		}
	}
	if o.By != "" {
		if bi, err = col(o.By, "--by"); err != nil {
			return nil, err
		}
	}
	type cond struct {
		col int
		val string
	}
	var conds []cond
	for _, w := range o.Where {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("--where %q: want COLUMN=VALUE", w)
		}
		i, err := col(k, "--where")
		if err != nil {
			return nil, err
		}
		conds = append(conds, cond{i, v})
	}
	s := &series{cells: map[[2]string]*cell{}}
	seenX, seenBy := map[string]bool{}, map[string]bool{}
rows:
	for ri, row := range t.Rows {
		for _, c := range conds {
			if row[c.col] != c.val {
				continue rows
			}
		}
		x, by := row[xi], ""
		if bi >= 0 {
			by = row[bi]
		}
		var y float64
		if needY {
			if row[yi] == "" {
				continue // a counter this row's workload does not expose
			}
			if y, err = strconv.ParseFloat(row[yi], 64); err != nil {
				return nil, fmt.Errorf("--y %s: row %d: %q is not a number", o.Y, ri+1, row[yi])
			}
		}
		if !seenX[x] {
			seenX[x] = true
			s.xs = append(s.xs, x)
		}
		if !seenBy[by] {
			seenBy[by] = true
			s.bys = append(s.bys, by)
		}
		c := s.cells[[2]string{by, x}]
		if c == nil {
			c = &cell{row: row}
			s.cells[[2]string{by, x}] = c
		}
		c.sum += y
		c.n++
		s.maxN = max(s.maxN, c.n)
	}
	if len(s.xs) == 0 {
		return nil, fmt.Errorf("no rows to plot (check --where and that --y %s has values)", o.Y)
	}
	return s, nil
}

// Plot charts the mean of column Y against X, one series per By value, and
// writes it as a PNG to out. note says how many rows each point averages
// when that is more than one (other axes or workloads that vary: filter them
// with Where).
func Plot(t *Table, o PlotOptions, out string) (note string, err error) {
	s, err := o.collect(t, true)
	if err != nil {
		return "", err
	}
	p := plot.New()
	p.Title.Text = o.Y + " by " + o.X
	p.X.Label.Text = o.X
	p.Y.Label.Text = o.Y
	if s.maxN > 1 {
		p.Y.Label.Text = "mean " + o.Y
		note = fmt.Sprintf("each point is the mean of up to %d rows (the columns not on the chart vary; --where COL=VALUE picks rows)", s.maxN)
	}
	numeric := true
	xv := make([]float64, len(s.xs))
	for i, x := range s.xs {
		if xv[i], err = strconv.ParseFloat(x, 64); err != nil {
			numeric = false
		}
	}
	name := func(by string) string {
		if o.By == "" {
			return o.Y
		}
		return o.By + "=" + by
	}
	if numeric && !o.Bar {
		for si, by := range s.bys {
			var xys plotter.XYs
			for i, x := range s.xs {
				if c := s.cells[[2]string{by, x}]; c != nil {
					xys = append(xys, plotter.XY{X: xv[i], Y: c.sum / float64(c.n)})
				}
			}
			sortXY(xys)
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return "", err
			}
			l.Color, pts.Color = plotutil.Color(si), plotutil.Color(si)
			pts.Shape = plotutil.Shape(si)
			p.Add(l, pts)
			p.Legend.Add(name(by), l, pts)
		}
	} else {
		w := vg.Points(40 / float64(len(s.bys)))
		for si, by := range s.bys {
			vals := make(plotter.Values, len(s.xs))
			for i, x := range s.xs {
				if c := s.cells[[2]string{by, x}]; c != nil {
					vals[i] = c.sum / float64(c.n)
				}
			}
			b, err := plotter.NewBarChart(vals, w)
			if err != nil {
				return "", err
			}
			b.Color = plotutil.Color(si)
			b.LineStyle.Width = 0
			b.Offset = w * vg.Length(float64(si)-float64(len(s.bys)-1)/2)
			p.Add(b)
			p.Legend.Add(name(by), b)
		}
		p.NominalX(s.xs...)
	}
	p.Legend.Top = true
	if err := save(p, o, out); err != nil {
		return "", err
	}
	return note, nil
}

func sortXY(xys plotter.XYs) {
	slices.SortStableFunc(xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
}

func save(p *plot.Plot, o PlotOptions, out string) error {
	w, h := o.Width, o.Height
	if w == 0 {
		w, h = 16*vg.Centimeter, 10*vg.Centimeter
	}
	if !strings.EqualFold(filepath.Ext(out), ".png") {
		return fmt.Errorf("-o %s: want a .png file", out)
	}
	if err := p.Save(w, h, out); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	return nil
}

// Grid draws a small-multiples grid of the rows' images (written by a sweep
// with --images dir): X values across, By values down, each cell the first
// matching row's image. note says when several rows fell in one cell.
func Grid(t *Table, dir string, o PlotOptions, out string) (note string, err error) {
	s, err := o.collect(t, false)
	if err != nil {
		return "", err
	}
	rowCol := t.Col(ColRow)
	if rowCol < 0 {
		return "", fmt.Errorf("no %s column: not a sweep output", ColRow)
	}
	p := plot.New()
	p.Title.Text = "images by " + o.X
	p.X.Label.Text = o.X
	p.Y.Label.Text = o.By
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(9), vg.Points(9)
	for yi, by := range s.bys {
		for xi, x := range s.xs {
			c := s.cells[[2]string{by, x}]
			if c == nil {
				continue
			}
			idx, err := strconv.Atoi(c.row[rowCol])
			if err != nil {
				return "", fmt.Errorf("row index %q: want an integer", c.row[rowCol])
			}
			path := filepath.Join(dir, ImageName(idx))
			img, err := readPNG(path)
			if err != nil {
				return "", fmt.Errorf("--images %s: %w (run the sweep with --images %s)", dir, err, dir)
			}
			p.Add(plotter.NewImage(img, float64(xi)-0.45, float64(yi)-0.45, float64(xi)+0.45, float64(yi)+0.45))
		}
	}
	p.NominalX(s.xs...)
	if o.By != "" {
		p.NominalY(s.bys...)
	} else {
		p.NominalY("")
	}
	p.X.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XCenter, draw.YCenter
	p.X.Min, p.X.Max = -0.5, float64(len(s.xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(s.bys))-0.5
	if o.Width == 0 {
		// About 3 cm square cells: the y tick labels (the By values) take
		// their text's width beside the grid, so the cells stay square.
		label := 0
		for _, by := range s.bys {
			label = max(label, len(by))
		}
		o.Width = vg.Length(len(s.xs))*3*vg.Centimeter + vg.Length(label)*0.12*vg.Centimeter + 2*vg.Centimeter
		o.Height = vg.Length(len(s.bys))*3*vg.Centimeter + 2.5*vg.Centimeter
	}
	if s.maxN > 1 {
		note = fmt.Sprintf("up to %d rows fall in one cell; each shows the first (--where COL=VALUE picks rows)", s.maxN)
	}
	return note, save(p, o, out)
}

func readPNG(path string) (image.Image, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}
