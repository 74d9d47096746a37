package mipmap

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/tex"
)

// Generate builds a texture's mip chain like cocogfx GenerateMipmaps:
// max(log w, log h) + 1 levels packed contiguously, each a 2×2 box filter with
// (sum + 2) >> 2 per channel of the level above (read with a row pitch of 2·w′,
// the same texel twice on a 1-wide axis), re-encoded by channel truncation. It
// returns the chain and each level's byte offset. spec: facts §4 (mip chains)
func Generate(pixels []byte, f abi.TexFormat, w, h uint32) ([]byte, []uint32, error) {
	if !f.FixedFunction() {
		return nil, nil, fmt.Errorf("mipmap: format %v is not fixed-function", f)
	}
	bpp := uint32(f.Stride())
	if uint64(len(pixels)) < uint64(w)*uint64(h)*uint64(bpp) || w == 0 || h == 0 {
		return nil, nil, fmt.Errorf("mipmap: %d bytes for a %dx%d %v texture", len(pixels), w, h, f)
	}
	levels := max(Log2Ceil(w), Log2Ceil(h)) + 1
	offs := make([]uint32, levels)
	var total uint32
	for l, lw, lh := uint32(0), w, h; l < levels; l++ {
		offs[l] = total
		total += max(lw, 1) * max(lh, 1)
		lw, lh = lw>>1, lh>>1
	}
	out := make([]byte, total*bpp)
	copy(out, pixels[:w*h*bpp])
	src := uint32(0)
	for l, lw, lh := uint32(1), w/2, h/2; l < levels; l++ {
		pw, ph := max(lw, 1), max(lh, 1)
		dst := offs[l]
		for y := uint32(0); y < ph; y++ {
			v0, v1 := 2*y, 2*y
			if ph > 1 {
				v1++
			}
			for x := uint32(0); x < pw; x++ {
				u0, u1 := 2*x, 2*x
				if pw > 1 {
					u1++
				}
				var sum [4]uint32
				for _, i := range [4]uint32{u0 + v0*2*pw, u1 + v0*2*pw, u0 + v1*2*pw, u1 + v1*2*pw} {
					c := tex.Decode(f, load(out, (src+i)*bpp, bpp))
					for k := 0; k < 4; k++ {
						sum[k] += c >> (8 * k) & 0xFF
					}
				}
				var c uint32
				for k := 0; k < 4; k++ {
					c |= ((sum[k] + 2) >> 2) << (8 * k)
				}
				store(out, (dst+x+y*pw)*bpp, bpp, encode(f, c))
			}
		}
		src = dst
		lw, lh = lw>>1, lh>>1
	}
	for i := range offs {
		offs[i] *= bpp
	}
	return out, offs, nil
}

// Log2Ceil is ⌈log2 v⌉ (0 for v ≤ 1), the TEX unit's LOGDIM of a dimension.
func Log2Ceil(v uint32) uint32 {
	var l uint32
	for uint32(1)<<l < v {
		l++
	}
	return l
}

func load(b []byte, off, n uint32) uint32 {
	switch n {
	case 4:
		return binary.LittleEndian.Uint32(b[off:])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b[off:]))
	}
	return uint32(b[off])
}

func store(b []byte, off, n, v uint32) {
	switch n {
	case 4:
		binary.LittleEndian.PutUint32(b[off:], v)
	case 2:
		binary.LittleEndian.PutUint16(b[off:], uint16(v))
	default:
		b[off] = byte(v)
	}
}

// encode packs an A8R8G8B8 colour into an FF format by channel truncation.
func encode(f abi.TexFormat, c uint32) uint32 {
	a, r, g, b := c>>24, c>>16&0xFF, c>>8&0xFF, c&0xFF
	switch f {
	case abi.TexR5G6B5:
		return r>>3<<11 | g>>2<<5 | b>>3
	case abi.TexA1R5G5B5:
		return a>>7<<15 | r>>3<<10 | g>>3<<5 | b>>3
	case abi.TexA4R4G4B4:
		return a>>4<<12 | r>>4<<8 | g>>4<<4 | b>>4
	case abi.TexA8L8:
		return a<<8 | r
	case abi.TexL8:
		return r
	case abi.TexA8:
		return a
	}
	return c
}
