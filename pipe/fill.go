package pipe

import "fmt"

// fillSurfaceUniform writes one texel value into every texel of the
// framebuffer area of s: put packs the value into the first texel, whose
// bytes are then copied across each row (a clear of every aspect, whose texel
// does not depend on what it overwrites — the per-texel fillSurface would
// pack the same bytes width × height times).
func fillSurfaceUniform(s *Surface, fb *Framebuffer, put func(px []byte)) error {
	r := s.Resource
	d := r.desc
	f := s.Fmt()
	bpp := f.Info().Bytes
	if bpp != d.Format.Info().Bytes {
		return fmt.Errorf("view format %v does not match the %v texture", f, d.Format)
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	if err != nil {
		return err
	}
	w, _, _ := d.LevelSize(s.Level)
	spp := d.samples()
	pitch := w * bpp * spp
	n := fb.Width * spp * bpp
	if fb.Width < 1 || fb.Height < 1 {
		return nil
	}
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return ErrDestroyed
	}
	first := r.data[off : off+n]
	put(first[:bpp])
	for k := bpp; k < n; k *= 2 {
		copy(first[k:], first[:k])
	}
	for y := 1; y < fb.Height; y++ {
		copy(r.data[off+y*pitch:off+y*pitch+n], first)
	}
	r.version++
	r.mu.Unlock()
	r.screen.res.MarkDirty(r, uint64(off), uint64((fb.Height-1)*pitch+n))
	return nil
}
