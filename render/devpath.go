package render

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"time"

	"vortexgfx/config"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/scene"
)

// ErrRouted is returned with Options.Strict on the device path for a draw the
// device cannot take; the message names the draw and the reason.
var ErrRouted = errors.New("render: draw routed to the reference renderer")

// deviceRun is the device path of a renderer: every draw through one pipe
// context on a screen opened on the device model, which routes each draw
// (pipe.Route) and runs it on the device or, gated, on the reference renderer
// into the same attachments. spec: vortexpipe §3.1–§3.5
type deviceRun struct {
	screen *pipe.Screen
	ctx    *pipe.Context
	draws  []*pipeDraw // nil: a draw routed to the reference renderer at New
	fb     pipe.Framebuffer
	// resolved is the single-sample copy a multisampled colour attachment
	// resolves into for read-back.
	resolved *pipe.Resource
	px       []byte
	img      *image.NRGBA
	// stale says img predates the last frame: Image reads the frame back
	// on demand, as a GL application's glReadPixels would, so a frame's
	// Draw ends when the device has finished it (glFinish) without
	// copying the framebuffer out; readErr is the last read-back's failure.
	stale   bool
	readErr error
}

// deviceConfig is the device configuration a renderer opens: Options.Config
// (or the default), its host bin walkers the renderer's workers unless the
// configuration names them (raster.workers); the output is the same for any
// count.
func deviceConfig(o Options) config.Config {
	cfg := config.Default()
	if o.Config != nil {
		cfg = *o.Config
	}
	if cfg.Raster.Workers == 0 {
		cfg.Raster.Workers = o.Workers
	}
	return cfg
}

// openDevice binds every draw on a pipe context over the device model and
// records where the driver routes it. A draw the driver gates runs on the
// reference renderer inside the device frame (pipe continues the pass), its
// reason in its Route and in Stats.Route; with Options.Strict it is an error.
// A scene with no device draw renders on the reference path.
func (r *Renderer) openDevice() error {
	screen, err := pipe.OpenScreen(deviceConfig(r.opts), pipe.Options{Strict: r.opts.Strict})
	if err != nil {
		return fmt.Errorf("render: device: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			screen.Close()
		}
	}()
	c := screen.NewContext(pipe.ContextOptions{})
	dr := &deviceRun{screen: screen, ctx: c, draws: make([]*pipeDraw, len(r.draws)),
		img: image.NewNRGBA(image.Rect(0, 0, r.width, r.height))}
	target := func(f format.Format, samples int) (*pipe.Surface, error) {
		t, err := screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: f, Width: r.width, Height: r.height,
			Depth: 1, ArraySize: 1, Levels: 1, Samples: samples})
		if err != nil {
			return nil, fmt.Errorf("render: device: %v target: %w", f, err)
		}
		return &pipe.Surface{Resource: t}, nil
	}
	// The device's own planes: one A8R8G8B8 (BGRA8) colour target and D24S8.
	cb, err := target(format.BGRA8, r.msaa)
	if err != nil {
		return err
	}
	zs, err := target(format.D24S8, r.msaa)
	if err != nil {
		return err
	}
	dr.fb = pipe.Framebuffer{Width: r.width, Height: r.height, Samples: r.msaa, Cbufs: []*pipe.Surface{cb}, Zsbuf: zs}
	if r.msaa > 1 {
		s, err := target(format.BGRA8, 1)
		if err != nil {
			return err
		}
		dr.resolved = s.Resource
	}
	if err := c.SetFramebufferState(dr.fb); err != nil {
		return fmt.Errorf("render: device: %w", err)
	}

	var reasons []string
	onDevice := 0
	texs := map[*scene.Texture]*pipeTexture{}
	for i, d := range r.draws {
		why, key, err := r.routeDraw(c, dr, i, d, texs)
		if err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		if why != "" {
			if r.opts.Strict {
				return fmt.Errorf("%w: draw %d (%s): %s", ErrRouted, i, d.name, why)
			}
			reasons = append(reasons, fmt.Sprintf("draw %d (%s): %s", i, d.name, why))
			r.stats.Draws[i].Route = "reference: " + why
			continue
		}
		onDevice++
		r.stats.Draws[i].Route = "device"
		if key.SWTex || key.SWOM || key.SWRaster {
			r.stats.Draws[i].Route = "device, variant " + key.String()
		}
	}
	if onDevice == 0 {
		r.stats.Path = string(PathReference)
		r.stats.Route = fmt.Sprintf("reference: no draw can run on the device (%s)", reasons[0])
		return nil
	}
	if r.msaa > 1 && len(reasons) > 0 {
		// The reference renderer has no multisampled attachments: a frame
		// that mixes them renders on the reference path instead, and says
		// so.
		for i := range r.stats.Draws {
			r.stats.Draws[i].Route = "reference"
		}
		r.stats.Path = string(PathReference)
		r.stats.Route = fmt.Sprintf("reference: a %dx multisampled frame with a draw the device cannot take (%s)", r.msaa, reasons[0])
		return nil
	}
	r.dev = dr
	ok = true
	r.stats.Path = string(PathDevice)
	r.stats.Route = "device: every draw passed the device route (pipe.Route; compiled VS as front-end stage 0, FS wrapper, RASTER/OM)"
	if len(reasons) > 0 {
		r.stats.Route = fmt.Sprintf("device: %d of %d draws on the device; routed to the reference renderer: %s",
			onDevice, len(r.draws), strings.Join(reasons, "; "))
	}
	return nil
}

