package pipe

import (
	"context"
	"fmt"

	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/ref"
)

// Multisampled framebuffers on the reference renderer, which draws one
// sample per pixel: a draw into attachments of n > 1 samples runs as n
// passes, pass k drawing sample k of every attachment (loaded into a
// single-sample target and stored back) with the viewport shifted by
// (1/2, 1/2) minus sample k's position (gl/msaa), so that the renderer's
// pixel-centre coverage and interpolation land on the sample, and the
// fragment stage told which sample it shades (gl_SampleID and the rest:
// program.FragmentShader.SetSample). Every covered sample is shaded, as
// render's reference passes shade them; a framebuffer-fetch program reads
// its own sample's colour. spec: GL 4.6 §14.3.1 (multisample rasterization,
// per-sample shading), vortexpipe §3.4.1 (the sample positions)

// sampleSetter is a fragment stage that takes the sample a pass draws.
type sampleSetter interface {
	SetSample(k, samples, sx, sy int) error
}

// fbSamples is the sample count of fb's attachments (1 when single-sampled);
// attachments of different counts are an error, as in GL
// (FRAMEBUFFER_INCOMPLETE_MULTISAMPLE).
func fbSamples(fb *Framebuffer) (int, error) {
	n := 0
	check := func(s *Surface) error {
		if s == nil {
			return nil
		}
		k := s.Resource.desc.samples()
		if n != 0 && k != n {
			return fmt.Errorf("pipe: attachments of %d and %d samples", n, k)
		}
		n = k
		return nil
	}
	for _, s := range fb.Cbufs {
		if err := check(s); err != nil {
			return 0, err
		}
	}
	if err := check(fb.Zsbuf); err != nil {
		return 0, err
	}
	return max(n, 1), nil
}

// drawSamples runs a reference draw on a framebuffer of n samples, one pass
// per sample.
func (c *Context) drawSamples(ctx context.Context, fb *Framebuffer, s *ref.State, in ref.VertexInput, p ref.DrawParams, n int) error {
	if !msaa.Valid(n) {
		return fmt.Errorf("pipe: reference draw into %d-sample attachments: %w", n, msaa.Check(n))
	}
	var cf []format.Format
	for _, cb := range fb.Cbufs {
		f := format.RGBA8
		if cb != nil {
			f = cb.Fmt()
		}
		cf = append(cf, f)
	}
	zf := format.Invalid
	if fb.Zsbuf != nil {
		zf = fb.Zsbuf.Fmt()
	}
	t, err := ref.NewTarget(fb.Width, fb.Height, cf, zf)
	if err != nil {
		return err
	}
	set, _ := s.Fragment.(sampleSetter)
	base := s.Viewport
	io := func(k int, store bool) error {
		for i, cb := range fb.Cbufs {
			if cb != nil {
				if err := sampleIO(cb, fb, t.Color[i].Data, k, n, store); err != nil {
					return fmt.Errorf("cbuf %d sample %d: %w", i, k, err)
				}
			}
		}
		if fb.Zsbuf != nil {
			if err := sampleIO(fb.Zsbuf, fb, t.DepthStencil.Data, k, n, store); err != nil {
				return fmt.Errorf("zsbuf sample %d: %w", k, err)
			}
		}
		return nil
	}
	for k := range n {
		sx, sy := msaa.Position(n, k)
		if set != nil {
			if err := set.SetSample(k, n, sx, sy); err != nil {
				return err
			}
		}
		s.Viewport = base
		s.Viewport.X += 0.5 - float32(sx)/16
		s.Viewport.Y += 0.5 - float32(sy)/16
		if err := io(k, false); err != nil {
			return err
		}
		if err := ref.Draw(ctx, t, s, in, p); err != nil {
			return err
		}
		if err := io(k, true); err != nil {
			return err
		}
	}
	s.Viewport = base
	if set != nil {
		return set.SetSample(0, 1, 8, 8)
	}
	return nil
}

// sampleIO copies sample k of n of the framebuffer area of attachment s to
// (store false) or from (store true) buf, a tightly packed single-sample
// fb.Width × fb.Height image; a store marks the range dirty and bumps the
// resource's version, as surfaceRows does.
func sampleIO(s *Surface, fb *Framebuffer, buf []byte, k, n int, store bool) error {
	r := s.Resource
	d := r.desc
	if d.samples() != n || k < 0 || k >= n {
		return fmt.Errorf("sample %d of a %d-sample attachment", k, d.samples())
	}
	tb := s.Fmt().Info().Bytes
	if tb != d.Format.Info().Bytes {
		return fmt.Errorf("view format %v does not match the %v texture", s.Fmt(), d.Format)
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	if err != nil {
		return err
	}
	w, _, _ := d.LevelSize(s.Level)
	if len(buf) < fb.Width*fb.Height*tb {
		return fmt.Errorf("%d bytes for a %dx%d area of %d-byte texels", len(buf), fb.Width, fb.Height, tb)
	}
	texel := func(x, y int) int { return off + ((y*w+x)*n+k)*tb }
	if !store {
		r.mu.RLock()
		defer r.mu.RUnlock()
		if r.destroyed {
			return ErrDestroyed
		}
		for y := range fb.Height {
			for x := range fb.Width {
				copy(buf[(y*fb.Width+x)*tb:][:tb], r.data[texel(x, y):])
			}
		}
		return nil
	}
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return ErrDestroyed
	}
	for y := range fb.Height {
		for x := range fb.Width {
			copy(r.data[texel(x, y):][:tb], buf[(y*fb.Width+x)*tb:])
		}
	}
	r.version++
	r.mu.Unlock()
	r.screen.res.MarkDirty(r, uint64(off), uint64(texel(fb.Width-1, fb.Height-1)+tb-off))
	return nil
}
