package pipe

import (
	"fmt"

	"vortexgfx/abi"
)

// SurfaceAddr is a device-resident attachment plane: its byte address (64-byte
// aligned) and row pitch in bytes.
type SurfaceAddr struct {
	Addr  uint64
	Pitch uint32
}

// TextureAddr is a resident texture laid out by TexUpload: level 0's byte address and the byte offset of
// each mip level from it (levels past the chain repeat the last one).
type TextureAddr struct {
	Addr       uint64
	MipOffsets [abi.TexMaxLevels]uint32
}

// DrawAddrs are the device addresses a draw's DCR writes name, produced by the
// render-pass and residency code: attachments, the front end's tile and primitive
// buffers, the fragment-shader launch descriptor and the TEX stages' textures.
// spec: vortexpipe §3.2, §3.3
type DrawAddrs struct {
	Color     [abi.OMMaxRT]SurfaceAddr
	Depth     SurfaceAddr
	TileBuf   uint64 // 64-byte aligned
	TileCount uint32
	PrimBuf   uint64 // 64-byte aligned
	FragEntry uint64
	FragParam uint64
	Textures  [abi.TexNumStages]TextureAddr
}

// PrimStride is PBUF_STRIDE, the whole 212-byte rast_prim_t record.
// spec: vortexpipe §3.3 step 1
const PrimStride = 212

type dcrList struct {
	out []abi.DCRPair
	err error
}

func (l *dcrList) put(a abi.DCR, v uint32) { l.out = append(l.out, abi.DCRPair{Addr: a, Value: v}) }

func (l *dcrList) block(a abi.DCR, addr uint64, what string) {
	b, err := abi.BlockAddr(addr)
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("pipe: %s: %w", what, err)
	}
	l.put(a, b)
}

