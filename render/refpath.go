package render

import (
	"context"
	"fmt"
	"time"

	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/scene"
)

// refRun is the reference path: every draw through a pipe context whose draws
// all run on the reference renderer (pipe.Options.ForceReference), into one
// RGBA8 + D24S8 framebuffer per sample pass. spec: vortexpipe-driver.md §3.4.1
// (the 4x sample grid, here supersampled and box-resolved), §5.2
type refRun struct {
	screen *pipe.Screen
	ctx    *pipe.Context
	draws  []*pipeDraw
	passes []pipe.Framebuffer
	// colors and depth are each pass's attachments as bytes: colour read
	// back when the image is asked for (ReadImage), stencil after a counted
	// draw.
	colors [][]byte
	depth  []byte
	// stale[i] says pass i's colour attachment holds a frame that colors[i]
	// does not yet: the frame's read-back waits for ReadImage, as the device
	// path's does, so a frame costs clear + draw + finish only (bench README,
	// timing).
	stale []bool
}

// openReference binds every draw on a pipe context over no device: the
// driver gates each draw to the reference renderer, which runs the linked
// program's stages (wrapped by render's counters with Options.Stats or
// Options.Heatmap).
func (r *Renderer) openReference() error {
	screen := pipe.NewScreenWithCaps(pipe.Caps{}, pipe.Options{ForceReference: true})
	c := screen.NewContext(pipe.ContextOptions{})
	rr := &refRun{screen: screen, ctx: c}
	for range r.msaa {
		var att [2]*pipe.Surface
		for k, f := range [2]format.Format{format.RGBA8, format.D24S8} {
			t, err := screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: f, Width: r.width, Height: r.height,
				Depth: 1, ArraySize: 1, Levels: 1})
			if err != nil {
				return fmt.Errorf("render: target: %w", err)
			}
			att[k] = &pipe.Surface{Resource: t}
		}
		rr.passes = append(rr.passes, pipe.Framebuffer{Width: r.width, Height: r.height, Cbufs: []*pipe.Surface{att[0]}, Zsbuf: att[1]})
		rr.colors = append(rr.colors, make([]byte, 4*r.width*r.height))
		rr.stale = append(rr.stale, false)
	}
	rr.depth = make([]byte, 4*r.width*r.height)
	texs := map[*scene.Texture]*pipeTexture{}
	for i, d := range r.draws {
		pd, err := r.newPipeDraw(c, d, &r.desc.Draws[i], texs, r.opts.Stats)
		if err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		if err := pd.bind(c); err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		if err := setSamplerUnits(c, d); err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		rr.draws = append(rr.draws, pd)
	}
	r.ref = rr
	return nil
}

// passViewport is the viewport of a sample pass: the whole target shifted by
// off (exact: the offsets are sixteenths of a pixel).
func passViewport(w, h int, off [2]float32) pipe.Viewport {
	hw, hh := float32(w)/2, float32(h)/2
	return pipe.Viewport{Scale: [3]float32{hw, hh, 0.5}, Translate: [3]float32{hw + off[0], hh + off[1], 0.5}}
}

// drawReference renders one frame on the reference path: for each sample pass
// it clears colour, depth and stencil to the scene's values and runs every
// draw, leaving the passes' colour for readReference.
func (r *Renderer) drawReference(ctx context.Context, frame int) error {
	desc, rr := r.desc, r.ref
	c := rr.ctx
	for si, fb := range rr.passes {
		if err := c.SetFramebufferState(fb); err != nil {
			return fmt.Errorf("render: frame %d: %w", frame, err)
		}
		c.SetViewport(passViewport(r.width, r.height, r.offsets[si]))
		if err := c.Clear(pipe.ClearColor0|pipe.ClearDepth|pipe.ClearStencil, desc.ClearColor, desc.ClearDepth, desc.ClearStencil); err != nil {
			return fmt.Errorf("render: clear: %w", err)
		}
		for _, di := range r.order {
			d := r.draws[di]
			if err := r.refDraw(ctx, d, rr.draws[di], &r.stats.Draws[di], si); err != nil {
				return fmt.Errorf("render: frame %d: draw %d (%s): %w", frame, di, d.name, err)
			}
		}
		rr.stale[si] = true
	}
	return nil
}

// readReference reads back the colour of every sample pass drawn since the
// last read-back (what drawReference left in the passes' attachments).
func (rr *refRun) readReference() error {
	for si, fb := range rr.passes {
		if !rr.stale[si] {
			continue
		}
		if err := fb.Cbufs[0].Resource.Read(0, rr.colors[si]); err != nil {
			return fmt.Errorf("render: read-back: %w", err)
		}
		rr.stale[si] = false
	}
	return nil
}

