package runtime_test

import (
	"encoding/binary"
	"fmt"
	"log"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

// vectorAdd is a device kernel: c[i] = a[i] + b[i] for i < n, args {a, b, c, n}.
func vectorAdd(c *device.CTA) error {
	a, b, out, n := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3)
	c.ForEachThread(func(tid int) {
		if i := c.GlobalID(tid); i < n {
			c.WriteU32(out+4*i, c.ReadU32(a+4*i)+c.ReadU32(b+4*i))
		}
	})
	return nil
}

func u32s(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func args(slots ...uint64) []byte {
	b := make([]byte, 8*len(slots))
	for i, s := range slots {
		binary.LittleEndian.PutUint64(b[8*i:], s)
	}
	return b
}

// Example opens the simulator, uploads two vectors, launches a registered kernel
// and reads the sum back.
func Example() {
	lib := device.NewLibrary()
	if err := lib.Register("vecadd", vectorAdd); err != nil {
		log.Fatal(err)
	}
	backend, err := sim.Open(config.Default(), lib, sim.Options{})
	if err != nil {
		log.Fatal(err)
	}
	dev, err := runtime.Open(backend)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()

	image, err := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "vecadd")})
	if err != nil {
		log.Fatal(err)
	}
	mod, err := dev.LoadModule(image)
	if err != nil {
		log.Fatal(err)
	}
	kernel, err := mod.Kernel("main")
	if err != nil {
		log.Fatal(err)
	}

	const n = 8
	a, _ := dev.Alloc(4 * n)
	b, _ := dev.Alloc(4 * n)
	c, _ := dev.Alloc(4 * n)
	q := dev.DefaultQueue()
	wa := q.EnqueueWrite(a, 0, u32s([]uint32{1, 2, 3, 4, 5, 6, 7, 8}))
	wb := q.EnqueueWrite(b, 0, u32s([]uint32{10, 20, 30, 40, 50, 60, 70, 80}))
	launch := q.EnqueueLaunch(kernel, runtime.LaunchParams{
		NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{n},
		Args: args(a.Addr(), b.Addr(), c.Addr(), n),
	}, wa, wb)
	out := make([]byte, 4*n)
	if err := q.EnqueueRead(c, 0, out, launch).Wait(); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < n; i++ {
		fmt.Print(binary.LittleEndian.Uint32(out[4*i:]), " ")
	}
	fmt.Println()
	// Output: 11 22 33 44 55 66 77 88
}

// Example_virtualMemory opens an emulation CP with VM: the runtime programs CP_SATP,
// buffers get virtual addresses, the module loads at the FS/compute link base, and a
// physical buffer (what a fixed-function unit may be bound to) is copied into with
// a 3-D rect copy.
func Example_virtualMemory() {
	lib := device.NewLibrary()
	if err := lib.Register("vecadd", vectorAdd); err != nil {
		log.Fatal(err)
	}
	cfg := config.Default()
	cfg.CP.VM = true
	backend, err := sim.Open(cfg, lib, sim.Options{})
	if err != nil {
		log.Fatal(err)
	}
	dev, err := runtime.Open(backend)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	mode, _ := dev.VMMode()

	image, _ := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "vecadd")})
	mod, err := dev.LoadModuleAt(image, abi.LinkBaseFS, "compute")
	if err != nil {
		log.Fatal(err)
	}
	kernel, _ := mod.Kernel("main")

	const n = 4
	a, _ := dev.Alloc(4 * n)
	c, _ := dev.Alloc(4 * n)
	q := dev.DefaultQueue()
	err = q.NewBatch().
		Write(a, 0, u32s([]uint32{1, 2, 3, 4})).
		Launch(kernel, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{n}, Args: args(a.Addr(), a.Addr(), c.Addr(), n)}).
		Submit().Wait()
	if err != nil {
		log.Fatal(err)
	}
	// Copy the 2×2 box of c's words into a physical 4×4-word surface at (1, 1).
	surf, _ := dev.AllocWith(64, runtime.AllocOptions{Physical: true})
	err = q.EnqueueCopyRect3(surf, runtime.Region{Off: 4*4 + 4, RowPitch: 16, SlicePitch: 64},
		c, runtime.Region{RowPitch: 8, SlicePitch: 16}, runtime.Extent{Width: 8, Height: 2, Depth: 1}).Wait()
	if err != nil {
		log.Fatal(err)
	}
	out := make([]byte, 64)
	if err := dev.Read(surf, 0, out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v, module at %#x, virtual buffers: %v\n", mode, mod.Base(), a.Addr() != surf.Addr() && !a.Physical())
	for i := 0; i < 16; i++ {
		fmt.Print(binary.LittleEndian.Uint32(out[4*i:]), " ")
	}
	fmt.Println()
	// Output:
	// sv32, module at 0x80000000, virtual buffers: true
	// 0 0 0 0 0 2 4 0 0 6 8 0 0 0 0 0
}
