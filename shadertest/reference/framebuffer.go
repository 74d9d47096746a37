package reference

import (
	"fmt"
	"strings"

	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/shadertest"
)

// Framebuffer objects (shadertest.FramebufferContext): a texture attached by
// an fb command renders into the driver texture its sampler view reads (so
// later draws sample what was drawn), or, for a texture no view holds in
// that format (an integer texture), a driver texture of its own made with
// its texels; an fb ms renderbuffer is a multisampled 2D driver texture
// (gl/msaa's counts). Draws and clears go to the bound draw framebuffer
// (pipe.Context's framebuffer state: the viewport follows its size),
// ReadPixels and Blit read the read framebuffer. spec: piglit shader_runner's fb
// commands; GL 4.6 §9 (framebuffer objects), §18.3.1 (BlitFramebuffer)

// rtFormat maps a GL internal format of an attachment to the driver's.
func rtFormat(name string) (format.Format, bool) {
	switch strings.TrimPrefix(strings.ToUpper(name), "GL_") {
	case "", "RGBA", "RGBA8":
		return format.RGBA8, true
	case "RGBA8I":
		return format.RGBA8I, true
	case "RGBA8UI":
		return format.RGBA8UI, true
	case "RGBA16F":
		return format.RGBA16F, true
	case "RGBA32F":
		return format.RGBA32F, true
	case "SRGB8_ALPHA8":
		return format.SRGB8A8, true
	}
	return format.Invalid, false
}

// pipeTarget maps a runner texture target to the driver's.
func pipeTarget(t shadertest.TexTarget) (pipe.TextureTarget, bool) {
	switch t {
	case shadertest.Tex1D:
		return pipe.Target1D, true
	case shadertest.Tex2D:
		return pipe.Target2D, true
	case shadertest.Tex3D:
		return pipe.Target3D, true
	case shadertest.TexCube:
		return pipe.TargetCube, true
	case shadertest.Tex1DArray:
		return pipe.Target1DArray, true
	case shadertest.Tex2DArray:
		return pipe.Target2DArray, true
	}
	return 0, false
}

// BindFramebuffers implements shadertest.FramebufferContext.
func (c *glContext) BindFramebuffers(draw, read *shadertest.Framebuffer) error {
	d, err := c.pipeFramebuffer(draw)
	if err != nil {
		return err
	}
	r, err := c.pipeFramebuffer(read)
	if err != nil {
		return err
	}
	if err := c.pc.SetFramebufferState(d); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	c.fb, c.readFB = d, r
	return nil
}

// pipeFramebuffer returns the driver framebuffer of fb (nil: the window),
// making its storage on first use.
func (c *glContext) pipeFramebuffer(fb *shadertest.Framebuffer) (pipe.Framebuffer, error) {
	if fb == nil {
		return c.window, nil
	}
	if fb.Samples > 0 {
		r, err := c.renderbuffer(fb)
		if err != nil {
			return pipe.Framebuffer{}, err
		}
		return pipe.Framebuffer{Width: fb.Width, Height: fb.Height, Cbufs: []*pipe.Surface{{Resource: r}}}, nil
	}
	out := pipe.Framebuffer{Width: fb.Width, Height: fb.Height}
	for _, im := range fb.Color {
		r, err := c.attachment(im.Texture)
		if err != nil {
			return pipe.Framebuffer{}, err
		}
		out.Cbufs = append(out.Cbufs, &pipe.Surface{Resource: r, Level: im.Level, Layer: im.Layer, Layered: im.Layered})
	}
	return out, nil
}

