package draw3d

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/device/tex"
	"vortexgfx/gfx/frontend"
)

// FragArgs is the draw3d fragment kernel's argument block (kernel_arg_t); its wire
// layout is abi.Draw3DFragArgs.
type FragArgs abi.Draw3DFragArgs

// FragKernel is the gfx_draw3d fragment shader bound to its units for one draw:
// the primitive buffer viewed once, the stage-0 sampler and the OM.
type FragKernel struct {
	args    FragArgs
	prims   []byte
	tex     *tex.Sampler
	om      *om.Unit
	shaded  atomic.Int64 // covered fragments shaded
	written atomic.Int64 // fragments that passed the OM tests
	waves   atomic.Int64
}

// Counts returns the fragments shaded, the fragments the OM wrote (passed its
// tests) and the waves run so far.
func (k *FragKernel) Counts() (shaded, written, waves int64) {
	return k.shaded.Load(), k.written.Load(), k.waves.Load()
}

// NewFragKernel binds the kernel: it views the primitive buffer (NumPrims records
// of abi.PrimBytes) once. sampler may be nil when texturing is off.
func NewFragKernel(mem raster.Memory, args FragArgs, sampler *tex.Sampler, out *om.Unit) (*FragKernel, error) {
	if args.TexEnabled && sampler == nil {
		return nil, fmt.Errorf("draw3d: textured draw without a bound sampler")
	}
	if out == nil {
		return nil, fmt.Errorf("draw3d: fragment kernel without an OM")
	}
	k := &FragKernel{args: args, tex: sampler, om: out}
	if args.NumPrims > 0 {
		b, err := mem.View(args.PrimAddr, args.NumPrims*abi.PrimBytes)
		if err != nil {
			return nil, fmt.Errorf("draw3d: fragment kernel prim buffer: %w", err)
		}
		k.prims = b
	}
	return k, nil
}

// Launch runs one fragment wave: every covered lane is shaded and exported.
// Helper lanes (uncovered) would only feed derivatives, which draw3d never takes,
// so they are not evaluated. It satisfies raster.Launch.
func (k *FragKernel) Launch(core int, w *raster.Wave) error {
	var rec primRec
	valid := false
	var shaded, written int64
	defer func() {
		k.shaded.Add(shaded)
		k.written.Add(written)
		k.waves.Add(1)
	}()
	for l := 0; l < 4*w.Quads; l++ {
		pos := w.Pos[l]
		if pos>>31 == 0 {
			continue
		}
		pid := w.PID[l]
		if int(pid) >= k.args.NumPrims {
			return fmt.Errorf("draw3d: fragment lane %d: pid %d beyond %d primitives", l, pid, k.args.NumPrims)
		}
		x, y := int32(pos&0xFFFF), int32(pos>>16&0x7FFF)
		if !valid || rec.pid != pid {
			k.load(&rec, pid)
			valid = true
		}
		color, depth := k.shade(&rec, x, y)
		shaded++
		if k.om.Export(int(x), int(y), 0, color, depth) {
			written++
		}
	}
	return nil
}

func word(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[4*i:])) }

// primRec is the part of one rast_prim_t the kernel reads, decoded once per pid
// run of a wave.
type primRec struct {
	pid    uint32
	edges  [9]int32
	z      [3]int32
	planes [abi.NumPrimPlanes][3]int32
}

func (k *FragKernel) load(r *primRec, pid uint32) {
	r.decode(k.prims[int(pid)*abi.PrimBytes:], pid)
}

// decode reads the record's edges, depth plane and the planes the kernel uses.
func (r *primRec) decode(b []byte, pid uint32) {
	r.pid = pid
	for i := range r.edges {
		r.edges[i] = word(b, i)
	}
	for i := range r.z {
		r.z[i] = word(b, abi.PrimZWord+i)
	}
	for _, pl := range [...]abi.PrimPlane{abi.PlaneR, abi.PlaneG, abi.PlaneB, abi.PlaneA, abi.PlaneU, abi.PlaneV, abi.PlaneRHW} {
		w := pl.Word()
		r.planes[pl] = [3]int32{word(b, w), word(b, w+1), word(b, w+2)}
	}
}

