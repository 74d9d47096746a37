package pipe

import (
	"fmt"
	"math"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// Rect is a blit rectangle in texels of a surface's level, X1/Y1 exclusive.
// A rectangle with X1 < X0 (or Y1 < Y0) is mirrored along that axis, as
// glBlitFramebuffer's. spec: vortexpipe §3.4.1
type Rect struct{ X0, Y0, X1, Y1 int }

// BlitInfo is one blit (pipe_blit_info): a rectangle of Src copied to Dst's,
// scaled with Filter, the colour converted between the two formats. A
// multisample Src (TextureDesc.Samples > 1) into a single-sample Dst of the same
// size is a resolve: each pixel is the box filter (mean) of its samples.
// spec: vortexpipe §3.4.1
type BlitInfo struct {
	Src, Dst         *Surface
	SrcRect, DstRect Rect
	Filter           sampler.Filter
}

// Blit copies and scales a rectangle between two surfaces (colour, or depth/
// stencil of one format with FilterNearest) on the host, after reading newer
// device contents back; the destination is marked dirty for the device. A
// whole-image resolve of an RGBA8/BGRA8 attachment the device just drew runs
// on the device instead (resolveOnDevice).
// spec: vortexpipe §3.4.1 (the pass-end resolve: a box filter that decodes,
// averages and re-encodes each pixel's samples)
func (c *Context) Blit(b BlitInfo) error {
	if b.Src == nil || b.Dst == nil || b.Src.Resource == nil || b.Dst.Resource == nil {
		return fmt.Errorf("pipe: blit: missing surface")
	}
	if done, err := c.resolveOnDevice(b); err != nil || done {
		return err
	}
	if err := c.hostCurrent(); err != nil {
		return err
	}
	sf, df := b.Src.Fmt(), b.Dst.Fmt()
	sd, dd := b.Src.Resource.desc, b.Dst.Resource.desc
	ss, ds := max(sd.Samples, 1), max(dd.Samples, 1)
	if ds != 1 {
		return fmt.Errorf("pipe: blit: multisample destination (%d samples)", ds)
	}
	sw, sh, _ := sd.LevelSize(b.Src.Level)
	dw, dh, _ := dd.LevelSize(b.Dst.Level)
	inside := func(r Rect, w, h int) bool {
		return min(r.X0, r.X1) >= 0 && min(r.Y0, r.Y1) >= 0 && max(r.X0, r.X1) <= w && max(r.Y0, r.Y1) <= h &&
			r.X0 != r.X1 && r.Y0 != r.Y1
	}
	if !inside(b.SrcRect, sw, sh) || !inside(b.DstRect, dw, dh) {
		return fmt.Errorf("pipe: blit: rectangles %v (of %dx%d) → %v (of %dx%d) empty or outside", b.SrcRect, sw, sh, b.DstRect, dw, dh)
	}
	depth := !sf.IsColor() || !df.IsColor()
	if depth && (sf != df || b.Filter != sampler.Nearest) {
		return fmt.Errorf("pipe: blit: depth/stencil blit %v → %v needs one format and nearest filtering", sf, df)
	}
	if (sf.IsInteger() || df.IsInteger()) && (sf.IsInteger() != df.IsInteger() || b.Filter != sampler.Nearest || ss > 1) {
		return fmt.Errorf("pipe: blit: integer blit %v → %v needs integer formats on both sides, nearest, single-sample", sf, df)
	}
	src, dst := b.Src, b.Dst
	sOff, _, err := sd.ImageOffset(src.Level, src.Layer)
	if err != nil {
		return err
	}
	dOff, _, err := dd.ImageOffset(dst.Level, dst.Layer)
	if err != nil {
		return err
	}
	sbpp, dbpp := sf.Info().Bytes, df.Info().Bytes
	sr, dr := src.Resource, dst.Resource
	sr.mu.RLock()
	if sr.destroyed {
		sr.mu.RUnlock()
		return ErrDestroyed
	}
	texel := func(x, y, k int) []byte {
		o := sOff + ((y*sw+x)*ss+k)*sbpp
		return sr.data[o : o+sbpp]
	}
	// Read the source pixels the destination needs into floats (or raw words).
	dx0, dy0 := min(b.DstRect.X0, b.DstRect.X1), min(b.DstRect.Y0, b.DstRect.Y1)
	dwid, dhgt := abs(b.DstRect.X1-b.DstRect.X0), abs(b.DstRect.Y1-b.DstRect.Y0)
	scaleX := float64(b.SrcRect.X1-b.SrcRect.X0) / float64(b.DstRect.X1-b.DstRect.X0)
	scaleY := float64(b.SrcRect.Y1-b.SrcRect.Y0) / float64(b.DstRect.Y1-b.DstRect.Y0)
	out := make([]byte, dwid*dhgt*dbpp)
	pixel := func(x, y int) [4]float32 { // resolved source pixel
		var acc [4]float32
		for k := 0; k < ss; k++ {
			v := format.ToFloat(sf, format.Unpack(sf, texel(x, y, k)))
			for i := range acc {
				acc[i] += v[i]
			}
		}
		for i := range acc {
			acc[i] /= float32(ss)
		}
		return acc
	}
	clampX := func(x int) int { return min(max(x, 0), sw-1) }
	clampY := func(y int) int { return min(max(y, 0), sh-1) }
	for y := 0; y < dhgt; y++ {
		for x := 0; x < dwid; x++ {
			// Source position of this destination pixel's centre.
			fx := float64(b.SrcRect.X0) + (float64(dx0+x-b.DstRect.X0)+0.5)*scaleX
			fy := float64(b.SrcRect.Y0) + (float64(dy0+y-b.DstRect.Y0)+0.5)*scaleY
			o := out[(y*dwid+x)*dbpp : (y*dwid+x+1)*dbpp]
			if b.Filter == sampler.Nearest || depth {
				sx, sy := clampX(int(math.Floor(fx))), clampY(int(math.Floor(fy)))
				switch {
				case depth:
					copy(o, texel(sx, sy, 0))
				case sf.IsInteger():
					format.Pack(df, o, format.FromInt(df, format.ToInt(sf, format.Unpack(sf, texel(sx, sy, 0)))))
				default:
					format.Pack(df, o, format.FromFloat(df, pixel(sx, sy)))
				}
				continue
			}
			x0, y0 := math.Floor(fx-0.5), math.Floor(fy-0.5)
			ax, ay := float32(fx-0.5-x0), float32(fy-0.5-y0)
			ix, iy := int(x0), int(y0)
			p00, p10 := pixel(clampX(ix), clampY(iy)), pixel(clampX(ix+1), clampY(iy))
			p01, p11 := pixel(clampX(ix), clampY(iy+1)), pixel(clampX(ix+1), clampY(iy+1))
			var v [4]float32
			for i := range v {
				top := p00[i]*(1-ax) + p10[i]*ax
				bot := p01[i]*(1-ax) + p11[i]*ax
				v[i] = top*(1-ay) + bot*ay
			}
			format.Pack(df, o, format.FromFloat(df, v))
		}
	}
	sr.mu.RUnlock()
	dr.mu.Lock()
	if dr.destroyed {
		dr.mu.Unlock()
		return ErrDestroyed
	}
	for y := 0; y < dhgt; y++ {
		o := dOff + ((dy0+y)*dw+dx0)*dbpp
		copy(dr.data[o:o+dwid*dbpp], out[y*dwid*dbpp:(y+1)*dwid*dbpp])
	}
	dr.version++
	dr.mu.Unlock()
	c.screen.res.MarkDirty(dr, uint64(dOff+(dy0*dw+dx0)*dbpp), uint64(((dhgt-1)*dw+dwid)*dbpp))
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
