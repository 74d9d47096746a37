package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// gltfLoader holds one glTF document while it is turned into a Scene.
type gltfLoader struct {
	name    string
	read    ReadFunc
	doc     gltfDoc
	bin     []byte // the GLB BIN chunk, nil for .gltf
	hasBin  bool
	buffers map[int][]byte
	// warnings are the features left out (Scene.Warnings); warned the keys
	// of those named once per file (warnOnce).
	warnings []string
	warned   map[string]bool
	// materials are the decoded materials, which primitives read (decoded
	// before the meshes).
	materials []Material
}

// pathError formats an error naming the file and the JSON path.
func (l *gltfLoader) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", l.name, path, fmt.Sprintf(format, args...))
}

// LoadGLTF loads a .gltf or .glb file (chosen by its first bytes) and the
// buffers and images it names relative to its directory.
// spec: glTF 2.0 §3 (concepts), §4 (GLB file format).
func LoadGLTF(path string) (*Scene, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gltf: %w", err)
	}
	return DecodeGLTF(data, path, DirReader(filepath.Dir(path)))
}

// DecodeGLTF decodes glTF JSON or a GLB container named name (for
// messages); read resolves external buffer and image URIs (nil: only
// data: URIs and the GLB BIN chunk are available).
func DecodeGLTF(data []byte, name string, read ReadFunc) (*Scene, error) {
	l := &gltfLoader{name: name, read: read, buffers: map[int][]byte{}}
	js := data
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		var err error
		js, l.bin, l.hasBin, err = splitGLB(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := json.Unmarshal(js, &l.doc); err != nil {
		return nil, fmt.Errorf("%s: JSON: %w", name, err)
	}
	return l.scene()
}

// buffer returns buffers[i] (its first byteLength bytes).
func (l *gltfLoader) buffer(i int) ([]byte, error) {
	path := fmt.Sprintf("buffers[%d]", i)
	if i < 0 || i >= len(l.doc.Buffers) {
		return nil, l.errorf(path, "out of range (%d buffers)", len(l.doc.Buffers))
	}
	if b, ok := l.buffers[i]; ok {
		return b, nil
	}
	bf := l.doc.Buffers[i]
	if bf.ByteLength < 1 {
		return nil, l.errorf(path+".byteLength", "%d, want >= 1", bf.ByteLength)
	}
	var data []byte
	switch {
	case bf.URI == "":
		if i != 0 || !l.hasBin {
			return nil, l.errorf(path, "no uri and no GLB BIN chunk")
		}
		data = l.bin
	default:
		var err error
		if data, err = l.loadURI(bf.URI); err != nil {
			return nil, l.errorf(path+".uri", "%v", err)
		}
	}
	if int64(len(data)) < bf.ByteLength {
		return nil, l.errorf(path+".byteLength", "%d but only %d bytes are present", bf.ByteLength, len(data))
	}
	data = data[:bf.ByteLength]
	l.buffers[i] = data
	return data, nil
}

// loadURI returns a data: URI's bytes (base64 only, as glTF requires) or
// reads a relative file.
func (l *gltfLoader) loadURI(uri string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		meta, payload, found := strings.Cut(rest, ",")
		if !found {
			return nil, fmt.Errorf("data URI without a comma")
		}
		if !strings.HasSuffix(meta, ";base64") {
			return nil, fmt.Errorf("data URI is not base64")
		}
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(payload)
		}
		if err != nil {
			return nil, fmt.Errorf("bad base64 in data URI: %v", err)
		}
		return b, nil
	}
	if l.read == nil {
		return nil, fmt.Errorf("external file %q and no file access", uri)
	}
	rel, err := url.PathUnescape(uri)
	if err != nil {
		return nil, fmt.Errorf("bad URI %q: %v", uri, err)
	}
	if strings.Contains(rel, "://") {
		return nil, fmt.Errorf("URI %q is not a relative path", uri)
	}
	return l.read(rel)
}

