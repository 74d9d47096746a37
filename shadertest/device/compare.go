package device

import (
	"vortexgfx/shadertest/reference"
)

// compare compares the window with the shadow context's, which ran every
// draw on the reference renderer, when something was drawn or cleared since
// the last comparison. A pixel differs when a colour channel differs by more
// than ColorTolerance or the depth by more than DepthTolerance; the record
// keeps the most differing pixels of any comparison and the largest channel
// difference.
func (c *glContext) compare() error {
	if c.shadow == nil || !c.changed {
		return nil
	}
	c.changed = false
	sp, err := reference.Pipe(c.shadow)
	if err != nil {
		return err
	}
	a, err := c.pc.ReadPixels(0)
	if err != nil {
		return err
	}
	b, err := sp.ReadPixels(0)
	if err != nil {
		return err
	}
	var az, bz []float32
	if c.pc.Bound().FB.Zsbuf != nil {
		if az, err = c.pc.ReadDepth(); err != nil {
			return err
		}
		if bz, err = sp.ReadDepth(); err != nil {
			return err
		}
	}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	diff := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			pa, pb := a.Pix[y*a.Stride+4*x:], b.Pix[y*b.Stride+4*x:]
			d := 0
			for k := range 4 {
				d = max(d, absInt(int(pa[k])-int(pb[k])))
			}
			c.rec.MaxDiff = max(c.rec.MaxDiff, d)
			// Depth rows run from the window's bottom, image rows from its top.
			if k := (h-1-y)*w + x; d <= ColorTolerance && az != nil && k < len(bz) {
				if absInt(int((az[k]-bz[k])*(1<<24-1))) > DepthTolerance {
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
