package shadertest

import (
	"fmt"
	"strconv"
	"strings"
)

// Framebuffer objects: shader_runner's fb commands make textures (or a
// multisampled renderbuffer) the framebuffer that draws and clears write
// (the draw framebuffer) and that probes and blits read (the read
// framebuffer); "fb winsys" returns to the window. A texture attachment is a
// level (and layer: a cube face, an array layer or a 3D slice) of the texture
// a texture command made on that unit. Probes, relative probes and the
// viewport follow the framebuffer's size (shader_runner's render_width and
// render_height, and glViewport on every fb command).
// spec: piglit tests/shaders/shader_runner.c (the "fb" and "blit" commands)

// maxColorAttachments is the most textures "fb tex 2d" attaches.
const maxColorAttachments = 8

// FBCmd is an fb or blit command.
type FBCmd struct {
	// Draw and Read say which framebuffer the command binds.
	Draw, Read bool
	// Window: the window's framebuffer (winsys).
	Window bool
	// Attach are the texture attachments, colour attachment i first.
	Attach []FBAttach
	// Samples, Format, W and H describe "fb ms FORMAT W H SAMPLES": a
	// multisampled colour renderbuffer of its own.
	Samples int
	Format  string
	W, H    int
	// Linear is a blit's filter (GL_LINEAR, else GL_NEAREST).
	Linear bool
}

// FBAttach is one texture attachment: the texture on Unit (of Target),
// its Level and its Layer (face, array layer or 3D slice; 0 otherwise).
type FBAttach struct {
	Unit         int
	Target       TexTarget
	Level, Layer int
	// Layered attaches every layer of level 0 of the unit's last texture
	// (fb tex layered: the geometry shader's gl_Layer picks each
	// primitive's layer); Target is then unused.
	Layered bool
}

// Framebuffer is what a back end binds: nil for the window, otherwise the
// textures' images (Color) or a multisampled renderbuffer of its own
// (Samples > 1, Format, Width and Height; one object per fb ms command, so a
// back end may key its storage on the pointer).
type Framebuffer struct {
	Color         []FBImage
	Samples       int
	Format        string
	Width, Height int
}

// FBImage is one attached texture image.
type FBImage struct {
	Texture      *Texture
	Level, Layer int
	Layered      bool // every layer (fb tex layered)
}

// FramebufferContext is a Context that renders into textures and
// renderbuffers: BindFramebuffers makes draw the target of draws and clears
// and read the source of ReadPixels and Blit (nil: the window); Blit copies
// colour attachment 0 of the whole read framebuffer onto the whole draw
// framebuffer, scaled, resolving a multisampled source. A Context without it skips the tests that use fb or
// blit commands.
type FramebufferContext interface {
	BindFramebuffers(draw, read *Framebuffer) error
	Blit(linear bool) error
}

// IntReader is a Context that reads an integer colour attachment of the read
// framebuffer as 32-bit integers (4 per pixel, rows from the bottom), for
// "relative probe rect rgba int". A Context without it skips those tests.
type IntReader interface {
	ReadPixelsInt(x, y, w, h int, dst []int32) error
}

// parseFramebuffer parses the fb, blit and fbfetch barrier commands; it
// reports whether t was one (the compute parser has taken "fb tex 2d").
func (f *File) parseFramebuffer(c *Command, t string, fail func(string, ...any)) bool {
	emit := func(op Op, fb *FBCmd) bool {
		c.Op, c.FB = op, fb
		f.Commands = append(f.Commands, *c)
		return true
	}
	if _, ok := parseStr(t, "fbfetch barrier"); ok {
		return emit(OpFetchBarrier, nil)
	}
	if rest, ok := parseStr(t, "blit color "); ok {
		switch strings.TrimSpace(rest) {
		case "linear":
			return emit(OpBlit, &FBCmd{Linear: true})
		case "nearest":
			return emit(OpBlit, &FBCmd{})
		}
		fail("blit filter must be linear or nearest")
		return true
	}
	rest, ok := parseStr(t, "fb ")
	if !ok {
		return false
	}
	fb := &FBCmd{Draw: true, Read: true}
	rest = strings.TrimSpace(rest)
	if r, ok := parseStr(rest, "draw "); ok {
		fb.Read, rest = false, strings.TrimSpace(r)
	} else if r, ok := parseStr(rest, "read "); ok {
		fb.Draw, rest = false, strings.TrimSpace(r)
	}
	if rest == "winsys" {
		fb.Window = true
		return emit(OpFramebuffer, fb)
	}
	if it, n := scanf(rest, "tex 2d %d"); n == 1 && fb.Draw != fb.Read {
		return emit(OpFramebuffer, attach(fb, int(it[0].i), Tex2D, 0, 0, fail))
	}
	if it, n := scanf(rest, "tex slice %s %d %d %d"); n == 4 && fb.Draw && fb.Read {
		target, ok := texTargetByName(it[0].s)
		if !ok || target == TexRect || target == TexCubeArray {
			fail("fb tex slice: unknown or unsupported target %q", it[0].s)
			return true
		}
		if it[2].i < 0 || it[2].i > 14 || it[3].i < 0 || it[3].i > 2047 {
			fail("fb tex slice: level %d or layer %d out of range", it[2].i, it[3].i)
			return true
		}
		return emit(OpFramebuffer, attach(fb, int(it[1].i), target, int(it[2].i), int(it[3].i), fail))
	}
	if r, ok := parseStr(rest, "tex layered "); ok && fb.Draw && fb.Read {
		unit, err := strconv.Atoi(strings.TrimSpace(r))
		if err != nil {
			return false // another form (a target name): unsupported
		}
		fb = attach(fb, unit, 0, 0, 0, fail)
		fb.Attach[0].Layered = true
		return emit(OpFramebuffer, fb)
	}
	if it, n := scanf(rest, "ms %s %d %d %d"); n == 4 && fb.Draw && fb.Read {
		fb.Format, fb.W, fb.H, fb.Samples = it[0].s, int(it[1].i), int(it[2].i), int(it[3].i)
		if fb.W <= 0 || fb.H <= 0 || fb.W > maxTexSize || fb.H > maxTexSize || fb.Samples < 1 || fb.Samples > 64 {
			fail("fb ms: bad size %dx%d or sample count %d", fb.W, fb.H, fb.Samples)
			return true
		}
		return emit(OpFramebuffer, fb)
	}
	return false // the other fb commands: unsupported
}

