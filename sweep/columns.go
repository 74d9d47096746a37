package sweep

import (
	"reflect"
	"strconv"
	"strings"

	"vortexgfx/gfx/session"
	"vortexgfx/render"
)

// The fixed columns around the configuration and counter columns. A row is
// keyed (for --resume and merge) by the axis columns, ColWorkload, ColWidth,
// ColHeight and ColFrame; ColRow is its index in the whole sweep's order,
// which is what lets merge restore that order from shards.
const (
	ColRow      = "row"
	ColWorkload = "workload"
	ColWidth    = "width"
	ColHeight   = "height"
	ColFrame    = "frame"
	ColPath     = "path"  // device, or reference when render fell back
	ColDraws    = "draws" // draw calls in the frame
	ColWallMS   = "wall_ms"
	ColImage    = "image_sha256"
)

// stringColumns hold text, never numbers, whatever they look like: JSON
// lines write them quoted.
var stringColumns = map[string]bool{ColWorkload: true, ColPath: true, ColImage: true}

// Header is the column list of a sweep over axes: the row index, a column per
// axis key (in axis order), the workload, its size and frame, the counters
// (CounterColumns) and finally wall_ms and image_sha256.
func Header(axes []Axis) []string {
	h := []string{ColRow}
	for _, a := range axes {
		h = append(h, a.Key)
	}
	h = append(h, ColWorkload, ColWidth, ColHeight, ColFrame, ColPath, ColDraws)
	h = append(h, CounterColumns()...)
	return append(h, ColWallMS, ColImage)
}

// counterField is one numeric field of session.DrawStats, reached by index
// path, with its column name: its JSON name, nested names joined by "."
// (front_end.prims, perf.tex_reads) — the names `vortex trace replay --stats`
// writes.
type counterField struct {
	name  string
	index []int
	kind  reflect.Kind
}

var traceFields = func() []counterField {
	var out []counterField
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			idx := append(append([]int(nil), index...), i)
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type, prefix+name+".", idx)
			case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
				out = append(out, counterField{prefix + name, idx, f.Type.Kind()})
			}
			// Route (which units ran in software and why) is zero for the
			// draw3d replay, which runs every unit fixed-function.
		}
	}
	walk(reflect.TypeFor[session.DrawStats](), "", nil)
	return out
}()

// renderColumns are the counters `vortex render --stats` and `vortex bench
// render` expose per draw, beyond those a trace row shares (fragments shaded
// and written have the same meaning and the same column).
var renderColumns = []string{"triangles_in", "triangles_visible"}

// CounterColumns are the counter columns of every row, in order: every
// numeric counter of a trace replay's per-draw stats (session.DrawStats,
// summed over the frame's draws; occupancy is the waves-weighted mean), then
// the render path's own. A counter a workload's path does not expose is
// empty in its rows.
func CounterColumns() []string {
	var out []string
	for _, f := range traceFields {
		out = append(out, f.name)
	}
	return append(out, renderColumns...)
}

// traceCounters sums a frame's draw stats into counter columns.
func traceCounters(draws []session.DrawStats) map[string]string {
	out := make(map[string]string, len(traceFields))
	var waves, occ float64
	for _, f := range traceFields {
		var isum int64
		var usum uint64
		for _, d := range draws {
			v := reflect.ValueOf(d).FieldByIndex(f.index)
			switch f.kind {
			case reflect.Int, reflect.Int64:
				isum += v.Int()
			case reflect.Uint64:
				usum += v.Uint()
			}
		}
		switch f.kind {
		case reflect.Int, reflect.Int64:
			out[f.name] = strconv.FormatInt(isum, 10)
		case reflect.Uint64:
			out[f.name] = strconv.FormatUint(usum, 10)
		}
	}
	for _, d := range draws {
		waves += float64(d.Waves)
		occ += d.Occupancy * float64(d.Waves)
	}
	for _, f := range traceFields {
		if f.kind == reflect.Float64 {
			// Occupancy is the only float: a mean, weighted by waves so that
			// it is the frame's active lanes / (waves × warp width).
			m := 0.0
			if waves > 0 {
				m = occ / waves
			}
			out[f.name] = strconv.FormatFloat(m, 'g', 6, 64)
		}
	}
	return out
}

// renderCounters are one frame's render counters: after minus before, summed
// over the draws.
func renderCounters(before, after []render.DrawStats) map[string]string {
	var in, vis, sh, wr uint64
	for i, d := range after {
		in += d.TrianglesIn
		vis += d.TrianglesVisible
		sh += d.FragmentsShaded
		wr += d.FragmentsWritten
		if i < len(before) {
			b := before[i]
			in -= b.TrianglesIn
			vis -= b.TrianglesVisible
			sh -= b.FragmentsShaded
			wr -= b.FragmentsWritten
		}
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return map[string]string{"triangles_in": u(in), "triangles_visible": u(vis),
		"fragments_shaded": u(sh), "fragments_written": u(wr)}
}
