package pipe

import (
	"fmt"
	"sync"

	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// BufferRange is the part of a buffer object a buffer texture reads
// (GL TexBufferRange; pipe_sampler_view's u.buf): Size bytes at Offset, read as
// texels of Format, Size/bytes-per-texel of them. spec: GL 4.6 §8.9
type BufferRange struct {
	Format       format.Format
	Offset, Size int
}

// Texels is the buffer texture's width, the value textureSize returns.
func (b BufferRange) Texels() int { return b.Size / b.Format.Info().Bytes }

// CreateBufferView makes a sampler view of a buffer texture: size bytes of buf
// from offset, read by samplerBuffer/isamplerBuffer/usamplerBuffer with
// texelFetch (fetches past the last texel return zero) and textureSize. The
// view aliases the buffer: each draw reads its bytes as they are then. Buffer
// textures have no form on the FF TEX unit, so the device samples them in
// software (RouteTexTarget "BUFFER"), a format its sampler cannot decode being a
// gate. Sampler state does not apply to buffer textures (GL 4.6 §8.9).
// spec: vortexpipe §3.6 (PIPE_BUFFER views on the software sampler)
func (c *Context) CreateBufferView(buf *Resource, f format.Format, offset, size int) (*SamplerView, error) {
	if buf == nil || !buf.buffer {
		return nil, fmt.Errorf("pipe: CreateBufferView: not a buffer")
	}
	if !f.IsColor() {
		return nil, fmt.Errorf("pipe: CreateBufferView: format %v is not a colour format", f)
	}
	n := buf.Size()
	if offset < 0 || size < 0 || offset > n || size > n-offset {
		return nil, fmt.Errorf("pipe: CreateBufferView: [%d, %d) outside the %d-byte buffer %d", offset, offset+size, n, buf.id)
	}
	b := BufferRange{Format: f, Offset: offset, Size: size}
	if t := b.Texels(); t < 1 || t > sampler.MaxBufferTexels {
		return nil, fmt.Errorf("pipe: CreateBufferView: %d texels of %v outside 1..%d", t, f, sampler.MaxBufferTexels)
	}
	v := &SamplerView{Texture: buf, Buffer: &b}
	v.Tex.Routes = append(v.Tex.Routes, Reason{RouteTexTarget, TargetBuffer.String()})
	if _, ok := swtex.FormatCode(f); !ok {
		v.Tex.Flags = append(v.Tex.Flags, Reason{GateTexFormat, f.String()})
	}
	return v, nil
}

// bufferTexture is the reference sampler's form of a buffer view: one level of
// the range's texels, copied from the buffer's bytes once per version of the
// buffer (draws that read an unchanged buffer share the copy; a write makes
// the next draw build a new one, never changing one a draw may hold).
func bufferTexture(v *SamplerView) (*sampler.Texture, error) {
	r := v.Texture
	c := &v.bufCache
	c.mu.Lock()
	defer c.mu.Unlock()
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return nil, ErrDestroyed
	}
	if c.tex != nil && c.version == r.version && c.serial == r.serial {
		return c.tex, nil
	}
	b := v.Buffer
	t, err := sampler.NewTexture(sampler.DimBuffer, b.Format, b.Texels(), 1, 1, 1)
	if err != nil {
		return nil, err
	}
	if b.Offset+len(t.Levels[0].Data) > len(r.data) {
		return nil, fmt.Errorf("buffer %d shrank below its view", r.id)
	}
	copy(t.Levels[0].Data, r.data[b.Offset:])
	c.tex, c.version, c.serial = t, r.version, r.serial
	return t, nil
}

// bufferViewCache is a buffer view's last reference-sampler texture.
type bufferViewCache struct {
	mu              sync.Mutex
	version, serial uint64
	tex             *sampler.Texture
}
