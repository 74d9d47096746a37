package shadertest

// RectPositions returns the vertices piglit_draw_rect emits for x, y, w,
// h: a triangle strip (x,y) (x+w,y) (x,y+h) (x+w,y+h) with z = 0, w = 1.
// spec: piglit tests/util/piglit-util-gl.c (piglit_draw_rect_custom).
func RectPositions(x, y, w, h float32) [4][4]float32 {
	return [4][4]float32{
		{x, y, 0, 1},
		{x + w, y, 0, 1},
		{x, y + h, 0, 1},
		{x + w, y + h, 0, 1},
	}
}

// RectTexCoords returns the texture coordinates piglit_draw_rect_tex
// emits, in the same vertex order as RectPositions.
func RectTexCoords(tx, ty, tw, th float32) [4][2]float32 {
	return [4][2]float32{
		{tx, ty},
		{tx + tw, ty},
		{tx, ty + th},
		{tx + tw, ty + th},
	}
}

// OrthoRect converts a "draw rect ortho" rectangle in window pixels to the
// NDC rectangle shader_runner passes to piglit_draw_rect:
// x' = -1 + 2*(x/W), w' = 2*(w/W) with x/W divided in float, the rest in
// double, the result rounded to float.
func OrthoRect(x, y, w, h float32, width, height int) (float32, float32, float32, float32) {
	qx := float64(x / float32(width))
	qy := float64(y / float32(height))
	qw := float64(w / float32(width))
	qh := float64(h / float32(height))
	return float32(-1.0 + float64(2.0*qx)), float32(-1.0 + float64(2.0*qy)),
		float32(2.0 * qw), float32(2.0 * qh)
}

// OrthoMatrix is glOrtho(l, r, b, t, n, f) applied to the identity, in
// column-major order, computed in float as Mesa does.
func OrthoMatrix(l, r, b, t, n, f float32) [16]float32 {
	m := identity
	m[0] = 2 / (r - l)
	m[12] = -(r + l) / (r - l)
	m[5] = 2 / (t - b)
	m[13] = -(t + b) / (t - b)
	m[10] = -2 / (f - n)
	m[14] = -(f + n) / (f - n)
	return m
}

// FrustumMatrix is glFrustum(l, r, b, t, n, f) applied to the identity,
// column-major, in float.
func FrustumMatrix(l, r, b, t, n, f float32) [16]float32 {
	var m [16]float32
	x := float32(2*n) / (r - l)
	y := float32(2*n) / (t - b)
	m[0] = x
	m[5] = y
	m[8] = (r + l) / (r - l)
	m[9] = (t + b) / (t - b)
	m[10] = -(f + n) / (f - n)
	m[11] = -1
	m[14] = -float32(float32(2*f)*n) / (f - n)
	return m
}