// Shade computes one pixel's A8R8G8B8 colour and depth word exactly as the
// draw3d kernel does (FIXEDPOINT_RASTERIZER undefined): float barycentrics from
// the recomputed Q15.16 edge values, Q7.24 plane interpolation, the perspective
// divide, texturing and the byte conversion. spec: vortex-hardware-facts §3.3
func (k *FragKernel) Shade(pid uint32, x, y int32) (color, depth uint32) {
	var r primRec
	k.load(&r, pid)
	return k.shade(&r, x, y)
}

func (k *FragKernel) shade(rec *primRec, x, y int32) (color, depth uint32) {
	var f fragVals
	k.args.interpolate(rec, x, y, &f)
	var texel uint32
	if k.args.TexEnabled {
		texel = k.tex.Sample(f.texU(), f.texV(), 0)
	}
	return k.args.combine(&f, texel), f.depth
}

// fragVals is one pixel's interpolated Q7.24 colour and texture coordinates and
// its depth word.
type fragVals struct {
	r, g, b, a int32
	u, v       int32
	depth      uint32
}

// texU and texV are the S.23 coordinates vx_tex takes.
func (f *fragVals) texU() int32 { return int32(abi.Q7_24(f.u).TexCoord()) }
func (f *fragVals) texV() int32 { return int32(abi.Q7_24(f.v).TexCoord()) }

// interpolate is the kernel's arithmetic up to the texture fetch: float
// barycentrics from the recomputed Q15.16 edges, Q7.24 plane interpolation, the
// perspective divide and the depth plane.
func (args *FragArgs) interpolate(rec *primRec, x, y int32, out *fragVals) {
	var F [3]float32
	for e := 0; e < 3; e++ {
		raw := rec.edges[3*e]*x + rec.edges[3*e+1]*y + rec.edges[3*e+2]
		F[e] = float32(raw) / 65536
	}
	recip := 1 / float32(F[0]+F[1]+F[2])
	dx := frontend.FixDev(float32(recip*F[0]), abi.FracA)
	dy := frontend.FixDev(float32(recip*F[1]), abi.FracA)
	interp := func(pl abi.PrimPlane) int32 {
		p := &rec.planes[pl]
		tmp := frontend.MulA(p[0], dx) + p[2]
		return frontend.MulA(p[1], dy) + tmp
	}
	const one = 1 << abi.FracA
	var z int32
	r, g, b, a := int32(one), int32(one), int32(one), int32(one)
	var u, v int32
	if args.DepthEnabled {
		z = int32(int64(rec.z[0])*int64(x) + int64(rec.z[1])*int64(y) + int64(rec.z[2]))
	}
	invW := float32(1)
	if args.ColorEnabled || args.TexEnabled {
		rhw := frontend.GuardRHW(float32(interp(abi.PlaneRHW)) / one)
		invW = 1 / rhw
	}
	persp := func(raw int32) int32 { return frontend.FixDev(float32(float32(raw)/one*invW), abi.FracA) }
	if args.ColorEnabled {
		r, g, b, a = persp(interp(abi.PlaneR)), persp(interp(abi.PlaneG)), persp(interp(abi.PlaneB)), persp(interp(abi.PlaneA))
	}
	if args.TexEnabled {
		u, v = persp(interp(abi.PlaneU)), persp(interp(abi.PlaneV))
	}
	*out = fragVals{r: r, g: g, b: b, a: a, u: u, v: v}
	switch {
	case z < 0:
		out.depth = 0
	case uint32(z) > abi.DepthMask:
		out.depth = abi.DepthMask
	default:
		out.depth = uint32(z)
	}
}

// combine is the texture environment and the byte conversion: REPLACE takes the
// texel, MODULATE multiplies it by the colour, untextured converts the colour.
func (args *FragArgs) combine(f *fragVals, t uint32) uint32 {
	if args.TexEnabled {
		if args.TexModulate {
			return mod8(f.a, t>>24)<<24 | mod8(f.r, t>>16&0xFF)<<16 | mod8(f.g, t>>8&0xFF)<<8 | mod8(f.b, t&0xFF)
		}
		return t
	}
	return mod8(f.a, 255)<<24 | mod8(f.r, 255)<<16 | mod8(f.g, 255)<<8 | mod8(f.b, 255)
}

// mod8 is uint8((Q7.24 raw · c) >> 24) with the 32-bit wrapping multiply of the
// kernel's fixed × int operator.
func mod8(raw int32, c uint32) uint32 { return uint32(raw*int32(c)) >> 24 & 0xFF }
