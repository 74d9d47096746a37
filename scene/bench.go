package scene

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// Benchmark mesh parameters of mkmeshes.py. spec: bench README "Meshes".
const (
	SphereSlices    = 320 // around the vertical axis
	SphereStacks    = 157 // pole to pole
	GridQuads       = 707 // quads per side: 2*707² = 999,698 triangles
	gridWaves       = 6
	gridAmplitude   = 0.02
	SphereTriangles = 99840
	GridTriangles   = 999698
)

// round6 is the value an OBJ loader reads back from "%.6f" % x.
func round6(x float64, buf []byte) (float32, []byte) {
	buf = strconv.AppendFloat(buf[:0], x, 'f', 6, 64)
	f, _ := strconv.ParseFloat(string(buf), 32)
	return float32(f), buf
}

// sphereValues returns the float64 position and texcoord values that
// mkmeshes.py formats, in its evaluation order.
func sphereValues() (pos, uv []float64) {
	cols := SphereSlices + 1
	pi := math.Pi
	for i := 0; i <= SphereStacks; i++ {
		theta := pi * float64(i) / SphereStacks
		for j := 0; j < cols; j++ {
			phi := 2.0 * pi * float64(j) / SphereSlices
			st := math.Sin(theta)
			pos = append(pos, st*math.Sin(phi), math.Cos(theta), st*math.Cos(phi))
			uv = append(uv, float64(j)/SphereSlices, 1.0-float64(i)/SphereStacks)
		}
	}
	return pos, uv
}

// sphereFaces calls f with the 1-based corner index of each triangle.
func sphereFaces(f func(a, b, c int)) {
	cols := SphereSlices + 1
	for i := 0; i < SphereStacks; i++ {
		for j := 0; j < SphereSlices; j++ {
			a := i*cols + j + 1
			b := a + cols
			c, d := b+1, a+1
			if i != SphereStacks-1 {
				f(a, b, c)
			}
			if i != 0 {
				f(a, c, d)
			}
		}
	}
}

// gridValues returns the float64 positions mkmeshes.py formats.
func gridValues() []float64 {
	n := GridQuads
	twoPi := 2.0 * math.Pi
	waves := float64(gridWaves)
	k := twoPi * waves // rounded after the doubling, as Python does
	out := make([]float64, 0, 3*(n+1)*(n+1))
	for i := 0; i <= n; i++ {
		y := float64(i) / float64(n)
		sy := math.Sin(k * y)
		for j := 0; j <= n; j++ {
			out = append(out, float64(j)/float64(n), y, gridAmplitude*math.Sin(k*float64(j)/float64(n))*sy)
		}
	}
	return out
}

// gridFaces calls f with the four 1-based corners of each quad.
func gridFaces(f func(a, b, c, d int)) {
	n := GridQuads
	row := n + 1
	for i := 0; i < n; i++ {
		base := i*row + 1
		for a := base; a < base+n; a++ {
			f(a, a+1, a+row+1, a+row)
		}
	}
}

// SphereMesh returns the benchmark UV sphere exactly as loading the OBJ that
// `mkmeshes.py sphere` writes: 99,840 triangles, positions and texcoords
// rounded to 6 decimals, normals from vn. spec: bench README "Meshes".
func SphereMesh() *Mesh {
	pos, uv := sphereValues()
	d := &objData{}
	var buf []byte
	d.v = make([]float32, len(pos))
	for i, x := range pos {
		d.v[i], buf = round6(x, buf)
	}
	d.vt = make([]float32, len(uv))
	for i, x := range uv {
		d.vt[i], buf = round6(x, buf)
	}
	d.vn = d.v
	g := d.group("", "")
	g.corners = make([]objCorner, 0, 3*SphereTriangles)
	sphereFaces(func(a, b, c int) {
		g.addFace([]objCorner{{int32(a - 1), int32(a - 1), int32(a - 1)}, {int32(b - 1), int32(b - 1), int32(b - 1)}, {int32(c - 1), int32(c - 1), int32(c - 1)}})
	})
	m := d.build()[0]
	m.Material = -1
	return &m
}

