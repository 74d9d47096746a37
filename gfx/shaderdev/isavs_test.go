package shaderdev

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// vsCorpus are vertex programs for the machine-code differential test. exact
// ones use only ops codegen promises the executor's bits for (package codegen
// doc: arithmetic, fma, sqrt, rounding, conversions, compares, integer ops);
// the others use the transcendental sequences and are compared within
// vsTol. Each declares the fragment stage's inputs in its second source.
var vsCorpus = []struct {
	name  string
	exact bool
	vs    string
	fs    string
}{
	{"transform", true, `#version 140
uniform mat4 u_mvp;
in vec4 a_pos;
in vec3 a_col;
out vec3 v_col;
void main() { gl_Position = u_mvp * a_pos; v_col = a_col * 0.5 + 0.25; }`, `#version 140
in vec3 v_col; out vec4 o; void main() { o = vec4(v_col, 1.0); }`},
	{"ids-and-ints", true, `#version 140
in vec4 a_pos;
in ivec2 a_i;
flat out int v_a;
flat out uint v_b;
out float v_c;
void main() {
	gl_Position = a_pos;
	v_a = gl_VertexID * 3 + gl_InstanceID - a_i.x / max(abs(a_i.y), 1);
	v_b = uint(a_i.x) >> 3u ^ uint(gl_VertexID) * 2654435761u;
	v_c = float(a_i.x % 7) + fract(a_pos.x) + floor(a_pos.y) - ceil(a_pos.z) + trunc(a_pos.w);
}`, `#version 140
flat in int v_a; flat in uint v_b; in float v_c; out vec4 o;
void main() { o = vec4(float(v_a), float(v_b), v_c, 1.0); }`},
	{"control-flow", true, `#version 140
uniform float u_k[4];
in vec4 a_pos;
out vec4 v_c;
void main() {
	vec4 acc = vec4(0.0);
	for (int i = 0; i < 4; i++) {
		if (a_pos[i] < 0.0) continue;
		acc += a_pos * u_k[i];
		if (acc.x > 100.0) break;
	}
	if (a_pos.w == 0.0) { gl_Position = vec4(1.0); v_c = vec4(2.0); return; }
	gl_Position = acc;
	v_c = a_pos.yzwx * sqrt(abs(a_pos)) + clamp(a_pos, -1.0, 1.0) * mix(a_pos, acc, 0.25);
}`, `#version 140
in vec4 v_c; out vec4 o; void main() { o = v_c; }`},
	{"denormals", true, `#version 140
uniform float u_s;
in vec4 a_pos;
out vec4 v_c;
void main() {
	gl_Position = a_pos * u_s;
	v_c = a_pos * 1e-30 + a_pos * a_pos * 1e-20 - vec4(1e-38) / (a_pos + 2.0);
}`, `#version 140
in vec4 v_c; out vec4 o; void main() { o = v_c; }`},
	{"denormals-direct", true, `#version 140
uniform float u_s;
in vec4 a_pos;
out vec4 v_c;
out vec4 v_d;
void main() {
	gl_Position = vec4(a_pos.x * 1e-38, -a_pos.y * 3e-39, (a_pos.z - a_pos.w) * 1e-37, a_pos.w / 1e38);
	v_c = vec4(u_s * a_pos.x, -u_s * a_pos.y, a_pos.z * u_s - a_pos.w * u_s, (a_pos.x + 1e-38) - 1e-38);
	v_d = vec4(a_pos.x / -3e38, a_pos.y * a_pos.z * 1e-39, mod(a_pos.x * 1e-38, 1e-37), 1e-20 * a_pos.w * 1e-19);
}`, `#version 140
in vec4 v_c; in vec4 v_d; out vec4 o; void main() { o = v_c + v_d; }`},
	{"lighting", false, `#version 140
uniform mat4 u_mvp;
uniform mat3 u_nm;
uniform vec3 u_light;
in vec4 a_pos;
in vec3 a_nrm;
out vec3 v_c;
void main() {
	gl_Position = u_mvp * a_pos;
	vec3 n = normalize(u_nm * a_nrm);
	float d = max(dot(n, normalize(u_light)), 0.0);
	v_c = vec3(d, pow(d + 0.5, 8.0), exp(-abs(a_pos.x))) + sin(a_pos.xyz) * 0.1;
}`, `#version 140
in vec3 v_c; out vec4 o; void main() { o = vec4(v_c, 1.0); }`},
}

