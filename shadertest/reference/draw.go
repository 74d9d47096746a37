package reference

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
	"vortexgfx/shadertest"
)

const (
	irF32 = ir.F32
	irI32 = ir.I32
	irU32 = ir.U32
)

func f32bits(f float32) uint32 { return math.Float32bits(f) }

// attribBind is one [vertex data] column bound to attribute words.
type attribBind struct {
	col   int
	word  int // first word of the column's location in the vertex record
	words int // words of one location
	int   bool
}

// The fixed-function vertex record when the program has no vertex shader
// (program.FixedVertex): gl_Vertex, gl_Color, gl_MultiTexCoord0.
const (
	ffVertex   = program.FixedPosition
	ffColor    = program.FixedColor
	ffTexCoord = program.FixedTexCoord
	ffWords    = program.FixedVertexWords
)

// attribute resolves a vertex data column to its attribute slot and the
// words of one location of it.
func (c *glContext) attribute(col *shadertest.VertexColumn) (ir.Slot, int, bool) {
	p := c.prog
	if p.IR.VS == nil {
		switch col.Name {
		case "gl_Vertex", "piglit_vertex":
			return ir.Slot{Name: col.Name, Word: ffVertex, Words: 4, Type: ir.F32}, 4, true
		case "gl_Color":
			return ir.Slot{Name: col.Name, Word: ffColor, Words: 4, Type: ir.F32}, 4, true
		case "gl_MultiTexCoord0", "piglit_texcoord":
			return ir.Slot{Name: col.Name, Word: ffTexCoord, Words: 4, Type: ir.F32}, 4, true
		}
		return ir.Slot{}, 0, false
	}
	var s ir.Slot
	ok := false
	if col.Name == "" {
		for _, a := range p.IR.Attributes {
			if a.Location >= 0 && a.Location == col.Location {
				s, ok = a, true
				break
			}
		}
		if !ok && col.Location == shadertest.AttribPiglitVertex {
			s, ok = p.Attribute("piglit_vertex")
		}
		if !ok && col.Location == shadertest.AttribPiglitTexcoord {
			s, ok = p.Attribute("piglit_texcoord")
		}
	} else {
		s, ok = p.Attribute(col.Name)
	}
	if !ok {
		return s, 0, false
	}
	words := min(s.Words, 4)
	for _, v := range p.Linked.Attributes {
		if v.Name == s.Name {
			t := v.Type
			if t.Kind == ast.KindArray {
				t = t.Elem
			}
			words = t.Rows
		}
	}
	return s, max(words, 1), true
}

// SetVertexData implements shadertest.Context: each column is bound to the
// attribute it names (piglit-vbo: location + matrix column + array index ×
// columns).
func (c *glContext) SetVertexData(vd *shadertest.VertexData) error {
	if c.prog == nil {
		return fmt.Errorf("reference: vertex data without a program")
	}
	c.vd, c.binds = vd, nil
	for i := range vd.Columns {
		col := &vd.Columns[i]
		if col.Base != shadertest.BaseFloat && col.Base != shadertest.BaseInt && col.Base != shadertest.BaseUint {
			return fmt.Errorf("%s attributes: %w", col.Base, shadertest.ErrUnsupported)
		}
		s, lw, ok := c.attribute(col)
		if !ok {
			if strings.HasPrefix(col.Name, "gl_") {
				continue // a legacy attribute the program does not read
			}
			name := col.Name
			if name == "" {
				name = strconv.Itoa(col.Location)
			}
			return fmt.Errorf("vertex data column %q names no active attribute", name)
		}
		off := (col.MatrixColumn + col.ArrayIndex*col.Cols) * lw
		if off >= s.Words {
			return fmt.Errorf("vertex data column %q: location outside the attribute", col.Name)
		}
		c.binds = append(c.binds, attribBind{col: i, word: s.Word + off, words: min(lw, s.Words-off, 4),
			int: col.Base != shadertest.BaseFloat})
	}
	return nil
}

