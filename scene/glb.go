package scene

import (
	"encoding/binary"
	"fmt"
)

// GLB container constants. spec: glTF 2.0 §4.4 (binary glTF layout).
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbVersion   = 2
	glbChunkJSON = 0x4E4F534A // "JSON"
	glbChunkBIN  = 0x004E4942 // "BIN\0"
	glbHeader    = 12
	glbChunkHead = 8
)

// splitGLB checks a GLB container and returns its JSON chunk and the
// optional BIN chunk. Unknown chunks after them are skipped.
// spec: glTF 2.0 §4.4.
func splitGLB(data []byte) (js, bin []byte, hasBin bool, err error) {
	if len(data) < glbHeader {
		return nil, nil, false, fmt.Errorf("GLB: %d bytes, shorter than the 12-byte header", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != glbVersion {
		return nil, nil, false, fmt.Errorf("GLB: version %d, want 2", v)
	}
	total := binary.LittleEndian.Uint32(data[8:])
	if uint64(total) != uint64(len(data)) {
		return nil, nil, false, fmt.Errorf("GLB: header length %d but the file has %d bytes", total, len(data))
	}
	off := uint64(glbHeader)
	for n := 0; off < uint64(len(data)); n++ {
		if uint64(len(data))-off < glbChunkHead {
			return nil, nil, false, fmt.Errorf("GLB: chunk %d at byte %d: truncated chunk header", n, off)
		}
		clen := uint64(binary.LittleEndian.Uint32(data[off:]))
		ctype := binary.LittleEndian.Uint32(data[off+4:])
		start := off + glbChunkHead
		if clen > uint64(len(data))-start {
			return nil, nil, false, fmt.Errorf("GLB: chunk %d at byte %d: length %d overruns the file (%d bytes left)", n, off, clen, uint64(len(data))-start)
		}
		chunk := data[start : start+clen]
		switch {
		case n == 0 && ctype != glbChunkJSON:
			return nil, nil, false, fmt.Errorf("GLB: chunk 0 has type 0x%08x, want JSON", ctype)
		case n == 0:
			js = chunk
		case n == 1 && ctype == glbChunkBIN:
			bin, hasBin = chunk, true
		}
		off = start + clen
	}
	if js == nil {
		return nil, nil, false, fmt.Errorf("GLB: no JSON chunk")
	}
	return js, bin, hasBin, nil
}

// appendGLB assembles a GLB container from JSON and BIN chunks (each padded
// to 4 bytes: JSON with spaces, BIN with zeros). spec: glTF 2.0 §4.4.
func appendGLB(dst, js, bin []byte) []byte {
	pad := func(n int) int { return (4 - n%4) % 4 }
	jl := len(js) + pad(len(js))
	total := glbHeader + glbChunkHead + jl
	if len(bin) > 0 {
		total += glbChunkHead + len(bin) + pad(len(bin))
	}
	dst = binary.LittleEndian.AppendUint32(dst, glbMagic)
	dst = binary.LittleEndian.AppendUint32(dst, glbVersion)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(total))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(jl))
	dst = binary.LittleEndian.AppendUint32(dst, glbChunkJSON)
	dst = append(dst, js...)
	for i := 0; i < pad(len(js)); i++ {
		dst = append(dst, ' ')
	}
	if len(bin) > 0 {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(bin)+pad(len(bin))))
		dst = binary.LittleEndian.AppendUint32(dst, glbChunkBIN)
		dst = append(dst, bin...)
		dst = append(dst, make([]byte, pad(len(bin)))...)
	}
	return dst
}
