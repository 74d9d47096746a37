// Package gltfbuild writes small glTF 2.0 documents in code — one buffer as
// a base64 data: URI, accessors appended from Go slices — for tests that
// need an asset with exactly the feature they check (a skin, a morph
// target, an animation curve, a vertex colour) and for fuzz seeds. It
// knows nothing of package scene, which reads what it writes.
package gltfbuild

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
)

// Doc is a glTF document under construction. Fields other than the buffer
// are plain JSON values (maps and slices) that a test fills in directly.
type Doc struct {
	// JSON holds the top-level properties other than buffers, bufferViews
	// and accessors, e.g. "nodes", "meshes", "materials", "animations".
	JSON map[string]any

	bin       []byte
	views     []map[string]any
	accessors []map[string]any
}

// New returns an empty glTF 2.0 document with one scene of no nodes.
func New() *Doc {
	return &Doc{JSON: map[string]any{"asset": map[string]any{"version": "2.0"}}}
}

// add appends raw bytes (4-byte aligned) as a new buffer view.
func (d *Doc) add(b []byte) int {
	for len(d.bin)%4 != 0 {
		d.bin = append(d.bin, 0)
	}
	d.views = append(d.views, map[string]any{"buffer": 0, "byteOffset": len(d.bin), "byteLength": len(b)})
	d.bin = append(d.bin, b...)
	return len(d.views) - 1
}

// Floats appends an accessor of float components of the given type
// ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4") and returns its index; for
// POSITION accessors min and max are filled in as glTF requires.
func (d *Doc) Floats(typ string, v []float32) int {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	n := comps(typ)
	a := map[string]any{"bufferView": d.add(b), "componentType": 5126, "count": len(v) / n, "type": typ}
	if typ == "VEC3" && len(v) >= 3 {
		lo, hi := make([]float32, 3), make([]float32, 3)
		copy(lo, v[:3])
		copy(hi, v[:3])
		for i := 3; i < len(v); i++ {
			lo[i%3], hi[i%3] = min(lo[i%3], v[i]), max(hi[i%3], v[i])
		}
		a["min"], a["max"] = lo, hi
	}
	d.accessors = append(d.accessors, a)
	return len(d.accessors) - 1
}

// Ints appends an accessor of integer components — componentType 5120
// (byte), 5121 (unsigned byte), 5122 (short), 5123 (unsigned short) or 5125
// (unsigned int), optionally normalized; v holds the bits (two's
// complement for the signed types) — and returns its index.
func (d *Doc) Ints(typ string, componentType int, normalized bool, v []uint32) int {
	size, ok := map[int]int{5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4}[componentType]
	if !ok {
		panic("gltfbuild: not an integer component type")
	}
	b := make([]byte, size*len(v))
	for i, x := range v {
		switch size {
		case 1:
			b[i] = byte(x)
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		default:
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
	}
	a := map[string]any{"bufferView": d.add(b), "componentType": componentType, "count": len(v) / comps(typ), "type": typ}
	if normalized {
		a["normalized"] = true
	}
	d.accessors = append(d.accessors, a)
	return len(d.accessors) - 1
}

func comps(typ string) int {
	switch typ {
	case "VEC2":
		return 2
	case "VEC3":
		return 3
	case "VEC4":
		return 4
	case "MAT4":
		return 16
	}
	return 1
}

// Append adds v to the top-level array property name (creating it) and
// returns v's index there.
func (d *Doc) Append(name string, v any) int {
	arr, _ := d.JSON[name].([]any)
	d.JSON[name] = append(arr, v)
	return len(arr)
}

// Bytes returns the document as glTF JSON with the buffer as a data: URI.
func (d *Doc) Bytes() []byte {
	out := map[string]any{}
	for k, v := range d.JSON {
		out[k] = v
	}
	if len(d.bin) > 0 {
		out["buffers"] = []any{map[string]any{"byteLength": len(d.bin),
			"uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(d.bin)}}
		out["bufferViews"] = d.views
		out["accessors"] = d.accessors
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // only maps, slices and numbers: cannot fail
	}
	return b
}
