//go:build !unix

package main

// processCPU reports no CPU time where getrusage does not exist.
func processCPU() (int64, bool) { return 0, false }
