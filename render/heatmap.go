package render

import "image"

// HeatmapImage colours per-pixel fragment counts (row 0 at the top, as
// Renderer.Heatmap returns them): 0 is black, and 1 up to the largest count
// runs blue, cyan, green, yellow, red, so overdraw stands out (README
// "vortex render", --heatmap).
func HeatmapImage(counts []uint32, w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	var top uint32
	for _, c := range counts {
		top = max(top, c)
	}
	for i, c := range counts {
		if i >= w*h {
			break
		}
		p := img.Pix[i*4 : i*4+4]
		p[3] = 255
		if c == 0 {
			continue
		}
		// t in [0, 4]: position along the four ramp segments.
		t := 4.0
		if top > 1 {
			t = 4 * float64(c-1) / float64(top-1)
		}
		var r, g, b float64
		switch {
		case t < 1: // blue -> cyan
			b, g = 1, t
		case t < 2: // cyan -> green
			g, b = 1, 2-t
		case t < 3: // green -> yellow
			g, r = 1, t-2
		default: // yellow -> red
			r, g = 1, 4-t
		}
		p[0], p[1], p[2] = uint8(r*255+0.5), uint8(g*255+0.5), uint8(b*255+0.5)
	}
	return img
}
