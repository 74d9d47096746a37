package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts a CPU profile written to path (nothing when path is
// empty) for `go tool pprof`. The returned stop ends it and closes the file,
// reporting a failure on stderr under the command's name; it is safe to call
// when no profile was started.
func startCPUProfile(path, cmd string, stderr io.Writer) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "%s: --cpuprofile %s: %v\n", cmd, path, err)
		}
	}, nil
}
