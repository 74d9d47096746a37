package pipe

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

// Viewport is the viewport transform (pipe_viewport_state): window = ndc·Scale +
// Translate. The front end's setup_k takes it with the draw, y-flip included.
// spec: vortexpipe §3.2 step 2, §3.8 (Vulkan y-flip viewport row)
type Viewport struct {
	Scale, Translate [3]float32
}

// SetViewport sets the viewport transform.
func (c *Context) SetViewport(v Viewport) {
	c.mu.Lock()
	c.viewport = v
	c.mu.Unlock()
}

// AttribTable builds the vertex shader's attribute table (VS arg slot 1): for each
// of its max(8, n) locations (abi.VSAttribTableBytes) a little-endian {u64 base, u64 stride,
// u64 divisor}, base being the device address of the attribute's first element
// (vertex buffer address + buffer offset + element offset). addr resolves a
// resource to its device address (the screen's residency table on the device
// path). Unused locations are zero. spec: vortexpipe §2.5
func AttribTable(ve *VertexElements, vbs []VertexBuffer, addr func(*Resource) (uint64, error)) ([]byte, error) {
	if ve == nil {
		return make([]byte, abi.VSAttribTableBytes(0)), nil
	}
	if len(ve.Elements) > abi.VSMaxAttribs {
		return nil, fmt.Errorf("pipe: %d vertex attributes (max %d)", len(ve.Elements), abi.VSMaxAttribs)
	}
	out := make([]byte, abi.VSAttribTableBytes(len(ve.Elements)))
	for loc, e := range ve.Elements {
		if e.BufferIndex >= len(vbs) || vbs[e.BufferIndex].Buffer == nil {
			return nil, fmt.Errorf("pipe: attribute %d reads unbound vertex buffer %d", loc, e.BufferIndex)
		}
		vb := vbs[e.BufferIndex]
		base, err := addr(vb.Buffer)
		if err != nil {
			return nil, fmt.Errorf("pipe: attribute %d: %w", loc, err)
		}
		p := out[loc*abi.VSAttribEntryBytes:]
		binary.LittleEndian.PutUint64(p, base+uint64(vb.Offset)+uint64(e.SrcOffset))
		binary.LittleEndian.PutUint64(p[8:], uint64(vb.Stride))
		binary.LittleEndian.PutUint64(p[16:], uint64(e.InstanceDivisor))
	}
	return out, nil
}
