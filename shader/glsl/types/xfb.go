package types

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// The transform feedback layout qualifiers xfb_buffer, xfb_offset and
// xfb_stride: parsed and checked. The runner has no transform feedback
// capture (shader_runner's xfb commands are unsupported there), so the
// qualifiers have no effect beyond these rules. spec: GLSL 4.40 §4.4.2.1,
// ARB_enhanced_layouts.

// The transform feedback limits: GL 4.4's minimum maximums
// (gl_MaxTransformFeedbackBuffers, gl_MaxTransformFeedbackInterleavedComponents).
const (
	MaxXfbBuffers               = 4
	MaxXfbInterleavedComponents = 64
)

// xfbState is the shader's transform feedback layout: the default buffer
// of layout(xfb_buffer = N) out;, each buffer's declared stride and the
// byte ranges captured in it.
type xfbState struct {
	buffer  int
	strides map[int]int
	ranges  map[int][]xfbRange
}

type xfbRange struct {
	start, end int
	name       string
	pos        ast.Pos
}

func (x *xfbState) init() {
	if x.strides == nil {
		x.strides, x.ranges = map[int]int{}, map[int][]xfbRange{}
	}
}

// isXfb reports whether a layout qualifier name is one of the three.
func isXfb(name string) bool {
	return name == "xfb_buffer" || name == "xfb_offset" || name == "xfb_stride"
}

// xfbLayoutOK checks where an xfb qualifier may appear: GLSL 4.40 or the
// extension, on the outputs of a vertex or geometry shader.
func (c *checker) xfbLayoutOK(l ast.LayoutQual, q *ast.Qualifiers) bool {
	switch {
	case !c.hasEnhancedLayouts():
		c.errorf(l.NamePos, "layout(%s) requires GLSL 4.40 or %s", l.Name, ExtEnhancedLayouts)
	case q.Storage != ast.StorageOut || c.conf.Stage != ast.StageVertex && c.conf.Stage != ast.StageGeometry:
		c.errorf(l.NamePos, "layout(%s) is only allowed on vertex and geometry shader outputs", l.Name)
	default:
		return true
	}
	return false
}

// xfbValues returns the last value of each xfb qualifier in q (-1 when
// absent; with ARB_enhanced_layouts a later one of the same name wins).
func (c *checker) xfbValues(q *ast.Qualifiers) (buffer, offset, stride int, any bool) {
	buffer, offset, stride = -1, -1, -1
	for _, l := range q.Layout {
		name := strings.ToLower(l.Name)
		if !isXfb(name) {
			continue
		}
		any = true
		if !c.xfbLayoutOK(l, q) {
			continue
		}
		n := c.layoutInt(l)
		if n < 0 {
			continue
		}
		switch name {
		case "xfb_buffer":
			if n >= MaxXfbBuffers {
				c.errorf(l.NamePos, "xfb_buffer = %d is not below gl_MaxTransformFeedbackBuffers (%d)", n, MaxXfbBuffers)
				continue
			}
			buffer = n
		case "xfb_offset":
			if n%4 != 0 {
				c.errorf(l.NamePos, "xfb_offset = %d is not a multiple of 4", n)
				continue
			}
			offset = n
		case "xfb_stride":
			if n%4 != 0 {
				c.errorf(l.NamePos, "xfb_stride = %d is not a multiple of 4", n)
				continue
			}
			if n > 4*MaxXfbInterleavedComponents {
				c.errorf(l.NamePos, "xfb_stride = %d exceeds gl_MaxTransformFeedbackInterleavedComponents (%d) words", n, MaxXfbInterleavedComponents)
				continue
			}
			stride = n
		}
	}
	return buffer, offset, stride, any
}

// xfbStride records a declared stride for a buffer; every declaration of
// one buffer's stride must agree.
func (c *checker) xfbStride(buffer, stride int, pos ast.Pos) {
	if stride < 0 {
		return
	}
	c.xfb.init()
	if prev, ok := c.xfb.strides[buffer]; ok && prev != stride {
		c.errorf(pos, "xfb_stride = %d for buffer %d conflicts with the earlier xfb_stride = %d", stride, buffer, prev)
		return
	}
	c.xfb.strides[buffer] = stride
}

