package shadertest

// colorWheel is piglit-util-gl.c's color_wheel: red, green, blue, white.
var colorWheel = [4][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}}

// BuildTexture makes the texture object a texture command creates, with
// the images and sampler settings of piglit's generators (piglit_rgbw_texture,
// piglit_checkerboard_texture, piglit_quads_texture, piglit_miptree_texture,
// piglit_depth_texture, piglit_array_texture, piglit_rgbw_texture_1d/_3d).
// On GLES piglit_quads_texture (checkerboard, quads) stores bytes made by
// truncating c*255 and clamps to the edge instead of a red border.
// spec: piglit tests/shaders/shader_runner.c ("texture rgbw|checkerboard|
// miptree|shadow2D") and tests/util/piglit-util-gl.c.
func BuildTexture(tc *TextureCmd, api API) *Texture {
	t := &Texture{Sampler: DefaultSampler()}
	nearest := func(wrap string) {
		t.Sampler.MinFilter, t.Sampler.MagFilter = "nearest", "nearest"
		t.Sampler.WrapS, t.Sampler.WrapT = wrap, wrap
	}
	switch tc.Kind {
	case TexInteger:
		t.Target, t.Format, t.Integer = Tex2D, tc.Format, true
		nearest("clamp_to_edge")
		// piglit_integer_texture spreads (x, y, b, a) over the format's
		// channels: RGBA (x, y, b, a), RGB (x, y, b+a), RG (x+b, y+a),
		// R x+y·b+a; a missing channel reads as GL's (0, 0, 0, 1).
		b, a := tc.Colors[0][0], tc.Colors[0][1]
		img := &TexImage{W: tc.W, H: tc.H, D: 1, Data: make([]float32, 0, 4*tc.W*tc.H)}
		for y := range tc.H {
			for x := range tc.W {
				fx, fy := float32(x), float32(y)
				switch integerComponents(tc.Format) {
				case 4:
					img.Data = append(img.Data, fx, fy, b, a)
				case 3:
					img.Data = append(img.Data, fx, fy, b+a, 1)
				case 2:
					img.Data = append(img.Data, fx+b, fy+a, 0, 1)
				default:
					img.Data = append(img.Data, fx+fy*b+a, 0, 0, 1)
				}
			}
		}
		t.Levels = []*TexImage{img}
	case TexRGBW:
		t.Target, t.Format = Tex2D, tc.Format
		nearest("clamp_to_edge")
		t.Levels = []*TexImage{rgbwImage(tc.W, tc.H)}
	case TexRGBW1D:
		t.Target = Tex1D
		nearest("clamp_to_edge")
		img := &TexImage{W: 4, H: 1, D: 1}
		for i := range 4 {
			img.Data = append(img.Data, colorWheel[i][:]...)
		}
		t.Levels = []*TexImage{img}
	case TexRGBW3D:
		t.Target = Tex3D
		nearest("clamp_to_edge")
		t.Sampler.WrapR = "clamp_to_edge"
		t.Levels = []*TexImage{{W: 2, H: 2, D: 2, Data: []float32{
			1, 0, 0, 1, 0, 1, 0, 1,
			0, 0, 1, 1, 1, 1, 1, 1,
			1, 1, 0, 1, 1, 0, 1, 1,
			0, 1, 1, 1, 0, 0, 0, 1,
		}}}
	case TexRGBW2DArray, TexRGBW1DArray:
		t.Target = Tex2DArray
		if tc.Kind == TexRGBW1DArray {
			t.Target = Tex1DArray
		}
		nearest("clamp_to_edge")
		img := &TexImage{W: tc.W, H: tc.H, D: tc.D, Data: make([]float32, 0, tc.W*tc.H*tc.D*4)}
		for l := range tc.D {
			for range tc.W * tc.H {
				img.Data = append(img.Data, colorWheel[l%4][:]...)
			}
		}
		t.Levels = []*TexImage{img}
	case TexStorage:
		storageTexture(t, tc)
	case TexJunk2DArray:
		// glTexImage3D(GL_TEXTURE_2D_ARRAY, ..., NULL) with the default
		// sampler state: the contents are undefined; zeros are one choice.
		t.Target = Tex2DArray
		t.Levels = []*TexImage{{W: tc.W, H: tc.H, D: tc.D, Data: make([]float32, tc.W*tc.H*tc.D*4)}}
	case TexCheckerboard, TexQuads:
		t.Target = Tex2D
		nearest("clamp_to_border")
		t.Sampler.BorderColor = [4]float32{1, 0, 0, 1}
		bl, br, tl, tr := tc.Colors[0], tc.Colors[1], tc.Colors[1], tc.Colors[0]
		if tc.Kind == TexQuads {
			bl, br, tl, tr = tc.Colors[0], tc.Colors[1], tc.Colors[2], tc.Colors[3]
		}
		if api == APIGLES {
			t.Sampler.WrapS, t.Sampler.WrapT = "clamp_to_edge", "clamp_to_edge"
			t.Sampler.BorderColor = [4]float32{}
			for _, c := range []*[4]float32{&bl, &br, &tl, &tr} {
				for i := range c {
					c[i] = float32(UbyteExpected(c[i])) / 255
				}
			}
		}
		img := &TexImage{W: tc.W, H: tc.H, D: 1, Data: make([]float32, 0, tc.W*tc.H*4)}
		for i := range tc.H {
			row := i / tc.SH
			for j := range tc.W {
				col := j / tc.SW
				c := bl
				switch {
				case row&1 == 1 && col&1 == 1:
					c = tr
				case row&1 == 1:
					c = tl
				case col&1 == 1:
					c = br
				}
				img.Data = append(img.Data, c[:]...)
			}
		}
		t.Levels = make([]*TexImage, tc.Level+1)
		t.Levels[tc.Level] = img
	case TexMiptree:
		t.Target = Tex2D
		t.Sampler.WrapS, t.Sampler.WrapT = "clamp_to_edge", "clamp_to_edge"
		t.Sampler.MagFilter, t.Sampler.MinFilter = "nearest", "nearest_mipmap_nearest"
		for level := range 4 {
			size := 8 >> level
			img := &TexImage{W: size, H: size, D: 1}
			for range size * size {
				img.Data = append(img.Data, colorWheel[level][:]...)
			}
			t.Levels = append(t.Levels, img)
		}
	default: // shadow textures
		t.Depth = true
		nearest("clamp_to_edge")
		t.Sampler.CompareMode, t.Sampler.CompareFunc = true, "greater"
		switch tc.Kind {
		case TexShadow2D:
			t.Target = Tex2D
		case TexShadowRect:
			t.Target = TexRect
		case TexShadow1D:
			t.Target = Tex1D
		case TexShadow1DArray:
			t.Target = Tex1DArray
		case TexShadow2DArray:
			t.Target = Tex2DArray
		}
		img := &TexImage{W: tc.W, H: tc.H, D: tc.D, Data: make([]float32, 0, tc.W*tc.H*tc.D)}
		// piglit_depth_texture: (float)x / (w - 1), so a 1-texel-wide
		// texture holds 0/0.
		den := float32(tc.W - 1)
		for range tc.D * tc.H {
			for x := range tc.W {
				img.Data = append(img.Data, float32(x)/den)
			}
		}
		t.Levels = []*TexImage{img}
	}
	return t
}

