package cp_test

import (
	"context"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/cp"
	"vortexgfx/device/mem"
)

// nullGPU accepts every DCR and finishes every launch in 1000 cycles.
type nullGPU struct{ writes int }

func (g *nullGPU) DCRWrite(abi.DCR, uint32) error          { g.writes++; return nil }
func (g *nullGPU) DCRRead(abi.DCR, uint32) (uint32, error) { return 0, nil }
func (g *nullGPU) Launch(context.Context) (uint64, error)  { return 1000, nil }
func (g *nullGPU) NumCores() int                           { return 1 }

// Example drives the CP the way a runtime does: program queue 0 through registers,
// copy commands into the ring, ring the doorbell once, and read the completion.
func Example() {
	host := mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize)
	dev := mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize)
	c, err := cp.New(cp.Config{Flavor: abi.FlavorEmu}, host, dev, &nullGPU{}, cp.Caps{})
	if err != nil {
		panic(err)
	}
	defer c.Close()

	ring, _ := host.Alloc(1<<16, 64)
	cmpl, _ := host.Alloc(8, 8)
	c.WriteReg(abi.QueueReg(0, abi.RegQRingBaseLo), uint32(ring))
	c.WriteReg(abi.QueueReg(0, abi.RegQRingBaseHi), uint32(ring>>32))
	c.WriteReg(abi.QueueReg(0, abi.RegQCmplAddrLo), uint32(cmpl))
	c.WriteReg(abi.QueueReg(0, abi.RegQCmplAddrHi), uint32(cmpl>>32))
	c.WriteReg(abi.QueueReg(0, abi.RegQRingSizeLog2), 16)
	c.WriteReg(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable)
	c.WriteReg(abi.RegCPCtrl, abi.CPCtrlEnable) // global enable last

	// A kernel launch as QMD + LAUNCH_QMD + CACHE_FLUSH: two commands, one line.
	qmd, _ := abi.EncodeQMD(abi.LaunchDCRs(abi.LaunchInfo{StartupAddr: 0x80000000,
		NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{4}}, 4))
	qa, _ := dev.Alloc(uint64(len(qmd)), 64)
	dev.Write(qa, qmd)
	lines, _ := abi.PackLines([]abi.Command{abi.LaunchQMD(qa), abi.CacheFlush(1)})
	host.Write(ring, lines)
	c.WriteReg(abi.QueueReg(0, abi.RegQTailLo), uint32(len(lines)))
	c.WriteReg(abi.QueueReg(0, abi.RegQTailHi), 0) // the atomic commit

	c.WaitIdle(context.Background())
	seq, _ := host.ReadU64(cmpl)
	fmt.Println("retired:", seq, "lines:", len(lines)/abi.LineBytes)
	// Output: retired: 2 lines: 1
}

// ExampleCP_SetIRQHandler sleeps on the completion interrupt instead of polling.
func ExampleCP_SetIRQHandler() {
	host := mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize)
	dev := mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize)
	c, _ := cp.New(cp.Config{Flavor: abi.FlavorRTL}, host, dev, &nullGPU{}, cp.Caps{})
	defer c.Close()
	irq := make(chan uint32, 16)
	c.SetIRQHandler(func(mask uint32) { irq <- mask })
	c.WriteReg(abi.RegCPIRQEnable, 1)

	ring, _ := host.Alloc(1<<16, 64)
	c.WriteReg(abi.QueueReg(0, abi.RegQRingBaseLo), uint32(ring))
	c.WriteReg(abi.QueueReg(0, abi.RegQRingBaseHi), uint32(ring>>32))
	c.WriteReg(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable)
	c.WriteReg(abi.RegCPCtrl, abi.CPCtrlEnable)
	lines, _ := abi.PackLines([]abi.Command{abi.DCRWrite(abi.DCRGridDimX, 1), abi.Launch()})
	host.Write(ring, lines)
	c.WriteReg(abi.QueueReg(0, abi.RegQTailLo), uint32(len(lines)))
	c.WriteReg(abi.QueueReg(0, abi.RegQTailHi), 0)

	for {
		<-irq
		seq, _ := c.ReadReg(abi.QueueReg(0, abi.RegQSeqnum))
		if seq == 2 {
			fmt.Println("queue 0 retired", seq)
			return
		}
	}
	// Output: queue 0 retired 2
}