// isaRig is a bare device (no CP) with a program's VS module loaded twice: the
// Go vertex kernel at goEntry and its machine code at isaEntry.
type isaRig struct {
	m                 *mem.Device
	d                 *device.Device
	sp                *Program
	goEntry, isaEntry uint64
	lmem              uint32
	codeWords         int
}

const isaRigThreads, isaRigWarps, isaRigGrid = 4, 2, 3

func newISARig(t *testing.T, name, vs, fs string) *isaRig {
	t.Helper()
	cp, err := shader.Compile(shader.Source{Name: name + ".vert", Stage: glsl.Vertex, Text: vs},
		shader.Source{Name: name + ".frag", Stage: glsl.Fragment, Text: fs})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewProgram(name, cp.IR)
	if err != nil {
		t.Fatal(err)
	}
	m := mem.NewDevice(0x1000_0000, 1<<22)
	lib := device.NewLibrary()
	if err := sp.Register(lib); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Device.Threads, cfg.Device.Warps, cfg.Device.Cores = isaRigThreads, isaRigWarps, config.CoresISA
	d, err := device.New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	k, err := sp.VertexKernel(isaRigThreads*isaRigWarps, uint32(cfg.Device.LocalMemBytes))
	if err != nil {
		t.Fatalf("%s: codegen refuses the vertex stage: %v", name, err)
	}
	payload := make([]byte, 4*len(k.Code))
	for i, w := range k.Code {
		binary.LittleEndian.PutUint32(payload[4*i:], w)
	}
	img, err := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("go", sp.vsName()),
		{Name: "isa", Kind: abi.KernelCode, Payload: payload}})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := abi.DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	base, err := m.Alloc(uint64(len(img)), 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	r := &isaRig{m: m, d: d, sp: sp, lmem: k.Layout.LMemBytes(), codeWords: len(k.Code)}
	for _, e := range ents {
		if e.Name == "go" {
			r.goEntry = base + uint64(e.EntryOffset)
		} else {
			r.isaEntry = base + uint64(e.EntryOffset)
		}
	}
	return r
}

func (r *isaRig) alloc(t *testing.T, n int) uint64 {
	a, err := r.m.Alloc(uint64(max(n, 4)), 64)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (r *isaRig) put(t *testing.T, addr uint64, b []byte) {
	if err := r.m.Write(addr, b); err != nil {
		t.Fatal(err)
	}
}

// launch runs the entry at pc over the rig's grid with the arg block at args.
func (r *isaRig) launch(pc, args uint64, lmem uint32) (device.LaunchStats, error) {
	var st device.LaunchStats
	r.d.SetLaunchObserver(func(_ uint64, s device.LaunchStats) { st = s })
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, uint32(pc &^ 0xfff)}, {abi.DCRStartupAddr1, 0},
		{abi.DCRKernelEntry0, uint32(pc)}, {abi.DCRKernelEntry1, 0},
		{abi.DCRStartupArg0, uint32(args)}, {abi.DCRStartupArg1, uint32(args >> 32)},
		{abi.DCRBlockDimX, isaRigThreads * isaRigWarps}, {abi.DCRBlockDimY, 1}, {abi.DCRBlockDimZ, 1},
		{abi.DCRGridDimX, isaRigGrid}, {abi.DCRGridDimY, 1}, {abi.DCRGridDimZ, 1}, {abi.DCRLMemSize, lmem},
		{abi.DCRBlockSize, isaRigThreads * isaRigWarps},
		{abi.DCRWarpStepX, isaRigThreads}, {abi.DCRWarpStepY, 0}, {abi.DCRWarpStepZ, 0},
		{abi.DCRClusterDimX, 1}, {abi.DCRClusterDimY, 1}, {abi.DCRClusterDimZ, 1},
	} {
		if err := r.d.DCRWrite(w.a, w.v); err != nil {
			return st, err
		}
	}
	_, err := r.d.Launch(context.Background())
	return st, err
}

