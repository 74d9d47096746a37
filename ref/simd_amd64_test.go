package ref

import "testing"

// forEachSIMD runs test with each form of the amd64 kernels the CPU has:
// AVX (when hasAVX) and SSE2.
func forEachSIMD(t *testing.T, test func(*testing.T)) {
	saved := useAVX
	defer func() { useAVX = saved }()
	for _, avx := range []bool{true, false} {
		name := "SSE2"
		if avx {
			name = "AVX"
			if !hasAVX() {
				t.Log("no AVX on this CPU: only SSE2 is tested")
				continue
			}
		}
		useAVX = avx
		t.Run(name, test)
	}
}
