package session

import (
	"reflect"
	"sync"
	"testing"
)

// CountKernel tallies machine-code launches with their instructions and Go
// launches by reason; Kernels is a copy (later counts do not reach it), and
// AddKernels sums kernel by kernel, nil when both sides are empty.
func TestKernelStats(t *testing.T) {
	var ds Device
	if ds.Kernels() != nil {
		t.Fatal("an unused device has kernel stats")
	}
	var wg sync.WaitGroup
	for range 4 { // the CP goroutine and the host count at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			ds.CountKernel("k", "", 10, 40)
			ds.CountKernel("k", "why", 0, 0)
		}()
	}
	wg.Wait()
	snap := ds.Kernels()
	want := map[string]KernelStats{"k": {Launches: 8, MachineCode: 4, WarpInstructions: 40, ThreadInstructions: 160, GoKernel: map[string]uint64{"why": 4}}}
	if !reflect.DeepEqual(snap, want) {
		t.Fatalf("Kernels %+v, want %+v", snap, want)
	}
	ds.CountKernel("k", "why", 0, 0)
	if snap["k"].GoKernel["why"] != 4 {
		t.Error("a later count changed an earlier snapshot")
	}
	sum := AddKernels(snap, map[string]KernelStats{"k": {Launches: 1, GoKernel: map[string]uint64{"other": 1}}, "j": {Launches: 2, MachineCode: 2}})
	if k := sum["k"]; k.Launches != 9 || k.GoKernel["why"] != 4 || k.GoKernel["other"] != 1 || sum["j"].MachineCode != 2 {
		t.Errorf("AddKernels %+v", sum)
	}
	if snap["k"].GoKernel["other"] != 0 {
		t.Error("AddKernels changed its operand")
	}
	if AddKernels(nil, map[string]KernelStats{}) != nil {
		t.Error("AddKernels of empties is not nil")
	}
}
