package shaderdev

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/swtex"
	"vortexgfx/ref/format"
	"vortexgfx/ref/sampler"
)

// devEnv is what a device's kernels need beyond the CTA: the physical memory
// the software sampler views zero-copy (as the FF units do). It is filled
// once the device is open; kernels registered by Program.Register alone
// run without it (and refuse the software sampler).
type devEnv struct {
	mem swtex.Memory
}

// swTexture is the texture and sampler state the software sampler takes for a
// binding: t.Ref / t.RefSampler when set, else the FF fields as a BGRA8 2D
// texture (the A8R8G8B8 words' byte order) with the FF filter, mip and wrap
// modes (the border colour and LOD range are the FF unit's defaults).
// spec: vortexpipe §3.6 (NPOT and every non-FF texture run on the SW sampler)
func swTexture(t *Texture) (*sampler.Texture, *sampler.Sampler, error) {
	if t.Ref != nil {
		s := sampler.DefaultSampler()
		if t.RefSampler != nil {
			s = *t.RefSampler
		}
		return t.Ref, &s, nil
	}
	if t.Width == 0 || t.Height == 0 || len(t.Pixels) != int(4*t.Width*t.Height) {
		return nil, nil, fmt.Errorf("%d bytes for a %dx%d A8R8G8B8 texture", len(t.Pixels), t.Width, t.Height)
	}
	levels := 1
	if t.Mip != MipNone {
		levels = 0 // the full chain
	}
	tx, err := sampler.NewTexture(sampler.Dim2D, format.BGRA8, int(t.Width), int(t.Height), 1, levels)
	if err != nil {
		return nil, nil, err
	}
	copy(tx.Levels[0].Data, t.Pixels)
	if len(tx.Levels) > 1 {
		if err := tx.GenerateMipmaps(); err != nil {
			return nil, nil, err
		}
	}
	s := sampler.DefaultSampler()
	s.MinFilter, s.MagFilter = sampler.Nearest, sampler.Nearest
	if t.Bilinear {
		s.MinFilter, s.MagFilter = sampler.Linear, sampler.Linear
	}
	s.MipFilter = [...]sampler.MipFilter{MipNone: sampler.MipNone, MipNearest: sampler.MipNearest, MipLinear: sampler.MipLinear}[t.Mip%3]
	wrap := func(w abi.TexWrap) sampler.Wrap {
		switch w {
		case abi.WrapRepeat:
			return sampler.Repeat
		case abi.WrapMirror:
			return sampler.MirroredRepeat
		case abi.WrapBorder:
			return sampler.ClampToBorder
		case abi.WrapMirrorClamp:
			return sampler.MirrorClampToEdge
		}
		return sampler.ClampToEdge
	}
	s.WrapS, s.WrapT = wrap(t.WrapU), wrap(t.WrapV)
	return tx, &s, nil
}

// swTexUploads lays every binding out for the software sampler and returns
// the uploads (the caller places them and builds the descriptor table).
// A binding of a resident software layout (UploadRefTexture) is returned as
// is, with its base in bases[i] (0 for the ones to place).
func swTexUploads(texs []Texture) (ups []*swtex.Upload, bases []uint64, err error) {
	ups, bases = make([]*swtex.Upload, len(texs)), make([]uint64, len(texs))
	for i := range texs {
		if r := texs[i].Resident; r != nil && r.sw != nil {
			ups[i], bases[i] = r.sw, r.buf.Addr()
			continue
		}
		if r := texs[i].Resident; r != nil {
			ups[i], bases[i] = ffChainUpload(&texs[i], r), r.buf.Addr()
			continue
		}
		tx, s, err := swTexture(&texs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("shaderdev: draw: sampler %d: %w", i, err)
		}
		if ups[i], err = swtex.Layout(tx, s); err != nil {
			return nil, nil, fmt.Errorf("shaderdev: draw: sampler %d: %w", i, err)
		}
	}
	return ups, bases, nil
}

// texNeedsSW reports why a draw's bindings need the software sampler ("" when
// the FF unit can take them all).
func texNeedsSW(texs []Texture) string {
	for i := range texs {
		t := &texs[i]
		if t.Ref != nil || (t.Resident != nil && t.Resident.sw != nil) {
			return fmt.Sprintf("sampler %d binds a reference texture (target/format/state beyond the FF unit)", i)
		}
		if t.WrapU > abi.WrapBorder || t.WrapV > abi.WrapBorder {
			return fmt.Sprintf("sampler %d: wrap mode the FF unit has no form of", i)
		}
		if t.Resident == nil {
			if why := t.texCheck(); why != "" {
				return fmt.Sprintf("sampler %d: %s", i, why)
			}
		}
	}
	return ""
}

// ffChainUpload describes a resident FF chain (UploadTexture: A8R8G8B8
// levels at r.offs) to the software sampler in place — no second copy — with
// the binding's filter, mip and wrap modes, so a vertex stage or a draw whose
// TEX routes to software samples the texture the FF unit would.
// spec: vortexpipe §1.3 (resident textures), §3.6
func ffChainUpload(t *Texture, r *ResidentTexture) *swtex.Upload {
	ds := sampler.DefaultSampler()
	d := abi.SWTexDesc{Target: abi.SWTex2D, Format: abi.SWTexBGRA8, Levels: uint8(len(r.offs)), Samples: 1,
		Width: r.width, Height: r.height, Depth: 1, MaxLevel: uint8(len(r.offs) - 1),
		Swizzle:   [4]abi.SWTexSwizzle{abi.SWSwizzleR, abi.SWSwizzleG, abi.SWSwizzleB, abi.SWSwizzleA},
		MipFilter: abi.SWTexMipMode(t.Mip % 3), Compare: abi.CmpLEqual, Wrap: [3]abi.TexWrap{t.WrapU, t.WrapV, abi.WrapClamp},
		MinLOD: ds.MinLOD, MaxLOD: ds.MaxLOD, MaxAnisotropy: ds.MaxAnisotropy}
	if t.Bilinear {
		d.MinFilter, d.MagFilter = abi.SWFilterLinear, abi.SWFilterLinear
	}
	for l, off := range r.offs {
		d.Level[l] = abi.SWTexLevel{Addr: uint64(off), RowPitch: 4 * max(r.width>>l, 1)}
	}
	return &swtex.Upload{Desc: d}
}