// rgbwImage is piglit_rgbw_image without varied alpha: red bottom-left,
// green bottom-right, blue top-left, white top-right (integer halves).
func rgbwImage(w, h int) *TexImage {
	img := &TexImage{W: w, H: h, D: 1, Data: make([]float32, 0, w*h*4)}
	for y := range h {
		for x := range w {
			c := colorWheel[3]
			switch {
			case x < w/2 && y < h/2:
				c = colorWheel[0]
			case y < h/2:
				c = colorWheel[1]
			case x < w/2:
				c = colorWheel[2]
			}
			img.Data = append(img.Data, c[:]...)
		}
	}
	return img
}

// applyTexParameter updates a texture's sampler for a texparameter command.
func applyTexParameter(t *Texture, p *TexParamCmd) {
	s := &t.Sampler
	switch p.Param {
	case "compare_func":
		s.CompareFunc = p.Value
	case "depth_mode":
		s.DepthMode = p.Value
	case "min":
		s.MinFilter = p.Value
	case "mag":
		s.MagFilter = p.Value
	case "wrap_s":
		s.WrapS = p.Value
	case "wrap_t":
		s.WrapT = p.Value
	case "wrap_r":
		s.WrapR = p.Value
	case "lod_bias":
		s.LodBias = p.Float
	case "max_level":
		s.MaxLevel = p.Int
	case "base_level":
		s.BaseLevel = p.Int
	case "border_color":
		s.BorderColor = p.Color
	case "swizzle_r":
		s.SwizzleR = p.Value
	}
}
