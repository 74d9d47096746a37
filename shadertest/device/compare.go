package device

import (
	"encoding/binary"

	"vortexgfx/shadertest/reference"
)

// compare compares the current window (the reference framebuffer, already
// brought up to date) with the shadow context's, which ran every draw on the
// reference renderer, when something was drawn or cleared since the last
// comparison. A pixel differs when a colour channel differs by more than
// ColorTolerance or the depth by more than DepthTolerance; the record keeps
// the most differing pixels of any comparison and the largest channel
// difference.
func (c *glContext) compare() error {
	if c.shadow == nil || !c.changed {
		return nil
	}
	c.changed = false
	sfb, err := reference.Framebuffer(c.shadow)
	if err != nil {
		return err
	}
	a, b := c.fb.Color[0].Data, sfb.Color[0].Data
	var az, bz []byte
	if c.fb.DepthStencil != nil && sfb.DepthStencil != nil {
		az, bz = c.fb.DepthStencil.Data, sfb.DepthStencil.Data
	}
	diff := 0
	for p := 0; 4*p+3 < len(a) && 4*p+3 < len(b); p++ {
		d := 0
		for k := 4 * p; k < 4*p+4; k++ {
			d = max(d, absInt(int(a[k])-int(b[k])))
		}
		c.rec.MaxDiff = max(c.rec.MaxDiff, d)
		if d <= ColorTolerance && az != nil {
			za, zb := binary.LittleEndian.Uint32(az[4*p:])>>8, binary.LittleEndian.Uint32(bz[4*p:])>>8
			if absInt(int(za)-int(zb)) > DepthTolerance {
				d = ColorTolerance + 1
			}
		}
		if d > ColorTolerance {
			diff++
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
