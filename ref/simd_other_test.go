//go:build !amd64

package ref

import "testing"

// forEachSIMD runs test once: the kernels are the Go ones.
func forEachSIMD(t *testing.T, test func(*testing.T)) { t.Run("Go", test) }