// vsDraw is one vertex-stage launch's inputs.
type vsDraw struct {
	count, vpi, baseInst uint64
	baseVert             int32
	indexed              bool
	divisor              []uint64 // per attribute (0: per vertex)
}

// randWord is a random attribute or uniform word: mostly moderate floats, with
// zeros, negative zeros and, when wild, denormals, large values, infinities and
// integers (outside the domains the transcendental sequences' bounds hold on).
func randWord(rng *rand.Rand, wild bool) uint32 {
	n := 2
	if wild {
		n = 16
	}
	switch rng.Intn(n) + 16 - n {
	case 0:
		return rng.Uint32() & 0x807f_ffff // a denormal
	case 1:
		return math.Float32bits(float32(rng.NormFloat64() * 1e30))
	case 2:
		return uint32(rng.Intn(64) - 32)
	case 3:
		return 0x7f80_0000 | rng.Uint32()&0x8000_0000
	case 14:
		return 0
	case 15:
		return 0x8000_0000
	}
	return math.Float32bits(float32(rng.NormFloat64() * 4))
}

// runVS runs the program's vertex stage for draw dr through entry pc and
// returns the records.
func (r *isaRig) runVS(t *testing.T, pc uint64, lmem uint32, dr vsDraw, wild bool, rng *rand.Rand) ([]byte, device.LaunchStats) {
	sp := r.sp
	const nv = 40 // attribute elements
	attrs := sp.Attributes()
	table := r.alloc(t, abi.VSAttribTableBytes(len(attrs)))
	tb := make([]byte, abi.VSAttribTableBytes(len(attrs)))
	for i, a := range attrs {
		stride := 4*a.Words + 4*rng.Intn(2)
		data := make([]byte, nv*stride)
		for k := 0; k+4 <= len(data); k += 4 {
			binary.LittleEndian.PutUint32(data[k:], randWord(rng, wild))
		}
		at := r.alloc(t, len(data))
		r.put(t, at, data)
		binary.LittleEndian.PutUint64(tb[abi.VSAttribEntryBytes*i:], at)
		binary.LittleEndian.PutUint64(tb[abi.VSAttribEntryBytes*i+8:], uint64(stride))
		binary.LittleEndian.PutUint64(tb[abi.VSAttribEntryBytes*i+16:], dr.divisor[i])
	}
	r.put(t, table, tb)
	var index uint64
	if dr.indexed {
		ib := make([]byte, 4*dr.count)
		for k := range dr.count {
			binary.LittleEndian.PutUint32(ib[4*k:], uint32(rng.Intn(nv-8)))
		}
		index = r.alloc(t, len(ib))
		r.put(t, index, ib)
	}
	uw := max(sp.UniformWords(), 1)
	ub := make([]byte, 4*uw)
	for k := 0; k < uw; k++ {
		binary.LittleEndian.PutUint32(ub[4*k:], math.Float32bits(float32(rng.NormFloat64())))
	}
	if strings.Contains(sp.name, "denormals") {
		binary.LittleEndian.PutUint32(ub, math.Float32bits(1e-36))
	}
	uni, desc := r.alloc(t, len(ub)), r.alloc(t, 8*abi.FSDescSlots)
	r.put(t, uni, ub)
	db := make([]byte, 8*abi.FSDescSlots)
	binary.LittleEndian.PutUint64(db, uni)
	r.put(t, desc, db)
	ow := sp.prog.VS.OutputWords
	recs := r.alloc(t, int(dr.count)*4*ow)
	r.put(t, recs, make([]byte, int(dr.count)*4*ow))
	args := make([]byte, 8*abi.ArgSlots)
	for slot, v := range map[int]uint64{abi.ArgVSOutput: recs, abi.ArgVSAttribTable: table, abi.ArgVSIndexBuffer: index,
		abi.ArgVSVertsPerInst: dr.vpi, abi.ArgVSBaseInstance: dr.baseInst, abi.ArgVSBaseVertex: uint64(uint32(dr.baseVert)),
		abi.ArgVSCount: dr.count, abi.ArgVSDescTable: desc} {
		binary.LittleEndian.PutUint64(args[8*slot:], v)
	}
	aa := r.alloc(t, len(args))
	r.put(t, aa, args)
	st, err := r.launch(pc, aa, lmem)
	if err != nil {
		t.Fatalf("%s: %v", sp.name, err)
	}
	out := make([]byte, int(dr.count)*4*ow)
	if err := r.m.Read(recs, out); err != nil {
		t.Fatal(err)
	}
	return out, st
}

