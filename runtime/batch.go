package runtime

import (
	"fmt"

	"vortexgfx/abi"
)

// LaunchParams describes a kernel launch. spec: vortex-hardware-facts §1.4
type LaunchParams struct {
	NDim     int       // 1..3; 0 means 1. Dims past NDim are 1.
	Grid     [3]uint32 // a 0 in a used dim is the grid-less raster frame kick
	Block    [3]uint32
	Cluster  [3]uint32 // 0 means 1
	LMemSize uint32
	Args     []byte // the argument block, staged in device scratch (STARTUP_ARG)
}

// DrawStep is one step of a draw: a launch or a DCR write (vx_command_t).
type DrawStep struct {
	Kernel *Kernel // nil: the launch leaves STARTUP_ADDR/KERNEL_ENTRY as they are
	Launch LaunchParams
	DCR    abi.DCRPair
	isDCR  bool
}

// LaunchStep is a launch step of a draw.
func LaunchStep(k *Kernel, p LaunchParams) DrawStep { return DrawStep{Kernel: k, Launch: p} }

// DCRStep is a DCR-write step of a draw.
func DCRStep(addr abi.DCR, v uint32) DrawStep {
	return DrawStep{DCR: abi.DCRPair{Addr: addr, Value: v}, isDCR: true}
}

type itemKind uint8

const (
	itemWrite itemKind = iota
	itemRead
	itemCopy
	itemFill
	itemDCR
	itemLaunch
	itemDraw
	itemDCRRead
)

type item struct {
	kind     itemKind
	dst, src uint64 // device addresses
	n        uint64
	data     []byte // write data (copied at record time) or fill pattern
	out      []byte // read destination
	dcr      abi.DCRPair
	k        *Kernel
	lp       LaunchParams
	steps    []DrawStep
	tail     []byte  // rtl: the current device bytes of the last line (see fixTails)
	rsp      *uint32 // DCR read response
	hostOff  uint64  // host staging offset of the item's data
	phys     bool    // every device operand is physical: the DMA carries F_MEM_PHYSICAL
}

// Batch records many commands that go to the ring as one submission: one doorbell,
// commands packed densely (up to five per line). spec: command-processor §9
// (cp_batch_begin/end), §10 item 9
type Batch struct {
	q     *Queue
	items []item
	err   error
}

// NewBatch starts an empty batch on q.
func (q *Queue) NewBatch() *Batch { return &Batch{q: q} }

func (b *Batch) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// Write copies p (now) and writes it to dst at off.
func (b *Batch) Write(dst *Buffer, off uint64, p []byte) *Batch {
	if err := dst.check(off, uint64(len(p))); err != nil {
		b.fail(fmt.Errorf("write: %w", err))
		return b
	}
	if len(p) > 0 {
		b.items = append(b.items, item{kind: itemWrite, dst: dst.addr + off, n: uint64(len(p)), data: append([]byte(nil), p...), phys: dst.phys})
	}
	return b
}

// Read reads len(p) bytes of src at off into p when the batch completes.
func (b *Batch) Read(src *Buffer, off uint64, p []byte) *Batch {
	if err := src.check(off, uint64(len(p))); err != nil {
		b.fail(fmt.Errorf("read: %w", err))
		return b
	}
	if len(p) > 0 {
		b.items = append(b.items, item{kind: itemRead, src: src.addr + off, n: uint64(len(p)), out: p, phys: src.phys})
	}
	return b
}

// Copy copies n bytes from src at srcOff to dst at dstOff (device to device).
func (b *Batch) Copy(dst *Buffer, dstOff uint64, src *Buffer, srcOff, n uint64) *Batch {
	if err := dst.check(dstOff, n); err != nil {
		b.fail(fmt.Errorf("copy destination: %w", err))
		return b
	}
	if err := src.check(srcOff, n); err != nil {
		b.fail(fmt.Errorf("copy source: %w", err))
		return b
	}
	if n > 0 {
		b.items = append(b.items, item{kind: itemCopy, dst: dst.addr + dstOff, src: src.addr + srcOff, n: n, phys: dst.phys && src.phys})
	}
	return b
}

// Fill writes n bytes of dst at off with pattern repeated (vx_fill_buffer).
func (b *Batch) Fill(dst *Buffer, off, n uint64, pattern []byte) *Batch {
	if len(pattern) == 0 {
		b.fail(fmt.Errorf("fill: empty pattern"))
		return b
	}
	if err := dst.check(off, n); err != nil {
		b.fail(fmt.Errorf("fill: %w", err))
		return b
	}
	if n > 0 {
		b.items = append(b.items, item{kind: itemFill, dst: dst.addr + off, n: n, data: append([]byte(nil), pattern...), phys: dst.phys})
	}
	return b
}

