package runtime

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

func align64(n uint64) uint64 { return (n + abi.LineBytes - 1) &^ (abi.LineBytes - 1) }

// Upper bound of one launch's scratch: args plus a QMD of at most 20 pairs.
func launchScratch(p LaunchParams) uint64 {
	return align64(uint64(len(p.Args))) + align64(4+abi.QMDPairBytes*20)
}

// encoder builds one submission: the device-scratch blob (argument blocks, QMDs,
// draw descriptors), the host staging image and the command list.
type encoder struct {
	q           *Queue
	qmd, drawOK bool
	cores       uint32
	threads     uint32
	devBase     uint64
	hostBase    uint64
	blob        []byte // device scratch image, staged at the start of host staging
	cmds        []abi.Command
	kmu         bool // KMU programmed with separate DCR writes (needs the cross-queue lock)
}

func (e *encoder) scratch(p []byte) uint64 {
	off := uint64(len(e.blob))
	e.blob = append(e.blob, p...)
	e.blob = append(e.blob, make([]byte, align64(uint64(len(p)))-uint64(len(p)))...)
	return e.devBase + off
}

func (e *encoder) launchInfo(k *Kernel, p LaunchParams) abi.LaunchInfo {
	l := abi.LaunchInfo{NDim: max(p.NDim, 1), Grid: p.Grid, Block: p.Block, LMemSize: p.LMemSize, Cluster: p.Cluster}
	if k != nil {
		l.StartupAddr, l.KernelEntry = k.m.Base(), k.entry
	}
	if len(p.Args) > 0 {
		l.Args = e.scratch(p.Args)
	}
	return l
}

// launch returns the commands of one launch (without its trailing flush).
func (e *encoder) launch(k *Kernel, p LaunchParams) ([]abi.Command, error) {
	if k != nil && k.m.Evicted() {
		return nil, fmt.Errorf("kernel %q: %w", k.name, ErrEvicted)
	}
	pairs := abi.LaunchDCRs(e.launchInfo(k, p), e.threads)
	if e.qmd {
		desc, err := abi.EncodeQMD(pairs)
		if err != nil {
			return nil, err
		}
		return []abi.Command{abi.LaunchQMD(e.scratch(desc))}, nil
	}
	e.kmu = true
	out := make([]abi.Command, 0, len(pairs)+1)
	for _, pr := range pairs {
		out = append(out, abi.DCRWrite(pr.Addr, pr.Value))
	}
	return append(out, abi.Launch()), nil
}

func (e *encoder) draw(steps []DrawStep) error {
	var seq []abi.Command
	for _, s := range steps {
		if s.isDCR {
			if abi.UnitOf(s.DCR.Addr) == abi.UnitKMU {
				e.kmu = true
			}
			seq = append(seq, abi.DCRWrite(s.DCR.Addr, s.DCR.Value))
			continue
		}
		c, err := e.launch(s.Kernel, s.Launch)
		if err != nil {
			return err
		}
		seq = append(seq, c...)
		seq = append(seq, abi.CacheFlush(e.cores))
	}
	if !e.drawOK || !e.qmd {
		e.cmds = append(e.cmds, seq...)
		return nil
	}
	for len(seq) > 0 {
		n := min(len(seq), abi.DrawMaxSteps)
		desc, err := abi.EncodeDraw(seq[:n])
		if err != nil {
			return err
		}
		e.cmds = append(e.cmds, abi.Draw(e.scratch(desc)))
		seq = seq[n:]
	}
	return nil
}

// run encodes and submits a batch, then lands its reads.
func (q *Queue) run(b *Batch, ev *Event) error {
	if b.err != nil {
		return fmt.Errorf("runtime: %w", b.err)
	}
	if q.d.exactDMA {
		return q.runItems(b.items, ev)
	}
	// rtl: every unaligned transfer into device memory starts a new submission, so
	// the read-modify-write of its last line sees everything before it.
	var first Profile
	for start := 0; start < len(b.items); {
		end := start + 1
		for end < len(b.items) && !needsTail(&b.items[end]) {
			end++
		}
		seg := b.items[start:end]
		if err := q.fixTails(seg); err != nil {
			return err
		}
		if err := q.runItems(seg, ev); err != nil {
			return err
		}
		if start == 0 {
			first = ev.prof
		}
		start = end
	}
	if ev.hasProf {
		ev.prof.Queued, ev.prof.Submit, ev.prof.Start = first.Queued, first.Submit, first.Start
	}
	return nil
}

