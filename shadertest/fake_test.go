package shadertest

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
)

// fakeBackend paints every draw with one colour (green unless a vec4
// uniform named "color" says otherwise) over the axis-aligned bounding box
// of its transformed vertices, at pixel centres. It is enough to test the
// runner's logic without a renderer.
type fakeBackend struct {
	caps     Caps
	linkErr  error
	panicOn  string        // panic in Draw when the program source contains this
	sleep    time.Duration // delay in Draw
	drawErr  error
	mu       sync.Mutex
	textures []*Texture
	uniforms []Uniform
	draws    []*Draw
	configs  []ContextConfig
}

func newFake() *fakeBackend {
	return &fakeBackend{caps: Caps{GL: 30, GLSL: 130, GLES: 30, GLSLES: 300,
		Extensions: []string{"GL_ARB_texture_rg"}, Limits: map[string]int{"GL_MAX_VARYING_COMPONENTS": 64, "GL_MAX_CLIP_PLANES": 8}}}
}

func (b *fakeBackend) Caps() Caps { return b.caps }

func (b *fakeBackend) NewContext(ctx context.Context, cfg ContextConfig) (Context, error) {
	b.mu.Lock()
	b.configs = append(b.configs, cfg)
	b.mu.Unlock()
	c := &fakeContext{b: b, cfg: cfg, color: [4]byte{0, 255, 0, 255}, ctx: ctx,
		pix: make([]byte, cfg.Width*cfg.Height*4), depth: make([]float32, cfg.Width*cfg.Height)}
	for i := range c.depth {
		c.depth[i] = 1
	}
	return c, nil
}

type fakeContext struct {
	b     *fakeBackend
	cfg   ContextConfig
	ctx   context.Context
	src   string
	color [4]byte
	pix   []byte
	depth []float32
}

func (c *fakeContext) Link(p *Program) error {
	for _, s := range p.Shaders {
		if strings.Contains(s.Source, "syntax error") {
			return &CompileError{Stage: s.Stage, Line: s.Line, Log: "syntax error"}
		}
		c.src += s.Source
	}
	if strings.Contains(c.src, "link error") {
		return &LinkError{Log: "unresolved"}
	}
	return c.b.linkErr
}

func (c *fakeContext) SetVertexData(vd *VertexData) error {
	for _, col := range vd.Columns {
		if col.Name != "" && !strings.Contains(c.src, col.Name) {
			return fmt.Errorf("unexpected vbo column name %q", col.Name)
		}
	}
	return nil
}

func (c *fakeContext) SetUniform(u *Uniform) error {
	base := u.Name
	if k := strings.IndexAny(base, "[."); k >= 0 {
		base = base[:k]
	}
	if u.Location < 0 && !strings.Contains(c.src, " "+base) {
		return ErrUniformNotFound
	}
	c.b.mu.Lock()
	c.b.uniforms = append(c.b.uniforms, *u)
	c.b.mu.Unlock()
	if u.Name == "color" && len(u.Floats) == 4 {
		for i, f := range u.Floats {
			c.color[i] = byte(math.Round(float64(min(max(f, 0), 1)) * 255))
		}
	}
	return nil
}

func (c *fakeContext) SetTexture(unit int, t *Texture) error {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	cp := *t
	c.b.textures = append(c.b.textures, &cp)
	return nil
}

func (c *fakeContext) Clear(r *ClearRequest) error {
	for i := 0; i < len(c.pix); i += 4 {
		if r.Color {
			for k := range 4 {
				c.pix[i+k] = byte(math.Round(float64(min(max(r.ColorValue[k], 0), 1)) * 255))
			}
		}
		if r.Depth {
			c.depth[i/4] = float32(r.DepthValue)
		}
	}
	return nil
}

func (c *fakeContext) Draw(d *Draw) error {
	c.b.mu.Lock()
	c.b.draws = append(c.b.draws, d)
	c.b.mu.Unlock()
	if c.b.panicOn != "" && strings.Contains(c.src, c.b.panicOn) {
		panic("fake backend exploded")
	}
	if c.b.sleep > 0 {
		select {
		case <-time.After(c.b.sleep):
		case <-c.ctx.Done():
			return c.ctx.Err()
		}
	}
	if c.b.drawErr != nil {
		return c.b.drawErr
	}
	var pos [][4]float32
	if d.Rect != nil {
		pos = d.Rect.Position[:]
	} else if d.Vertices != nil && len(d.Vertices.Columns) > 0 {
		col := d.Vertices.Columns[0]
		for v := d.First; v < d.First+d.Count; v++ {
			var p [4]float32
			p[3] = 1
			for k := range col.Components {
				p[k] = float32(col.Floats[v*col.Components+k])
			}
			pos = append(pos, p)
		}
	}
	if len(pos) == 0 {
		return fmt.Errorf("fake: nothing to draw")
	}
	m := mul(d.State.Projection, d.State.ModelView)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pos {
		var clip [4]float32
		for r := range 4 {
			for k := range 4 {
				clip[r] += m[k*4+r] * p[k]
			}
		}
		x := (float64(clip[0]/clip[3]) + 1) * float64(c.cfg.Width) / 2
		y := (float64(clip[1]/clip[3]) + 1) * float64(c.cfg.Height) / 2
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	for y := range c.cfg.Height {
		for x := range c.cfg.Width {
			cx, cy := float64(x)+0.5, float64(y)+0.5
			if cx >= x0 && cx < x1 && cy >= y0 && cy < y1 {
				copy(c.pix[(y*c.cfg.Width+x)*4:], c.color[:])
				c.depth[y*c.cfg.Width+x] = 0.5
			}
		}
	}
	return nil
}

func mul(a, b [16]float32) [16]float32 {
	var m [16]float32
	for c := range 4 {
		for r := range 4 {
			for k := range 4 {
				m[c*4+r] += a[k*4+r] * b[c*4+k]
			}
		}
	}
	return m
}

func (c *fakeContext) ReadPixels(x, y, w, h int, dst []byte) error {
	for j := range h {
		copy(dst[j*w*4:(j+1)*w*4], c.pix[((y+j)*c.cfg.Width+x)*4:])
	}
	return nil
}

func (c *fakeContext) ReadDepth(x, y int) (float32, error) {
	if !c.cfg.DepthBuffer {
		return 0, fmt.Errorf("no depth buffer")
	}
	return c.depth[y*c.cfg.Width+x], nil
}

func (c *fakeContext) Close() error { return nil }