// Rect is a 2-D region: rows of RowBytes bytes, Pitch bytes apart.
type Rect struct {
	Off, Pitch uint64
}

// CopyRect copies rows × rowBytes from src to dst, each side with its own offset
// and pitch (vx_copy_rect): one MEM_COPY per row, all in this batch.
func (b *Batch) CopyRect(dst *Buffer, d Rect, src *Buffer, s Rect, rowBytes, rows uint64) *Batch {
	for r := uint64(0); r < rows; r++ {
		b.Copy(dst, d.Off+r*d.Pitch, src, s.Off+r*s.Pitch, rowBytes)
	}
	return b
}

// WriteRect writes rows of rowBytes, packed tightly in p, to dst at d.
func (b *Batch) WriteRect(dst *Buffer, d Rect, p []byte, rowBytes, rows uint64) *Batch {
	if uint64(len(p)) < rowBytes*rows {
		b.fail(fmt.Errorf("write rect: %d bytes for %d rows of %d", len(p), rows, rowBytes))
		return b
	}
	for r := uint64(0); r < rows; r++ {
		b.Write(dst, d.Off+r*d.Pitch, p[r*rowBytes:(r+1)*rowBytes])
	}
	return b
}

// ReadRect reads rows of rowBytes from src at s into p, packed tightly.
func (b *Batch) ReadRect(src *Buffer, s Rect, p []byte, rowBytes, rows uint64) *Batch {
	if uint64(len(p)) < rowBytes*rows {
		b.fail(fmt.Errorf("read rect: %d bytes for %d rows of %d", len(p), rows, rowBytes))
		return b
	}
	for r := uint64(0); r < rows; r++ {
		b.Read(src, s.Off+r*s.Pitch, p[r*rowBytes:(r+1)*rowBytes])
	}
	return b
}

// DCRWrite writes a device control register. With VM on, a TEX/RASTER/OM address
// DCR must point into a physical buffer (vortex-hardware-facts §9 item 12).
func (b *Batch) DCRWrite(addr abi.DCR, v uint32) *Batch {
	if err := b.q.d.checkBinding(abi.DCRPair{Addr: addr, Value: v}); err != nil {
		b.fail(err)
		return b
	}
	b.items = append(b.items, item{kind: itemDCR, dcr: abi.DCRPair{Addr: addr, Value: v}})
	return b
}

// Launch launches kernel k (nil keeps the current STARTUP_ADDR/KERNEL_ENTRY, for a
// grid-less frame kick).
func (b *Batch) Launch(k *Kernel, p LaunchParams) *Batch {
	if err := b.q.d.checkLaunch(k, p); err != nil {
		b.fail(err)
		return b
	}
	b.items = append(b.items, item{kind: itemLaunch, k: k, lp: p})
	return b
}

// Draw records a draw: one CMD_DRAW descriptor where the CP supports DRAW and QMD,
// else the same steps streamed into this batch. spec: command-processor §8.1
func (b *Batch) Draw(steps []DrawStep) *Batch {
	for i, s := range steps {
		if s.isDCR {
			if err := b.q.d.checkBinding(s.DCR); err != nil {
				b.fail(fmt.Errorf("draw step %d: %w", i, err))
				return b
			}
		} else {
			if err := b.q.d.checkLaunch(s.Kernel, s.Launch); err != nil {
				b.fail(fmt.Errorf("draw step %d: %w", i, err))
				return b
			}
		}
	}
	if len(steps) > 0 {
		b.items = append(b.items, item{kind: itemDraw, steps: append([]DrawStep(nil), steps...)})
	}
	return b
}

// checkLaunch refuses at record time what the KMU would refuse at launch time with
// a less specific error: a bad ndim, an oversized argument block, a kernel of an
// evicted module, and a cluster shape the KMU cannot co-schedule (see package
// device: the CTAs of one cluster run on distinct cores of one hardware cluster, so
// a cluster holds at most that many CTAs, and the grid must be a multiple of it).
// spec: vortex-hardware-facts §1.4 (CLUSTER_DIM)
func (d *Device) checkLaunch(k *Kernel, p LaunchParams) error {
	if p.NDim < 0 || p.NDim > 3 {
		return fmt.Errorf("launch: ndim %d (want 0..3)", p.NDim)
	}
	if k != nil && k.m.Evicted() {
		return fmt.Errorf("launch of %q: %w", k.name, ErrEvicted)
	}
	ndim := max(p.NDim, 1)
	ctas := uint64(1)
	for i := 0; i < 3; i++ {
		c, g := uint64(max(p.Cluster[i], 1)), uint64(p.Grid[i])
		if i >= ndim {
			g = 1
		}
		if g != 0 && g%c != 0 {
			return fmt.Errorf("launch: grid %v is not a multiple of cluster %v", p.Grid, p.Cluster)
		}
		ctas *= c
	}
	perCluster := uint64(d.caps.NumCores() / max(d.caps.GPU.NumClusters(), 1))
	if ctas > 1 && ctas > perCluster {
		return fmt.Errorf("launch: a cluster of %d CTAs (%v) exceeds the %d cores of one hardware cluster it must be co-scheduled on", ctas, p.Cluster, perCluster)
	}
	if len(p.Args) > stageBytes/2 {
		return fmt.Errorf("launch: %d-byte argument block (max %d)", len(p.Args), stageBytes/2)
	}
	return nil
}