// bufferView returns the bytes of bufferViews[i] and its stride.
func (l *gltfLoader) bufferView(i int, path string) ([]byte, int64, error) {
	if i < 0 || i >= len(l.doc.BufferViews) {
		return nil, 0, l.errorf(path, "bufferView %d out of range (%d bufferViews)", i, len(l.doc.BufferViews))
	}
	bv := l.doc.BufferViews[i]
	bp := fmt.Sprintf("bufferViews[%d]", i)
	buf, err := l.buffer(bv.Buffer)
	if err != nil {
		return nil, 0, fmt.Errorf("%s.buffer: %w", bp, err)
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 1 || bv.ByteOffset > int64(len(buf)) || bv.ByteLength > int64(len(buf))-bv.ByteOffset {
		return nil, 0, l.errorf(bp, "bytes [%d, +%d) outside buffer %d of %d bytes", bv.ByteOffset, bv.ByteLength, bv.Buffer, len(buf))
	}
	if bv.ByteStride != 0 && (bv.ByteStride < 4 || bv.ByteStride > 252 || bv.ByteStride%4 != 0) {
		return nil, 0, l.errorf(bp+".byteStride", "%d, want a multiple of 4 in [4, 252]", bv.ByteStride)
	}
	return buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv.ByteStride, nil
}

// accessorLayout is the byte layout of one accessor element.
type accessorLayout struct {
	ct         int
	comps      int // components per element
	rows       int // components per column
	colStride  int // bytes between matrix columns
	elemSize   int
	normalized bool
}

func (l *gltfLoader) layout(a *gltfAccessor, path string) (accessorLayout, error) {
	cs := componentSize(a.ComponentType)
	if cs == 0 {
		return accessorLayout{}, l.errorf(path+".componentType", "%d is not a glTF component type", a.ComponentType)
	}
	cols, rows := typeShape(a.Type)
	if cols == 0 {
		return accessorLayout{}, l.errorf(path+".type", "%q is not a glTF accessor type", a.Type)
	}
	if a.Normalized && (a.ComponentType == gltfFloat || a.ComponentType == gltfUnsignedInt) {
		return accessorLayout{}, l.errorf(path+".normalized", "true with component type %d", a.ComponentType)
	}
	lay := accessorLayout{ct: a.ComponentType, comps: cols * rows, rows: rows, colStride: rows * cs, normalized: a.Normalized}
	if cols > 1 {
		// Matrix columns start on 4-byte boundaries (glTF 2.0 §3.6.2.4).
		lay.colStride = (rows*cs + 3) &^ 3
	}
	lay.elemSize = cols * lay.colStride
	return lay, nil
}

func (lay *accessorLayout) component(e []byte, k int) float64 {
	off := (k/lay.rows)*lay.colStride + (k%lay.rows)*componentSize(lay.ct)
	b := e[off:]
	switch lay.ct {
	case gltfByte:
		v := float64(int8(b[0]))
		if lay.normalized {
			return math.Max(v/127, -1)
		}
		return v
	case gltfUnsignedByte:
		v := float64(b[0])
		if lay.normalized {
			return v / 255
		}
		return v
	case gltfShort:
		v := float64(int16(binary.LittleEndian.Uint16(b)))
		if lay.normalized {
			return math.Max(v/32767, -1)
		}
		return v
	case gltfUnsignedShort:
		v := float64(binary.LittleEndian.Uint16(b))
		if lay.normalized {
			return v / 65535
		}
		return v
	case gltfUnsignedInt:
		return float64(binary.LittleEndian.Uint32(b))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// maxElements bounds accessor counts and maxValues their component totals
// so that a hostile count cannot exhaust memory.
const (
	maxElements   = 1 << 25
	maxValues     = 1 << 25
	maxSparseOnly = 1 << 22 // zero-initialised accessors cost memory but no file bytes
)

// accessor decodes accessors[i] to float64 values, comps per element,
// applying normalization and sparse substitution. Every byte range and
// index is checked. spec: glTF 2.0 §3.6.2 (accessors), §3.6.2.3 (sparse).
func (l *gltfLoader) accessor(i int, path string) ([]float64, *gltfAccessor, error) {
	if i < 0 || i >= len(l.doc.Accessors) {
		return nil, nil, l.errorf(path, "accessor %d out of range (%d accessors)", i, len(l.doc.Accessors))
	}
	a := &l.doc.Accessors[i]
	ap := fmt.Sprintf("accessors[%d]", i)
	lay, err := l.layout(a, ap)
	if err != nil {
		return nil, nil, err
	}
	if a.Count < 1 || a.Count > maxElements {
		return nil, nil, l.errorf(ap+".count", "%d out of range [1, %d]", a.Count, maxElements)
	}
	if a.ByteOffset < 0 {
		return nil, nil, l.errorf(ap+".byteOffset", "negative (%d)", a.ByteOffset)
	}
	if a.Count*int64(lay.comps) > maxValues {
		return nil, nil, l.errorf(ap+".count", "%d elements of %d components is more than %d values", a.Count, lay.comps, maxValues)
	}
	var out []float64
	if a.BufferView != nil {
		view, stride, err := l.bufferView(*a.BufferView, ap+".bufferView")
		if err != nil {
			return nil, nil, err
		}
		if stride == 0 {
			stride = int64(lay.elemSize)
		}
		if stride < int64(lay.elemSize) && a.Count > 1 {
			return nil, nil, l.errorf(ap, "byteStride %d smaller than the element size %d", stride, lay.elemSize)
		}
		end := a.ByteOffset + stride*(a.Count-1) + int64(lay.elemSize)
		if end > int64(len(view)) {
			return nil, nil, l.errorf(ap, "needs bytes [%d, %d) of bufferView %d, which has %d", a.ByteOffset, end, *a.BufferView, len(view))
		}
		out = make([]float64, int(a.Count)*lay.comps)
		for e := int64(0); e < a.Count; e++ {
			el := view[a.ByteOffset+e*stride:]
			for k := 0; k < lay.comps; k++ {
				out[int(e)*lay.comps+k] = lay.component(el, k)
			}
		}
	} else {
		if a.Sparse == nil {
			return nil, nil, l.errorf(ap, "neither bufferView nor sparse")
		}
		if a.Count > maxSparseOnly {
			return nil, nil, l.errorf(ap+".count", "%d elements without a bufferView, more than %d", a.Count, maxSparseOnly)
		}
		out = make([]float64, int(a.Count)*lay.comps)
	}
	if a.Sparse != nil {
		if err := l.applySparse(a, ap, lay, out); err != nil {
			return nil, nil, err
		}
	}
	return out, a, nil
}

func (l *gltfLoader) applySparse(a *gltfAccessor, ap string, lay accessorLayout, out []float64) error {
	sp := a.Sparse
	spp := ap + ".sparse"
	if sp.Count < 1 || sp.Count > a.Count {
		return l.errorf(spp+".count", "%d out of range [1, %d]", sp.Count, a.Count)
	}
	ict := sp.Indices.ComponentType
	ics := componentSize(ict)
	if ict != gltfUnsignedByte && ict != gltfUnsignedShort && ict != gltfUnsignedInt {
		return l.errorf(spp+".indices.componentType", "%d, want 5121, 5123 or 5125", ict)
	}
	iv, _, err := l.bufferView(sp.Indices.BufferView, spp+".indices.bufferView")
	if err != nil {
		return err
	}
	if sp.Indices.ByteOffset < 0 || sp.Indices.ByteOffset+sp.Count*int64(ics) > int64(len(iv)) {
		return l.errorf(spp+".indices", "%d indices at byte %d overrun bufferView %d (%d bytes)", sp.Count, sp.Indices.ByteOffset, sp.Indices.BufferView, len(iv))
	}
	vv, _, err := l.bufferView(sp.Values.BufferView, spp+".values.bufferView")
	if err != nil {
		return err
	}
	if sp.Values.ByteOffset < 0 || sp.Values.ByteOffset+sp.Count*int64(lay.elemSize) > int64(len(vv)) {
		return l.errorf(spp+".values", "%d values at byte %d overrun bufferView %d (%d bytes)", sp.Count, sp.Values.ByteOffset, sp.Values.BufferView, len(vv))
	}
	for s := int64(0); s < sp.Count; s++ {
		b := iv[sp.Indices.ByteOffset+s*int64(ics):]
		var idx int64
		switch ict {
		case gltfUnsignedByte:
			idx = int64(b[0])
		case gltfUnsignedShort:
			idx = int64(binary.LittleEndian.Uint16(b))
		default:
			idx = int64(binary.LittleEndian.Uint32(b))
		}
		if idx >= a.Count {
			return l.errorf(fmt.Sprintf("%s.indices[%d]", spp, s), "%d out of range (count %d)", idx, a.Count)
		}
		el := vv[sp.Values.ByteOffset+s*int64(lay.elemSize):]
		for k := 0; k < lay.comps; k++ {
			out[int(idx)*lay.comps+k] = lay.component(el, k)
		}
	}
	return nil
}

// floatAttribute decodes an accessor that must have the given type.
func (l *gltfLoader) floatAttribute(i int, path, typ string) ([]float32, int64, error) {
	vals, a, err := l.accessor(i, path)
	if err != nil {
		return nil, 0, err
	}
	if a.Type != typ {
		return nil, 0, l.errorf(path, "accessor %d has type %s, want %s", i, a.Type, typ)
	}
	out := make([]float32, len(vals))
	cols, rows := typeShape(typ)
	for k, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, l.errorf(path, "accessor %d element %d is not finite", i, k/(cols*rows))
		}
		out[k] = float32(v)
	}
	return out, a.Count, nil
}

// indices decodes an index accessor (SCALAR of unsigned integers).
func (l *gltfLoader) indices(i int, path string, vertices int64) ([]uint32, error) {
	vals, a, err := l.accessor(i, path)
	if err != nil {
		return nil, err
	}
	if a.Type != "SCALAR" || a.Normalized ||
		(a.ComponentType != gltfUnsignedByte && a.ComponentType != gltfUnsignedShort && a.ComponentType != gltfUnsignedInt) {
		return nil, l.errorf(path, "accessor %d is %s of %d, want SCALAR unsigned byte/short/int", i, a.Type, a.ComponentType)
	}
	out := make([]uint32, len(vals))
	for k, v := range vals {
		if v >= float64(vertices) {
			return nil, l.errorf(fmt.Sprintf("%s (accessor %d) element %d", path, i, k), "index %d out of range (%d vertices)", int64(v), vertices)
		}
		out[k] = uint32(v)
	}
	return out, nil
}

// image decodes images[i] (PNG or JPEG from a URI or a bufferView).
func (l *gltfLoader) image(i int, path string) (*Texture, error) {
	if i < 0 || i >= len(l.doc.Images) {
		return nil, l.errorf(path, "image %d out of range (%d images)", i, len(l.doc.Images))
	}
	im := l.doc.Images[i]
	ip := fmt.Sprintf("images[%d]", i)
	var data []byte
	switch {
	case im.BufferView != nil:
		if im.MimeType != "image/png" && im.MimeType != "image/jpeg" {
			return nil, l.errorf(ip+".mimeType", "%q, want image/png or image/jpeg", im.MimeType)
		}
		var err error
		if data, _, err = l.bufferView(*im.BufferView, ip+".bufferView"); err != nil {
			return nil, err
		}
	case im.URI != "":
		var err error
		if data, err = l.loadURI(im.URI); err != nil {
			return nil, l.errorf(ip+".uri", "%v", err)
		}
	default:
		return nil, l.errorf(ip, "neither uri nor bufferView")
	}
	img, err := DecodeImage(bytes.Clone(data), ip)
	if err != nil {
		return nil, l.errorf(ip, "%v", err)
	}
	name := im.Name
	if name == "" {
		name = im.URI
		if strings.HasPrefix(name, "data:") {
			name = ""
		}
	}
	return &Texture{Name: name, Image: img}, nil
}
