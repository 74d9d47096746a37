package render

import (
	"math"
	"slices"
	"sync"
	"time"

	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/ref"
	"vortexgfx/scene"
)

// Stats are a render's counters and routing decisions (README "vortex
// render", --stats: per-draw counters and the routing decisions).
type Stats struct {
	// Path is the path the draws ran on; Route says why.
	Path  string `json:"path"`
	Route string `json:"route"`
	// Width, Height and MSAA are the rendered size and sample count.
	Width  int `json:"width"`
	Height int `json:"height"`
	MSAA   int `json:"msaa"`
	// Frames is the number of frames drawn.
	Frames int `json:"frames"`
	// Elapsed is the wall time of all frames' clears and draws (readback
	// excluded).
	Elapsed time.Duration `json:"elapsed_ns"`
	// Draws are the per-draw counters summed over frames and sample passes.
	Draws []DrawStats `json:"draws"`
	// LastFrame is the device model's counters of the last frame drawn,
	// summed over its draws that ran on the device: what a frame costs the
	// device, beside the per-draw sums over every frame in Draws. Nil on the
	// reference path, without Options.Stats, and before a device draw.
	LastFrame *DeviceStats `json:"last_frame_device,omitempty"`
	// Kernels are the front-end kernels' machine-code counters over the
	// whole render (cores = "isa": msaa_resolve_k's launches as machine
	// code, with their instructions, or on the Go kernel by reason); nil
	// on "ir" and the reference path. spec: docs/ABI.md row 47
	Kernels map[string]session.KernelStats `json:"kernels,omitempty"`
	// Notes list adaptations made without Options.Strict.
	Notes []string `json:"notes,omitempty"`
	// Warnings list the features of the scene's files that were left out
	// (scene.Description.Warnings); with Options.Strict they are an error.
	Warnings []string `json:"warnings,omitempty"`
}

// DrawStats are one draw's counters (see the package doc for their exact
// meaning); the counts are zero without Options.Stats.
type DrawStats struct {
	Name  string `json:"name"`
	Route string `json:"route"`
	// TrianglesIn is the triangles submitted.
	TrianglesIn uint64 `json:"triangles_in"`
	// TrianglesVisible is the triangles left after clipping and culling.
	TrianglesVisible uint64 `json:"triangles_visible"`
	// FragmentsShaded is the covered lanes run through the fragment shader.
	FragmentsShaded uint64 `json:"fragments_shaded"`
	// FragmentsWritten is the fragments that passed the depth test.
	FragmentsWritten uint64 `json:"fragments_written"`
	// Time is the wall time spent in the draw calls.
	Time time.Duration `json:"time_ns"`
	// Device is what the device model counted for this draw, summed over
	// the frames it ran on the device. Nil on the reference path, without
	// Options.Stats, and for a draw routed to the reference renderer.
	Device *DeviceStats `json:"device,omitempty"`
}

// DeviceStats are the counters the device model reports for draws run on the
// device (pipe.Context.LastDeviceDraw), summed. The embedded
// session.DrawStats keeps its own JSON names — the names `vortex trace
// replay --stats` writes, so a render's counters and a trace replay's are
// the same quantities under the same names:
//
//   - vertices, primitives (after clip/cull), front_end.* (triangles,
//     near/far/guard/user clipped, culled, precision_loss, prims);
//   - bins_touched, pairs ((bin, primitive) pairs walked), quads, waves,
//     occupancy (active lanes / (waves × warp width), the waves-weighted mean
//     over the summed draws), early_z_culled, fragments_shaded,
//     fragments_written;
//   - perf.* (every RASTER, TEX and OM unit counter, summed over cores);
//   - cp_commands, cp_cmd_draw, cp_cmd_launch, cp_cmd_dcr_write,
//     cp_doorbells, cp_lines, cp_cycles, kick_cycles;
//   - route (the union over the summed draws: a unit that ran in software in
//     any of them, with every distinct reason) and the software units'
//     sw_samples_merged, sw_samples_passed, sw_quads, sw_waves.
type DeviceStats struct {
	// DeviceDraws is the number of device draws summed.
	DeviceDraws int `json:"device_draws"`
	session.DrawStats
}