// Submit sends the batch to its queue behind deps; the event completes when every
// command has retired (and reads have landed).
func (b *Batch) Submit(deps ...*Event) *Event { return b.q.submit(b, deps) }

// Enqueue helpers: each is a one-item batch.

// EnqueueWrite writes p to dst at off.
func (q *Queue) EnqueueWrite(dst *Buffer, off uint64, p []byte, deps ...*Event) *Event {
	return q.NewBatch().Write(dst, off, p).Submit(deps...)
}

// EnqueueRead reads src at off into p.
func (q *Queue) EnqueueRead(src *Buffer, off uint64, p []byte, deps ...*Event) *Event {
	return q.NewBatch().Read(src, off, p).Submit(deps...)
}

// EnqueueCopy copies n bytes device to device.
func (q *Queue) EnqueueCopy(dst *Buffer, dstOff uint64, src *Buffer, srcOff, n uint64, deps ...*Event) *Event {
	return q.NewBatch().Copy(dst, dstOff, src, srcOff, n).Submit(deps...)
}

// EnqueueFill fills n bytes of dst at off with pattern.
func (q *Queue) EnqueueFill(dst *Buffer, off, n uint64, pattern []byte, deps ...*Event) *Event {
	return q.NewBatch().Fill(dst, off, n, pattern).Submit(deps...)
}

// EnqueueLaunch launches k: LAUNCH_QMD + CACHE_FLUSH where the CP has QMD, else the
// 20 DCR writes + LAUNCH + CACHE_FLUSH — one batch, one doorbell either way.
// spec: command-processor §2.3, §9, §10 item 9
func (q *Queue) EnqueueLaunch(k *Kernel, p LaunchParams, deps ...*Event) *Event {
	return q.NewBatch().Launch(k, p).Submit(deps...)
}

// EnqueueDraw submits a draw (see Batch.Draw).
func (q *Queue) EnqueueDraw(steps []DrawStep, deps ...*Event) *Event {
	return q.NewBatch().Draw(steps).Submit(deps...)
}

// EnqueueDCRWrite writes a DCR.
func (q *Queue) EnqueueDCRWrite(addr abi.DCR, v uint32, deps ...*Event) *Event {
	return q.NewBatch().DCRWrite(addr, v).Submit(deps...)
}

// DCRRead reads a DCR through the CP (CMD_DCR_READ with tag on the data bus) and
// returns the response the CP latched in Q_LAST_DCR_RSP. It waits for deps and for
// the queue's earlier work. spec: command-processor §2.3, §5
func (q *Queue) DCRRead(addr abi.DCR, tag uint32, deps ...*Event) (uint32, error) {
	var v uint32
	b := q.NewBatch()
	b.items = append(b.items, item{kind: itemDCRRead, dcr: abi.DCRPair{Addr: addr, Value: tag}, rsp: &v})
	if len(deps) == 0 {
		if ok, err := q.runNow(b); ok {
			if err != nil {
				return 0, err
			}
			return v, nil
		}
	}
	if err := b.Submit(deps...).Wait(); err != nil {
		return 0, err
	}
	return v, nil
}

// PerfCounter reads the 64-bit performance counter csr of class on core through
// MPM_VALUE (two DCR reads, low then high word); core < 0 sums every core, as
// vx_device_mpm_query does. spec: vortex-hardware-facts §7
func (d *Device) PerfCounter(class abi.MPMClass, csr int, core int) (uint64, error) {
	cores := []int{core}
	if core < 0 {
		cores = cores[:0]
		for c := 0; c < d.caps.NumCores(); c++ {
			cores = append(cores, c)
		}
	}
	var sum uint64
	for _, c := range cores {
		lo, err := d.def.DCRRead(abi.DCRMPMValue, abi.MPMTag(class, csr, c, false))
		if err != nil {
			return 0, fmt.Errorf("runtime: perf counter %#x of class %d on core %d: %w", csr, class, c, err)
		}
		hi, err := d.def.DCRRead(abi.DCRMPMValue, abi.MPMTag(class, csr, c, true))
		if err != nil {
			return 0, fmt.Errorf("runtime: perf counter %#x of class %d on core %d: %w", csr, class, c, err)
		}
		sum += uint64(hi)<<32 | uint64(lo)
	}
	return sum, nil
}
