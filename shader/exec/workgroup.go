package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"vortexgfx/shader/ir"
)

// MaxWorkgroupInvocations is the largest workgroup NewWorkgroup accepts: GLSL's
// minimum for GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS. A device whose maximum block
// size is smaller refuses larger workgroups at dispatch (spec: vortexpipe-driver
// §1.3: refused, never re-tiled).
const MaxWorkgroupInvocations = 1024

// WorkgroupIDs places one workgroup in its dispatch. spec: vortexpipe-driver §2.3.2
// (workgroup id = the CTA block-id CSR + the dispatch base from arg slots 2/3;
// gl_NumWorkGroups = the grid-dim CSRs).
type WorkgroupIDs struct {
	ID   [3]uint32 // the workgroup's position in the dispatched grid (CSR block id)
	Num  [3]uint32 // the dispatched group counts (gl_NumWorkGroups)
	Base [3]uint32 // the dispatch base (vkCmdDispatchBase); gl_WorkGroupID = Base + ID
}

// Workgroup runs one workgroup of a compute program: ceil(N/Width) warps, one
// Machine each, sharing one shared memory and one Memory. Warps run one at a time
// in a fixed round-robin order, each until it executes barrier() or exits; when
// every warp has had its turn, all waiting warps are released and the next round
// starts. A warp that has exited counts as arrived at every later barrier, so a
// shader whose warps reach different numbers of barriers finishes instead of
// hanging. The order of memory operations is therefore fixed by the program and the
// warp width alone: results are the same bytes for any scheduling of workgroups on
// goroutines and any GOMAXPROCS. spec: vortexpipe-driver §2.2 (emit_vx_barrier: one
// barrier per CTA counting the CTA's warps).
//
// A Workgroup is not safe for concurrent use; run independent workgroups on separate
// Workgroups (they are cheap). Run allocates nothing.
type Workgroup struct {
	prog   *ir.Program
	width  int
	n      int // invocations
	warps  []*Machine
	shared []byte // the workgroup's own shared storage (host runs)
}

// NewWorkgroup verifies the compute program p and prepares the warps of one
// workgroup at cfg.Width lanes per warp (the device's NUM_THREADS: one CTA of
// ceil(N/Width) warps). spec: vortexpipe-driver §2.2 (one thread per work-item),
// §1.3 (a workgroup is one CTA, never re-tiled).
func NewWorkgroup(p *ir.Program, cfg Config) (*Workgroup, error) {
	if p == nil || p.Stage != ir.Compute {
		return nil, fmt.Errorf("exec: workgroup needs a compute program")
	}
	if err := ir.Verify(p); err != nil {
		return nil, err
	}
	n := p.Invocations()
	if n == 0 || n > MaxWorkgroupInvocations {
		return nil, fmt.Errorf("exec: workgroup of %d×%d×%d invocations exceeds %d", p.LocalSize[0], p.LocalSize[1], p.LocalSize[2], MaxWorkgroupInvocations)
	}
	if cfg.Width < 1 || cfg.Width > MaxWidth {
		return nil, fmt.Errorf("exec: warp width %d out of range 1..%d", cfg.Width, MaxWidth)
	}
	w := &Workgroup{prog: p, width: cfg.Width, n: int(n), shared: make([]byte, p.SharedBytes)}
	nw := (w.n + cfg.Width - 1) / cfg.Width
	sx, sy := p.LocalSize[0], p.LocalSize[1]
	for i := 0; i < nw; i++ {
		m, err := New(p, cfg)
		if err != nil {
			return nil, err
		}
		m.shared = w.shared
		m.yield = nw > 1
		for l := 0; l < cfg.Width; l++ {
			idx := uint32(i*cfg.Width + l)
			m.Input(ir.InLocalID)[l] = idx % sx
			m.Input(ir.InLocalID + 1)[l] = idx / sx % sy
			m.Input(ir.InLocalID + 2)[l] = idx / (sx * sy)
			m.Input(ir.InLocalIndex)[l] = idx
		}
		w.warps = append(w.warps, m)
	}
	return w, nil
}

// setShared points every warp at shared.
func (w *Workgroup) setShared(shared []byte) {
	for _, m := range w.warps {
		m.shared = shared
	}
}

// Program returns the program the workgroup runs (as given to NewWorkgroup).
func (w *Workgroup) Program() *ir.Program { return w.prog }

// Invocations returns the number of invocations (lanes that run) per workgroup.
func (w *Workgroup) Invocations() int { return w.n }

// Warps returns the number of warps per workgroup.
func (w *Workgroup) Warps() int { return len(w.warps) }

// SetUniforms sets the uniform words of every warp (see Machine.SetUniforms).
func (w *Workgroup) SetUniforms(words []uint32) error {
	for _, m := range w.warps {
		if err := m.SetUniforms(words); err != nil {
			return err
		}
	}
	return nil
}

