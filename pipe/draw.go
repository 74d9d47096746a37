package pipe

import (
	"encoding/binary"
	"fmt"
)

// DrawRange is one draw of a multi-draw (pipe_draw_start_count_bias): Start is the
// first vertex (non-indexed) or the first index (indexed); IndexBias is the base
// vertex added to each index.
type DrawRange struct {
	Start, Count uint32
	IndexBias    int32
}

// IndirectInfo is an indirect draw (pipe_draw_indirect_info): DrawCount records of
// Stride bytes at Offset in Buffer, the count optionally capped by a uint32 read
// from CountBuffer at CountOffset. Records are VkDrawIndirectCommand (16 bytes:
// count, instances, first vertex, first instance) or VkDrawIndexedIndirectCommand
// (20 bytes: count, instances, first index, base vertex, first instance).
type IndirectInfo struct {
	Buffer      *Resource
	Offset      uint32
	Stride      uint32
	DrawCount   uint32
	CountBuffer *Resource
	CountOffset uint32
}

// DrawInfo is the full draw (pipe_draw_info + draws + indirect).
// spec: vortexpipe §3.1
type DrawInfo struct {
	Mode             PrimMode
	IndexSize        int       // 0 non-indexed, 1, 2 or 4 bytes
	Index            *Resource // index buffer, or nil with IndexData
	IndexData        []byte    // user index array
	PrimitiveRestart bool
	RestartIndex     uint32
	StartInstance    uint32
	InstanceCount    uint32
	Draws            []DrawRange
	Indirect         *IndirectInfo
	// CountFromStreamOutput takes the vertex count from a stream-output target,
	// which the device cannot see: it gates.
	CountFromStreamOutput bool
}

// DirectDraw is one resolved direct draw after indirect resolution and multi-draw
// splitting. spec: vortexpipe §3.1 (indirect resolved on the host)
type DirectDraw struct {
	Start, Count  uint32
	BaseVertex    int32
	StartInstance uint32
	InstanceCount uint32
}

// maxIndirectDraws bounds an indirect draw count read from memory.
const maxIndirectDraws = 1 << 20

// ResolveDraws splits a multi-draw and resolves an indirect draw on the host into
// direct draws, in order. Records with zero count or instances are kept (they
// draw nothing); a record that reads past its buffer is an error.
// spec: vortexpipe §3.1
func ResolveDraws(info *DrawInfo) ([]DirectDraw, error) {
	if info.Indirect == nil {
		out := make([]DirectDraw, len(info.Draws))
		for i, d := range info.Draws {
			out[i] = DirectDraw{Start: d.Start, Count: d.Count, BaseVertex: d.IndexBias,
				StartInstance: info.StartInstance, InstanceCount: info.InstanceCount}
		}
		return out, nil
	}
	in := info.Indirect
	if in.Buffer == nil {
		return nil, fmt.Errorf("pipe: indirect draw without a buffer")
	}
	n := in.DrawCount
	if in.CountBuffer != nil {
		var w [4]byte
		if err := in.CountBuffer.Read(int(in.CountOffset), w[:]); err != nil {
			return nil, fmt.Errorf("pipe: indirect draw count: %w", err)
		}
		n = min(n, binary.LittleEndian.Uint32(w[:]))
	}
	if n > maxIndirectDraws {
		return nil, fmt.Errorf("pipe: indirect draw count %d exceeds %d", n, maxIndirectDraws)
	}
	rec := uint32(16)
	if info.IndexSize != 0 {
		rec = 20
	}
	stride := in.Stride
	if stride == 0 {
		stride = rec
	}
	if stride < rec || stride%4 != 0 {
		return nil, fmt.Errorf("pipe: indirect stride %d (record %d bytes, multiple of 4)", stride, rec)
	}
	out := make([]DirectDraw, 0, n)
	var b [20]byte
	for i := uint32(0); i < n; i++ {
		off := uint64(in.Offset) + uint64(i)*uint64(stride)
		if off > 1<<31 {
			return nil, fmt.Errorf("pipe: indirect record %d at %d out of range", i, off)
		}
		if err := in.Buffer.Read(int(off), b[:rec]); err != nil {
			return nil, fmt.Errorf("pipe: indirect record %d: %w", i, err)
		}
		u := func(j int) uint32 { return binary.LittleEndian.Uint32(b[4*j:]) }
		if rec == 16 {
			out = append(out, DirectDraw{Count: u(0), InstanceCount: u(1), Start: u(2), StartInstance: u(3)})
		} else {
			out = append(out, DirectDraw{Count: u(0), InstanceCount: u(1), Start: u(2), BaseVertex: int32(u(3)), StartInstance: u(4)})
		}
	}
	return out, nil
}

