package draw3d

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device"
)

// KernelFrag is the library name of the draw3d fragment kernel.
const KernelFrag = "gfx.draw3d_fs"

// fragShader is the draw3d fragment shader as a device kernel: each covered
// lane reads its pixel and pid from FRAG_POS/FRAG_PID, loads the primitive
// record by pid, interpolates exactly as FragKernel does, samples stage 0
// through vx_tex and exports through vx_om_export. Helper lanes do not export.
// Per-wave scratch comes from a pool owned by the registered kernel, so a wave
// allocates nothing. spec: rasterizer §11; vortex-hardware-facts §3.3, §8
type fragShader struct {
	pool sync.Pool // *fragScratch
}

// fragScratch is one running wave's state.
type fragScratch struct {
	c     *device.CTA
	args  FragArgs
	ab    [abi.Draw3DFragArgsBytes]byte
	pb    [abi.PrimBytes]byte
	rec   primRec
	valid bool
	lane  func(int) // s.shade, bound once
}

func (fs *fragShader) kernel(c *device.CTA) error {
	s, _ := fs.pool.Get().(*fragScratch)
	if s == nil {
		s = &fragScratch{}
		s.lane = s.shade
	}
	defer fs.pool.Put(s)
	s.c, s.valid = c, false
	c.Read(c.Args, s.ab[:])
	if err := c.Err(); err != nil {
		return err
	}
	var err error
	var fa abi.Draw3DFragArgs
	if fa, err = abi.UnpackDraw3DFragArgs(s.ab[:]); err == nil {
		s.args = FragArgs(fa)
	}
	if err != nil {
		return err
	}
	c.ForEachThread(s.lane)
	s.c = nil
	return nil
}

func (s *fragScratch) shade(l int) {
	c := s.c
	pos := c.FragPos(l)
	if pos>>31 == 0 {
		return
	}
	pid := c.FragPID(l)
	if int(pid) >= s.args.NumPrims {
		c.Fail(fmt.Errorf("draw3d_fs: lane %d: pid %d beyond %d primitives", l, pid, s.args.NumPrims))
		return
	}
	x, y := int32(pos&0xFFFF), int32(pos>>16&0x7FFF)
	if !s.valid || s.rec.pid != pid {
		c.Read(s.args.PrimAddr+uint64(pid)*abi.PrimBytes, s.pb[:])
		s.rec.decode(s.pb[:], pid)
		s.valid = true
	}
	var f fragVals
	s.args.interpolate(&s.rec, x, y, &f)
	var texel uint32
	if s.args.TexEnabled {
		texel = c.Tex(0, f.texU(), f.texV(), 0)
	}
	c.OMExport(int(x), int(y), 0, 0, s.args.combine(&f, texel), f.depth, 0)
}

// RegisterKernels adds the draw3d fragment kernel to lib.
func RegisterKernels(lib *device.Library) error {
	return lib.Register(KernelFrag, (&fragShader{}).kernel)
}

// FragImage is the draw3d fragment module image (its kernel_main), loaded at
// abi.LinkBaseFS.
func FragImage() ([]byte, error) {
	return abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", KernelFrag)})
}