// physical marks a CMD_MEM_* whose device operands are physical (F_MEM_PHYSICAL:
// the CP's DMA skips the page walk). spec: command-processor §2.1, §8
func physical(c abi.Command, phys bool) abi.Command {
	if phys {
		c.Flags |= abi.FlagMemPhysical
	}
	return c
}

// needsTail reports whether the rtl CP's rounded DMA would over-write past it.
func needsTail(it *item) bool {
	return (it.kind == itemWrite || it.kind == itemFill || it.kind == itemCopy) && it.n%abi.LineBytes != 0
}

// runItems encodes and submits items as one submission, then lands their reads.
func (q *Queue) runItems(items []item, ev *Event) error {
	if len(items) == 0 {
		return nil
	}
	d := q.d
	// Size pass.
	var blobSize, hostData uint64
	for i := range items {
		it := &items[i]
		switch it.kind {
		case itemWrite, itemRead, itemFill:
			it.hostOff = hostData
			hostData += align64(it.n)
		case itemLaunch:
			blobSize += launchScratch(it.lp)
		case itemDraw:
			for _, s := range it.steps {
				if !s.isDCR {
					blobSize += launchScratch(s.Launch)
				}
			}
			// A launch step encodes as two commands (LAUNCH_QMD, CACHE_FLUSH),
			// a DCR step as one; the sequence splits into descriptors of
			// at most DrawMaxSteps commands, each with a 4-byte header and
			// padded to a line.
			n := uint64(2 * len(it.steps))
			chunks := n/abi.DrawMaxSteps + 1
			blobSize += align64(abi.DrawStepBytes*n + chunks*(4+abi.LineBytes))
		}
	}
	e := &encoder{q: q, qmd: d.caps.CP.SupportsQMD, drawOK: d.caps.CP.SupportsDraw,
		cores: uint32(d.caps.NumCores()), threads: uint32(d.caps.GPU.NumThreads())}
	hostSize := blobSize + hostData
	e.hostBase, e.devBase = q.hostStage, q.devStage
	if hostSize > stageBytes || blobSize > stageBytes {
		var err error
		if e.hostBase, err = d.t.HostAlloc(hostSize+abi.LineBytes, 64); err != nil {
			return fmt.Errorf("runtime: staging %d bytes: %w", hostSize, err)
		}
		defer d.t.HostFree(e.hostBase)
		if blobSize > 0 {
			if e.devBase, err = d.allocPhys(blobSize + abi.LineBytes); err != nil {
				return fmt.Errorf("runtime: device scratch %d bytes: %w", blobSize, err)
			}
			defer d.freePhys(e.devBase, blobSize+abi.LineBytes)
		}
	}
	// Encode pass: commands that use the blob come after its upload.
	var body []abi.Command
	dataBase := e.hostBase + blobSize
	// The host image of the staged data: pinned host memory itself when the
	// transport lends it (no intermediate copy), else a buffer written at once.
	host, direct, err := q.hostImage(dataBase, hostData)
	if err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		switch it.kind {
		case itemWrite, itemFill:
			dst := host[it.hostOff : it.hostOff+align64(it.n)]
			if it.kind == itemWrite {
				copy(dst, it.data)
			} else {
				fillPattern(dst[:it.n], it.data)
			}
			if it.tail != nil {
				copy(dst[it.n:], it.tail[it.n-it.n&^(abi.LineBytes-1):])
			} else if direct {
				clear(dst[it.n:])
			}
			body = append(body, physical(abi.MemWrite(it.dst, dataBase+it.hostOff, it.n), it.phys && d.vm != nil))
		case itemRead:
			if direct {
				clear(host[it.hostOff : it.hostOff+align64(it.n)])
			}
			body = append(body, physical(abi.MemRead(dataBase+it.hostOff, it.src, it.n), it.phys && d.vm != nil))
		case itemCopy:
			body = append(body, physical(abi.MemCopy(it.dst, it.src, it.n), it.phys && d.vm != nil))
		case itemDCR:
			if abi.UnitOf(it.dcr.Addr) == abi.UnitKMU {
				e.kmu = true
			}
			body = append(body, abi.DCRWrite(it.dcr.Addr, it.dcr.Value))
		case itemDCRRead:
			body = append(body, abi.DCRRead(it.dcr.Addr, it.dcr.Value))
		case itemLaunch:
			c, err := e.launch(it.k, it.lp)
			if err != nil {
				return fmt.Errorf("runtime: launch: %w", err)
			}
			body = append(body, c...)
			body = append(body, abi.CacheFlush(e.cores))
		case itemDraw:
			e.cmds = e.cmds[:0]
			if err := e.draw(it.steps); err != nil {
				return fmt.Errorf("runtime: draw: %w", err)
			}
			body = append(body, e.cmds...)
		}
	}
	if uint64(len(e.blob)) > blobSize {
		return fmt.Errorf("runtime: internal: scratch %d exceeds its bound %d", len(e.blob), blobSize)
	}
	var cmds []abi.Command
	if len(e.blob) > 0 {
		cmds = append(cmds, physical(abi.MemWrite(e.devBase, e.hostBase, uint64(len(e.blob))), d.vm != nil))
		if err := d.t.HostWrite(e.hostBase, e.blob); err != nil {
			return fmt.Errorf("runtime: staging: %w", err)
		}
	}
	cmds = append(cmds, body...)
	if d.caps.CP.FenceOrdering {
		cmds = fenceDomains(cmds)
	}
	if len(host) > 0 && !direct {
		if err := d.t.HostWrite(dataBase, host); err != nil {
			return fmt.Errorf("runtime: staging: %w", err)
		}
	}
	if err := q.syncVM(); err != nil {
		return err
	}
	if e.kmu {
		d.kmuMu.Lock()
		defer d.kmuMu.Unlock()
	}
	if q.profile && len(cmds) > 0 {
		cmds[0].Flags |= abi.FlagProfile
		cmds[0].ProfileSlot = q.profSlots
		if len(cmds) > 1 {
			last := &cmds[len(cmds)-1]
			last.Flags |= abi.FlagProfile
			last.ProfileSlot = q.profSlots + abi.ProfileRecordBytes
		}
	}
	if err := q.submitCommands(cmds); err != nil {
		return err
	}
	if q.profile && len(cmds) > 0 {
		if err := q.readProfile(ev, len(cmds) == 1); err != nil {
			return err
		}
	}
	for i := range items {
		it := &items[i]
		if it.kind == itemDCRRead {
			v, err := d.t.ReadReg(abi.QueueReg(q.hw, abi.RegQLastDCRRsp))
			if err != nil {
				return err
			}
			*it.rsp = v
		}
		if it.kind == itemRead {
			if direct {
				copy(it.out, host[it.hostOff:it.hostOff+it.n])
			} else if err := d.t.HostRead(dataBase+it.hostOff, it.out); err != nil {
				return fmt.Errorf("runtime: reading staging: %w", err)
			}
		}
	}
	return nil
}