// DrawDCRs returns the RASTER, OM and TEX DCR writes of a device draw, straight
// from the captured CSO words: RASTER unless the key routes RASTER to software,
// the OM banks (per attachment under RT_SELECT, then the shared state) unless OM
// is in software, and unless TEX is, a TEX bank per bound texture unit, the
// stage being the unit (a.Textures is indexed by unit). The depth state
// is disabled when no depth/stencil attachment is bound, as GL and Vulkan specify.
// spec: vortexpipe §3.3 (steps 1–3); vortex-hardware-facts §2
func DrawDCRs(st *BoundState, key VariantKey, a *DrawAddrs) ([]abi.DCRPair, error) {
	l := &dcrList{}
	fb := &st.FB
	fsInfo := ShaderInfo{}
	if st.FS != nil {
		fsInfo = st.FS.Desc.Info
	}
	if !key.SWRaster {
		l.block(abi.DCRRasterTBufAddr, a.TileBuf, "tile buffer")
		l.put(abi.DCRRasterTileCount, a.TileCount)
		l.block(abi.DCRRasterPBufAddr, a.PrimBuf, "primitive buffer")
		l.put(abi.DCRRasterPBufStride, PrimStride)
		x0, y0, x1, y1 := 0, 0, fb.Width, fb.Height
		if st.Rast != nil && st.Rast.State.Scissor {
			s := st.Scissor
			x0, y0 = min(max(s.MinX, 0), fb.Width), min(max(s.MinY, 0), fb.Height)
			x1, y1 = min(max(s.MaxX, x0), fb.Width), min(max(s.MaxY, y0), fb.Height)
		}
		sx, err := abi.PackScissor(x0, x1)
		if err != nil {
			return nil, fmt.Errorf("pipe: scissor x: %w", err)
		}
		sy, err := abi.PackScissor(y0, y1)
		if err != nil {
			return nil, fmt.Errorf("pipe: scissor y: %w", err)
		}
		l.put(abi.DCRRasterScissorX, sx)
		l.put(abi.DCRRasterScissorY, sy)
		l.put(abi.DCRRasterFragEntryLo, uint32(a.FragEntry))
		l.put(abi.DCRRasterFragEntryHi, uint32(a.FragEntry>>32))
		l.put(abi.DCRRasterFragParamLo, uint32(a.FragParam))
		l.put(abi.DCRRasterFragParamHi, uint32(a.FragParam>>32))
	}
	if !key.SWOM {
		blend := st.Blend
		if blend == nil {
			var err error
			if blend, err = NewBlend(BlendState{RT: [MaxRenderTargets]RTBlendState{{ColorMask: MaskRGBA}}}); err != nil {
				return nil, err
			}
		}
		rts := 0
		for i, s := range fb.Cbufs {
			if s == nil || i >= abi.OMMaxRT {
				continue
			}
			rts = i + 1
			o := 0
			if key.BGRAMask>>i&1 != 0 {
				o = 1
			}
			rt := &blend.RT[i]
			l.put(abi.DCROMRTSelect, uint32(i))
			l.block(abi.DCROMCBufAddr, a.Color[i].Addr, fmt.Sprintf("colour attachment %d", i))
			l.put(abi.DCROMCBufPitch, a.Color[i].Pitch)
			l.put(abi.DCROMCBufWriteMask, rt.WriteMask[o])
			l.put(abi.DCROMBlendMode, rt.Mode)
			l.put(abi.DCROMBlendFunc, rt.Func)
			l.put(abi.DCROMBlendConst, st.BlendColor[o])
			l.put(abi.DCROMLogicOp, rt.LogicOp)
		}
		dsa := st.DSA
		if dsa == nil || fb.Zsbuf == nil {
			var err error
			if dsa, err = NewDSA(DepthStencilAlphaState{}); err != nil {
				return nil, err
			}
		}
		if fb.Zsbuf != nil {
			l.block(abi.DCROMZBufAddr, a.Depth.Addr, "depth attachment")
			l.put(abi.DCROMZBufPitch, a.Depth.Pitch)
		}
		l.put(abi.DCROMDepthFunc, dsa.DepthFunc)
		l.put(abi.DCROMDepthWriteMask, dsa.DepthWriteMask)
		l.put(abi.DCROMStencilFunc, dsa.StencilFunc)
		l.put(abi.DCROMStencilZPass, dsa.StencilZPass)
		l.put(abi.DCROMStencilZFail, dsa.StencilZFail)
		l.put(abi.DCROMStencilFail, dsa.StencilFail)
		l.put(abi.DCROMStencilRef, st.StencilRef)
		l.put(abi.DCROMStencilMask, dsa.StencilMask)
		l.put(abi.DCROMStencilWriteMask, dsa.StencilWriteMask)
		l.put(abi.DCROMEarlyZSafe, dsa.EarlyZSafe(fsInfo.WritesDepth))
		shift, depthOnly := uint8(abi.RecordShiftOneWord), uint32(0)
		switch {
		case fsInfo.WritesDepth && rts > 0:
			shift = abi.RecordShiftColorZ
		case fsInfo.WritesDepth:
			depthOnly = 1
		}
		ap, err := abi.NewAperture(fb.Width, fb.Height, max(rts, 1), shift)
		if err != nil {
			return nil, fmt.Errorf("pipe: aperture: %w", err)
		}
		l.put(abi.DCROMApertureXBits, uint32(ap.XBits))
		l.put(abi.DCROMApertureYBits, uint32(ap.YBits))
		l.put(abi.DCROMApertureRecordShift, uint32(ap.RecordShift))
		l.put(abi.DCROMApertureDepthOnly, depthOnly)
	}
	if !key.SWTex {
		for i, v := range st.Views {
			if v == nil {
				continue
			}
			stage := i // the TEX stage is the texture unit: vx_tex's funct2
			if stage >= abi.TexNumStages {
				return nil, fmt.Errorf("pipe: texture unit %d past the %d TEX stages (route TEX to software)", i, abi.TexNumStages)
			}
			s := st.Samplers[i]
			if s == nil {
				return nil, fmt.Errorf("pipe: texture unit %d has no sampler", i)
			}
			ta := &a.Textures[stage]
			l.put(abi.DCRTexStage, uint32(stage))
			l.block(abi.DCRTexAddr, ta.Addr, fmt.Sprintf("texture unit %d", i))
			l.put(abi.DCRTexLogDim, v.Tex.LogDim)
			l.put(abi.DCRTexFormat, uint32(v.Tex.Format))
			l.put(abi.DCRTexFilter, s.Filter)
			l.put(abi.DCRTexWrap, s.Wrap)
			for lod := 0; lod < abi.TexMaxLevels; lod++ {
				l.put(abi.DCRTexMipOff(lod), ta.MipOffsets[lod])
			}
			l.put(abi.DCRTexBorder, s.Border)
		}
	}
	if l.err != nil {
		return nil, l.err
	}
	return l.out, nil
}