// add sums one device draw's counters into d.
func (d *DeviceStats) add(o session.DrawStats) {
	a := &d.DrawStats
	// Occupancy is a ratio: the sum keeps the mean weighted by waves, so it
	// stays the summed draws' active lanes / (waves × warp width).
	if w := a.Waves + o.Waves; w > 0 {
		a.Occupancy = (a.Occupancy*float64(a.Waves) + o.Occupancy*float64(o.Waves)) / float64(w)
	}
	a.Vertices += o.Vertices
	a.VerticesShaded += o.VerticesShaded
	a.Primitives += o.Primitives
	a.FrontEnd = addFrontEnd(a.FrontEnd, o.FrontEnd)
	a.BinsTouched += o.BinsTouched
	a.Pairs += o.Pairs
	a.Quads += o.Quads
	a.Waves += o.Waves
	a.EarlyZCulled += o.EarlyZCulled
	a.Shaded += o.Shaded
	a.Written += o.Written
	a.Perf = a.Perf.Add(o.Perf)
	a.Commands += o.Commands
	a.CmdDraw += o.CmdDraw
	a.CmdLaunch += o.CmdLaunch
	a.CmdDCRWrite += o.CmdDCRWrite
	a.Doorbells += o.Doorbells
	a.Lines += o.Lines
	a.CPCycles += o.CPCycles
	a.KickCycles += o.KickCycles
	a.Route.SWTex = a.Route.SWTex || o.Route.SWTex
	a.Route.SWOM = a.Route.SWOM || o.Route.SWOM
	a.Route.SWRaster = a.Route.SWRaster || o.Route.SWRaster
	a.Route.VSISA = a.Route.VSISA || o.Route.VSISA
	a.Route.FSISA = a.Route.FSISA || o.Route.FSISA
	a.ISA = a.ISA.Add(o.ISA)
	for _, w := range o.Route.Why {
		if !slices.Contains(a.Route.Why, w) {
			a.Route.Why = append(a.Route.Why, w)
		}
	}
	a.SWMerged += o.SWMerged
	a.SWPassed += o.SWPassed
	a.SWQuads += o.SWQuads
	a.SWWaves += o.SWWaves
	d.DeviceDraws++
}

func addFrontEnd(a, o frontend.Stats) frontend.Stats {
	a.Triangles += o.Triangles
	a.NearClipped += o.NearClipped
	a.FarClipped += o.FarClipped
	a.GuardClipped += o.GuardClipped
	a.UserClipped += o.UserClipped
	a.Culled += o.Culled
	a.PrecisionLoss += o.PrecisionLoss
	a.Prims += o.Prims
	return a
}

// clone is a deep copy, so that Renderer.Stats' copy does not share the
// counters (or the route's reasons) the renderer goes on adding to.
func (d *DeviceStats) clone() *DeviceStats {
	if d == nil {
		return nil
	}
	c := *d
	c.Route.Why = slices.Clone(d.Route.Why)
	return &c
}

// countingVS records every vertex's clip position for the host-side triangle
// counters.
type countingVS struct {
	inner ref.VertexShader
	pos   [][4]float32
}

func (c *countingVS) Layout() ref.VertexLayout { return c.inner.Layout() }

func (c *countingVS) ShadeVertices(b *ref.VertexBatch, tex ref.Textures) error {
	if err := c.inner.ShadeVertices(b, tex); err != nil {
		return err
	}
	for i := range b.N {
		if id := int(b.VertexID[i]); id >= 0 && id < len(c.pos) {
			c.pos[id] = b.Position[i]
		}
	}
	return nil
}

