package cp

import (
	"encoding/binary"
	"testing"
	"time"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// fuzzRig is a two-queue CP whose buffers sit at fixed addresses, so seeds (and
// the fuzzer) can name real memory: device 0x10000.. (4 KiB each: data, counter,
// descriptor), host ring/slots from mem.DefaultHostBase.
func fuzzRig(t testing.TB, rtl, pipeline bool) *rig {
	cfg := Config{NumQueues: 2, Pipeline: pipeline, VM: !rtl}
	if rtl {
		cfg.Flavor = abi.FlavorRTL
	}
	r := newRig(t, cfg)
	for i := 0; i < 3; i++ {
		r.dalloc(4096)
	}
	r.halloc(4096)
	return r
}

// settleClean waits for the CP and checks it ended cleanly: idle, or a queue
// faulted with a defined Q_ERROR code, or a queue blocked in EVENT_WAIT (a wait,
// not a hang: a reset must end it).
func settleClean(t *testing.T, r *rig) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.cp.mu.Lock()
		busy, stalled := r.cp.busyLocked() || r.cp.delivering, r.cp.stalled
		r.cp.mu.Unlock()
		if !busy {
			break
		}
		if stalled {
			// Only EVENT_WAITs on counters nothing will change: a reset ends them.
			r.w(abi.RegCPCtrl, abi.CPCtrlEnable|abi.CPCtrlResetAll)
			r.wait()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("CP busy and not stalled in EVENT_WAIT after 5 s")
		}
		time.Sleep(50 * time.Microsecond)
	}
	for q := 0; q < 2; q++ {
		if code, _, _ := r.qerr(q); code >= abi.QErrNumCodes {
			t.Fatalf("queue %d: undefined Q_ERROR code %d", q, code)
		}
	}
}

// FuzzRing executes random ring bytes on both queues: the CP must end idle or
// faulted with Q_ERROR, never panic or hang.
func FuzzRing(f *testing.F) {
	seed := func(cmds ...abi.Command) []byte {
		b, err := abi.PackLines(cmds)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	const d, ctr, desc = 0x10000, 0x11000, 0x12000
	f.Add(seed(abi.DCRWrite(0x10, 1), abi.Launch(), abi.CacheFlush(4)), false, false)
	f.Add(seed(abi.MemWrite(d, mem.DefaultHostBase, 100), abi.MemRead(mem.DefaultHostBase, d, 4096), abi.MemCopy(d+8, d, 9)), true, false)
	f.Add(seed(abi.EventSignal(ctr, 1), abi.EventWait(ctr, 1, abi.WaitEQ), abi.Fence(3)), false, true)
	f.Add(seed(abi.LaunchQMD(desc), abi.Draw(desc), abi.DCRRead(1, 2)), false, false)
	f.Add([]byte{0x0B, 0, 0, 0, 0x09, 1}, true, true)
	f.Fuzz(func(t *testing.T, ring []byte, rtl, pipeline bool) {
		if len(ring) > 32*abi.LineBytes {
			ring = ring[:32*abi.LineBytes]
		}
		r := fuzzRig(t, rtl, pipeline)
		// Let descriptors and counters hold fuzz bytes too.
		if len(ring) >= 8 {
			_ = r.dev.Write(0x12000, ring[:min(len(ring), 4096)])
			_ = r.dev.WriteU32(0x12000, binary.LittleEndian.Uint32(ring)%300)
		}
		lines := make([]byte, (len(ring)+abi.LineBytes-1)/abi.LineBytes*abi.LineBytes)
		copy(lines, ring)
		half := len(lines) / 2 / abi.LineBytes * abi.LineBytes
		r.put(0, lines[:half])
		r.put(1, lines[half:])
		r.commit(0)
		r.commit(1)
		settleClean(t, r)
	})
}

// FuzzRegs applies random register writes (6-byte records: u16 offset, u32 value)
// and reads back the whole map: errors are values, never panics or hangs.
func FuzzRegs(f *testing.F) {
	rec := func(pairs ...uint32) []byte {
		var b []byte
		for i := 0; i+1 < len(pairs); i += 2 {
			b = binary.LittleEndian.AppendUint16(b, uint16(pairs[i]))
			b = binary.LittleEndian.AppendUint32(b, pairs[i+1])
		}
		return b
	}
	f.Add(rec(abi.QueueReg(0, abi.RegQTailLo), 64, abi.QueueReg(0, abi.RegQTailHi), 0))
	f.Add(rec(abi.RegCPCtrl, 3, abi.QueueReg(1, abi.RegQControl), 0xFF, abi.RegCPSATPHi, 0x80000000))
	f.Add(rec(abi.QueueReg(0, abi.RegQRingSizeLog2), 6, abi.QueueReg(0, abi.RegQTailLo), 1<<20, abi.QueueReg(0, abi.RegQTailHi), 0))
	f.Add(rec(0x0C, 1, 0x134, 5, abi.RegCPIRQStatus, 0xFFFFFFFF))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzRig(t, len(data)%2 == 1, false)
		for i := 0; i+6 <= len(data) && i < 6*64; i += 6 {
			off := uint32(binary.LittleEndian.Uint16(data[i:])) & 0x3FC
			_ = r.cp.WriteReg(off, binary.LittleEndian.Uint32(data[i+2:]))
		}
		for off := uint32(0); off < 0x400; off += 4 {
			v, err := r.cp.ReadReg(off)
			if err != nil && v != abi.UndecodedRead {
				t.Fatalf("ReadReg(%#x) failed with %#x", off, v)
			}
		}
		settleClean(t, r)
	})
}
