package scene

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// ReadFunc reads a file named relative to the file being loaded (an MTL
// library, a texture, a glTF buffer or image). Loaders never touch the
// file system except through it.
type ReadFunc func(rel string) ([]byte, error)

// DirReader returns a ReadFunc that reads files relative to dir.
func DirReader(dir string) ReadFunc {
	return func(rel string) ([]byte, error) {
		if filepath.IsAbs(rel) {
			return os.ReadFile(rel)
		}
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	}
}

// objCorner is one face corner: 0-based position, texcoord and normal
// indices, -1 when absent.
type objCorner struct{ v, vt, vn int32 }

// objGroup is the triangles of one (object/group name, material) pair.
type objGroup struct {
	name     string
	material string
	corners  []objCorner // three per triangle
}

// objData is the raw content of an OBJ file before corners are merged.
type objData struct {
	v, vt, vn []float32 // xyz, uv, xyz
	groups    []objGroup
	index     map[[2]string]int
	mtllibs   []string
}

func (d *objData) group(name, material string) *objGroup {
	if d.index == nil {
		d.index = map[[2]string]int{}
	}
	k := [2]string{name, material}
	i, ok := d.index[k]
	if !ok {
		i = len(d.groups)
		d.index[k] = i
		d.groups = append(d.groups, objGroup{name: name, material: material})
	}
	return &d.groups[i]
}

// addFace fan-triangulates a polygon: (0, i, i+1) for i = 1..n-2.
// spec: bench README "Load" (fan-triangulate polygons).
func (g *objGroup) addFace(c []objCorner) {
	for i := 1; i+1 < len(c); i++ {
		g.corners = append(g.corners, c[0], c[i], c[i+1])
	}
}

// LoadOBJ reads a Wavefront OBJ file and the MTL libraries and textures it
// names (relative to its directory) and returns a one-node scene.
func LoadOBJ(path string) (*Scene, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("obj: %w", err)
	}
	defer f.Close()
	return DecodeOBJ(f, path, DirReader(filepath.Dir(path)))
}

// DecodeOBJ parses an OBJ stream named name (for messages). read resolves
// mtllib and texture paths; nil means materials are not loaded (usemtl
// names then map to default materials).
//
// Statements: v, vt, vn, f (v, v/vt, v//vn, v/vt/vn; negative indices count
// back from the latest element), o, g, usemtl, mtllib. Others (s, l, p,
// vp, ...) are ignored. One Mesh is produced per (o/g name, material)
// pair in order of first use. Corners without vn get the normalised sum
// of the unnormalised face normals of every triangle using that position;
// identical corners are merged.
// spec: bench README "Load".
func DecodeOBJ(r io.Reader, name string, read ReadFunc) (*Scene, error) {
	d, err := parseOBJ(r, name)
	if err != nil {
		return nil, err
	}
	meshes := d.build()
	matIndex := map[string]int{}
	var mats []Material
	var texs []Texture
	if read != nil {
		for _, lib := range d.mtllibs {
			data, err := read(lib)
			if err != nil {
				return nil, fmt.Errorf("%s: mtllib %s: %w", name, lib, err)
			}
			if err := parseMTL(data, lib, read, &mats, &texs, matIndex); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	for i, g := range d.groups {
		meshes[i].Material = -1
		if g.material == "" {
			continue
		}
		mi, ok := matIndex[g.material]
		if !ok {
			m := DefaultMaterial()
			m.Name = g.material
			m.MetallicFactor = 0
			mi = len(mats)
			mats = append(mats, m)
			matIndex[g.material] = mi
		}
		meshes[i].Material = mi
	}
	s := SingleMeshScene(meshes, mats, texs)
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// utf8BOM is the byte-order mark some exporters put at the start of a file.
const utf8BOM = "\xEF\xBB\xBF"

// nextField splits off the first space- or tab-separated field of b.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	return b[i:j], b[j:]
}

func parseFinite(b []byte) (float32, error) {
	f, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", b)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("non-finite number %q", b)
	}
	return float32(f), nil
}

// parseFloats appends between lo and hi numbers from rest to dst (missing
// optional ones become def) and ignores any further fields.
func parseFloats(dst []float32, rest []byte, lo, hi int, def float32) ([]float32, error) {
	n := 0
	for ; n < hi; n++ {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			break
		}
		v, err := parseFinite(f)
		if err != nil {
			return dst, err
		}
		dst = append(dst, v)
	}
	if n < lo {
		return dst, fmt.Errorf("want %d numbers, got %d", lo, n)
	}
	for ; n < hi; n++ {
		dst = append(dst, def)
	}
	return dst, nil
}

