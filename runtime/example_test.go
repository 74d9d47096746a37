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
