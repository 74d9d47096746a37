package shadertest

import "strings"

// Texture storage: "texture storage UNIT TARGET FORMAT (LEVELS W [H [D]])"
// is glTexStorage*: every level allocated, contents undefined (zeros here).
// They are bound for sampling like the generated textures, and fb commands
// render into them.
// spec: piglit tests/shaders/shader_runner.c ("texture storage"), GL 4.6
// §8.19 (immutable-format textures: level sizes halve, 3D depth too, array
// layers and cube faces do not)

// parseTexStorage parses a texture storage command.
func (f *File) parseTexStorage(t string, emit func(*TextureCmd) bool, fail func(string, ...any)) bool {
	it, n := scanf(t, "texture storage %d %s %s ( %d %d %d %d )")
	if n < 5 {
		fail("invalid texture storage command")
		return true
	}
	target, ok := texTargetByName(it[1].s)
	if !ok || target == TexRect || target == TexCubeArray {
		fail("texture storage: unknown or unsupported target %q", it[1].s)
		return true
	}
	want := map[TexTarget]int{Tex1D: 5, Tex1DArray: 6, Tex2D: 6, TexCube: 6, Tex2DArray: 7, Tex3D: 7}[target]
	if n != want {
		fail("texture storage %s takes %d sizes, not %d", target, want-4, n-4)
		return true
	}
	tc := &TextureCmd{Kind: TexStorage, Unit: int(it[0].i), Target: target, Format: it[2].s, Levels: int(it[3].i), W: int(it[4].i), H: 1, D: 1}
	switch target {
	case Tex1DArray:
		tc.D = int(it[5].i)
	case Tex2D:
		tc.H = int(it[5].i)
	case TexCube:
		tc.H, tc.D = int(it[5].i), 6
	case Tex2DArray, Tex3D:
		tc.H, tc.D = int(it[5].i), int(it[6].i)
	}
	if tc.Levels < 1 || tc.Levels > 15 || tc.W>>(tc.Levels-1) == 0 && tc.H>>(tc.Levels-1) == 0 && (target != Tex3D || tc.D>>(tc.Levels-1) == 0) {
		fail("texture storage: %d levels for %dx%dx%d", tc.Levels, tc.W, tc.H, tc.D)
		return true
	}
	return emit(tc)
}

// storageTexture fills t for a texture storage command: tc.Levels zeroed
// levels, each half the size of the one before (at least 1).
func storageTexture(t *Texture, tc *TextureCmd) {
	t.Target, t.Format = tc.Target, tc.Format
	t.Integer = integerFormat(tc.Format)
	w, h, d := tc.W, tc.H, tc.D
	for range tc.Levels {
		t.Levels = append(t.Levels, &TexImage{W: w, H: h, D: d, Data: make([]float32, 4*w*h*d)})
		w, h = max(w/2, 1), max(h/2, 1)
		if tc.Target == Tex3D {
			d = max(d/2, 1)
		}
	}
}

// integerFormat reports a GL integer internal format (GL_RGBA8I, GL_R32UI, ...).
func integerFormat(f string) bool {
	f = strings.TrimPrefix(strings.ToUpper(f), "GL_")
	return strings.HasSuffix(f, "I") && !strings.HasSuffix(f, "_SNORM")
}
