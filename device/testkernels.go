package device

import (
	"fmt"

	"vortexgfx/abi"
)

// Test kernels: small compute kernels for tools, examples and benchmarks that need a
// real launch without the graphics pipeline. Argument blocks are arrays of 64-bit
// slots.
//
//	"vecadd"  {a, b, c, n}: c[i] = a[i] + b[i] (u32) for i < n
//	"scale"   {buf, k, n}:  buf[i] *= k (u32) for i < n
//	"noop"    {}:           one empty phase per CTA
var testKernels = []struct {
	name string
	k    Kernel
}{
	{"vecadd", testVecAdd},
	{"scale", testScale},
	{"noop", testNoop},
}

func testVecAdd(c *CTA) error {
	a, b, out, n := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3)
	c.ForEachThread(func(tid int) {
		if i := c.GlobalID(tid); i < n {
			c.WriteU32(out+4*i, c.ReadU32(a+4*i)+c.ReadU32(b+4*i))
		}
	})
	return nil
}

func testScale(c *CTA) error {
	buf, k, n := c.Arg(0), c.Arg(1), c.Arg(2)
	c.ForEachThread(func(tid int) {
		if i := c.GlobalID(tid); i < n {
			c.WriteU32(buf+4*i, c.ReadU32(buf+4*i)*uint32(k))
		}
	})
	return nil
}

func testNoop(c *CTA) error {
	c.ForEachThread(func(int) {})
	return nil
}

// RegisterTestKernels adds the test kernels to lib under their names.
func RegisterTestKernels(lib *Library) error {
	for _, t := range testKernels {
		if err := lib.Register(t.name, t.k); err != nil {
			return err
		}
	}
	return nil
}

// TestKernelImage returns a module image whose entries are the test kernels, each
// under its own name.
func TestKernelImage() ([]byte, error) {
	ents := make([]abi.KernelImageEntry, len(testKernels))
	for i, t := range testKernels {
		ents[i] = abi.LibraryEntry(t.name, t.name)
	}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		return nil, fmt.Errorf("device: test kernel image: %w", err)
	}
	return img, nil
}
