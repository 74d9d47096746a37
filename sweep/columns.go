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
// render` expose per draw beyond the device model's (render.DeviceStats,
// which are the trace columns under the same names): the host's triangle
// counts, which a trace replay does not make.
var renderColumns = []string{"triangles_in", "triangles_visible"}

// CounterColumns are the counter columns of every row, in order: every
// numeric counter of the device model's per-draw stats (session.DrawStats,
// summed over the frame's draws; occupancy is the waves-weighted mean), then
// the render path's own. Trace rows fill the first; scene and mesh rows on
// the device path fill both, the device counters from the frame's draws that
// ran on the device (render.Stats.LastFrame). Empty, because the workload
// genuinely has no such counter: triangles_in and triangles_visible in trace
// rows (the replay counts no host triangles; its primitives are the
// triangles after clip/cull), and every device counter in a scene row that
// render put on the reference path (path "reference").
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

// renderCounters are one frame's render counters: the host's, after minus
// before summed over the draws, and the device model's for the frame's device
// draws (frame; nil when none ran on the device) in the trace columns.
func renderCounters(before, after []render.DrawStats, frame *render.DeviceStats) map[string]string {
	out := map[string]string{}
	if frame != nil {
		out = traceCounters([]session.DrawStats{frame.DrawStats})
	}
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
	out["triangles_in"], out["triangles_visible"] = u(in), u(vis)
	// render's own fragment counts win over the device's: they are the
	// device's for a device draw and also count the fragments a draw routed
	// to the reference renderer shaded, so they cover the whole frame.
	out["fragments_shaded"], out["fragments_written"] = u(sh), u(wr)
	return out
}