// refDraw runs one draw on the reference path in sample pass si and updates
// its counters: the stencil attachment, cleared before the draw, counts the
// fragments that pass the depth test (the draw's DSA increments it), the
// wrapped stages the vertices transformed and the fragments shaded.
func (r *Renderer) refDraw(ctx context.Context, d *drawObj, pd *pipeDraw, ds *DrawStats, si int) error {
	c := r.ref.ctx
	if err := pd.bind(c); err != nil {
		return err
	}
	if err := pd.setUniforms(d.prog.Uniforms); err != nil {
		return fmt.Errorf("uniforms: %w", err)
	}
	if r.opts.Stats {
		if err := c.Clear(pipe.ClearStencil, [4]float32{}, 0, 0); err != nil {
			return err
		}
	}
	var sampleErr error
	c.SetReferenceConfig(pipe.ReferenceConfig{Context: ctx, Workers: r.opts.Workers, Stages: r.passStages(d, si, &sampleErr)})
	start := time.Now()
	if err := c.DrawVBO(&pd.info); err != nil {
		return err
	}
	if sampleErr != nil {
		return sampleErr
	}
	ds.Time += time.Since(start)
	if d.fcount != nil {
		ds.FragmentsShaded += d.fcount.collect()
	}
	if r.opts.Stats {
		ds.TrianglesIn += uint64(d.triangles)
		ds.TrianglesVisible += r.visible(d)
		zs := c.Bound().FB.Zsbuf.Resource
		if err := zs.Read(0, r.ref.depth); err != nil {
			return err
		}
		ds.FragmentsWritten += stencilSum(r.ref.depth)
	}
	return nil
}

// passStages is the stage hook of sample pass si: on a multisampled frame it
// tells the linked program's fragment stage which sample the pass draws
// (gl_SampleID, gl_SamplePosition, gl_SampleMaskIn, gl_SampleMask;
// program.FragmentShader.SetSample), then wraps the stages in render's
// counters (counterStages). A SetSample error lands in *errp.
func (r *Renderer) passStages(d *drawObj, si int, errp *error) func(ref.VertexShader, ref.FragmentShader) (ref.VertexShader, ref.FragmentShader) {
	count := r.counterStages(d)
	if r.msaa == 1 {
		return count
	}
	sx, sy := msaa.Position(r.msaa, si)
	return func(vs ref.VertexShader, fs ref.FragmentShader) (ref.VertexShader, ref.FragmentShader) {
		if pf, ok := fs.(*program.FragmentShader); ok {
			if err := pf.SetSample(si, r.msaa, sx, sy); err != nil && *errp == nil {
				*errp = fmt.Errorf("sample pass %d: %w", si, err)
			}
		}
		if count == nil {
			return vs, fs
		}
		return count(vs, fs)
	}
}

// counterStages wraps the stages the reference renderer runs for draw d in
// render's counters: fragments shaded (and the heat map) with Options.Stats
// or Options.Heatmap, vertex positions with Options.Stats; nil without
// either.
func (r *Renderer) counterStages(d *drawObj) func(ref.VertexShader, ref.FragmentShader) (ref.VertexShader, ref.FragmentShader) {
	if !r.opts.Stats && !r.opts.Heatmap {
		return nil
	}
	return func(vs ref.VertexShader, fs ref.FragmentShader) (ref.VertexShader, ref.FragmentShader) {
		if d.fcount == nil || d.fcount.inner != fs {
			d.fcount = newCountingFS(fs, r.heat, r.width)
		}
		if !r.opts.Stats {
			return vs, d.fcount
		}
		if d.vcount == nil || d.vcount.inner != vs {
			d.vcount = &countingVS{inner: vs, pos: make([][4]float32, len(d.in.Data)/max(d.in.Words, 1))}
		}
		return d.vcount, d.fcount
	}
}

// visible is the number of draw d's triangles left after clipping and
// culling in its last reference draw (0 if it had none).
func (r *Renderer) visible(d *drawObj) uint64 {
	if d.vcount == nil {
		return 0
	}
	ps := &r.desc.Draws[d.index].State
	return uint64(d.vcount.visible(d.indices, ps.Cull, ps.FrontFace, r.width, r.height))
}

// refImage resolves the sample passes' colour into the frame image, row 0 at
// the top: one pass is the image itself, four are averaged (box filter).
func (r *Renderer) refImage() {
	w, h := r.width, r.height
	dst := r.resolve
	n := uint32(len(r.ref.colors))
	for y := range h {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
		src := (h - 1 - y) * w * 4
		for i := range row {
			var s uint32
			for _, px := range r.ref.colors {
				s += uint32(px[src+i])
			}
			row[i] = uint8((s + n/2) / n)
		}
	}
}

// setSamplerUnits gives the driver's program the sampler uniforms' texture
// units (resolveUniforms set them on render's program); they persist with the
// program.
func setSamplerUnits(c *pipe.Context, d *drawObj) error {
	for k, b := range d.prog.IR.Samplers {
		if k < len(d.prog.Units) {
			if err := c.SetUniformI(b.Name, int32(d.prog.Units[k])); err != nil {
				return err
			}
		}
	}
	return nil
}
