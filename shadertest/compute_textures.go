package shadertest

// The compute runner's textures and images: generated textures bound to
// sampler units, image units and their texel encodings, and the framebuffer
// a compute test clears and probes (an image unit read back as pixels).

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/ir"
)

// refTexture is a generated texture's level 0 as an RGBA32F 2D texture with
// nearest filtering (piglit's generated textures are sampled texel for texel).
func refTexture(im *TexImage) (*sampler.Texture, *sampler.Sampler, error) {
	tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA32F, im.W, im.H, 1, 1)
	if err != nil {
		return nil, nil, err
	}
	d := tx.Levels[0].Data
	for i, f := range im.Data {
		if 4*i+4 > len(d) {
			break
		}
		binary.LittleEndian.PutUint32(d[4*i:], math.Float32bits(f))
	}
	smp := sampler.DefaultSampler()
	smp.MinFilter, smp.MagFilter, smp.MipFilter = sampler.Nearest, sampler.Nearest, sampler.MipNone
	return tx, &smp, nil
}

// compareValues is shader_runner's compare_uint/compare_int/compare_double:

// texture records a generated 2D texture (level 0) on its unit.
func (r *computeRunner) texture(c *Command) error {
	t := BuildTexture(c.Texture, r.api)
	if t.Target != Tex2D || len(t.Levels) == 0 || t.Levels[0] == nil || t.Depth || t.Levels[0].D > 1 {
		return &stop{Skip, fmt.Sprintf("texture %q is not supported in a compute test", c.Text)}
	}
	r.textures[c.Texture.Unit] = &computeTexture{img: t.Levels[0]}
	return nil
}

// imageFormats maps GL image formats to the compiler's.
var imageFormats = map[string]ir.ImageFormat{
	"GL_RGBA8": ir.FormatRGBA8, "GL_RGBA32F": ir.FormatRGBA32F, "GL_RGBA16F": ir.FormatRGBA16F,
	"GL_R32F": ir.FormatR32F, "GL_RGBA32UI": ir.FormatRGBA32UI, "GL_RGBA32I": ir.FormatRGBA32I,
	"GL_R32UI": ir.FormatR32UI, "GL_R32I": ir.FormatR32I,
}

// imageTexture binds the texture on a unit to the image unit of the same
// number: its texels become resident storage in the image format.
func (r *computeRunner) imageTexture(c *Command) error {
	cc := c.Compute
	t := r.textures[cc.Unit]
	if t == nil {
		return &stop{Fail, fmt.Sprintf("image texture: no texture on unit %d", cc.Unit)}
	}
	f, ok := imageFormats[cc.Format]
	if !ok {
		return &stop{Skip, fmt.Sprintf("image format %s is not supported", cc.Format)}
	}
	if t.res != nil && t.fmt == f {
		return nil
	}
	img, err := r.d.NewImage(f, t.img.W, t.img.H, 1, texels(t.img, f))
	if err != nil {
		return err
	}
	t.res, t.fmt, t.name = img, f, cc.Format
	return nil
}

// texels converts float RGBA texels to an image format's storage.
func texels(im *TexImage, f ir.ImageFormat) []byte {
	n := im.W * im.H
	out := make([]byte, 0, n*int(f.TexelBytes()))
	le := binary.LittleEndian
	for i := 0; i < n; i++ {
		px := im.Data[4*i : 4*i+4]
		switch f {
		case ir.FormatRGBA8:
			for _, v := range px {
				out = append(out, unorm8(v))
			}
		case ir.FormatRGBA32F:
			for _, v := range px {
				out = le.AppendUint32(out, math.Float32bits(v))
			}
		case ir.FormatR32F:
			out = le.AppendUint32(out, math.Float32bits(px[0]))
		case ir.FormatRGBA16F:
			for _, v := range px {
				out = le.AppendUint16(out, floatToHalf(v))
			}
		case ir.FormatRGBA32UI, ir.FormatRGBA32I:
			for _, v := range px {
				out = le.AppendUint32(out, uint32(int32(v)))
			}
		default: // R32UI, R32I
			out = le.AppendUint32(out, uint32(int32(px[0])))
		}
	}
	return out
}

func unorm8(v float32) byte {
	v = min(max(v, 0), 1)
	return byte(math.RoundToEven(float64(v) * 255))
}

// fbImage returns the image the framebuffer texture is bound as.
func (r *computeRunner) fbImage() (*computeTexture, error) {
	if r.fbUnit < 0 {
		return nil, &stop{Skip, "probing the window is not supported in a compute test (no fb tex 2d)"}
	}
	t := r.textures[r.fbUnit]
	if t.res == nil {
		img, err := r.d.NewImage(ir.FormatRGBA8, t.img.W, t.img.H, 1, texels(t.img, ir.FormatRGBA8))
		if err != nil {
			return nil, err
		}
		t.res, t.fmt = img, ir.FormatRGBA8
	}
	if t.fmt != ir.FormatRGBA8 {
		return nil, &stop{Skip, fmt.Sprintf("a %v framebuffer texture is not supported", t.fmt)}
	}
	return t, nil
}

// clear fills the framebuffer texture with the clear colour; without one it
// clears the window, which a compute test never observes.
func (r *computeRunner) clear() error {
	if r.fbUnit < 0 {
		return nil
	}
	t, err := r.fbImage()
	if err != nil {
		return err
	}
	w, h := t.img.W, t.img.H
	px := make([]byte, 4*w*h)
	for i := 0; i < w*h; i++ {
		for k := range 4 {
			px[4*i+k] = unorm8(r.clearColor[k])
		}
	}
	return t.res.Buffer().Write(0, px)
}

// probe runs a colour probe on the framebuffer texture.
func (r *computeRunner) probe(c *Command) error {
	t, err := r.fbImage()
	if err != nil {
		return err
	}
	msg, err := evalProbe(texReader{t}, c.Probe, r.tol, t.img.W, t.img.H, r.api, &r.pix)
	if err != nil {
		return err
	}
	if msg != "" && !c.Probe.Warn {
		r.fail(c, "%s", msg)
	}
	return nil
}

// texReader reads an RGBA8 image as the colour buffer (row 0 the bottom).
type texReader struct{ t *computeTexture }

func (tr texReader) ReadPixels(x, y, w, h int, dst []byte) error {
	iw := tr.t.img.W
	b := tr.t.res.Buffer()
	for row := 0; row < h; row++ {
		if err := b.Read(((y+row)*iw+x)*4, dst[row*w*4:(row+1)*w*4]); err != nil {
			return err
		}
	}
	return nil
}

func (texReader) Link(*Program) error                 { return ErrUnsupported }
func (texReader) SetVertexData(*VertexData) error     { return ErrUnsupported }
func (texReader) SetUniform(*Uniform) error           { return ErrUnsupported }
func (texReader) SetTexture(int, *Texture) error      { return ErrUnsupported }
func (texReader) Clear(*ClearRequest) error           { return ErrUnsupported }
func (texReader) Draw(*Draw) error                    { return ErrUnsupported }
func (texReader) ReadDepth(int, int) (float32, error) { return 0, ErrUnsupported }
func (texReader) Close() error                        { return nil }