// defaults fills one vertex record with the current attribute values.
func (c *glContext) defaults(rec []uint32, st *shadertest.State) {
	one := f32bits(1)
	if c.prog.IR.VS == nil {
		rec[ffVertex+3] = one
		for k := 0; k < 4; k++ {
			rec[ffColor+k] = f32bits(st.Color[k])
			rec[ffTexCoord+k] = f32bits(st.TexCoord[0][k])
		}
		return
	}
	for _, s := range c.prog.IR.Attributes {
		var v [4]float32
		switch {
		case s.Name == "gl_Color":
			v = st.Color
		case s.Name == "gl_Normal":
			v = [4]float32{0, 0, 1, 1}
		case strings.HasPrefix(s.Name, "gl_MultiTexCoord"):
			n, _ := strconv.Atoi(s.Name[len("gl_MultiTexCoord"):])
			if n >= 0 && n < len(st.TexCoord) {
				v = st.TexCoord[n]
			}
		case s.Name == "gl_VertexID" || s.Name == "gl_InstanceID":
			continue
		default:
			// Generic attributes start as (0, 0, 0, 1), per location.
			if s.Type == ir.F32 {
				for w := 3; w < s.Words; w += 4 {
					rec[s.Word+w] = one
				}
			} else {
				for w := 3; w < s.Words; w += 4 {
					rec[s.Word+w] = 1
				}
			}
			continue
		}
		for k := 0; k < s.Words && k < 4; k++ {
			rec[s.Word+k] = f32bits(v[k])
		}
	}
}

// Draw implements shadertest.Context.
func (c *glContext) Draw(d *shadertest.Draw) error {
	info, err := c.bindDraw(d)
	if err != nil {
		return err
	}
	return c.pc.DrawVBO(info)
}

// bindDraw lays draw d out and sets the driver's state for it (bind).
func (c *glContext) bindDraw(d *shadertest.Draw) (*pipe.DrawInfo, error) {
	pd, err := c.prepare(d)
	if err != nil {
		return nil, err
	}
	if err := c.bindStorage(); err != nil { // storage.go
		return nil, err
	}
	return c.bind(d, pd)
}

// prepare lays out draw d for the reference renderer: the vertex records,
// the legacy uniforms in the program's uniform words, the renderer state and
// the draw parameters.
func (c *glContext) prepare(d *shadertest.Draw) (*Prepared, error) {
	if c.prog == nil {
		return nil, fmt.Errorf("reference: draw without a program")
	}
	st := d.State
	topo, err := topology(d.Mode)
	if err != nil {
		return nil, err
	}
	p := c.prog
	words := ffWords
	if p.IR.VS != nil {
		words = p.AttribWords()
	}
	rows := 0
	switch {
	case d.Rect != nil:
		rows = 4
	case d.Vertices != nil:
		rows = d.Vertices.Rows
	default:
		rows = d.First + d.Count
		if d.Indexed {
			for _, e := range d.Elements {
				rows = max(rows, int(e)+d.BaseVertex+1)
			}
		}
	}
	data := make([]uint32, max(rows*words, 1))
	for r := 0; r < rows; r++ {
		c.defaults(data[r*words:(r+1)*words], st)
	}
	if d.Rect != nil {
		c.rectAttribs(d.Rect, data, words)
	} else if d.Vertices != nil && d.Vertices == c.vd {
		for _, b := range c.binds {
			col := &c.vd.Columns[b.col]
			for r := 0; r < rows; r++ {
				rec := data[r*words : (r+1)*words]
				if b.int {
					v := col.Int(r)
					for k := 0; k < b.words; k++ {
						rec[b.word+k] = uint32(v[k])
					}
					continue
				}
				v := col.Float(r)
				for k := 0; k < b.words; k++ {
					rec[b.word+k] = f32bits(float32(v[k]))
				}
			}
		}
	}
	c.setLegacyUniforms(st)
	rs := c.state(st)
	params := ref.DrawParams{Topology: topo, First: d.First, Count: d.Count, Instances: max(d.Instances, 1),
		BaseInstance: d.BaseInstance}
	if d.Indexed {
		params.IndexType = ref.Index16
		params.First = 0
		params.Count = len(d.Elements)
		params.BaseVertex = int32(d.BaseVertex)
		params.Indices = make([]byte, 2*len(d.Elements))
		for i, e := range d.Elements {
			binary.LittleEndian.PutUint16(params.Indices[2*i:], e)
		}
	}
	return &Prepared{Program: p, State: rs, Input: ref.VertexInput{Words: words, Data: data}, Params: params}, nil
}

