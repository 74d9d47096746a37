package cp

import (
	"testing"

	"vortexgfx/abi"
)

// launchCmds returns one kernel launch as each flavour's runtime encodes it: the
// 20 KMU DCR writes + LAUNCH + CACHE_FLUSH on rtl, LAUNCH_QMD + CACHE_FLUSH on emu.
// spec: vortex-hardware-facts §1.4
func launchCmds(r *rig, fl abi.Flavor) []abi.Command {
	pairs := abi.LaunchDCRs(abi.LaunchInfo{StartupAddr: 0x80000000, KernelEntry: 0x80000100, Args: 0x9000,
		NDim: 1, Grid: [3]uint32{64}, Block: [3]uint32{16}}, 4)
	if fl == abi.FlavorRTL {
		var cmds []abi.Command
		for _, p := range pairs {
			cmds = append(cmds, abi.DCRWrite(p.Addr, p.Value))
		}
		return append(cmds, abi.Launch(), abi.CacheFlush(4))
	}
	qmd, _ := abi.EncodeQMD(pairs)
	a := r.dalloc(uint64(len(qmd)))
	_ = r.dev.Write(a, qmd)
	return []abi.Command{abi.LaunchQMD(a), abi.CacheFlush(4)}
}

// BenchmarkLaunch runs one packed, single-doorbell kernel launch per iteration and
// reports the CP cycles it cost (the fake GPU's launch takes 100 cycles).
func BenchmarkLaunch(b *testing.B) {
	for _, fl := range []abi.Flavor{abi.FlavorEmu, abi.FlavorRTL} {
		b.Run(fl.String(), func(b *testing.B) {
			r := newRig(b, Config{Flavor: fl, Trace: func(TraceEvent) {}})
			cmds := launchCmds(r, fl)
			start := r.cp.Cycle()
			for i := 0; i < b.N; i++ {
				if r.tail[0] > 1<<15 { // keep the 64 KiB ring from overrunning
					r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlReset)
					r.tail[0] = 0
				}
				r.submit(0, cmds...)
				r.wait()
			}
			b.ReportMetric(float64(r.cp.Cycle()-start)/float64(b.N), "cp-cycles/launch")
			b.ReportMetric(float64(len(cmds)), "commands/launch")
		})
	}
}

// drawCmds is a three-stage draw (4 state DCR writes + a launch + a flush per
// stage): one CMD_DRAW on emu, the equivalent streamed batch on rtl.
// spec: command-processor §8.1
func drawCmds(r *rig, fl abi.Flavor) []abi.Command {
	var steps []abi.Command
	for stage := 0; stage < 3; stage++ {
		for i := 0; i < 4; i++ {
			steps = append(steps, abi.DCRWrite(abi.DCR(0x80+i), uint32(stage)))
		}
		steps = append(steps, launchCmds(r, fl)...)
	}
	if fl == abi.FlavorRTL {
		return steps
	}
	desc, err := abi.EncodeDraw(steps)
	if err != nil {
		panic(err)
	}
	a := r.dalloc(uint64(len(desc)))
	_ = r.dev.Write(a, desc)
	return []abi.Command{abi.Draw(a)}
}

// BenchmarkDraw reports the CP cycles of one three-stage draw per flavour.
func BenchmarkDraw(b *testing.B) {
	for _, fl := range []abi.Flavor{abi.FlavorEmu, abi.FlavorRTL} {
		b.Run(fl.String(), func(b *testing.B) {
			r := newRig(b, Config{Flavor: fl, Trace: func(TraceEvent) {}})
			cmds := drawCmds(r, fl)
			start := r.cp.Cycle()
			for i := 0; i < b.N; i++ {
				if r.tail[0] > 1<<15 {
					r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlReset)
					r.tail[0] = 0
				}
				r.submit(0, cmds...)
				r.wait()
			}
			b.ReportMetric(float64(r.cp.Cycle()-start)/float64(b.N), "cp-cycles/draw")
			b.ReportMetric(float64(len(cmds)), "commands/draw")
		})
	}
}
