package compute

import (
	"testing"
)

// FuzzProgramBlob: the device's blob loader resolves any bytes to a program's
// kernel or an error naming why, and never panics. spec: abi kernel image
// (KernelBlob entries)
func FuzzProgramBlob(f *testing.F) {
	f.Add(progBlob(1))
	f.Add(progBlob(99))
	f.Add([]byte("VXCP"))
	d := openDevice(f, nil)
	if _, err := d.Load("double", doubleIR(16)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := d.loadBlob(b)
		if (k == nil) == (err == nil) {
			t.Fatalf("kernel %v, error %v", k != nil, err)
		}
		if err == nil && (len(b) != progBlobBytes || b[8] != 1) {
			t.Fatalf("blob %x resolved", b)
		}
	})
}