// vsTol reports whether machine-code word g is within the transcendental
// sequences' bounds of the executor's x (package codegen doc: a few ulp, or
// 2^-22 absolute near 0, pow 2·10^-5 relative; composed here through
// normalize and dot, so 64 ulp or 2^-18 absolute).
func vsTol(g, x uint32) bool {
	if g == x {
		return true
	}
	a, b := math.Float32frombits(g), math.Float32frombits(x)
	if a != a && b != b {
		return true
	}
	d := math.Abs(float64(a) - float64(b))
	if d <= 1.0/(1<<18) {
		return true
	}
	return d <= 64*math.Abs(float64(b))*(1.0/(1<<23)) || d <= 2e-5*math.Abs(float64(b))
}

// TestVertexMachineCodeMatchesGoKernel runs each corpus program's vertex stage
// as the Go vertex kernel (the IR executor) and as machine code on the same arg
// block, attribute data (random words with zeros, denormals, infinities), index
// buffer and instancing, over a grid that needs several grid-stride passes, and
// compares every record word: bit for bit for the exact programs (a NaN computed
// by arithmetic may differ only in its payload), within vsTol for the others.
// spec: vortexpipe §2.3.2, §2.5; docs/ABI.md row 39
func TestVertexMachineCodeMatchesGoKernel(t *testing.T) {
	for _, c := range vsCorpus {
		t.Run(c.name, func(t *testing.T) {
			r := newISARig(t, c.name, c.vs, c.fs)
			rng := rand.New(rand.NewSource(int64(len(c.name))))
			na := len(r.sp.Attributes())
			for _, dr := range []vsDraw{
				{count: 1},
				{count: 61, indexed: true, baseVert: 3},
				{count: 3 * isaRigThreads * isaRigWarps * isaRigGrid, vpi: 12, baseInst: 2},
				{count: 50, vpi: 10, baseInst: 1, indexed: true, divisor: []uint64{0, 2, 1}},
			} {
				if len(dr.divisor) < na {
					dr.divisor = append(dr.divisor, make([]uint64, na-len(dr.divisor))...)
				}
				seed := rng.Int63()
				want, _ := r.runVS(t, r.goEntry, 0, dr, c.exact, rand.New(rand.NewSource(seed)))
				got, st := r.runVS(t, r.isaEntry, r.lmem, dr, c.exact, rand.New(rand.NewSource(seed)))
				if st.Instructions == 0 {
					t.Fatalf("%+v: the machine-code launch retired no instructions", dr)
				}
				t.Logf("%d vertices: %d warp instructions, %d thread instructions (%d code words)", dr.count, st.Instructions, st.ThreadInstructions, r.codeWords)
				bad := 0
				for k := 0; k+4 <= len(want); k += 4 {
					x, g := binary.LittleEndian.Uint32(want[k:]), binary.LittleEndian.Uint32(got[k:])
					ok := g == x
					if !ok && c.exact {
						ok = x&0x7f80_0000 == 0x7f80_0000 && x&0x7f_ffff != 0 && g == 0x7fc0_0000 // NaN payload
					}
					if !ok && !c.exact {
						ok = vsTol(g, x)
					}
					if !ok {
						if bad++; bad <= 5 {
							ow := r.sp.prog.VS.OutputWords
							t.Errorf("%+v: vertex %d word %d: machine code %#08x (%g), executor %#08x (%g)", dr, k/4/ow, k/4%ow,
								g, math.Float32frombits(g), x, math.Float32frombits(x))
						}
					}
				}
			}
		})
	}
}
