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
			if err := surfaceIO(s, fb, t.Color[i].Data, true); err != nil {
				return fmt.Errorf("cbuf %d: %w", i, err)
			}
			hold(i, s)
		}
	}
	if fb.Zsbuf != nil {
		if err := surfaceIO(fb.Zsbuf, fb, t.DepthStencil.Data, true); err != nil {
			return fmt.Errorf("zsbuf: %w", err)
		}
		hold(len(k.cf), fb.Zsbuf)
	}
	return nil
}
