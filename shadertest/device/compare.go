package device

import (
	"encoding/binary"
	"math"

	"vortexgfx/shadertest/reference"
)

// compare compares the window with the reference context's, which drew every
// draw (Options.Compare), when something changed since the last comparison.
func (c *glContext) compare() error {
	if !c.b.opts.Compare || !c.changed {
		return nil
	}
	c.changed = false
	sfb, err := reference.Framebuffer(c.ref)
	if err != nil {
		return err
	}
	img, err := c.pc.ReadPixels(0)
	if err != nil {
		return err
	}
	var z []float32
	if c.fb.Zsbuf != nil && sfb.DepthStencil != nil {
		if z, err = c.pc.ReadDepth(); err != nil {
			return err
		}
	}
	w, h := c.cfg.Width, c.cfg.Height
	diff := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := img.Pix[(h-1-y)*img.Stride+4*x:]
			b := sfb.Color[0].Data[4*(y*w+x):]
			d := 0
			for k := range 4 {
				d = max(d, absInt(int(a[k])-int(b[k])))
			}
			c.rec.MaxDiff = max(c.rec.MaxDiff, d)
			if d <= ColorTolerance && z != nil {
				za := int(math.Round(float64(z[y*w+x]) * (1<<24 - 1)))
				zb := int(binary.LittleEndian.Uint32(sfb.DepthStencil.Data[4*(y*w+x):]) >> 8)
				if absInt(za-zb) > DepthTolerance {
					d = ColorTolerance + 1
				}
			}
			if d > ColorTolerance {
				diff++
			}
		}
	}
	c.rec.Compared++
	c.rec.DiffPixels = max(c.rec.DiffPixels, diff)
	return nil
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
