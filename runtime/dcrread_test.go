package runtime_test

import (
	"fmt"
	"sync"
	"testing"

	"vortexgfx/abi"
)

// TestDCRReadOrder: a DCR read sees every DCR write queued before it on its
// queue, whether it runs on the caller's goroutine (the queue idle) or behind
// pending work, with other goroutines submitting to the same queue meanwhile,
// and Close after reads in flight ends cleanly. spec: command-processor §2.3,
// §5 (Q_LAST_DCR_RSP), §9
func TestDCRReadOrder(t *testing.T) {
	for _, f := range flavors {
		t.Run(f, func(t *testing.T) {
			e := open(t, f, nil)
			q := e.dev.DefaultQueue()
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for g := 0; g < 4; g++ {
				wg.Go(func() {
					for i := 0; i < 40; i++ {
						if i%3 == 0 {
							// Unordered writes of a DCR nobody reads keep the queue busy.
							q.EnqueueDCRWrite(abi.DCRRasterScissorY, uint32(i))
							continue
						}
						if _, err := q.DCRRead(abi.DCRRasterScissorY, 0); err != nil {
							errs <- fmt.Errorf("reader %d: %w", g, err)
							return
						}
					}
				})
			}
			for i := uint32(1); i <= 60; i++ {
				ev := q.EnqueueDCRWrite(abi.DCRRasterScissorX, i)
				if i%2 == 0 {
					if err := ev.Wait(); err != nil {
						t.Fatal(err)
					}
				}
				v, err := q.DCRRead(abi.DCRRasterScissorX, 0)
				if err != nil || v != i {
					t.Fatalf("read after write %d: %d, %v", i, v, err)
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}