// HostViewer is an optional Transport capability: a direct view of n bytes of
// pinned host memory at addr (one allocation), which the caller may read and
// write in place until it frees that memory. The runtime stages batch data
// through it without an intermediate copy; a transport without it is reached
// through HostRead/HostWrite only. spec: command-processor §9 (host_mem_alloc
// returns a host pointer)
type HostViewer interface {
	HostView(addr uint64, n int) ([]byte, error)
}

// hostImage returns the n-byte host image of a submission's staged data at
// addr: a view of pinned host memory (direct) when the transport lends one,
// else a zeroed buffer that runItems writes with HostWrite. Either way every
// byte of [addr, addr+n) ends up as the image says.
func (q *Queue) hostImage(addr, n uint64) (img []byte, direct bool, err error) {
	if n == 0 {
		return nil, false, nil
	}
	if hv, ok := q.d.t.(HostViewer); ok {
		v, err := hv.HostView(addr, int(n))
		if err != nil {
			return nil, false, fmt.Errorf("runtime: staging: %w", err)
		}
		return v, true, nil
	}
	return make([]byte, n), false, nil
}

// fillPattern fills dst with pattern repeated (the last copy truncated), by
// doubling what is already filled: O(log n) copies instead of one per pattern.
func fillPattern(dst, pattern []byte) {
	n := copy(dst, pattern)
	for n < len(dst) {
		n += copy(dst[n:], dst[:n])
	}
}

// submitCommands packs cmds densely and submits them: one doorbell when they fit the
// ring (a batch larger than the ring goes in ring-sized pieces).
func (q *Queue) submitCommands(cmds []abi.Command) error {
	p := abi.NewPacker()
	lineOf := make([]int, len(cmds))
	for i, c := range cmds {
		l, _, err := p.Add(c)
		if err != nil {
			return fmt.Errorf("runtime: command %d: %w", i, err)
		}
		lineOf[i] = l
	}
	lines := p.Bytes()
	ringLines := int((q.mask + 1) / abi.LineBytes)
	first := 0
	for start := 0; start < p.Lines(); start += ringLines {
		end := min(start+ringLines, p.Lines())
		n := 0
		for first+n < len(cmds) && lineOf[first+n] < end {
			n++
		}
		if err := q.ringAndWait(lines[start*abi.LineBytes:end*abi.LineBytes], n); err != nil {
			return err
		}
		first += n
	}
	return nil
}

