package pipe

import (
	"fmt"

	"vortexgfx/gl/format"
)

// ReadRect reads colour attachment i's pixels in [x, x+w) × [y, y+h) of the
// window (row 0 is window y = 0) as RGBA8 into dst, rows from y upwards: what
// glReadPixels(GL_RGBA, GL_UNSIGNED_BYTE) returns. A single-sampled RGBA8
// attachment is copied straight from its storage, with no whole-surface copy
// or conversion, so a test harness may probe after every draw; any other
// format is converted as ReadPixels converts it. spec: GL 4.6 §18.2
func (c *Context) ReadRect(i, x, y, w, h int, dst []byte) error {
	fb := c.Bound().FB
	if i < 0 || i >= len(fb.Cbufs) || fb.Cbufs[i] == nil {
		return fmt.Errorf("pipe: ReadRect: no colour attachment %d", i)
	}
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > fb.Width || y+h > fb.Height {
		return fmt.Errorf("pipe: ReadRect: %dx%d at (%d, %d) outside the %dx%d framebuffer", w, h, x, y, fb.Width, fb.Height)
	}
	if len(dst) < 4*w*h {
		return fmt.Errorf("pipe: ReadRect: %d bytes for %dx%d RGBA8 pixels", len(dst), w, h)
	}
	s := fb.Cbufs[i]
	r := s.Resource
	d := r.desc
	if s.Fmt() != format.RGBA8 || d.Format != format.RGBA8 || d.samples() > 1 {
		img, err := c.ReadPixels(i)
		if err != nil {
			return err
		}
		for k := 0; k < h; k++ {
			row := fb.Height - 1 - (y + k) // image row 0 is the top
			copy(dst[4*w*k:4*w*(k+1)], img.Pix[row*img.Stride+4*x:row*img.Stride+4*(x+w)])
		}
		return nil
	}
	if err := c.hostCurrent(); err != nil {
		return err
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	if err != nil {
		return fmt.Errorf("pipe: ReadRect: %w", err)
	}
	lw, _, _ := d.LevelSize(s.Level)
	pitch := 4 * lw
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return fmt.Errorf("pipe: ReadRect: colour attachment %d: %w", i, ErrDestroyed)
	}
	for k := 0; k < h; k++ {
		src := off + (y+k)*pitch + 4*x
		copy(dst[4*w*k:4*w*(k+1)], r.data[src:src+4*w])
	}
	return nil
}
