package pipe

import (
	"fmt"
	"slices"

	"vortexgfx/gl/format"
	"vortexgfx/ref"
)

// refTargetCache is the reference renderer's target a context keeps between
// reference draws, so that a frame of draws into one framebuffer allocates
// its surfaces (and ref's per-target scratch) once and moves no attachment
// bytes but the clear's and the draws' own.
//
// An attachment whose framebuffer area is the whole of its resource's
// storage, laid out as the target's (one sample, one image, rows of fb.Width
// texels: see wholeStorage), is drawn in place: the target's surface is the
// resource's host bytes themselves for the draw (llvmpipe's draws write the
// texture's storage the same way), so it is never loaded or stored, and a
// clear writes it once. Any other attachment is drawn in the cache's own
// buffer for it, loaded before the draw and stored after; the record of such
// a buffer is the resource's version right after the store (or a clear that
// filled it along: see clearSurface): every host write bumps it
// (Resource.Write, clears, blits, device read-back, other contexts' draws),
// so an unchanged version means the buffer still holds exactly the
// resource's bytes.
type refTargetCache struct {
	t    *ref.Target
	w, h int
	cf   []format.Format
	zf   format.Format
	// own[i] is colour attachment i's own buffer, own[len(cf)] the
	// depth/stencil attachment's; held[i] is own[i]'s record; inPlace[i] is
	// the resource whose storage the target's attachment i is, for the
	// current draw (nil: own[i]).
	own     [][]byte
	held    []heldSurface
	inPlace []*Resource
}

// heldSurface records the surface a cache buffer mirrors and the resource
// version it mirrors; ok is false until a store completes.
type heldSurface struct {
	ok           bool
	r            *Resource
	level, layer int
	version      uint64
}

func (h *heldSurface) current(s *Surface) bool {
	return h.ok && h.r == s.Resource && h.level == s.Level && h.layer == s.Layer && h.version == s.Resource.versionNow()
}

// wholeStorage reports whether the framebuffer area of s is the whole of its
// resource's storage, laid out as a reference target's attachment: one
// sample, the view's texel size the texture's, the image at offset 0 with
// rows of fb.Width texels, and fb.Height rows filling the whole storage
// (every level and layer).
func wholeStorage(s *Surface, fb *Framebuffer) bool {
	r := s.Resource
	d := r.desc
	bpp := s.Fmt().Info().Bytes
	if d.samples() != 1 || bpp != d.Format.Info().Bytes {
		return false
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	total, terr := textureBytes(d)
	w, _, _ := d.LevelSize(s.Level)
	return err == nil && terr == nil && off == 0 && w == fb.Width && total == fb.Width*fb.Height*bpp
}

// attachments is fb's colour attachments then its depth/stencil attachment,
// as the cache indexes them.
func attachments(fb *Framebuffer) []*Surface {
	return append(slices.Clone(fb.Cbufs), fb.Zsbuf)
}

// inPlaceOK reports whether attachment i of fb may be drawn in place: whole
// storage, and no other attachment of fb on the same resource (two
// attachments drawn into one buffer would see each other's writes mid-draw).
func inPlaceOK(att []*Surface, i int, fb *Framebuffer) bool {
	s := att[i]
	if s == nil || !wholeStorage(s, fb) {
		return false
	}
	for j, o := range att {
		if j != i && o != nil && o.Resource == s.Resource {
			return false
		}
	}
	return true
}

// refTarget returns the reference target for fb with its attachments' current
// bytes: the kept target when its size and formats match fb, each attachment
// the resource's storage itself where it may be drawn in place, else the
// cache's own buffer, reloaded only when its resource changed. An unbound
// colour attachment is a zeroed RGBA8 surface, as in a new target.
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
		n := len(cf) + 1
		*k = refTargetCache{t: t, w: fb.Width, h: fb.Height, cf: cf, zf: zf,
			own: make([][]byte, n), held: make([]heldSurface, n), inPlace: make([]*Resource, n)}
		for i := range t.Color {
			k.own[i] = t.Color[i].Data
		}
		if t.DepthStencil != nil {
			k.own[len(cf)] = t.DepthStencil.Data
		}
	}
	t := k.t
	att := attachments(fb)
	for i, s := range att {
		var ts *ref.Surface
		switch {
		case i < len(cf):
			ts = t.Color[i]
		case s != nil:
			ts = t.DepthStencil
		default:
			continue
		}
		k.inPlace[i] = nil
		ts.Data = k.own[i]
		switch {
		case s == nil:
			clear(ts.Data)
		case inPlaceOK(att, i, fb):
			data, err := s.Resource.storage(len(ts.Data))
			if err != nil {
				k.t = nil
				return nil, fmt.Errorf("%s: %w", attachmentName(i, len(cf)), err)
			}
			ts.Data, k.inPlace[i] = data, s.Resource
		case !k.held[i].current(s):
			if err := surfaceIO(s, fb, ts.Data, false); err != nil {
				k.t = nil
				return nil, fmt.Errorf("%s: %w", attachmentName(i, len(cf)), err)
			}
		}
	}
	// Until the draw's store completes the own buffers may hold bytes no
	// resource has (a draw that fails part-way): none is current.
	for i := range k.held {
		k.held[i].ok = false
	}
	return t, nil
}