// attach adds one texture attachment to fb, checking the unit.
func attach(fb *FBCmd, unit int, target TexTarget, level, layer int, fail func(string, ...any)) *FBCmd {
	if unit < 0 || unit >= 32 {
		fail("texture unit %d out of range", unit)
	}
	fb.Attach = append(fb.Attach, FBAttach{Unit: unit, Target: target, Level: level, Layer: layer})
	return fb
}

// framebuffer executes an fb command (OpFramebuffer, and the graphics form
// of OpFBTex2D).
func (r *runner) framebuffer(c *Command) error {
	fc, ok := r.c.(FramebufferContext)
	if !ok {
		return &stop{Skip, "the back end has no framebuffer objects"}
	}
	cmd := c.FB
	if c.Op == OpFBTex2D {
		cmd = &FBCmd{Draw: true, Read: true, Attach: []FBAttach{{Unit: c.Compute.Unit, Target: Tex2D}}}
	}
	var fb *Framebuffer
	switch {
	case cmd.Window:
	case cmd.Samples > 0:
		fb = &Framebuffer{Samples: cmd.Samples, Format: cmd.Format, Width: cmd.W, Height: cmd.H}
	default:
		fb = &Framebuffer{}
		for i, a := range cmd.Attach {
			t := r.textures[texKey{a.Unit, a.Target}]
			if a.Layered {
				t = r.unitTex[a.Unit]
			}
			if t == nil && a.Layered {
				return &stop{Fail, fmt.Sprintf("fb tex layered: no texture on unit %d", a.Unit)}
			}
			if t == nil {
				return &stop{Fail, fmt.Sprintf("fb: no %s texture on unit %d", a.Target, a.Unit)}
			}
			if a.Level >= len(t.Levels) || t.Levels[a.Level] == nil {
				return &stop{Fail, fmt.Sprintf("fb: texture on unit %d has no level %d", a.Unit, a.Level)}
			}
			img := t.Levels[a.Level]
			if a.Layer >= img.D {
				return &stop{Fail, fmt.Sprintf("fb: texture on unit %d level %d has %d layers, not %d", a.Unit, a.Level, img.D, a.Layer+1)}
			}
			if i > 0 && (img.W != fb.Width || img.H != fb.Height) {
				return &stop{Skip, "fb: attachments of different sizes"}
			}
			fb.Width, fb.Height = img.W, img.H
			fb.Color = append(fb.Color, FBImage{Texture: t, Level: a.Level, Layer: a.Layer, Layered: a.Layered})
		}
	}
	draw, read := r.drawFB, r.readFB
	if cmd.Draw {
		draw = fb
	}
	if cmd.Read {
		read = fb
	}
	if err := fc.BindFramebuffers(draw, read); err != nil {
		return err
	}
	r.drawFB, r.readFB = draw, read
	return nil
}

// blit executes OpBlit: the whole read framebuffer's colour onto the whole
// draw framebuffer (shader_runner's glBlitFramebuffer of the two render
// sizes), scaled with the filter.
func (r *runner) blit(c *Command) error {
	fc, ok := r.c.(FramebufferContext)
	if !ok {
		return &stop{Skip, "the back end has no framebuffer objects"}
	}
	return fc.Blit(c.FB.Linear)
}

// fbSize is the size of a bound framebuffer (nil: the window).
func (r *runner) fbSize(fb *Framebuffer) (int, int) {
	if fb == nil {
		return r.f.Width, r.f.Height
	}
	return fb.Width, fb.Height
}

// probeInt executes "relative probe rect rgba int" on the read framebuffer
// (w×h): every channel must equal the expected integer.
// spec: piglit tests/util/piglit-util-gl.c (piglit_probe_rect_rgba_int)
func (r *runner) probeInt(c *Command, w, h int) error {
	ir, ok := r.c.(IntReader)
	if !ok {
		return &stop{Skip, "the back end reads no integer pixels"}
	}
	p := c.Probe
	x, y, pw, ph := probeWindow(p, w, h)
	if pw <= 0 || ph <= 0 {
		return nil
	}
	if x < 0 || y < 0 || x+pw > w || y+ph > h {
		r.fail(c, "probe rectangle (%d, %d, %d, %d) leaves the %dx%d framebuffer", x, y, pw, ph, w, h)
		return nil
	}
	px := make([]int32, 4*pw*ph)
	if err := ir.ReadPixelsInt(x, y, pw, ph, px); err != nil {
		return err
	}
	for j := range ph {
		for i := range pw {
			o := px[4*(j*pw+i):][:4]
			if [4]int32(o) != p.ExpectedInt {
				r.fail(c, "probe at (%d,%d): expected %v, observed %v", x+i, y+j, p.ExpectedInt, o)
				return nil
			}
		}
	}
	return nil
}