// SetSampler sets the texture unit of every warp (compute shaders may sample).
func (w *Workgroup) SetSampler(s Sampler) {
	for _, m := range w.warps {
		m.SetSampler(s)
	}
}

// Steps returns the warp instructions executed by the last Run, summed over warps.
func (w *Workgroup) Steps() int64 {
	var s int64
	for _, m := range w.warps {
		s += m.steps
	}
	return s
}

// LaneOps returns the lane instructions executed by the last Run, summed over warps.
func (w *Workgroup) LaneOps() int64 {
	var s int64
	for _, m := range w.warps {
		s += m.laneOps
	}
	return s
}

// Shared returns the workgroup's own shared memory as words (as left by the last
// Run; a RunShared leaves its words in the storage it was given). It returns a
// fresh slice.
func (w *Workgroup) Shared() []uint32 {
	out := make([]uint32, len(w.shared)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(w.shared[4*i:])
	}
	return out
}

// ErrSharedTooSmall is returned by RunShared when the storage it is given is
// smaller than the program's shared variables (an LMEM_SIZE below
// ir.Program.SharedBytes). spec: vortexpipe-driver §2.2 (LMEM_SIZE covers the
// shared variables)
var ErrSharedTooSmall = errors.New("exec: shared storage smaller than the program's shared variables")

// RunShared is Run with the workgroup's shared variables in storage instead of
// the workgroup's own memory: on the device, the CTA's local memory
// (device.CTA.LMem), as little-endian words from byte 0. The first
// Program.SharedBytes bytes are zeroed before the warps start and hold the shared
// variables' final values afterwards; bytes beyond are untouched. Storage shorter
// than Program.SharedBytes is refused with ErrSharedTooSmall. The warps keep
// storage only until RunShared returns. spec: vortexpipe-driver §2.2, §2.3.2
// (shared variables live in the CTA's LMEM)
func (w *Workgroup) RunShared(ctx context.Context, ids WorkgroupIDs, mem Memory, storage []byte) error {
	n := int(w.prog.SharedBytes)
	if len(storage) < n {
		return fmt.Errorf("%w: %d bytes of storage, %d bytes of shared variables", ErrSharedTooSmall, len(storage), n)
	}
	return w.run(ctx, ids, mem, storage[:n:n])
}

// Run executes the workgroup ids of a dispatch against mem (spec: vortexpipe-driver
// §2.3.2: ids from the CTA CSRs plus the dispatch base). Shared memory and
// registers start at zero. Each warp may execute Config.MaxSteps instructions; a
// runaway shader stops with ErrBudget, a cancelled context with its error, and a
// failing Memory with its error, each wrapped with the warp number.
func (w *Workgroup) Run(ctx context.Context, ids WorkgroupIDs, mem Memory) error {
	return w.run(ctx, ids, mem, w.shared)
}

func (w *Workgroup) run(ctx context.Context, ids WorkgroupIDs, mem Memory, shared []byte) error {
	clear(shared)
	defer w.setShared(w.shared)
	w.setShared(shared)
	p := w.prog
	var wg [3]uint32
	for c := range wg {
		wg[c] = ids.Base[c] + ids.ID[c]
	}
	for i, m := range w.warps {
		if m.uniforms == nil && p.UniformWords > 0 {
			return fmt.Errorf("exec: program needs %d uniform words and none are set", p.UniformWords)
		}
		m.mem = mem
		clear(m.regs)
		clear(m.out)
		for c := 0; c < 3; c++ {
			gid, num, glob, loc := m.Input(ir.InWorkGroupID+c), m.Input(ir.InNumWorkGroups+c), m.Input(ir.InGlobalID+c), m.Input(ir.InLocalID+c)
			base := wg[c] * p.LocalSize[c]
			for l := range gid {
				gid[l] = wg[c]
				num[l] = ids.Num[c]
				glob[l] = base + loc[l]
			}
		}
		present := m.full
		if rest := w.n - i*w.width; rest < w.width {
			present = ^uint64(0) >> (64 - rest)
		}
		m.steps, m.laneOps = 0, 0
		m.frames[0] = frame{kind: ir.Scope, saved: present, loop: -1, scope: 0, ret: -1}
		m.st = runState{exec: present, live: present, callRet: -1}
	}
	for {
		waiting := 0
		for i, m := range w.warps {
			if m.st.done {
				continue
			}
			atBarrier, err := m.resume(ctx)
			if err != nil {
				return fmt.Errorf("exec: workgroup warp %d: %w", i, err)
			}
			if atBarrier {
				waiting++
			}
		}
		if waiting == 0 {
			return nil
		}
	}
}
