package reference

import (
	"errors"
	"fmt"
	"strings"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shadertest"
)

// initTextures binds GL's incomplete texture to every unit and target: it
// samples as (0, 0, 0, 1). spec: GL 4.6 §11.1.3.5 (incomplete textures).
func (c *glContext) initTextures() error {
	dims := [program.NumTargets]sampler.Dim{program.Target1D: sampler.Dim1D, program.Target2D: sampler.Dim2D,
		program.Target3D: sampler.Dim3D, program.TargetCube: sampler.DimCube, program.Target1DArray: sampler.Dim1DArray,
		program.Target2DArray: sampler.Dim2DArray, program.TargetCubeArray: sampler.DimCubeArray, program.TargetRect: sampler.Dim2D,
		program.TargetBuffer: sampler.DimBuffer}
	var empty [program.NumTargets]*sampler.Texture
	for t, d := range dims {
		depth := 1
		if d == sampler.DimCube || d == sampler.DimCubeArray {
			depth = 6
		}
		tex, err := sampler.NewTexture(d, format.RGBA8, 1, 1, depth, 1)
		if err != nil {
			return err
		}
		for i := range tex.Levels[0].Data {
			if i%4 == 3 {
				tex.Levels[0].Data[i] = 0xFF
			}
		}
		empty[t] = tex
	}
	s := sampler.DefaultSampler()
	s.MinFilter, s.MipFilter = sampler.Nearest, sampler.MipNone
	for u := 0; u < maxUnits; u++ {
		for t := program.Target(0); t < program.NumTargets; t++ {
			c.textures[program.TextureIndex(u, t)] = ref.TextureBinding{Texture: empty[t], Sampler: s}
		}
	}
	return nil
}

// SetTexture implements shadertest.Context.
func (c *glContext) SetTexture(unit int, t *shadertest.Texture) error {
	if unit < 0 || unit >= maxUnits {
		return fmt.Errorf("texture unit %d: %w", unit, shadertest.ErrUnsupported)
	}
	tex, smp, target, err := convertTexture(t, c.cfg.API, c.version)
	if err != nil {
		if tt, _, terr := texTarget(t.Target); terr == nil && errors.Is(err, shadertest.ErrUnsupported) {
			// Bound but not sampleable here (an integer texture): a
			// draw that samples it skips (bindTextures); an fb
			// command may still render into it (framebuffer.go).
			k := program.TextureIndex(unit, tt)
			c.textures[k] = ref.TextureBinding{}
			c.unsampled[k] = err
			return nil
		}
		return err
	}
	delete(c.unsampled, program.TextureIndex(unit, target))
	c.textures[program.TextureIndex(unit, target)] = ref.TextureBinding{Texture: tex, Sampler: smp}
	c.sampledTex[t] = tex // the storage an fb command renders into (framebuffer.go)
	return nil
}

func texTarget(t shadertest.TexTarget) (program.Target, sampler.Dim, error) {
	switch t {
	case shadertest.Tex1D:
		return program.Target1D, sampler.Dim1D, nil
	case shadertest.Tex2D:
		return program.Target2D, sampler.Dim2D, nil
	case shadertest.Tex3D:
		return program.Target3D, sampler.Dim3D, nil
	case shadertest.TexCube:
		return program.TargetCube, sampler.DimCube, nil
	case shadertest.Tex1DArray:
		return program.Target1DArray, sampler.Dim1DArray, nil
	case shadertest.Tex2DArray:
		return program.Target2DArray, sampler.Dim2DArray, nil
	case shadertest.TexRect:
		return program.TargetRect, sampler.Dim2D, nil
	}
	return 0, 0, fmt.Errorf("texture target %s: %w", t, shadertest.ErrUnsupported)
}

func texFormat(t *shadertest.Texture) format.Format {
	if t.Depth {
		// GL_DEPTH_COMPONENT: a fixed-point depth texture, so shadow
		// references are clamped to [0,1] (GL 4.6 §8.23.1).
		return format.D24S8
	}
	switch strings.TrimPrefix(strings.ToUpper(t.Format), "GL_") {
	case "RGBA32F":
		return format.RGBA32F
	case "RGBA16F":
		return format.RGBA16F
	case "RGBA16":
		return format.RGBA16
	case "RGBA8_SNORM":
		return format.RGBA8SNorm
	case "SRGB8_ALPHA8":
		return format.SRGB8A8
	}
	return format.RGBA8
}