// fixTails prepares the rtl CP's rounded DMA (command-processor §10 item 1): a
// transfer into device memory whose size is not a multiple of 64 writes whole
// 64-byte beats, so the runtime first reads the destination's last line (and, for a
// copy, the source) into staging, then writes the last line back with its original
// bytes past the end. Copies become writes from that staged source. This costs one
// extra submission before the batch; the tail is read before the batch's own
// commands run, which is why run starts a submission at each such transfer.
func (q *Queue) fixTails(items []item) error {
	t := q.d.t
	var need []int
	var size uint64
	for i := range items {
		it := &items[i]
		if needsTail(it) {
			need = append(need, i)
			size += abi.LineBytes
			if it.kind == itemCopy {
				size += align64(it.n)
			}
		}
	}
	if len(need) == 0 {
		return nil
	}
	stage, err := t.HostAlloc(size+abi.LineBytes, 64)
	if err != nil {
		return fmt.Errorf("runtime: tail staging: %w", err)
	}
	defer t.HostFree(stage)
	var cmds []abi.Command
	off := uint64(0)
	offs := make([]uint64, len(need))
	for j, i := range need {
		it := &items[i]
		offs[j] = off
		cmds = append(cmds, abi.MemRead(stage+off, it.dst+it.n&^(abi.LineBytes-1), abi.LineBytes))
		off += abi.LineBytes
		if it.kind == itemCopy {
			cmds = append(cmds, abi.MemRead(stage+off, it.src, it.n))
			off += align64(it.n)
		}
	}
	if err := q.submitCommands(cmds); err != nil {
		return err
	}
	for j, i := range need {
		it := &items[i]
		it.tail = make([]byte, abi.LineBytes)
		if err := t.HostRead(stage+offs[j], it.tail); err != nil {
			return err
		}
		if it.kind == itemCopy {
			it.data = make([]byte, it.n)
			if err := t.HostRead(stage+offs[j]+abi.LineBytes, it.data); err != nil {
				return err
			}
			it.kind = itemWrite
		}
	}
	return nil
}

// readProfile fills ev's profile from the records the CP wrote (one when the batch
// was a single command).
func (q *Queue) readProfile(ev *Event, single bool) error {
	var rec [2 * abi.ProfileRecordBytes]byte
	if err := q.d.t.HostRead(q.profSlots, rec[:]); err != nil {
		return fmt.Errorf("runtime: reading profile records: %w", err)
	}
	le := binary.LittleEndian
	second := rec[abi.ProfileRecordBytes:]
	if single {
		second = rec[:]
	}
	ev.prof = Profile{
		Queued: le.Uint64(rec[abi.ProfileQueued:]), Submit: le.Uint64(rec[abi.ProfileSubmit:]),
		Start: le.Uint64(rec[abi.ProfileStart:]), End: le.Uint64(second[abi.ProfileEnd:]),
		FreqHz: q.d.caps.CycleFreqHz,
	}
	ev.hasProf = true
	return nil
}

// Ordering domains of a CP that may overlap DMA with GPU work (DCR and KMU traffic)
// inside a queue. spec: command-processor §2.3 (FENCE scope), §10 item 3
const (
	domNone = iota
	domDMA
	domGPU
)

func domainOf(op abi.Opcode) int {
	switch op.Resource() {
	case abi.ResDMA:
		return domDMA
	case abi.ResKMU, abi.ResDCR:
		return domGPU
	}
	return domNone
}

// fenceDomains inserts a CMD_FENCE wherever the stream switches between DMA and GPU
// work, scoped to the domain being left, so a launch never reads an argument block
// or QMD whose upload is still in flight and a read-back never overtakes the launch
// that produces its data, on a CP that advertises FENCE ordering (CP_DEV_CAPS
// bit 27). On a CP that runs each queue strictly in order the fences cost a decode.
func fenceDomains(cmds []abi.Command) []abi.Command {
	out := make([]abi.Command, 0, len(cmds)+4)
	prev := domNone
	for _, c := range cmds {
		dom := domainOf(c.Op)
		if dom != domNone {
			if prev != domNone && dom != prev {
				scope := abi.FenceDMA
				if prev == domGPU {
					scope = abi.FenceGPU
				}
				out = append(out, abi.Fence(scope))
			}
			prev = dom
		}
		out = append(out, c)
	}
	return out
}
