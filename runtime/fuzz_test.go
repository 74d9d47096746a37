package runtime_test

import (
	"context"
	"testing"
	"time"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

// FuzzQueues drives random but API-valid sequences of enqueues on three queues, with
// dependencies on earlier events of any queue: whatever the mix (including requests
// the runtime refuses and launches that fault), every event completes within a
// deadline, nothing panics, and afterwards every queue still round-trips data.
// Byte 0 picks the flavour, VM and pipelining; then each 4-byte group is one op:
// kind, queue, and two parameters. spec: command-processor §9, §10 items 3, 8
func FuzzQueues(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 4, 1, 3, 0, 2, 2, 9, 9})
	f.Add([]byte{3, 4, 0, 1, 1, 4, 1, 2, 2, 6, 2, 0, 1, 1, 0, 5, 5})
	f.Add([]byte{4, 7, 0, 2, 3, 8, 1, 0, 0, 9, 2, 7, 1, 1, 2, 200, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 4*48 {
			return
		}
		mode := data[0]
		e := openSim(t, []string{"emu", "rtl"}[mode&1], func(c *config.Config) {
			c.CP.VM = mode&1 == 0 && mode&2 != 0
		}, sim.Options{Pipeline: mode&4 != 0})
		qs := []*runtime.Queue{e.dev.DefaultQueue()}
		for i := 0; i < 2; i++ {
			q, err := e.dev.NewQueue(runtime.QueueOptions{Priority: i + 1})
			if err != nil {
				t.Fatal(err)
			}
			qs = append(qs, q)
		}
		const size = 1024
		bufs := []*runtime.Buffer{e.alloc(size), e.alloc(size), e.alloc(size)}
		var evs []*runtime.Event
		dep := func(p byte) []*runtime.Event {
			if len(evs) == 0 || p&1 == 0 {
				return nil
			}
			return []*runtime.Event{evs[int(p)%len(evs)]}
		}
		for ops := data[1:]; len(ops) >= 4; ops = ops[4:] {
			q := qs[int(ops[1])%len(qs)]
			a, b := ops[2], ops[3]
			buf, other := bufs[int(a)%len(bufs)], bufs[int(b)%len(bufs)]
			off, n := uint64(a)*5, uint64(b)*7 // may run past the buffer: refused, not fatal
			var ev *runtime.Event
			switch ops[0] % 10 {
			case 0:
				ev = q.EnqueueWrite(buf, off, make([]byte, n), dep(b)...)
			case 1:
				ev = q.EnqueueRead(buf, off, make([]byte, n), dep(a)...)
			case 2:
				ev = q.EnqueueCopy(other, off, buf, uint64(b), n, dep(a)...)
			case 3:
				ev = q.EnqueueFill(buf, off, n, []byte{a, b, 1}, dep(b)...)
			case 4:
				ev = q.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{uint32(a%4 + 1)},
					Block: [3]uint32{uint32(b%64 + 1)}, Cluster: [3]uint32{uint32(a % 3)}, Args: args(buf.Addr(), 3, uint64(b)%(size/4))}, dep(a)...)
			case 5:
				ev = q.EnqueueDCRWrite(abi.DCRRasterScissorX, uint32(a)<<16|uint32(b), dep(b)...)
			case 6:
				ev = q.EnqueueCopyRect3(other, runtime.Region{Off: uint64(a), RowPitch: 32, SlicePitch: 256}, buf,
					runtime.Region{Off: uint64(b), RowPitch: 40, SlicePitch: 300}, runtime.Extent{Width: uint64(a % 33), Height: uint64(b%5 + 1), Depth: 2}, dep(a)...)
			case 7:
				ev = q.EnqueueDraw([]runtime.DrawStep{
					runtime.DCRStep(abi.DCROMBlendConst, uint32(a)),
					runtime.LaunchStep(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{16}, Args: args(buf.Addr(), 1, 16)}),
				}, dep(b)...)
			case 8:
				ev = q.EnqueueLaunch(e.kern["faulty"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{4}}, dep(a)...)
			case 9:
				ev = q.NewBatch().Write(buf, 0, []byte{a, b}).Read(other, uint64(a), make([]byte, b)).Copy(buf, 64, other, 0, 16).Submit(dep(b)...)
			}
			evs = append(evs, ev)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for i, ev := range evs {
			if err := ev.WaitContext(ctx); err == context.DeadlineExceeded {
				t.Fatalf("event %d never completed: deadlock", i)
			}
		}
		for i, q := range qs {
			in := []byte{byte(i), 1, 2, 3}
			out := make([]byte, 4)
			if err := q.NewBatch().Write(bufs[i], 0, in).Read(bufs[i], 0, out).Submit().WaitContext(ctx); err != nil || string(in) != string(out) {
				t.Fatalf("queue %d after the sequence: %v, %v", i, err, out)
			}
		}
	})
}