// xfbDefault handles layout(xfb_buffer = N, xfb_stride = S) out;.
func (c *checker) xfbDefault(q *ast.Qualifiers) {
	for _, l := range q.Layout {
		if strings.ToLower(l.Name) == "xfb_offset" {
			c.errorf(l.NamePos, "layout(xfb_offset) is not allowed in a default qualifier declaration")
		}
	}
	buffer, _, stride, any := c.xfbValues(q)
	if !any {
		return
	}
	if buffer >= 0 {
		c.xfb.buffer = buffer
	}
	c.xfbStride(c.xfb.buffer, stride, q.Pos)
}

// xfbCapture adds the bytes [offset, offset+size of t) of buffer as
// captured by name; they may not overlap other captures.
func (c *checker) xfbCapture(buffer, offset int, t *ast.Type, name string, pos ast.Pos) int {
	if t.IsArray() && t.Len == 0 {
		c.errorf(pos, "'%s' has xfb_offset but no array size", name)
		return offset
	}
	end := offset + 4*t.Slots()
	c.xfb.init()
	for _, r := range c.xfb.ranges[buffer] {
		if offset < r.end && r.start < end {
			c.errorf(pos, "'%s' at xfb_offset %d overlaps '%s' in transform feedback buffer %d", name, offset, r.name, buffer)
			return end
		}
	}
	c.xfb.ranges[buffer] = append(c.xfb.ranges[buffer], xfbRange{offset, end, name, pos})
	return end
}

// xfbVar applies a variable's xfb qualifiers.
func (c *checker) xfbVar(q *ast.Qualifiers, t *ast.Type, name string, pos ast.Pos) {
	buffer, offset, stride, any := c.xfbValues(q)
	if !any {
		return
	}
	if buffer < 0 {
		buffer = c.xfb.buffer
	}
	c.xfbStride(buffer, stride, pos)
	if offset >= 0 {
		c.xfbCapture(buffer, offset, t, name, pos)
	}
}

// xfbBlock applies an output block's xfb qualifiers and its members': a
// member's xfb_buffer must be the block's; an xfb_offset on the block
// captures its members one after another from it.
func (c *checker) xfbBlock(d *ast.BlockDecl, b *ast.InterfaceBlock) {
	buffer, offset, stride, _ := c.xfbValues(&d.Qual)
	if buffer < 0 {
		buffer = c.xfb.buffer
	}
	c.xfbStride(buffer, stride, d.NamePos)
	next := offset
	for _, m := range b.Members {
		mq := m.Qual
		mq.Storage = ast.StorageOut
		mb, mo, ms, any := c.xfbValues(&mq)
		if !any && next < 0 {
			continue
		}
		if mb >= 0 && mb != buffer {
			c.errorf(m.DeclPos, "block member '%s' has xfb_buffer = %d but its block '%s' is in buffer %d", m.Name, mb, b.Name, buffer)
			continue
		}
		c.xfbStride(buffer, ms, m.DeclPos)
		if mo >= 0 {
			next = mo
		}
		if next >= 0 {
			next = c.xfbCapture(buffer, next, m.Type, m.Name, m.DeclPos)
		}
	}
}

// xfbFinish checks every capture against its buffer's stride (declared,
// else the largest the implementation allows).
func (c *checker) xfbFinish() {
	for buffer, rs := range c.xfb.ranges {
		limit := 4 * MaxXfbInterleavedComponents
		s, declared := c.xfb.strides[buffer]
		if declared {
			limit = s
		}
		for _, r := range rs {
			if r.end > limit {
				if declared {
					c.errorf(r.pos, "'%s' ends at byte %d of transform feedback buffer %d, past its xfb_stride %d", r.name, r.end, buffer, limit)
				} else {
					c.errorf(r.pos, "'%s' ends at byte %d of transform feedback buffer %d, past gl_MaxTransformFeedbackInterleavedComponents", r.name, r.end, buffer)
				}
			}
		}
	}
}