// routeDraw makes draw i into pipe state objects on c and asks the driver
// where it runs (pipe.Context.Where: pipe.Route on the draw as bound, then the
// device backend's gates). It
// returns why the draw goes to the reference renderer ("" when it runs on the
// device) and the FS variant key otherwise. spec: vortexpipe §2.3.3, §3.1,
// §1.5.1 (a gated fallback names its reason)
func (r *Renderer) routeDraw(c *pipe.Context, dr *deviceRun, i int, d *drawObj, texs map[*scene.Texture]*pipeTexture) (string, pipe.VariantKey, error) {
	sd := &r.desc.Draws[i]
	pd, err := r.newPipeDraw(c, d, sd, texs, false)
	if err != nil {
		return "", pipe.VariantKey{}, err
	}
	dr.draws[i] = pd
	if err := pd.bind(c); err != nil {
		return "", pipe.VariantKey{}, err
	}
	if err := setSamplerUnits(c, d); err != nil {
		return "", pipe.VariantKey{}, err
	}
	decs, err := c.Where(&pd.info)
	if err != nil {
		return "", pipe.VariantKey{}, err
	}
	for _, dec := range decs {
		if dec.Reference {
			return "pipe.Route: " + dec.Err().Error(), pipe.VariantKey{}, nil
		}
		if !dec.Empty {
			return "", dec.Key, nil
		}
	}
	return "", pipe.VariantKey{}, nil
}

// drawDevice renders one frame through the pipe context: clear, then each
// draw with this frame's uniform words, then the read-back.
func (r *Renderer) drawDevice() error {
	desc := r.desc
	c := r.dev.ctx
	// The frame's device counters start afresh; a frame with no device
	// draw (every draw routed to the reference renderer, or empty) has none.
	var frame *DeviceStats
	if err := c.Clear(pipe.ClearColor0|pipe.ClearDepth|pipe.ClearStencil, desc.ClearColor, desc.ClearDepth, desc.ClearStencil); err != nil {
		return fmt.Errorf("render: device clear: %w", err)
	}
	for _, i := range r.order {
		d := r.draws[i]
		pd := r.dev.draws[i]
		if err := pd.bind(c); err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		if err := pd.setUniforms(d.prog.Uniforms); err != nil {
			return fmt.Errorf("render: draw %d (%s): uniforms: %w", i, d.name, err)
		}
		// A draw the driver gates runs on the reference renderer: render's
		// counters wrap the stages it runs there.
		c.SetReferenceConfig(pipe.ReferenceConfig{Workers: r.opts.Workers, Stages: r.counterStages(d)})
		before := c.Stats().Device
		t0 := time.Now()
		if err := c.DrawVBO(&pd.info); err != nil {
			if errors.Is(err, pipe.ErrStrict) {
				err = fmt.Errorf("%w: %w", ErrRouted, err)
			}
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		ds := &r.stats.Draws[i]
		ds.Time += time.Since(t0)
		if r.opts.Stats {
			ds.TrianglesIn += uint64(d.triangles)
			if c.Stats().Device > before {
				st := c.LastDeviceDraw()
				ds.TrianglesVisible += uint64(st.Primitives)
				ds.FragmentsShaded += uint64(st.Shaded)
				ds.FragmentsWritten += uint64(st.Written)
				if ds.Device == nil {
					ds.Device = &DeviceStats{}
				}
				ds.Device.add(st)
				if frame == nil {
					frame = &DeviceStats{}
				}
				frame.add(st)
			} else if d.fcount != nil {
				// On the reference renderer: triangles visible and fragments
				// shaded (its written fragments are not counted: the
				// attachments' stencil is the scene's).
				ds.TrianglesVisible += r.visible(d)
				ds.FragmentsShaded += d.fcount.collect()
			}
		}
	}
	if r.opts.Stats {
		r.stats.LastFrame = frame
	}
	dr := r.dev
	if dr.resolved != nil {
		// The multisample resolve is the frame's last pass (a GL
		// application's blit to its single-sample target).
		full := pipe.Rect{X1: r.width, Y1: r.height}
		if err := c.Blit(pipe.BlitInfo{Src: dr.fb.Cbufs[0], Dst: &pipe.Surface{Resource: dr.resolved},
			SrcRect: full, DstRect: full, Filter: sampler.Nearest}); err != nil {
			return fmt.Errorf("render: device resolve: %w", err)
		}
	}
	if r.opts.Stats {
		r.stats.Kernels = dr.screen.BackendStats().Kernels
	}
	dr.stale = true
	return nil
}

// readDevice reads the colour attachment (the resolved copy when
// multisampled) back into the frame image, row 0 at the top.
func (r *Renderer) readDevice() error {
	c, dr := r.dev.ctx, r.dev
	src := dr.fb.Cbufs[0].Resource
	if dr.resolved != nil {
		src = dr.resolved
	} else if err := c.Finish(); err != nil {
		return err
	}
	w, h := r.width, r.height
	if dr.px == nil {
		dr.px = make([]byte, 4*w*h)
	}
	if err := src.Read(0, dr.px); err != nil {
		return fmt.Errorf("render: device read-back: %w", err)
	}
	img := dr.img
	for y := range h {
		row := img.Pix[y*img.Stride:]
		s := dr.px[4*(h-1-y)*w:]
		for x := range w {
			// BGRA8 bytes: B, G, R, A.
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = s[4*x+2], s[4*x+1], s[4*x], s[4*x+3]
		}
	}
	return nil
}

// Close releases the renderer's driver screen (and with it the device model
// of the device path).
func (r *Renderer) Close() error {
	var err error
	if r.dev != nil {
		err = r.dev.screen.Close()
		r.dev = nil
	}
	if r.ref != nil {
		if e := r.ref.screen.Close(); err == nil {
			err = e
		}
		r.ref = nil
	}
	return err
}
