package cp

// CostModel is the CP's deterministic cycle model: every command advances CP_CYCLE
// by a documented cost, so tools can report cycles per launch and per draw and the
// same inputs give the same counts regardless of goroutine scheduling.
//
// The model is a discrete-event simulation in CP cycles. A queue pays FetchLine to
// bring a ring line in, Decode per command, then its resource's occupancy, then
// Retire for the seqnum/head/profile writeback. Resources are shared by all queues
// and held by one command at a time, so same-resource work of different queues
// serialises while different resources overlap. spec: command-processor §4, §7
type CostModel struct {
	FetchLine        uint64 // one 64-byte ring line read over axi_host (AR → R)
	Decode           uint64 // per command, the unpacker plus the engine's Decode state
	Retire           uint64 // the completion writeback after a command's done
	DMASetup         uint64 // per DMA burst (≤4 KB, never crossing a 4 KB boundary)
	DMABytesPerCycle uint64 // DMA data rate; the RTL moves one 64-byte beat per cycle
	DCR              uint64 // one DCR request (write) or request+response (read)
	LaunchOverhead   uint64 // start pulse and busy handshake, added to the device's cycles
	DescriptorLine   uint64 // per 64 bytes of QMD or draw descriptor read from device memory
	EventAccess      uint64 // one counter read (poll) or write (signal)
	PollInterval     uint64 // EVENT_WAIT's first re-poll delay after a failed compare
	PollIntervalMax  uint64 // the delay doubles after each failed poll up to this cap
}

// DefaultCostModel returns the default costs, chosen to match the orders of
// magnitude of the RTL: an AXI round trip is tens of cycles, a DCR access a few.
func DefaultCostModel() CostModel {
	return CostModel{
		FetchLine:        16,
		Decode:           1,
		Retire:           2,
		DMASetup:         8,
		DMABytesPerCycle: 64,
		DCR:              2,
		LaunchOverhead:   4,
		DescriptorLine:   16,
		EventAccess:      8,
		PollInterval:     16,
		PollIntervalMax:  1024,
	}
}

// maxOpCycles caps one command's modelled cost so CP_CYCLE can never wrap.
const maxOpCycles = 1 << 40

func satAdd(a, b uint64) uint64 {
	if b > maxOpCycles {
		b = maxOpCycles
	}
	return a + b
}

// dmaCycles is the cost of a transfer of size bytes: one DMASetup per burst plus the
// data time. Bursts end at every 4 KB boundary of either operand.
// spec: command-processor §7 (VX_cp_dma: ≤4 KB INCR chunks, clipped on both operands)
func (m *CostModel) dmaCycles(dst, src, size uint64) uint64 {
	if size == 0 {
		return m.DMASetup
	}
	bursts := dmaBursts(dst, src, size)
	bpc := max(m.DMABytesPerCycle, 1)
	data := size / bpc
	if size%bpc != 0 {
		data++
	}
	return satAdd(min(bursts, maxOpCycles)*m.DMASetup, data)
}

// dmaBursts counts the ≤4 KB chunks of a transfer that never cross a 4 KB boundary
// on either operand: one plus every boundary strictly inside either range (the two
// boundary sets coincide when the operands have the same page offset).
func dmaBursts(dst, src, size uint64) uint64 {
	inner := func(a uint64) uint64 { // 4 KB boundaries strictly inside [a, a+size)
		return (a+size-1)/dmaPage - a/dmaPage
	}
	n := 1 + inner(src)
	if dst%dmaPage != src%dmaPage {
		n += inner(dst)
	}
	return n
}

// dmaPage is the burst boundary. spec: command-processor §7
const dmaPage = 4096