// renderbuffer is fb ms's multisampled colour buffer.
func (c *glContext) renderbuffer(fb *shadertest.Framebuffer) (*pipe.Resource, error) {
	if r := c.msRes[fb]; r != nil {
		return r, nil
	}
	f, ok := rtFormat(fb.Format)
	if !ok {
		return nil, fmt.Errorf("fb ms format %s: %w", fb.Format, shadertest.ErrUnsupported)
	}
	if f.IsInteger() {
		return nil, fmt.Errorf("multisampled integer renderbuffer %s: %w", fb.Format, shadertest.ErrUnsupported)
	}
	samples := fb.Samples
	if samples > 1 && !msaa.Valid(samples) {
		return nil, fmt.Errorf("fb ms with %d samples: %w", fb.Samples, shadertest.ErrUnsupported)
	}
	if samples == 1 {
		samples = 0
	}
	r, err := c.screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: f, Width: fb.Width, Height: fb.Height,
		Depth: 1, ArraySize: 1, Levels: 1, Samples: samples})
	if err != nil {
		return nil, fmt.Errorf("reference: fb ms: %w", err)
	}
	c.msRes[fb] = r
	return r, nil
}

// attachment is the driver texture a runner texture renders into, made
// with its texels on first use.
func (c *glContext) attachment(t *shadertest.Texture) (*pipe.Resource, error) {
	if r := c.texRes[t]; r != nil {
		return r, nil
	}
	f, ok := rtFormat(t.Format)
	target, tok := pipeTarget(t.Target)
	if !ok || !tok || len(t.Levels) == 0 || t.Levels[0] == nil || t.Depth {
		return nil, fmt.Errorf("rendering into a %s %s texture: %w", t.Target, t.Format, shadertest.ErrUnsupported)
	}
	if st := c.sampledTex[t]; st != nil && st.Format == f {
		// The texture's sampled storage: draws into it are what later
		// draws sample.
		v, err := c.view(st, t.Target == shadertest.TexRect)
		if err != nil {
			return nil, fmt.Errorf("reference: fb texture: %w", err)
		}
		c.texRes[t] = v.Texture
		return v.Texture, nil
	}
	l0 := t.Levels[0]
	d := pipe.TextureDesc{Target: target, Format: f, Width: l0.W, Height: l0.H, Depth: 1, ArraySize: 1, Levels: len(t.Levels)}
	switch target {
	case pipe.Target3D:
		d.Depth = l0.D
	case pipe.TargetCube, pipe.Target1DArray, pipe.Target2DArray:
		d.ArraySize = l0.D
	}
	r, err := c.screen.CreateTexture(d)
	if err != nil {
		return nil, fmt.Errorf("reference: fb texture: %w", err)
	}
	for lv, img := range t.Levels {
		if img == nil {
			continue
		}
		if err := uploadLevel(r, d, lv, img, t.Integer); err != nil {
			return nil, err
		}
	}
	c.texRes[t] = r
	return r, nil
}

// uploadLevel writes a level's texels (RGBA floats, or integers held in
// floats for an integer texture) into r in r's format.
func uploadLevel(r *pipe.Resource, d pipe.TextureDesc, level int, img *shadertest.TexImage, integer bool) error {
	w, h, _ := d.LevelSize(level)
	if img.W != w || img.H != h || len(img.Data) < 4*img.W*img.H*img.D {
		return fmt.Errorf("reference: fb texture level %d is %dx%d, want %dx%d", level, img.W, img.H, w, h)
	}
	bpp := d.Format.Info().Bytes
	for layer := range img.D {
		off, size, err := d.ImageOffset(level, layer)
		if err != nil {
			return fmt.Errorf("reference: fb texture: %w", err)
		}
		buf := make([]byte, size)
		for i := range w * h {
			px := img.Data[4*(layer*w*h+i):][:4]
			var raw format.Raw
			if integer {
				raw = format.FromInt(d.Format, [4]uint32{uint32(int32(px[0])), uint32(int32(px[1])), uint32(int32(px[2])), uint32(int32(px[3]))})
			} else {
				raw = format.FromFloat(d.Format, [4]float32(px))
			}
			format.Pack(d.Format, buf[i*bpp:], raw)
		}
		if err := r.Write(off, buf); err != nil {
			return fmt.Errorf("reference: fb texture: %w", err)
		}
	}
	return nil
}