// WidenIndices reads count indices of size bytes (1, 2 or 4) starting at index
// start of src and widens them to uint32. spec: vortexpipe §3.1 (uploaded widened
// to u32)
func WidenIndices(src []byte, size int, start, count uint32) ([]uint32, error) {
	if size != 1 && size != 2 && size != 4 {
		return nil, fmt.Errorf("pipe: index size %d (want 1, 2 or 4)", size)
	}
	end := (uint64(start) + uint64(count)) * uint64(size)
	if end > uint64(len(src)) {
		return nil, fmt.Errorf("pipe: indices [%d, %d) of %d bytes read past the %d-byte buffer",
			start, uint64(start)+uint64(count), size, len(src))
	}
	out := make([]uint32, count)
	p := src[uint64(start)*uint64(size):]
	for i := range out {
		switch size {
		case 1:
			out[i] = uint32(p[i])
		case 2:
			out[i] = uint32(binary.LittleEndian.Uint16(p[2*i:]))
		default:
			out[i] = binary.LittleEndian.Uint32(p[4*i:])
		}
	}
	return out, nil
}

// Sequence returns start, start+1, …, start+count-1: a non-indexed draw's vertex
// ids, for translating a non-indexed strip or fan.
func Sequence(start, count uint32) []uint32 {
	out := make([]uint32, count)
	for i := range out {
		out[i] = start + uint32(i)
	}
	return out
}

// TriangleList translates a triangle list, strip or fan (or quads, a quad
// strip or a polygon: appendPolygons) into a triangle list,
// resolving primitive restart into it (a restart index ends the current primitive;
// an incomplete triangle before it is dropped, as GL specifies). Strip triangles
// alternate winding so every triangle keeps the strip's orientation; the provoking
// vertex (first for Vulkan, last for GL) stays in its position.
// spec: vortexpipe §3.1 (vp_gather_topology_u32), §3.8
func TriangleList(mode PrimMode, idx []uint32, restart bool, restartIndex uint32, provokingFirst bool) ([]uint32, error) {
	if !mode.Triangles() {
		return nil, fmt.Errorf("pipe: TriangleList: topology %v is not triangles", mode)
	}
	out := make([]uint32, 0, 3*len(idx))
	seg := 0
	for seg <= len(idx) {
		end := seg
		if restart {
			for end < len(idx) && idx[end] != restartIndex {
				end++
			}
		} else {
			end = len(idx)
		}
		out = appendTriangles(out, mode, idx[seg:end], provokingFirst)
		seg = end + 1
	}
	return out, nil
}

func appendTriangles(out []uint32, mode PrimMode, v []uint32, provokingFirst bool) []uint32 {
	n := len(v)
	switch mode {
	case PrimTriangles:
		return append(out, v[:n-n%3]...)
	case PrimTriangleStrip:
		for i := 0; i+2 < n; i++ {
			switch {
			case i%2 == 0:
				out = append(out, v[i], v[i+1], v[i+2])
			case provokingFirst:
				out = append(out, v[i], v[i+2], v[i+1])
			default:
				out = append(out, v[i+1], v[i], v[i+2])
			}
		}
	case PrimTriangleFan:
		for i := 1; i+1 < n; i++ {
			if provokingFirst {
				out = append(out, v[i], v[i+1], v[0])
			} else {
				out = append(out, v[0], v[i], v[i+1])
			}
		}
	case PrimQuads, PrimQuadStrip, PrimPolygon:
		out = appendPolygons(out, mode, v)
	}
	return out
}
