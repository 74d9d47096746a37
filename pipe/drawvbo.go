package pipe

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"

	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/stencil"
	"vortexgfx/ref"
	"vortexgfx/shader/ir"
)

// ErrNoProgram is returned for a draw with neither a vertex nor a fragment
// shader bound: neither path has anything to run. spec: vortexpipe §3.1
var ErrNoProgram = errors.New("pipe: draw without a vertex and a fragment shader")

// DrawVBO draws (pipe_context::draw_vbo): Plan resolves indirect and multi-draws,
// routes every direct draw and translates indices; then each direct draw runs
// on the device (shaderdev.Device: the compiled VS as the front end's stage 0,
// RASTER, the FS wrapper, the OM, with vertex/index/texture data resident) or,
// when a gate says so, on the reference renderer (package ref with the same
// compiled program), both writing the one framebuffer state. Every draw is
// decided before any is drawn: under Options.Strict a draw that would fall back
// returns a *StrictError naming its reasons and nothing is drawn; otherwise
// each fallback is counted in Stats. A render condition whose predicate fails
// skips the whole call. spec: vortexpipe §1.5, §3.1–§3.5
func (c *Context) DrawVBO(info *DrawInfo) error {
	if info == nil {
		return fmt.Errorf("pipe: DrawVBO: nil draw info")
	}
	skip, err := c.conditionSkips()
	if err != nil || skip {
		return err
	}
	plan, err := c.Plan(info)
	if err != nil {
		return err
	}
	st := c.Bound()
	var l *linked
	if st.VS != nil || st.FS != nil {
		if l, err = c.screen.progs.linkBound(st); err != nil {
			return err
		}
	}
	type step struct {
		p      *PlannedDraw
		l      *linked // the program the draw runs (deviceLinked on the device)
		sp     *shaderdev.Program
		attrs  []attrPlan
		nverts int // vertices the draw references (checked against the buffers)
	}
	steps := make([]step, 0, len(plan))
	var moved [][]Reason
	for i := range plan {
		p := &plan[i]
		if p.Decision.Empty {
			continue
		}
		if l == nil {
			return ErrNoProgram
		}
		if p.Decision.Reference {
			steps = append(steps, step{p: p, l: l})
			continue
		}
		dl, gates, err := c.deviceLinked(st, l)
		var sp *shaderdev.Program
		var attrs []attrPlan
		if err == nil && len(gates) == 0 {
			sp, attrs, gates, err = c.deviceGates(st, dl, p.Decision.Key, info)
		}
		if err != nil {
			return fmt.Errorf("pipe: draw %d: %w", i, err)
		}
		if len(gates) > 0 {
			if c.opts.Strict {
				return fmt.Errorf("pipe: draw %d: %w", i, &StrictError{Reasons: gates})
			}
			p.Decision.Reference, p.Decision.Gates = true, gates
			moved = append(moved, gates)
			steps = append(steps, step{p: p, l: l})
			continue
		}
		steps = append(steps, step{p: p, l: dl, sp: sp, attrs: attrs})
	}
	// Every draw's vertex and instance range is checked before any is drawn.
	var idx []byte
	if len(steps) > 0 {
		if idx, err = c.indexBytesKept(info); err != nil {
			return fmt.Errorf("pipe: draw: %w", err)
		}
		for i := range steps {
			s := &steps[i]
			n, err := c.vertexRangeKept(info, s.p.Draw, idx)
			s.nverts = n
			if err == nil {
				err = checkVertexRange(st, s.l, n, s.p.Draw.StartInstance, s.p.Draw.InstanceCount)
			}
			if err != nil {
				return fmt.Errorf("pipe: draw %d: %w", i, err)
			}
		}
	}
	c.mu.Lock()
	for _, g := range moved {
		c.stats.Device--
		c.stats.Reference++
		for _, r := range g {
			c.stats.Fallbacks[r.Code]++
			c.stats.FallbackDetails[r.String()]++
		}
	}
	c.mu.Unlock()
	for _, s := range steps {
		uniforms, err := c.uniformWords(st, l)
		if err != nil {
			return err
		}
		if s.l != l {
			uniforms = ffUniforms(st, s.l, uniforms)
		}
		if s.p.Decision.Reference {
			err = c.drawReference(st, l, info, s.p.Draw, idx, s.nverts, uniforms)
			// The reference renderer wrote host memory: distrust every
			// resident copy. spec: vortexpipe §1.3, §3.5
			c.screen.res.MarkAllDirty()
			if err != nil {
				return fmt.Errorf("pipe: draw on the reference renderer: %w", err)
			}
			continue
		}
		if err := c.drawDevice(st, s.l, s.sp, s.attrs, info, s.p, uniforms); err != nil {
			return fmt.Errorf("pipe: draw on the device: %w", err)
		}
	}
	return nil
}