// onRead runs fn with the read framebuffer bound (the draw framebuffer
// again afterwards).
func (c *glContext) onRead(fn func() error) error {
	if sameFB(c.readFB, c.fb) {
		return fn()
	}
	if err := c.pc.SetFramebufferState(c.readFB); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	err := fn()
	if e := c.pc.SetFramebufferState(c.fb); e != nil && err == nil {
		err = fmt.Errorf("reference: %w", e)
	}
	return err
}

// sameFB reports whether two framebuffers have the same colour attachment 0.
func sameFB(a, b pipe.Framebuffer) bool {
	if len(a.Cbufs) == 0 || len(b.Cbufs) == 0 {
		return len(a.Cbufs) == len(b.Cbufs)
	}
	return *a.Cbufs[0] == *b.Cbufs[0] && a.Zsbuf == b.Zsbuf
}

// Blit implements shadertest.FramebufferContext: colour attachment 0 of the
// whole read framebuffer onto every colour attachment of the whole draw one,
// scaled with the filter, a multisampled source resolved by the box filter.
func (c *glContext) Blit(linear bool) error {
	if len(c.readFB.Cbufs) == 0 || len(c.fb.Cbufs) == 0 {
		return nil
	}
	src := c.readFB.Cbufs[0]
	filter := sampler.Nearest
	if linear {
		filter = sampler.Linear
	}
	if src.Fmt().IsInteger() {
		filter = sampler.Nearest // GL_LINEAR is an error for integer sources: piglit's blits use nearest
	}
	srect := pipe.Rect{X1: c.readFB.Width, Y1: c.readFB.Height}
	drect := pipe.Rect{X1: c.fb.Width, Y1: c.fb.Height}
	for _, dst := range c.fb.Cbufs {
		if dst == nil || dst.Resource == src.Resource && dst.Level == src.Level && dst.Layer == src.Layer {
			continue
		}
		if err := c.pc.Blit(pipe.BlitInfo{Src: src, Dst: dst, SrcRect: srect, DstRect: drect, Filter: filter}); err != nil {
			return fmt.Errorf("reference: %w", err)
		}
	}
	return nil
}

// ReadPixelsInt implements shadertest.IntReader: the read framebuffer's
// integer attachment 0 as 32-bit integers.
func (c *glContext) ReadPixelsInt(x, y, w, h int, dst []int32) error {
	fb := c.readFB
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > fb.Width || y+h > fb.Height || len(dst) < 4*w*h || len(fb.Cbufs) == 0 {
		return fmt.Errorf("reference: integer read %dx%d at (%d,%d) outside the %dx%d framebuffer", w, h, x, y, fb.Width, fb.Height)
	}
	s := fb.Cbufs[0]
	f := s.Fmt()
	if !f.IsInteger() {
		return fmt.Errorf("reference: integer read of a %v attachment", f)
	}
	if s.Resource.Desc().Samples > 1 {
		return fmt.Errorf("integer read of a multisampled attachment: %w", shadertest.ErrUnsupported)
	}
	off, size, err := s.Resource.Desc().ImageOffset(s.Level, s.Layer)
	if err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if err := c.pc.Finish(); err != nil {
		return err
	}
	buf := make([]byte, size)
	if err := s.Resource.Read(off, buf); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	bpp := f.Info().Bytes
	for j := range h {
		for i := range w {
			v := format.ToInt(f, format.Unpack(f, buf[((y+j)*fb.Width+x+i)*bpp:]))
			for k := range 4 {
				dst[4*(j*w+i)+k] = int32(v[k])
			}
		}
	}
	return nil
}

// floatClearOfInteger reports an integer colour attachment among the draw
// framebuffer's: glClear of one with a float clear colour (all shader_runner
// sets) is undefined in GL. spec: GL 4.6 §17.4.3.1
func (c *glContext) floatClearOfInteger() bool {
	for _, s := range c.fb.Cbufs {
		if s != nil && s.Fmt().IsInteger() {
			return true
		}
	}
	return false
}
