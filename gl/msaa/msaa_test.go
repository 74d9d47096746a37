package msaa

import "testing"

// TestPositions pins the tables: the 4-sample grid is vortexpipe §3.4.1's
// (6,2) (14,6) (2,10) (10,14), and the others are the standard sample
// locations (Vulkan 1.3 §25.3), checked at a few entries and by their
// invariants: in range, distinct, centred on the pixel.
func TestPositions(t *testing.T) {
	for _, c := range []struct {
		n, i, x, y int
	}{
		{1, 0, 8, 8},
		{2, 0, 12, 12}, {2, 1, 4, 4},
		{4, 0, 6, 2}, {4, 1, 14, 6}, {4, 2, 2, 10}, {4, 3, 10, 14},
		{8, 0, 9, 5}, {8, 3, 5, 3}, {8, 7, 15, 1},
		{16, 0, 9, 9}, {16, 12, 0, 8}, {16, 15, 1, 0},
	} {
		if x, y := Position(c.n, c.i); x != c.x || y != c.y {
			t.Errorf("Position(%d, %d) = (%d, %d), want (%d, %d)", c.n, c.i, x, y, c.x, c.y)
		}
	}
	for _, n := range []int{1, 2, 4, 8, 16} {
		seen := map[[2]int]bool{}
		sx, sy := 0, 0
		for i := range n {
			x, y := Position(n, i)
			if x < 0 || x > 15 || y < 0 || y > 15 || seen[[2]int{x, y}] {
				t.Errorf("%d samples: sample %d at (%d, %d) out of range or repeated", n, i, x, y)
			}
			seen[[2]int{x, y}] = true
			sx, sy = sx+x, sy+y
		}
		// Every table but 16's averages to the centre; 16's to within 1/32.
		if d := 2*sx - 16*n; d < -n || d > n {
			t.Errorf("%d samples: x centroid %d/%d", n, sx, n)
		}
		if d := 2*sy - 16*n; d < -n || d > n {
			t.Errorf("%d samples: y centroid %d/%d", n, sy, n)
		}
		if Full(n) != Mask(1<<n-1) || !Valid(n) || Check(n) != nil {
			t.Errorf("%d samples: Full %#x, Valid %t", n, Full(n), Valid(n))
		}
	}
}

func TestInvalidCounts(t *testing.T) {
	for _, n := range []int{-1, 0, 3, 5, 6, 12, 32} {
		if Valid(n) || Check(n) == nil {
			t.Errorf("%d samples accepted", n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Position(4, 4) did not panic")
		}
	}()
	Position(4, 4)
}
