package pipe

import (
	"fmt"

	"vortexgfx/gl/format"
)

// resolveOnDevice resolves a multisample RGBA8/BGRA8 colour attachment the
// device holds newer contents of with the device's own pass-end resolve
// (msaa_resolve_k: the box filter of each pixel's samples in the plane's
// format) into a single-sample destination of the same format and size, whole
// image to whole image. It reports whether it did; any other blit runs on the
// host. The two filters agree to rounding: the device's is the pass's own
// resolve, which a frame the device drew reads back exactly.
// spec: vortexpipe §3.4.1 (the pass-end resolve)
func (c *Context) resolveOnDevice(b BlitInfo) (bool, error) {
	src, dst := b.Src, b.Dst
	sd, dd := src.Resource.desc, dst.Resource.desc
	f := src.Fmt()
	if sd.samples() < 2 || dd.samples() != 1 || f != dst.Fmt() || f != format.RGBA8 && f != format.BGRA8 ||
		src.Level != 0 || src.Layer != 0 || dst.Level != 0 || dst.Layer != 0 ||
		sd.Width != dd.Width || sd.Height != dd.Height || b.SrcRect != b.DstRect ||
		b.SrcRect != (Rect{X1: sd.Width, Y1: sd.Height}) {
		return false, nil
	}
	be := &c.screen.be
	be.mu.Lock()
	defer be.mu.Unlock()
	if !be.hostStale || be.sd == nil || be.conf.dflt || be.conf.w != sd.Width || be.conf.h != sd.Height {
		return false, nil
	}
	plane := -1
	for i, s := range be.fb.colors {
		if s.r == src.Resource && s.level == 0 && s.layer == 0 {
			plane = i
		}
	}
	if plane < 0 || be.conf.tc.Colors[plane] != f {
		return false, nil
	}
	buf, err := be.sd.ReadTarget(plane)
	if err != nil {
		return false, fmt.Errorf("pipe: blit: device resolve: %w", err)
	}
	fb := &Framebuffer{Width: sd.Width, Height: sd.Height}
	if err := surfaceRows(dst, fb, buf, true); err != nil {
		return false, fmt.Errorf("pipe: blit: %w", err)
	}
	return true, nil
}
