package mem_test

import (
	"fmt"

	"vortexgfx/device/mem"
)

// ExamplePageTable maps a device VA range and translates through the SATP value
// the runtime programs into CP_SATP_LO/HI.
func ExamplePageTable() {
	dev := mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize)
	buf, _ := dev.Alloc(2*mem.PageSize, mem.PageSize)
	pt, _ := mem.NewPageTable(dev, mem.ModeSv32)
	_ = pt.Map(0x4000_0000, buf, 2*mem.PageSize, mem.PermRW)
	pa, _ := mem.Translate(dev, pt.SATP(), 0x4000_1004, mem.AccessWrite)
	fmt.Println(pa == buf+mem.PageSize+4)
	_, err := mem.Translate(dev, pt.SATP(), 0x4000_2000, mem.AccessRead)
	fmt.Println(err)
	// Output:
	// true
	// mem: sv32 page fault: read of VA 0x40002000 at level 0: invalid PTE (PTE 0x0)
}

// ExampleMemory_Read shows that an access outside any allocation is an error value.
func ExampleMemory_Read() {
	host := mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize)
	a, _ := host.Alloc(16, 0)
	fmt.Println(host.Read(a+8, make([]byte, 16)))
	// Output: mem: host read of 16 bytes at 0x100000008 outside any allocation
}
