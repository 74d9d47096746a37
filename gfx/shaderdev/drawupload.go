package shaderdev

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/swtex"
	"vortexgfx/gfx/mipmap"
	"vortexgfx/runtime"
)

// texDescBytes is one sampler descriptor in descriptor set 0 of a compiled
// draw: {u32 width, u32 height, u32 levels, u32 mip filter}, what the FS
// wrapper needs to form the level of detail.
const texDescBytes = 16

// upload queues what the draw reads from device memory: the vertex data and
// attribute table, the indices, the uniform words, the textures and the
// descriptor table that names them. spec: vortexpipe §2.5
func (s *drawState) upload() error {
	s.d.next = 0
	s.up = s.d.ds.Queue.NewBatch()
	for _, step := range []func() error{s.uploadAttribs, s.uploadIndices, s.uploadUniforms, s.uploadSWTextures, s.uploadFFTextures} {
		if err := step(); err != nil {
			return err
		}
	}
	var err error
	s.descBuf, err = s.put(s.desc)
	return err
}

// uploadAttribs uploads the attribute table {base, stride, divisor}[max(8, n)]
// (abi.VSAttribTableBytes) and the
// vertex data it points at (bindings sharing one interleaved buffer upload
// it once; resident buffers are bound as they are).
func (s *drawState) uploadAttribs() error {
	table := make([]byte, abi.VSAttribTableBytes(len(s.dr.Attribs)))
	data := map[*byte]*runtime.Buffer{}
	for i, a := range s.dr.Attribs {
		b := a.Buffer
		if b == nil && len(a.Data) == 0 {
			return fmt.Errorf("shaderdev: draw: attribute %d has no data", i)
		}
		if b == nil {
			b = data[&a.Data[0]]
		}
		if b == nil {
			var err error
			if b, err = s.put(a.Data); err != nil {
				return err
			}
			data[&a.Data[0]] = b
		}
		e := table[i*abi.VSAttribEntryBytes:]
		binary.LittleEndian.PutUint64(e, b.Addr()+a.Offset)
		binary.LittleEndian.PutUint64(e[8:], a.Stride)
		binary.LittleEndian.PutUint64(e[16:], a.Divisor)
	}
	tb, err := s.put(table)
	if err != nil {
		return err
	}
	s.attribs = tb.Addr()
	return nil
}

// uploadIndices uploads the distinct indices of a draw with vertex reuse
// (reuseVertices), else binds the resident index buffer or uploads the u32
// indices.
func (s *drawState) uploadIndices() error {
	if s.reuse = s.reuseVertices(); s.reuse != nil {
		if err := s.checkIndexBuffer(); err != nil {
			return err
		}
		b, err := s.put(s.reuse.unique)
		if err != nil {
			return err
		}
		s.indices = b.Addr()
		return nil
	}
	return s.bindIndices()
}

// bindIndices binds the resident index buffer or uploads the u32 indices:
// the vertex stage's index list without reuse.
func (s *drawState) bindIndices() error {
	dr := s.dr
	switch {
	case dr.IndexBuffer != nil:
		if err := s.checkIndexBuffer(); err != nil {
			return err
		}
		s.indices = dr.IndexBuffer.Addr() + dr.IndexOffset
	case dr.Indices != nil:
		ib := make([]byte, 4*len(dr.Indices))
		for i, x := range dr.Indices {
			binary.LittleEndian.PutUint32(ib[4*i:], x)
		}
		b, err := s.put(ib)
		if err != nil {
			return err
		}
		s.indices = b.Addr()
	}
	return nil
}

// checkIndexBuffer reports a resident index buffer too short for the draw.
func (s *drawState) checkIndexBuffer() error {
	dr := s.dr
	if dr.IndexBuffer != nil && (dr.IndexOffset%4 != 0 || dr.IndexOffset+4*uint64(dr.Count) > dr.IndexBuffer.Size()) {
		return fmt.Errorf("shaderdev: draw: %d u32 indices at offset %d overrun a %d-byte index buffer", dr.Count, dr.IndexOffset, dr.IndexBuffer.Size())
	}
	return nil
}