// rectAttribs stores piglit_draw_rect's positions and texture coordinates.
func (c *glContext) rectAttribs(rv *shadertest.RectVertices, data []uint32, words int) {
	p := c.prog
	posWord, tcWord := ffVertex, ffTexCoord
	if p.IR.VS != nil {
		posWord, tcWord = -1, -1
		names := []string{"piglit_vertex", "gl_Vertex"}
		if rv.FixedFunction {
			names = names[1:]
		} else if c.cfg.API == shadertest.APIGLES {
			names = names[:1]
		}
		for _, n := range names {
			if s, ok := p.Attribute(n); ok {
				posWord = s.Word
				break
			}
		}
		if posWord < 0 {
			// piglit's GLES rectangles feed attribute location 0: the
			// attribute placed there explicitly or, else, by the linker
			// (the first user attribute). Desktop rectangles go through
			// glVertexPointer, and Mesa aliases the fixed-function position
			// with generic attribute 0, so a program without gl_Vertex gets
			// them there too.
			if s, ok := c.userAttribute(0); ok {
				posWord = s.Word
			}
		}
		for _, n := range []string{"piglit_texcoord", "gl_MultiTexCoord0"} {
			if s, ok := p.Attribute(n); ok {
				tcWord = s.Word
				break
			}
		}
	}
	for r := 0; r < 4; r++ {
		rec := data[r*words : (r+1)*words]
		if posWord >= 0 {
			for k := 0; k < 4; k++ {
				rec[posWord+k] = f32bits(rv.Position[r][k])
			}
		}
		if rv.TexCoord != nil && tcWord >= 0 {
			rec[tcWord] = f32bits(rv.TexCoord[r][0])
			rec[tcWord+1] = f32bits(rv.TexCoord[r][1])
			rec[tcWord+2] = 0
			rec[tcWord+3] = f32bits(1)
		}
	}
}

// userAttribute returns the user attribute at GL location loc: an explicit
// location, else the linker's order (explicit locations first, then
// declaration order, one location per attribute here).
func (c *glContext) userAttribute(loc int) (ir.Slot, bool) {
	var user []ir.Slot
	for _, a := range c.prog.IR.Attributes {
		if a.Location == loc {
			return a, true
		}
		if !strings.HasPrefix(a.Name, "gl_") && a.Location < 0 {
			user = append(user, a)
		}
	}
	if loc < len(user) {
		return user[loc], true
	}
	return ir.Slot{}, false
}

// setLegacyUniforms sets the compatibility built-in uniforms from the
// runner's state (pipe.LegacyState.Builtins, the driver's one form of them).
// spec: GLSL 1.20 §7.5 (built-in uniform state)
func (c *glContext) setLegacyUniforms(st *shadertest.State) {
	l := st.Legacy()
	for _, b := range l.Builtins() {
		c.prog.SetBuiltin(b.Name, b.Words)
	}
}

// state is the part of the renderer state bind reads: the textures per unit
// and target, and the depth test (the driver builds the stages and the rest
// from its own CSOs).
func (c *glContext) state(st *shadertest.State) *ref.State {
	rs := ref.DefaultState(c.cfg.Width, c.cfg.Height)
	rs.Textures = c.textures
	rs.Depth.Test = st.DepthTest
	rs.Depth.Func = depthFunc(st.DepthFunc)
	rs.Depth.Clamp = st.DepthClamp
	return &rs
}