// uniformWords returns the pair's uniform words for a draw: the values set with
// SetUniform and the built-in uniforms of the legacy state (SetLegacyState),
// overwritten by constant buffer 0 when one is bound (it holds the words in
// the compiler's layout, UniformLayout).
func (c *Context) uniformWords(st *BoundState, l *linked) ([]uint32, error) {
	var b []byte
	if cb := st.CBufs[0]; cb.Buffer != nil {
		n := min(4*l.prog.IR.UniformWords, cb.Buffer.Size()-int(cb.Offset))
		if cb.Size > 0 {
			n = min(n, int(cb.Size))
		}
		if n > 0 {
			b = make([]byte, n)
			if err := cb.Buffer.Read(int(cb.Offset), b); err != nil {
				return nil, fmt.Errorf("pipe: constant buffer 0: %w", err)
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if st.Legacy != nil {
		for _, b := range st.Legacy.Builtins() {
			l.prog.SetBuiltin(b.Name, b.Words)
		}
	}
	u := l.prog.Uniforms
	for i := 0; i+4 <= len(b) && i/4 < len(u); i += 4 {
		u[i/4] = binary.LittleEndian.Uint32(b[i:])
	}
	return append([]uint32(nil), u...), nil
}

// boundProgram links the bound (VS, FS) pair (an unbound one the
// fixed-function stage).
func (c *Context) boundProgram() (*linked, error) {
	c.mu.Lock()
	vs, gs, fs := c.vs, c.gs, c.fs
	c.mu.Unlock()
	if vs == nil && fs == nil {
		return nil, ErrNoProgram
	}
	return c.screen.progs.linkBound(&BoundState{VS: vs, GS: gs, FS: fs})
}

// SetUniform sets a uniform of the bound (VS, FS) program by its GLSL name ("u",
// "a[2]", "s.f", "Block.m") to values of type t (ir.F32, ir.I32 or ir.U32), as
// glUniform* does; for a sampler uniform the value is its texture unit. Uniform
// block members are addressed by name: the compiler packs blocks like plain
// uniforms. Values persist with the program across draws. spec: vortexpipe
// §2.5 (the uniform words reach the kernels through descriptor slot 0)
func (c *Context) SetUniform(name string, t ir.Type, vals []uint32) error {
	l, err := c.boundProgram()
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.prog.SetUniform(name, t, vals); err != nil {
		return fmt.Errorf("pipe: SetUniform %s: %w", name, err)
	}
	return nil
}

// SetUniformF sets a float uniform (vector, matrix column-major, array) by name.
func (c *Context) SetUniformF(name string, v ...float32) error {
	w := make([]uint32, len(v))
	for i, f := range v {
		w[i] = math.Float32bits(f)
	}
	return c.SetUniform(name, ir.F32, w)
}

// SetUniformI sets an int uniform (or a sampler's texture unit) by name.
func (c *Context) SetUniformI(name string, v ...int32) error {
	w := make([]uint32, len(v))
	for i, x := range v {
		w[i] = uint32(x)
	}
	return c.SetUniform(name, ir.I32, w)
}

// UniformLayout returns the bound program's uniform word layout: the slots a
// constant buffer 0 fills (4 bytes a word) and the buffer's size in words.
// spec: vortexpipe §1.4 (cbuf[0]), §2.5
func (c *Context) UniformLayout() ([]ir.Slot, int, error) {
	l, err := c.boundProgram()
	if err != nil {
		return nil, 0, err
	}
	return l.prog.IR.Uniforms, l.prog.IR.UniformWords, nil
}

// hostCurrent makes the attachments' host storage current (reads the device's
// targets back if device draws wrote them since).
func (c *Context) hostCurrent() error {
	be := &c.screen.be
	be.mu.Lock()
	defer be.mu.Unlock()
	return be.readBack()
}

// Flush submits pending work. Draws are submitted as they are made, so there is
// nothing queued; it exists for the Gallium call sequence.
func (c *Context) Flush() error { return nil }

// Finish waits for every draw and makes the attachments' host storage current,
// so Resource.Read and ReadPixels see the frame. spec: vortexpipe §3.4 (the
// colour attachment stays device-resident; only a read copies it out)
func (c *Context) Finish() error { return c.hostCurrent() }

// ReadPixels reads colour attachment i of the bound framebuffer as an image,
// image row 0 the framebuffer's top row (window y = height-1). spec: vortexpipe
// §3.4
func (c *Context) ReadPixels(i int) (*image.NRGBA, error) {
	fb := c.Bound().FB
	if i < 0 || i >= len(fb.Cbufs) || fb.Cbufs[i] == nil {
		return nil, fmt.Errorf("pipe: ReadPixels: no colour attachment %d", i)
	}
	sf, err := c.readSurface(fb.Cbufs[i], &fb)
	if err != nil {
		return nil, err
	}
	return sf.NRGBA(true), nil
}

// ReadDepth reads the bound depth attachment's depth values, row 0 window y = 0.
// spec: vortexpipe §3.2 (depth/stencil readback)
func (c *Context) ReadDepth() ([]float32, error) {
	fb := c.Bound().FB
	if fb.Zsbuf == nil || !fb.Zsbuf.Fmt().IsDepth() {
		return nil, fmt.Errorf("pipe: ReadDepth: no depth attachment")
	}
	sf, err := c.readSurface(fb.Zsbuf, &fb)
	if err != nil {
		return nil, err
	}
	out := make([]float32, fb.Width*fb.Height)
	for y := 0; y < fb.Height; y++ {
		for x := 0; x < fb.Width; x++ {
			out[y*fb.Width+x] = sf.Depth(x, y)
		}
	}
	return out, nil
}

func (c *Context) readSurface(s *Surface, fb *Framebuffer) (*ref.Surface, error) {
	if err := c.hostCurrent(); err != nil {
		return nil, err
	}
	sf, err := ref.NewSurface(s.Fmt(), fb.Width, fb.Height)
	if err != nil {
		return nil, err
	}
	if err := surfaceIO(s, fb, sf.Data, false); err != nil {
		return nil, err
	}
	return sf, nil
}

// clearOnDevice clears on the device when its planes hold exactly the bound
// attachments and the clear covers whole planes; it reports whether it did.
func (c *Context) clearOnDevice(fb *Framebuffer, flags ClearFlags, color [4]float32, depth float32, stencil uint8) (bool, error) {
	be := &c.screen.be
	be.mu.Lock()
	defer be.mu.Unlock()
	return be.clearPlanes(fb, flags, color, depth, stencil)
}

// conditionSkips evaluates the render condition: Gallium skips rendering when
// (result == 0) differs from the condition flag. spec: vortexpipe §3.1 (render
// conditions)
func (c *Context) conditionSkips() (bool, error) {
	c.mu.Lock()
	cond := c.cond
	c.mu.Unlock()
	if cond == nil {
		return false, nil
	}
	v, err := c.GetQueryResult(cond.Query)
	if err != nil {
		return false, err
	}
	return (v == 0) != cond.Condition, nil
}

// counting reports whether an open query counts what draws produce.
func (c *Context) counting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := range c.queries {
		if q.Type.CountsDraws() {
			return true
		}
	}
	return false
}

// countedDraw runs a reference draw under open counting queries: an occlusion
// query adds the samples that pass the depth test (counted in a scratch
// stencil plane seeded with the draw's depth, INCR_WRAP on pass, so at most 255
// per pixel and draw), primitives generated adds the primitives assembled.
func (c *Context) countSamples(ctx context.Context, t *ref.Target, s *ref.State, in ref.VertexInput, p ref.DrawParams, prims uint64) error {
	c.mu.Lock()
	var occ bool
	for q := range c.queries {
		if q.Type == QueryOcclusionCounter || q.Type == QueryOcclusionPredicate {
			occ = true
		}
	}
	c.mu.Unlock()
	var samples uint64
	if occ {
		if s.StencilTest {
			return fmt.Errorf("occlusion counting with the stencil test enabled is not implemented")
		}
		ct, err := ref.NewTarget(t.W, t.H, nil, format.D24S8)
		if err != nil {
			return err
		}
		if ds := t.DepthStencil; ds != nil && s.Depth.Test {
			if ds.Format != format.D24S8 {
				return fmt.Errorf("occlusion counting over a %v depth attachment is not implemented", ds.Format)
			}
			copy(ct.DepthStencil.Data, ds.Data)
		}
		for i := 0; i+4 <= len(ct.DepthStencil.Data); i += 4 {
			ct.DepthStencil.Data[i] = 0 // stencil byte of GL's 24_8 word
		}
		cs := *s
		cs.StencilTest = true
		face := ref.StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF,
			Fail: stencil.Keep, DepthFail: stencil.Keep, Pass: stencil.IncrWrap}
		cs.StencilFront, cs.StencilBack = face, face
		cs.Depth.Write = false
		if err := ref.Draw(ctx, ct, &cs, in, p); err != nil {
			return err
		}
		for i := 0; i+4 <= len(ct.DepthStencil.Data); i += 4 {
			samples += uint64(ct.DepthStencil.Data[i])
		}
	}
	if err := ref.Draw(ctx, t, s, in, p); err != nil {
		return err
	}
	c.mu.Lock()
	for q := range c.queries {
		switch q.Type {
		case QueryOcclusionCounter, QueryOcclusionPredicate:
			q.result += samples
		case QueryPrimitivesGenerated:
			q.result += prims
		}
	}
	c.mu.Unlock()
	return nil
}
