package scene

import (
	"image"
	"image/color"
	"math"
	"sort"
)

// Generator names usable as a scene file's "mesh": {"generator": NAME}.
// spec: ../shared/data/bench/README.md "Meshes" (the benchmark meshes).
var meshGenerators = map[string]func() *Mesh{
	"sphere":     SphereMesh,
	"grid":       GridMesh,
	"torus_knot": func() *Mesh { return TorusKnot(2, 3, 256, 24, 0.45) },
	"cube":       Cube,
	"quad":       Quad,
}

// MeshGenerators lists the built-in mesh generator names, sorted.
func MeshGenerators() []string {
	var out []string
	for k := range meshGenerators {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// GenerateMesh returns the built-in mesh called name and whether it exists.
func GenerateMesh(name string) (*Mesh, bool) {
	g, ok := meshGenerators[name]
	if !ok {
		return nil, false
	}
	return g(), true
}

// TorusKnot returns a (p, q) torus knot tube with the given segments along
// the curve and sides around the tube (radius tube, where the knot's
// curve has radius up to 3), then fitted to [-0.5, 0.5] like the bench meshes.
// Texcoords run 0..p·4 along the curve and 0..1 around, for a repeating
// texture; faces wind counter-clockwise seen from outside.
func TorusKnot(p, q, segments, sides int, tube float64) *Mesh {
	curve := func(u float64) [3]float64 {
		r := 2 + math.Cos(float64(q)*u)
		return [3]float64{r * math.Cos(float64(p)*u), r * math.Sin(float64(p)*u), math.Sin(float64(q) * u)}
	}
	sub := func(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	norm := func(a [3]float64) [3]float64 {
		l := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
		return [3]float64{a[0] / l, a[1] / l, a[2] / l}
	}
	m := &Mesh{Name: "torus_knot", Material: -1}
	for i := 0; i <= segments; i++ {
		u := 2 * math.Pi * float64(i) / float64(segments)
		c := curve(u)
		t := norm(sub(curve(u+1e-3), curve(u-1e-3)))
		// A frame from the curvature direction (centre of the osculating circle).
		acc := sub(sub(curve(u+1e-3), c), sub(c, curve(u-1e-3)))
		b := norm(cross(t, acc))
		n := cross(b, t)
		for j := 0; j <= sides; j++ {
			v := 2 * math.Pi * float64(j) / float64(sides)
			cv, sv := math.Cos(v), math.Sin(v)
			d := [3]float64{cv*n[0] + sv*b[0], cv*n[1] + sv*b[1], cv*n[2] + sv*b[2]}
			m.Positions = append(m.Positions, float32(c[0]+tube*d[0]), float32(c[1]+tube*d[1]), float32(c[2]+tube*d[2]))
			m.Normals = append(m.Normals, float32(d[0]), float32(d[1]), float32(d[2]))
			m.Texcoords = append(m.Texcoords, float32(float64(i)/float64(segments)*float64(4*p)), float32(float64(j)/float64(sides)))
		}
	}
	cols := uint32(sides + 1)
	for i := uint32(0); i < uint32(segments); i++ {
		for j := uint32(0); j < uint32(sides); j++ {
			a := i*cols + j
			bb := a + cols
			m.Indices = append(m.Indices, a, bb, bb+1, a, bb+1, a+1)
		}
	}
	orientOutward(m)
	// A non-empty mesh always fits.
	_ = m.Fit()
	return m
}

// orientOutward flips every triangle whose geometric normal disagrees with
// its vertex normals, so generated meshes wind counter-clockwise outside.
func orientOutward(m *Mesh) {
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a, b, c := int(m.Indices[t]), int(m.Indices[t+1]), int(m.Indices[t+2])
		g := m.Position(b).Sub(m.Position(a)).Cross(m.Position(c).Sub(m.Position(a)))
		n := m.Normal(a).Add(m.Normal(b)).Add(m.Normal(c))
		if g.Dot(n) < 0 {
			m.Indices[t+1], m.Indices[t+2] = m.Indices[t+2], m.Indices[t+1]
		}
	}
}

// Cube returns a unit cube centred on the origin (side 1) with 24 vertices,
// per-face normals and texcoords covering each face once.
func Cube() *Mesh {
	m := &Mesh{Name: "cube", Material: -1}
	faces := []struct{ n, u, v Vec3 }{
		{Vec3{1, 0, 0}, Vec3{0, 0, -1}, Vec3{0, 1, 0}},
		{Vec3{-1, 0, 0}, Vec3{0, 0, 1}, Vec3{0, 1, 0}},
		{Vec3{0, 1, 0}, Vec3{1, 0, 0}, Vec3{0, 0, -1}},
		{Vec3{0, -1, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}},
		{Vec3{0, 0, 1}, Vec3{1, 0, 0}, Vec3{0, 1, 0}},
		{Vec3{0, 0, -1}, Vec3{-1, 0, 0}, Vec3{0, 1, 0}},
	}
	for _, f := range faces {
		base := uint32(m.VertexCount())
		for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			p := f.n.Scale(0.5).Add(f.u.Scale(c[0] / 2)).Add(f.v.Scale(c[1] / 2))
			m.Positions = append(m.Positions, p[0], p[1], p[2])
			m.Normals = append(m.Normals, f.n[0], f.n[1], f.n[2])
			m.Texcoords = append(m.Texcoords, (c[0]+1)/2, (1-c[1])/2)
		}
		m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	return m
}

// Quad returns the square [-0.5, 0.5]² in the z=0 plane facing +z, with
// texcoord (0,0) at the top-left corner (glTF orientation).
func Quad() *Mesh {
	return &Mesh{
		Name:      "quad",
		Positions: []float32{-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0},
		Normals:   []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
		Texcoords: []float32{0, 1, 1, 1, 1, 0, 0, 0},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Material:  -1,
	}
}

// Texture generator names usable as a scene file's texture "generator".
var textureGenerators = map[string]func(size int) *image.NRGBA{
	"checker": Checker,
	"brick":   Brick,
	"white": func(size int) *image.NRGBA {
		return solid(size, color.NRGBA{255, 255, 255, 255})
	},
	"flat_normal": func(size int) *image.NRGBA {
		return solid(size, color.NRGBA{128, 128, 255, 255})
	},
}

func solid(size int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// Checker returns a size×size image of 8×8 alternating light and dark squares.
func Checker(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	cell := max(size/8, 1)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			c := color.NRGBA{230, 230, 220, 255}
			if (x/cell+y/cell)%2 == 1 {
				c = color.NRGBA{40, 60, 110, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// Brick returns a size×size image of running-bond bricks (8 courses, 4
// bricks each) with light mortar and a deterministic per-brick tint.
func Brick(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	rowH := max(size/8, 2)
	brickW := max(size/4, 2)
	mortar := max(size/64, 1)
	for y := 0; y < size; y++ {
		row := y / rowH
		off := 0
		if row%2 == 1 {
			off = brickW / 2
		}
		for x := 0; x < size; x++ {
			xx := (x + off) % size
			col := xx / brickW
			if y%rowH < mortar || xx%brickW < mortar {
				img.SetNRGBA(x, y, color.NRGBA{200, 195, 185, 255})
				continue
			}
			h := uint32(row*7919+col*104729) * 2654435761
			v := int(h>>24) % 40
			img.SetNRGBA(x, y, color.NRGBA{uint8(150 + v), uint8(60 + v/2), uint8(40 + v/3), 255})
		}
	}
	return img
}