// attachmentName names cache attachment i in errors.
func attachmentName(i, colours int) string {
	if i < colours {
		return fmt.Sprintf("cbuf %d", i)
	}
	return "zsbuf"
}

// storage returns r's host bytes for drawing in place, which must be size
// long (the caller checked the layout with wholeStorage).
func (r *Resource) storage(size int) ([]byte, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return nil, ErrDestroyed
	}
	if len(r.data) != size {
		return nil, fmt.Errorf("%d bytes of storage for a %d-byte attachment", len(r.data), size)
	}
	return r.data, nil
}

// drewInPlace completes a draw into r's storage: the version is bumped and
// the whole storage marked dirty, as surfaceRows's store does.
func (r *Resource) drewInPlace() {
	r.mu.Lock()
	r.version++
	n := len(r.data)
	r.mu.Unlock()
	// The residency lock is taken after the resource's is released (Resolve
	// takes them in the other order).
	r.screen.res.MarkDirty(r, 0, uint64(n))
}

// storeTarget completes a draw into the target refTarget returned for fb:
// the attachments drawn in place are marked written, the others written back
// into their resources, recording the versions the stores made so the next
// reference draw into the same attachments need not reload them. It runs
// after a failed draw too (failed set): what a draw in place wrote before it
// failed is in the resource, so its version moves; an own buffer is then
// not stored.
func (c *Context) storeTarget(fb *Framebuffer, t *ref.Target, failed bool) error {
	k := &c.refTgt
	kept := k.t == t
	att := attachments(fb)
	for i, s := range att {
		if s == nil {
			continue
		}
		if kept && k.inPlace[i] != nil {
			k.inPlace[i] = nil
			s.Resource.drewInPlace()
			continue
		}
		if failed {
			continue
		}
		var buf []byte
		if i < len(fb.Cbufs) {
			buf = t.Color[i].Data
		} else {
			buf = t.DepthStencil.Data
		}
		if err := surfaceIO(s, fb, buf, true); err != nil {
			return fmt.Errorf("%s: %w", attachmentName(i, len(fb.Cbufs)), err)
		}
		if kept {
			k.held[i] = heldSurface{ok: true, r: s.Resource, level: s.Level, layer: s.Layer, version: s.Resource.versionNow()}
		}
	}
	return nil
}

// mirror is a cache buffer a clear fills along with its resource
// (fillSurface), so that the next reference draw need not reload it: buf is
// the buffer's bytes (the framebuffer area, tightly packed); held reports
// that it held the resource's bytes at version; after the fill ok reports
// that it holds them at version.
type mirror struct {
	buf     []byte
	held    bool
	version uint64
	ok      bool
}

// clearSurface runs fillSurface for attachment s of fb (colour attachment i,
// or the depth/stencil attachment for i < 0). An attachment the next
// reference draw draws in place is the resource's storage, so the fill is
// all; another fills the kept target's own buffer for it too and records it
// current, so that a frame of clear then reference draws moves no attachment
// bytes but the clear's.
func (c *Context) clearSurface(s *Surface, fb *Framebuffer, i int, uniform bool, put func(px []byte)) error {
	k := &c.refTgt
	if k.t == nil || k.w != fb.Width || k.h != fb.Height || wholeStorage(s, fb) {
		return fillSurface(s, fb, uniform, put, nil)
	}
	hi := len(k.cf)
	switch {
	case i >= 0 && i < len(k.cf) && k.cf[i] == s.Fmt():
		hi = i
	case i < 0 && k.zf == s.Fmt() && k.t.DepthStencil != nil:
	default:
		return fillSurface(s, fb, uniform, put, nil)
	}
	h := &k.held[hi]
	m := mirror{buf: k.own[hi], held: h.ok && h.r == s.Resource && h.level == s.Level && h.layer == s.Layer, version: h.version}
	// Until the fill completes the buffer may hold bytes no resource has.
	h.ok = false
	if err := fillSurface(s, fb, uniform, put, &m); err != nil {
		return err
	}
	if m.ok {
		*h = heldSurface{ok: true, r: s.Resource, level: s.Level, layer: s.Layer, version: m.version}
	}
	return nil
}