// uploadUniforms uploads the uniform words, reached through the descriptor
// table's slot 0.
func (s *drawState) uploadUniforms() error {
	n := s.p.prog.UniformWords
	ub := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(ub[4*i:], s.dr.Uniforms[i])
	}
	ubuf, err := s.put(ub)
	if err != nil {
		return err
	}
	s.desc = make([]byte, 8*abi.FSDescSlots)
	binary.LittleEndian.PutUint64(s.desc, ubuf.Addr())
	return nil
}

// checkTextures reports a texture list that does not match the samplers.
func (s *drawState) checkTextures() error {
	if len(s.dr.Textures) != len(s.p.Samplers()) {
		return fmt.Errorf("shaderdev: draw: %d textures for %d samplers", len(s.dr.Textures), len(s.p.Samplers()))
	}
	return nil
}

// uploadSWTextures uploads the software sampler's textures and descriptor
// table. It serves the fragment stage on the software TEX route and the
// vertex stage always (VS arg slot abi.ArgVSSWSampler): the samplers are the
// program's, shared by both. spec: vortexpipe §3.6
func (s *drawState) uploadSWTextures() error {
	if !(s.fsTex && s.route.SWTex) && !s.vsTex {
		return nil
	}
	if err := s.checkTextures(); err != nil {
		return err
	}
	ups, bases, err := swTexUploads(s.dr.Textures)
	if err != nil {
		return err
	}
	for i, u := range ups {
		if bases[i] != 0 {
			continue // resident (UploadRefTexture)
		}
		b, err := s.put(u.Data)
		if err != nil {
			return err
		}
		bases[i] = b.Addr()
	}
	table, err := swtex.PutTable(ups, bases)
	if err != nil {
		return err
	}
	if s.fsTex && s.route.SWTex {
		desc := make([]abi.SWTexDesc, len(ups))
		for i, u := range ups {
			desc[i] = u.Descriptor(bases[i])
		}
		if err := s.fetchRoute(desc); err != nil {
			return err
		}
	}
	tb, err := s.put(table)
	if err != nil {
		return err
	}
	s.swTable = tb.Addr()
	return nil
}

// uploadFFTextures uploads the FF TEX route's mip chains (or binds resident
// ones), records their TEX DCRs and uploads descriptor set 0, the size,
// levels and mip filter the FS wrapper forms the LOD from.
// spec: vortexpipe §3.4 (LOD from quad derivatives), §3.6
func (s *drawState) uploadFFTextures() error {
	if !s.fsTex || s.route.SWTex {
		return nil
	}
	if err := s.checkTextures(); err != nil {
		return err
	}
	texs := s.dr.Textures
	set0 := make([]byte, texDescBytes*len(texs))
	for i := range texs {
		t := &texs[i]
		var addr uint64
		var offs []uint32
		if r := t.Resident; r != nil {
			if r.sw != nil {
				return fmt.Errorf("shaderdev: draw: sampler %d: a software-sampler texture on the FF route", i)
			}
			if r.width != t.Width || r.height != t.Height {
				return fmt.Errorf("shaderdev: draw: sampler %d: a %dx%d binding of a resident %dx%d texture", i, t.Width, t.Height, r.width, r.height)
			}
			addr, offs = r.buf.Addr(), r.offs
		} else {
			if why := t.texCheck(); why != "" {
				return fmt.Errorf("shaderdev: draw: sampler %d: %s", i, why)
			}
			chain, o, err := mipmap.Generate(t.Pixels, abi.TexA8R8G8B8, t.Width, t.Height)
			if err != nil {
				return err
			}
			tb, err := s.put(chain)
			if err != nil {
				return err
			}
			addr, offs = tb.Addr(), o
		}
		s.texWrites = append(s.texWrites, texDCRs(i, t, addr, offs)...)
		levels := uint32(1)
		if t.Mip != MipNone {
			levels = min(texLevels(t.Width, t.Height), uint32(len(offs)))
		}
		for k, v := range []uint32{t.Width, t.Height, levels, uint32(t.Mip)} {
			binary.LittleEndian.PutUint32(set0[i*texDescBytes+4*k:], v)
		}
	}
	sb, err := s.put(set0)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(s.desc[8:], sb.Addr())
	return nil
}