// convertTexture builds the sampler texture and state of a runner texture.
func convertTexture(t *shadertest.Texture, api shadertest.API, glslVersion int) (*sampler.Texture, sampler.Sampler, program.Target, error) {
	target, dim, err := texTarget(t.Target)
	if err != nil {
		return nil, sampler.Sampler{}, 0, err
	}
	if t.Integer {
		// texFormat has no integer formats: sampling one as RGBA8 would be a
		// silent collapse.
		return nil, sampler.Sampler{}, 0, fmt.Errorf("integer texture %s: %w", t.Format, shadertest.ErrUnsupported)
	}
	f := texFormat(t)
	// The chain's base size from the first defined level.
	k := -1
	for i, l := range t.Levels {
		if l != nil {
			k = i
			break
		}
	}
	if k < 0 {
		return nil, sampler.Sampler{}, 0, fmt.Errorf("reference: texture without images")
	}
	l0 := t.Levels[k]
	w, h, d := l0.W<<k, l0.H<<k, l0.D
	if dim == sampler.Dim3D {
		d = l0.D << k
	}
	if dim == sampler.Dim1D || dim == sampler.Dim1DArray {
		h = l0.H
	}
	tex, err := sampler.NewTexture(dim, f, w, h, d, len(t.Levels))
	if err != nil {
		return nil, sampler.Sampler{}, 0, fmt.Errorf("reference: texture %dx%dx%d: %w", w, h, d, err)
	}
	bpp := f.Info().Bytes
	for i, img := range t.Levels {
		if img == nil || i >= len(tex.Levels) {
			continue
		}
		lv := &tex.Levels[i]
		if lv.W != img.W || lv.H != img.H || lv.D != img.D {
			return nil, sampler.Sampler{}, 0, fmt.Errorf("reference: level %d is %dx%dx%d, want %dx%dx%d", i, img.W, img.H, img.D, lv.W, lv.H, lv.D)
		}
		n := img.W * img.H * img.D
		for p := 0; p < n; p++ {
			dst := lv.Data[p*bpp : (p+1)*bpp]
			if t.Depth {
				format.PackDepth(f, dst, img.Data[p])
				continue
			}
			var c [4]float32
			copy(c[:], img.Data[4*p:4*p+4])
			format.Pack(f, dst, format.FromFloat(f, c))
		}
	}
	tex.BaseLevel, tex.MaxLevel = t.Sampler.BaseLevel, t.Sampler.MaxLevel
	mode := t.Sampler.DepthMode
	if t.Sampler.CompareMode && glslVersion >= 130 {
		// GLSL 1.30's shadow lookups return the comparison result whatever
		// GL_DEPTH_TEXTURE_MODE says (Mesa keeps (r, r, r, 1)).
		mode = "luminance"
	}
	if t.Depth && api == shadertest.APIGL {
		switch mode {
		case "intensity":
			tex.Swizzle = [4]sampler.Swizzle{sampler.SwizzleR, sampler.SwizzleR, sampler.SwizzleR, sampler.SwizzleR}
		case "alpha":
			tex.Swizzle = [4]sampler.Swizzle{sampler.SwizzleZero, sampler.SwizzleZero, sampler.SwizzleZero, sampler.SwizzleR}
		case "red":
		default: // luminance
			tex.Swizzle = [4]sampler.Swizzle{sampler.SwizzleR, sampler.SwizzleR, sampler.SwizzleR, sampler.SwizzleOne}
		}
	}
	switch t.Sampler.SwizzleR {
	case "green":
		tex.Swizzle[0] = sampler.SwizzleG
	case "blue":
		tex.Swizzle[0] = sampler.SwizzleB
	case "alpha":
		tex.Swizzle[0] = sampler.SwizzleA
	}
	smp := samplerState(&t.Sampler)
	if target == program.TargetRect {
		// A rectangle texture has one level, addressed in texels.
		// spec: GL 4.6 §8.10 (TEXTURE_RECTANGLE), §8.14
		smp.Unnormalized, smp.MipFilter = true, sampler.MipNone
	}
	return tex, smp, target, nil
}

func wrapMode(s string) sampler.Wrap {
	switch s {
	case "clamp_to_edge":
		return sampler.ClampToEdge
	case "clamp_to_border":
		return sampler.ClampToBorder
	case "mirrored_repeat":
		return sampler.MirroredRepeat
	}
	return sampler.Repeat
}

func compareFunc(s string) compare.Func {
	switch s {
	case "greater":
		return compare.Greater
	case "gequal":
		return compare.GreaterEqual
	case "less":
		return compare.Less
	case "equal":
		return compare.Equal
	case "notequal":
		return compare.NotEqual
	case "never":
		return compare.Never
	case "always":
		return compare.Always
	}
	return compare.LessEqual
}

// samplerState maps GL texture parameters. spec: GL 4.6 §8.14 (filters).
func samplerState(s *shadertest.Sampler) sampler.Sampler {
	out := sampler.DefaultSampler()
	switch s.MinFilter {
	case "nearest":
		out.MinFilter, out.MipFilter = sampler.Nearest, sampler.MipNone
	case "linear":
		out.MinFilter, out.MipFilter = sampler.Linear, sampler.MipNone
	case "nearest_mipmap_nearest":
		out.MinFilter, out.MipFilter = sampler.Nearest, sampler.MipNearest
	case "linear_mipmap_nearest":
		out.MinFilter, out.MipFilter = sampler.Linear, sampler.MipNearest
	case "nearest_mipmap_linear":
		out.MinFilter, out.MipFilter = sampler.Nearest, sampler.MipLinear
	case "linear_mipmap_linear":
		out.MinFilter, out.MipFilter = sampler.Linear, sampler.MipLinear
	}
	out.MagFilter = sampler.Linear
	if s.MagFilter == "nearest" {
		out.MagFilter = sampler.Nearest
	}
	out.WrapS, out.WrapT, out.WrapR = wrapMode(s.WrapS), wrapMode(s.WrapT), wrapMode(s.WrapR)
	out.BorderColor = s.BorderColor
	out.LODBias = float32(s.LodBias)
	out.CompareEnable = s.CompareMode
	out.Compare = compareFunc(s.CompareFunc)
	return out
}
