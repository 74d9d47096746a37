package pipe

import (
	"fmt"
	"slices"

	"vortexgfx/gl/format"
	"vortexgfx/ref"
)

// refTargetCache is the reference renderer's target a context keeps between
// reference draws, so that a frame of draws into one framebuffer allocates
// its surfaces (and ref's per-target scratch) once, and reloads an attachment
// only when something other than this context's last reference draw wrote
// its resource since. The record of an attachment is the resource's version
// right after the draw's store: every host write bumps it (Resource.Write,
// clears, blits, device read-back, other contexts' draws), so an unchanged
// version means the target still holds exactly the resource's bytes.
type refTargetCache struct {
	t    *ref.Target
	w, h int
	cf   []format.Format
	zf   format.Format
	// held[i] is colour attachment i's record, held[len(cf)] the
	// depth/stencil attachment's.
	held []heldSurface
}

// heldSurface records the surface a target attachment mirrors and the
// resource version it mirrors; ok is false until a store completes.
type heldSurface struct {
	ok           bool
	r            *Resource
	level, layer int
	version      uint64
}

func (h *heldSurface) current(s *Surface) bool {
	return h.ok && h.r == s.Resource && h.level == s.Level && h.layer == s.Layer && h.version == s.Resource.versionNow()
}

// refTarget returns the reference target for fb with its attachments' current
// bytes: the kept target when its size and formats match fb, reloading only
// the attachments whose resources changed. An unbound colour attachment is a
// zeroed RGBA8 surface, as in a new target.
func (c *Context) refTarget(fb *Framebuffer) (*ref.Target, error) {
	var cf []format.Format
	for _, s := range fb.Cbufs {
		if s == nil {
			cf = append(cf, format.RGBA8)
			continue
		}
		cf = append(cf, s.Fmt())
	}
	zf := format.Invalid
	if fb.Zsbuf != nil {
		zf = fb.Zsbuf.Fmt()
	}
	k := &c.refTgt
	if k.t == nil || k.w != fb.Width || k.h != fb.Height || k.zf != zf || !slices.Equal(k.cf, cf) {
		t, err := ref.NewTarget(fb.Width, fb.Height, cf, zf)
		if err != nil {
			return nil, err
		}
		*k = refTargetCache{t: t, w: fb.Width, h: fb.Height, cf: cf, zf: zf, held: make([]heldSurface, len(cf)+1)}
	}
	t := k.t
	for i, s := range fb.Cbufs {
		switch {
		case s == nil:
			clear(t.Color[i].Data)
		case !k.held[i].current(s):
			if err := surfaceIO(s, fb, t.Color[i].Data, false); err != nil {
				k.t = nil
				return nil, fmt.Errorf("cbuf %d: %w", i, err)
			}
		}
	}
	if s := fb.Zsbuf; s != nil && !k.held[len(cf)].current(s) {
		if err := surfaceIO(s, fb, t.DepthStencil.Data, false); err != nil {
			k.t = nil
			return nil, fmt.Errorf("zsbuf: %w", err)
		}
	}
	// Until the draw's store completes the target may hold bytes no
	// resource has (a draw that fails part-way): nothing is current.
	for i := range k.held {
		k.held[i].ok = false
	}
	return t, nil
}

// storeTarget writes a ref target back into the framebuffer's attachments and
// records the versions the stores made, so the next reference draw into the
// same attachments need not reload them.
func (c *Context) storeTarget(fb *Framebuffer, t *ref.Target) error {
	k := &c.refTgt
	kept := k.t == t
	hold := func(i int, s *Surface) {
		if kept {
			k.held[i] = heldSurface{ok: true, r: s.Resource, level: s.Level, layer: s.Layer, version: s.Resource.versionNow()}
		}
	}
	for i, s := range fb.Cbufs {
		if s != nil {
			if kept && swapSurface(s, fb, &t.Color[i].Data) {
				continue // the target holds the old bytes: not current
			}
			if err := surfaceIO(s, fb, t.Color[i].Data, true); err != nil {
				return fmt.Errorf("cbuf %d: %w", i, err)
			}
			hold(i, s)
		}
	}
	if fb.Zsbuf != nil {
		if kept && swapSurface(fb.Zsbuf, fb, &t.DepthStencil.Data) {
			return nil
		}
		if err := surfaceIO(fb.Zsbuf, fb, t.DepthStencil.Data, true); err != nil {
			return fmt.Errorf("zsbuf: %w", err)
		}
		hold(len(k.cf), fb.Zsbuf)
	}
	return nil
}

// swapSurface stores a kept target's attachment by exchanging buffers instead
// of copying them, when the framebuffer area of s is the whole of its
// resource's storage, laid out as the target's (one sample, one image, rows
// of fb.Width texels): the resource takes *buf, the drawn bytes, and *buf the
// resource's previous bytes, so the target no longer mirrors the resource
// (a later draw reloads it, a clear refills it; see clearSurface). It
// reports whether it swapped; the store is then complete, version bumped and
// range marked dirty as surfaceRows's.
func swapSurface(s *Surface, fb *Framebuffer, buf *[]byte) bool {
	r := s.Resource
	d := r.desc
	if d.samples() != 1 || s.Fmt().Info().Bytes != d.Format.Info().Bytes {
		return false
	}
	off, size, err := d.ImageOffset(s.Level, s.Layer)
	if w, _, _ := d.LevelSize(s.Level); err != nil || off != 0 || w != fb.Width || size != len(*buf) {
		return false
	}
	r.mu.Lock()
	if r.destroyed || len(r.data) != size {
		r.mu.Unlock()
		return false
	}
	r.data, *buf = *buf, r.data
	r.version++
	r.mu.Unlock()
	r.screen.res.MarkDirty(r, 0, uint64(size))
	return true
}

// mirror is a reference-target attachment a clear fills along with its
// resource (fillSurface), so that the next reference draw need not reload
// it: buf is the attachment's bytes (the framebuffer area, tightly packed);
// held reports that it held the resource's bytes at version; after the fill
// ok reports that it holds them at version.
type mirror struct {
	buf     []byte
	held    bool
	version uint64
	ok      bool
}

// clearSurface runs fillSurface for attachment s of fb (colour attachment i,
// or the depth/stencil attachment for i < 0), filling the kept reference
// target's matching attachment too and recording it current, so that a frame
// of clear then reference draws moves no attachment bytes but the clear's.
func (c *Context) clearSurface(s *Surface, fb *Framebuffer, i int, uniform bool, put func(px []byte)) error {
	k := &c.refTgt
	if k.t == nil || k.w != fb.Width || k.h != fb.Height {
		return fillSurface(s, fb, uniform, put, nil)
	}
	var buf []byte
	hi := len(k.cf)
	switch {
	case i >= 0 && i < len(k.cf) && k.cf[i] == s.Fmt():
		buf, hi = k.t.Color[i].Data, i
	case i < 0 && k.zf == s.Fmt() && k.t.DepthStencil != nil:
		buf = k.t.DepthStencil.Data
	default:
		return fillSurface(s, fb, uniform, put, nil)
	}
	h := &k.held[hi]
	m := mirror{buf: buf, held: h.ok && h.r == s.Resource && h.level == s.Level && h.layer == s.Layer, version: h.version}
	// Until the fill completes the mirror may hold bytes no resource has.
	h.ok = false
	if err := fillSurface(s, fb, uniform, put, &m); err != nil {
		return err
	}
	if m.ok {
		*h = heldSurface{ok: true, r: s.Resource, level: s.Level, layer: s.Layer, version: m.version}
	}
	return nil
}