// visible counts the triangles of idx that survive trivial frustum rejection,
// the window-space degeneracy test and facing culling, from the recorded clip
// positions. Triangles with a vertex at w <= 0 are clipped by ref against the
// near plane and counted as visible unless trivially rejected.
func (c *countingVS) visible(idx []uint32, cull scene.CullMode, ff scene.FrontFace, w, h int) int {
	n := 0
	hw, hh := float64(w)/2, float64(h)/2
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, d := &c.pos[idx[t]], &c.pos[idx[t+1]], &c.pos[idx[t+2]]
		if outsideOnePlane(a, b, d) {
			continue
		}
		if a[3] > 0 && b[3] > 0 && d[3] > 0 {
			ax, ay := float64(a[0]/a[3])*hw, float64(a[1]/a[3])*hh
			bx, by := float64(b[0]/b[3])*hw, float64(b[1]/b[3])*hh
			dx, dy := float64(d[0]/d[3])*hw, float64(d[1]/d[3])*hh
			area := (bx-ax)*(dy-ay) - (dx-ax)*(by-ay)
			if area == 0 || math.IsNaN(area) {
				continue
			}
			front := area > 0
			if ff == scene.FrontCW {
				front = !front
			}
			switch cull {
			case scene.CullFront:
				if front {
					continue
				}
			case scene.CullBack:
				if !front {
					continue
				}
			case scene.CullFrontAndBack:
				continue
			}
		}
		n++
	}
	return n
}

// outsideOnePlane reports whether all three vertices are outside one of the six
// clip planes -w <= x, y, z <= w (or a position is not finite).
func outsideOnePlane(a, b, d *[4]float32) bool {
	var out [3]uint8
	for i, p := range [3]*[4]float32{a, b, d} {
		x, y, z, w := p[0], p[1], p[2], p[3]
		if !(x == x && y == y && z == z && w == w) || math.IsInf(float64(x+y+z+w), 0) {
			return true
		}
		var m uint8
		if x < -w {
			m |= 1
		}
		if x > w {
			m |= 2
		}
		if y < -w {
			m |= 4
		}
		if y > w {
			m |= 8
		}
		if z < -w {
			m |= 16
		}
		if z > w {
			m |= 32
		}
		out[i] = m
	}
	return out[0]&out[1]&out[2] != 0
}

// countingFS counts the covered lanes a fragment shader runs, per draw and
// (when heat is set) per pixel. ref's workers each shade with their own clone;
// they own disjoint row bands, so the shared heat array is written without
// overlap.
type countingFS struct {
	inner  ref.FragmentShader
	heat   []uint32
	stride int
	shaded uint64

	mu     sync.Mutex
	clones []*countingFS
}

func newCountingFS(inner ref.FragmentShader, heat []uint32, stride int) *countingFS {
	return &countingFS{inner: inner, heat: heat, stride: stride}
}

// CloneFragment implements ref.FragmentCloner.
func (c *countingFS) CloneFragment() ref.FragmentShader {
	in := c.inner
	if cl, ok := in.(ref.FragmentCloner); ok {
		in = cl.CloneFragment()
	}
	k := newCountingFS(in, c.heat, c.stride)
	c.mu.Lock()
	c.clones = append(c.clones, k)
	c.mu.Unlock()
	return k
}

// ShadeQuads implements ref.FragmentShader.
func (c *countingFS) ShadeQuads(quads []ref.Quad, tex ref.Textures) error {
	if err := c.inner.ShadeQuads(quads, tex); err != nil {
		return err
	}
	for i := range quads {
		q := &quads[i]
		cov := ^q.Helper & 0xF
		for l := range 4 {
			if cov&(1<<l) == 0 {
				continue
			}
			c.shaded++
			if c.heat != nil {
				x, y := int(q.X)+l&1, int(q.Y)+l>>1
				if i := y*c.stride + x; x < c.stride && i < len(c.heat) {
					c.heat[i]++
				}
			}
		}
	}
	return nil
}

// collect returns and resets the lanes counted by the shader and its clones
// since the last call, and forgets the clones (ref makes new ones per draw).
func (c *countingFS) collect() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.shaded
	c.shaded = 0
	for _, k := range c.clones {
		n += k.shaded
	}
	c.clones = c.clones[:0]
	return n
}

// stencilSum adds up the stencil values of D24S8 attachment bytes (stencil in the
// low byte of each little-endian word): the fragments that passed the depth
// test of the draw just made, with the stencil op INCR on pass.
func stencilSum(ds []byte) uint64 {
	var n uint64
	for i := 0; i+3 < len(ds); i += 4 {
		n += uint64(ds[i])
	}
	return n
}