// GridMesh returns the benchmark height field exactly as loading the OBJ
// that `mkmeshes.py grid` writes: 999,698 triangles from fan-triangulated
// quads, positions rounded to 6 decimals, normals computed by the loader rule.
// spec: bench README "Meshes".
func GridMesh() *Mesh {
	vals := gridValues()
	d := &objData{v: make([]float32, len(vals))}
	var buf []byte
	for i, x := range vals {
		d.v[i], buf = round6(x, buf)
	}
	g := d.group("", "")
	g.corners = make([]objCorner, 0, 3*GridTriangles)
	var q [4]objCorner
	gridFaces(func(a, b, c, e int) {
		for k, ix := range [4]int{a, b, c, e} {
			q[k] = objCorner{int32(ix - 1), -1, -1}
		}
		g.addFace(q[:])
	})
	m := d.build()[0]
	m.Material = -1
	return &m
}

func appendF6(b []byte, x float64) []byte { return strconv.AppendFloat(b, x, 'f', 6, 64) }

// WriteSphereOBJ writes the byte-identical output of `mkmeshes.py sphere`.
func WriteSphereOBJ(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pos, uv := sphereValues()
	fmt.Fprintf(bw, "# UV sphere: %d slices x %d stacks\n", SphereSlices, SphereStacks)
	var b []byte
	for _, tag := range []string{"v ", "vt ", "vn "} {
		vals, n := pos, 3
		if tag == "vt " {
			vals, n = uv, 2
		}
		for i := 0; i < len(vals); i += n {
			b = append(b[:0], tag...)
			for k := 0; k < n; k++ {
				if k > 0 {
					b = append(b, ' ')
				}
				b = appendF6(b, vals[i+k])
			}
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	sphereFaces(func(a, bb, c int) {
		fmt.Fprintf(bw, "f %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, bb, bb, bb, c, c, c)
	})
	return bw.Flush()
}

// WriteGridOBJ writes the byte-identical output of `mkmeshes.py grid`.
func WriteGridOBJ(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "# grid: %d x %d quads, z = %s sin sin\n", GridQuads, GridQuads, strconv.FormatFloat(gridAmplitude, 'g', -1, 64))
	vals := gridValues()
	var b []byte
	for i := 0; i < len(vals); i += 3 {
		b = append(b[:0], "v "...)
		b = appendF6(b, vals[i])
		b = append(b, ' ')
		b = appendF6(b, vals[i+1])
		b = append(b, ' ')
		b = appendF6(b, vals[i+2])
		b = append(b, '\n')
		bw.Write(b)
	}
	gridFaces(func(a, bb, c, d int) {
		b = append(b[:0], "f "...)
		for k, x := range [4]int{a, bb, c, d} {
			if k > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, '\n')
		bw.Write(b)
	})
	return bw.Flush()
}

// BenchLightDir is u_light_dir = normalize(0.3, 0.5, 0.8). spec: bench README "Uniforms".
func BenchLightDir() Vec3 {
	l := math.Sqrt(0.3*0.3 + 0.5*0.5 + 0.8*0.8)
	return Vec3{float32(0.3 / l), float32(0.5 / l), float32(0.8 / l)}
}

// BenchBaseColor returns u_base_color = (0.80, 0.70, 0.55). spec: bench README "Uniforms".
func BenchBaseColor() Vec3 { return Vec3{0.80, 0.70, 0.55} }

// BenchClearColor is the benchmark clear colour (0.12, 0.12, 0.15, 1). spec: bench README "State".
func BenchClearColor() [4]float32 { return [4]float32{0.12, 0.12, 0.15, 1} }

// BenchMatrices returns the benchmark's u_mvp = P·V·M and u_model = M for
// frame i at a width×height viewport: P = perspective(45°, w/h, 0.1, 10),
// V = translate(0, 0, -2), M = rotateX(20°)·rotateY(3i°).
// spec: bench README "Matrices".
func BenchMatrices(frame, width, height int) (mvp, model Mat4) {
	p := Perspective(Radians(45), float64(width)/float64(height), 0.1, 10)
	v := Translate(0, 0, -2)
	model = RotateX(Radians(20)).Mul(RotateY(Radians(3 * float64(frame))))
	return p.Mul(v).Mul(model), model
}

// LoadBenchMesh loads a benchmark mesh the way the bench README says: an
// OBJ file (or "sphere"/"grid" for the built-in generators), normals by the
// loader rule, identical corners merged, all groups concatenated into one
// mesh, centred on the bounding-box centre and scaled so the longest side
// spans [-0.5, 0.5]. spec: bench README "Load".
func LoadBenchMesh(path string) (*Mesh, error) {
	var m *Mesh
	switch path {
	case "sphere":
		m = SphereMesh()
	case "grid":
		m = GridMesh()
	default:
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("bench mesh: %w", err)
		}
		defer f.Close()
		d, err := parseOBJ(f, path)
		if err != nil {
			return nil, err
		}
		// One group: the bench draws the whole file as one mesh.
		all := objGroup{}
		for _, g := range d.groups {
			all.corners = append(all.corners, g.corners...)
		}
		d.groups = []objGroup{all}
		mm := d.build()[0]
		mm.Material = -1
		m = &mm
	}
	if m.TriangleCount() == 0 {
		return nil, fmt.Errorf("bench mesh %s: %w", path, ErrEmptyMesh)
	}
	if err := m.Fit(); err != nil {
		return nil, fmt.Errorf("bench mesh %s: %w", path, err)
	}
	return m, nil
}

// BenchDescription returns the benchmark scene of the bench README as a
// scene Description: mesh (an OBJ path, or "sphere"/"grid" for the
// generators) loaded by LoadBenchMesh, the camera P = perspective(45°,
// w/h, 0.1, 10) and V = translate(0, 0, -2), model rotateX(20°)·rotateY(3i°)
// at frame i, uniforms u_mvp, u_model, u_light_dir and u_base_color,
// lambert.vert/lambert.frag read from shaderDir (the bench data directory),
// depth test LESS with depth cleared to 1.0, no culling, no blending, clear
// colour (0.12, 0.12, 0.15, 1), one sample.
// spec: bench README "The scene".
func BenchDescription(mesh, shaderDir string, width, height int) (*Description, error) {
	m, err := LoadBenchMesh(mesh)
	if err != nil {
		return nil, err
	}
	l := BenchLightDir()
	c := BenchBaseColor()
	bc := BenchClearColor()
	src := fmt.Sprintf(`{"width":%d,"height":%d,"msaa":1,
	  "clear":{"color":[%g,%g,%g,%g],"depth":1,"stencil":0},
	  "camera":{"projection":"perspective","yfov_deg":45,"near":0.1,"far":10,"view":[{"translate":[0,0,-2]}]},
	  "draws":[{"name":"bench","mesh":{"generator":"quad"},
	    "model":[{"rotate_x_deg":20},{"rotate_y_deg":0,"per_frame_deg":3}],
	    "vertex_shader":"lambert.vert","fragment_shader":"lambert.frag",
	    "uniforms":{"u_mvp":"mvp","u_model":"model","u_light_dir":[%g,%g,%g],"u_base_color":[%g,%g,%g]},
	    "state":{"depth_test":true,"depth_func":"less","depth_write":true,"cull":"none","front_face":"ccw"}}]}`,
		width, height, bc[0], bc[1], bc[2], bc[3], l[0], l[1], l[2], c[0], c[1], c[2])
	d, err := ParseDescription([]byte(src), "bench", DirReader(shaderDir))
	if err != nil {
		return nil, err
	}
	d.Draws[0].Mesh = m
	d.Draws[0].Name = mesh
	return d, nil
}