// objIndex resolves a 1-based or negative OBJ index against count elements.
func objIndex(b []byte, count int, what string) (int32, error) {
	n, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("bad %s index %q", what, b)
	}
	var i int64
	switch {
	case n > 0:
		i = n - 1
	case n < 0:
		i = int64(count) + n
	default:
		return 0, fmt.Errorf("%s index 0 (indices start at 1)", what)
	}
	if i < 0 || i >= int64(count) {
		return 0, fmt.Errorf("%s index %d out of range (%d defined)", what, n, count)
	}
	return int32(i), nil
}

func parseCorner(f []byte, d *objData) (objCorner, error) {
	c := objCorner{-1, -1, -1}
	parts := [3][]byte{}
	k := 0
	start := 0
	for i := 0; i <= len(f); i++ {
		if i == len(f) || f[i] == '/' {
			if k == 3 {
				return c, fmt.Errorf("bad face corner %q", f)
			}
			parts[k] = f[start:i]
			k++
			start = i + 1
		}
	}
	var err error
	if c.v, err = objIndex(parts[0], len(d.v)/3, "position"); err != nil {
		return c, err
	}
	if len(parts[1]) > 0 {
		if c.vt, err = objIndex(parts[1], len(d.vt)/2, "texcoord"); err != nil {
			return c, err
		}
	}
	if len(parts[2]) > 0 {
		if c.vn, err = objIndex(parts[2], len(d.vn)/3, "normal"); err != nil {
			return c, err
		}
	}
	return c, nil
}

func parseOBJ(r io.Reader, name string) (*objData, error) {
	d := &objData{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	groupName, material := "", ""
	var face []objCorner
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte(utf8BOM))
		}
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		b = bytes.TrimRight(b, " \t\r")
		kw, rest := nextField(b)
		var err error
		switch string(kw) {
		case "v":
			d.v, err = parseFloats(d.v, rest, 3, 3, 0)
		case "vt":
			d.vt, err = parseFloats(d.vt, rest, 1, 2, 0)
		case "vn":
			d.vn, err = parseFloats(d.vn, rest, 3, 3, 0)
		case "f":
			face = face[:0]
			for {
				var f []byte
				f, rest = nextField(rest)
				if len(f) == 0 {
					break
				}
				var c objCorner
				if c, err = parseCorner(f, d); err != nil {
					break
				}
				face = append(face, c)
			}
			if err == nil && len(face) < 3 {
				err = fmt.Errorf("face with %d corners", len(face))
			}
			if err == nil {
				d.group(groupName, material).addFace(face)
			}
		case "o", "g":
			groupName = string(bytes.TrimSpace(rest))
		case "usemtl":
			material = string(bytes.TrimSpace(rest))
		case "mtllib":
			for {
				var f []byte
				f, rest = nextField(rest)
				if len(f) == 0 {
					break
				}
				d.mtllibs = append(d.mtllibs, string(f))
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", name, line, kw, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return d, nil
}

// positionNormals returns, per position, the normalised sum of the
// unnormalised face normals of every triangle using it (float64 sums,
// (0,0,0) when the sum is zero). spec: bench README "Load".
func (d *objData) positionNormals() []float32 {
	acc := make([]float64, len(d.v))
	for gi := range d.groups {
		cs := d.groups[gi].corners
		for t := 0; t+2 < len(cs); t += 3 {
			a, b, c := cs[t].v, cs[t+1].v, cs[t+2].v
			var p [3][3]float64
			for k, ix := range [3]int32{a, b, c} {
				p[k] = [3]float64{float64(d.v[3*ix]), float64(d.v[3*ix+1]), float64(d.v[3*ix+2])}
			}
			e1 := [3]float64{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]}
			e2 := [3]float64{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]}
			n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
			for _, ix := range [3]int32{a, b, c} {
				acc[3*ix] += n[0]
				acc[3*ix+1] += n[1]
				acc[3*ix+2] += n[2]
			}
		}
	}
	out := make([]float32, len(d.v))
	for i := 0; i+2 < len(acc); i += 3 {
		l := math.Sqrt(acc[i]*acc[i] + acc[i+1]*acc[i+1] + acc[i+2]*acc[i+2])
		if l == 0 || math.IsInf(l, 0) || math.IsNaN(l) {
			continue
		}
		out[i], out[i+1], out[i+2] = float32(acc[i]/l), float32(acc[i+1]/l), float32(acc[i+2]/l)
	}
	return out
}

