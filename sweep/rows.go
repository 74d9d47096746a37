package sweep

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
)

// runGroup renders one group's frames and sends each row's cells (or the
// error that stopped it) to g.out, which it closes.
func (p *Plan) runGroup(ctx context.Context, g *group) {
	defer close(g.out)
	s := p.sweep
	cfg := p.Configs[g.config]
	w := s.Workloads[g.workload]
	frames := make([]int, len(g.rows))
	for i, r := range g.rows {
		frames[i] = r.Frame
	}
	i := 0
	err := s.Loader.Run(ctx, cfg.Config, w, frames, func(frame int, res Result) error {
		r := g.rows[i]
		i++
		if s.ImagesDir != "" {
			if err := writeImage(filepath.Join(s.ImagesDir, ImageName(r.Index)), res); err != nil {
				return err
			}
		}
		g.out <- rowResult{cells: p.cells(r, res)}
		return nil
	})
	if err != nil {
		g.out <- rowResult{err: fmt.Errorf("%s: %s: %w", cfg.Label(p.Axes), w.Label(), err)}
	}
}

// ImageName is the file --images writes for row index i.
func ImageName(i int) string { return fmt.Sprintf("row-%06d.png", i) }

func writeImage(path string, res Result) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(fh, res.Image); err != nil {
		fh.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return fh.Close()
}

// cells lays one rendered frame out in the header's columns.
func (p *Plan) cells(r PlannedRow, res Result) []string {
	w := p.sweep.Workloads[r.Workload]
	vals := map[string]string{
		ColRow: strconv.Itoa(r.Index), ColWorkload: w.Label(),
		ColWidth: strconv.Itoa(w.Width), ColHeight: strconv.Itoa(w.Height),
		ColFrame: strconv.Itoa(r.Frame), ColPath: res.Path, ColDraws: strconv.Itoa(res.Draws),
		ColWallMS: strconv.FormatFloat(float64(res.Wall.Microseconds())/1000, 'f', 3, 64),
		ColImage:  ImageSHA256(res.Image),
	}
	for ai, a := range p.Axes {
		vals[a.Key] = p.Configs[r.Config].Values[ai]
	}
	for k, v := range res.Counters {
		vals[k] = v
	}
	out := make([]string, len(p.Header))
	for i, h := range p.Header {
		out[i] = vals[h]
	}
	return out
}
