package runtime

import "context"

// Event completes when the work it stands for has retired on the device (or
// failed). Enqueue calls take events as dependencies: the work starts only after
// every dependency completed, and fails with ErrDependency if one failed. Events
// resolve host-side, so a wait on another queue never blocks a CP ring.
// spec: command-processor §9 (timeline events)
type Event struct {
	done    chan struct{}
	err     error
	prof    Profile
	hasProf bool
}

// Profile is an event's timing in CP cycles, from the CP's 32-byte profile records
// of its first and last command: queued (tail commit), submit (line fetched), start
// (resource granted) of the first, end (retire) of the last.
// spec: command-processor §10 item 12 (vx_event_get_profiling)
type Profile struct {
	Queued, Submit, Start, End uint64
	FreqHz                     uint32 // CP_CYCLE_FREQ_HZ, to convert cycles to time
}

// Profile returns the event's profile; ok is false unless the event completed
// successfully on a queue created with QueueOptions.Profile.
func (e *Event) Profile() (p Profile, ok bool) {
	<-e.done
	return e.prof, e.hasProf && e.err == nil
}

func newEvent() *Event { return &Event{done: make(chan struct{})} }

func (e *Event) finish(err error) {
	e.err = err
	close(e.done)
}

// Wait blocks until the event completes and returns its error.
func (e *Event) Wait() error {
	<-e.done
	return e.err
}

// WaitContext is Wait bounded by ctx.
func (e *Event) WaitContext(ctx context.Context) error {
	select {
	case <-e.done:
		return e.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Done is closed when the event completes.
func (e *Event) Done() <-chan struct{} { return e.done }

// Completed returns an event that has already completed with err (nil for success).
func Completed(err error) *Event {
	e := newEvent()
	e.finish(err)
	return e
}

// WaitAll waits for every event and returns the first error.
func WaitAll(evs ...*Event) error {
	var first error
	for _, e := range evs {
		if e == nil {
			continue
		}
		if err := e.Wait(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