// build merges identical corners (same position, normal and texcoord
// values) into vertices, one Mesh per group. Material is left to the caller.
func (d *objData) build() []Mesh {
	needNormals := false
	for gi := range d.groups {
		for _, c := range d.groups[gi].corners {
			if c.vn < 0 {
				needNormals = true
				break
			}
		}
	}
	var pn []float32
	if needNormals {
		pn = d.positionNormals()
	}
	meshes := make([]Mesh, len(d.groups))
	type key [8]uint32
	// Stage 1 gives each distinct (v, vt, vn) triple an id, with a
	// per-position slot for the first triple seen there (the common case)
	// and a map for the rest; stage 2 merges triples with equal values.
	type slot struct{ group, vt, vn, id int32 }
	first := make([]slot, len(d.v)/3)
	for i := range first {
		first[i].group = -1
	}
	for gi := range d.groups {
		g := &d.groups[gi]
		m := &meshes[gi]
		m.Name = g.name
		if m.Name == "" {
			m.Name = g.material
		}
		hasUV := false
		for _, c := range g.corners {
			if c.vt >= 0 {
				hasUV = true
				break
			}
		}
		var triples []objCorner
		extra := map[objCorner]int32{}
		ids := make([]int32, len(g.corners))
		for i, c := range g.corners {
			s := &first[c.v]
			switch {
			case s.group != int32(gi):
				*s = slot{group: int32(gi), vt: c.vt, vn: c.vn, id: int32(len(triples))}
				triples = append(triples, c)
				ids[i] = s.id
			case s.vt == c.vt && s.vn == c.vn:
				ids[i] = s.id
			default:
				id, ok := extra[c]
				if !ok {
					id = int32(len(triples))
					extra[c] = id
					triples = append(triples, c)
				}
				ids[i] = id
			}
		}
		seen := make(map[key]uint32, len(triples))
		vertexOf := make([]uint32, len(triples))
		m.Positions = make([]float32, 0, 3*len(triples))
		m.Normals = make([]float32, 0, 3*len(triples))
		if hasUV {
			m.Texcoords = make([]float32, 0, 2*len(triples))
		}
		for ti, c := range triples {
			var v [8]float32
			copy(v[0:3], d.v[3*c.v:3*c.v+3])
			if c.vn >= 0 {
				copy(v[3:6], d.vn[3*c.vn:3*c.vn+3])
			} else {
				copy(v[3:6], pn[3*c.v:3*c.v+3])
			}
			if c.vt >= 0 {
				copy(v[6:8], d.vt[2*c.vt:2*c.vt+2])
			}
			var k key
			for i := range v {
				k[i] = math.Float32bits(v[i])
			}
			ix, ok := seen[k]
			if !ok {
				ix = uint32(len(m.Positions) / 3)
				seen[k] = ix
				m.Positions = append(m.Positions, v[0], v[1], v[2])
				m.Normals = append(m.Normals, v[3], v[4], v[5])
				if hasUV {
					m.Texcoords = append(m.Texcoords, v[6], v[7])
				}
			}
			vertexOf[ti] = ix
		}
		m.Indices = make([]uint32, len(ids))
		for i, id := range ids {
			m.Indices[i] = vertexOf[id]
		}
	}
	return meshes
}
