package simt

import (
	"fmt"
	"io"
)

// Semihosting operation numbers (the Arm semihosting spec, which RISC-V adopts).
const (
	SysOpen         = 0x01
	SysClose        = 0x02
	SysWriteC       = 0x03
	SysWrite0       = 0x04
	SysWrite        = 0x05
	SysRead         = 0x06
	SysReadC        = 0x07
	SysIsTTY        = 0x09
	SysSeek         = 0x0a
	SysFlen         = 0x0c
	SysErrno        = 0x13
	SysGetCmdline   = 0x15
	SysHeapInfo     = 0x16
	SysExit         = 0x18
	SysExitExtended = 0x20
)

// adpStoppedApplicationExit is the SYS_EXIT reason of a normal exit.
const adpStoppedApplicationExit = 0x20026

// The handles Semihost hands out: ":tt" opened for reading, writing and appending
// (stdin, stdout, stderr), and the ":semihosting-features" file.
const (
	hStdin    = 1
	hStdout   = 2
	hStderr   = 3
	hFeatures = 4
)

// features is the ":semihosting-features" file: magic "SHFB" and the feature byte
// (bit 0 SYS_EXIT_EXTENDED, bit 1 stdout/stderr through ":tt" modes).
var features = []byte{'S', 'H', 'F', 'B', 0x03}

// Semihost implements RISC-V semihosting (the sequence slli x0,x0,0x1f; ebreak;
// srai x0,x0,7 with a0 = operation and a1 = parameter) with what picolibc's
// semihosting crt0 and stdio use: console input and output, the ":tt" and
// ":semihosting-features" pseudo-files, the command line and exit. Any other
// operation, and any real file, is an error naming it.
type Semihost struct {
	Stdin          io.Reader // SYS_READC and reads of ":tt"; nil is an empty input
	Stdout, Stderr io.Writer
	Cmdline        string // what SYS_GET_CMDLINE returns

	Exited   bool
	ExitCode int

	featPos int
}

func (s *Semihost) word(c *Core, addr uint32) (uint32, error) {
	return c.mem.Load(addr, 4)
}

func (s *Semihost) bytes(c *Core, addr, n uint32) ([]byte, error) {
	if n > 1<<24 {
		return nil, fmt.Errorf("buffer of %d bytes at 0x%08x is too large", n, addr)
	}
	p := make([]byte, n)
	for i := range p {
		v, err := c.mem.Load(addr+uint32(i), 1)
		if err != nil {
			return nil, err
		}
		p[i] = byte(v)
	}
	return p, nil
}

func (s *Semihost) args(c *Core, block uint32, n int) ([]uint32, error) {
	out := make([]uint32, n)
	for i := range out {
		v, err := s.word(c, block+uint32(4*i))
		if err != nil {
			return nil, fmt.Errorf("reading the parameter block at 0x%08x: %w", block, err)
		}
		out[i] = v
	}
	return out, nil
}

func (s *Semihost) out(h uint32) (io.Writer, bool) {
	switch h {
	case hStdout:
		return s.Stdout, true
	case hStderr:
		return s.Stderr, true
	}
	return nil, false
}

// Ebreak implements the Ebreak interface.
func (s *Semihost) Ebreak(c *Core, wi, lane int) (bool, error) {
	pc := c.PC(wi)
	if !c.IsSemihostCall(pc) {
		return false, fmt.Errorf("ebreak is not a semihosting call (no slli/srai marker around it)")
	}
	op, a1 := c.Reg(wi, lane, 10), c.Reg(wi, lane, 11)
	ret, stop, err := s.call(c, op, a1)
	if err != nil {
		return false, fmt.Errorf("semihosting operation 0x%02x: %w", op, err)
	}
	c.SetReg(wi, lane, 10, ret)
	return stop, nil
}

func (s *Semihost) call(c *Core, op, a1 uint32) (ret uint32, stop bool, err error) {
	switch op {
	case SysWriteC:
		b, err := s.bytes(c, a1, 1)
		if err != nil {
			return 0, false, err
		}
		_, err = s.Stdout.Write(b)
		return 0, false, err
	case SysWrite0:
		var p []byte
		for a := a1; ; a++ {
			v, err := c.mem.Load(a, 1)
			if err != nil {
				return 0, false, err
			}
			if v == 0 {
				break
			}
			p = append(p, byte(v))
		}
		_, err := s.Stdout.Write(p)
		return 0, false, err
	case SysWrite:
		a, err := s.args(c, a1, 3)
		if err != nil {
			return 0, false, err
		}
		w, ok := s.out(a[0])
		if !ok {
			return 0, false, fmt.Errorf("SYS_WRITE to handle %d, which is not an output", a[0])
		}
		p, err := s.bytes(c, a[1], a[2])
		if err != nil {
			return 0, false, err
		}
		_, err = w.Write(p)
		return 0, false, err
	case SysOpen:
		a, err := s.args(c, a1, 3)
		if err != nil {
			return 0, false, err
		}
		name, err := s.bytes(c, a[0], a[2])
		if err != nil {
			return 0, false, err
		}
		switch string(name) {
		case ":tt":
			switch {
			case a[1] < 4:
				return hStdin, false, nil
			case a[1] < 8:
				return hStdout, false, nil
			default:
				return hStderr, false, nil
			}
		case ":semihosting-features":
			s.featPos = 0
			return hFeatures, false, nil
		}
		return 0, false, fmt.Errorf("SYS_OPEN of %q: only \":tt\" and \":semihosting-features\" exist", name)
	case SysClose, SysErrno:
		return 0, false, nil
	case SysIsTTY:
		return b2u(a1 >= hStdin && a1 <= hStderr), false, nil
	case SysFlen:
		if a, err := s.args(c, a1, 1); err != nil {
			return 0, false, err
		} else if a[0] == hFeatures {
			return uint32(len(features)), false, nil
		}
		return 0, false, nil
	case SysSeek:
		a, err := s.args(c, a1, 2)
		if err != nil {
			return 0, false, err
		}
		if a[0] == hFeatures {
			s.featPos = int(min(a[1], uint32(len(features))))
		}
		return 0, false, nil
	case SysRead:
		a, err := s.args(c, a1, 3)
		if err != nil {
			return 0, false, err
		}
		if a[0] == hStdin {
			p := make([]byte, min(a[2], 1<<16))
			n := 0
			if s.Stdin != nil {
				n, _ = s.Stdin.Read(p)
			}
			for i := 0; i < n; i++ {
				if err := c.mem.Store(a[1]+uint32(i), 1, uint32(p[i])); err != nil {
					return 0, false, err
				}
			}
			return a[2] - uint32(n), false, nil // the count not read
		}
		if a[0] != hFeatures {
			return 0, false, fmt.Errorf("SYS_READ from handle %d, which is not an input", a[0])
		}
		n := 0
		for ; n < int(a[2]) && s.featPos < len(features); n++ {
			if err := c.mem.Store(a[1]+uint32(n), 1, uint32(features[s.featPos])); err != nil {
				return 0, false, err
			}
			s.featPos++
		}
		return a[2] - uint32(n), false, nil
	case SysReadC:
		var b [1]byte
		if s.Stdin == nil {
			return ^uint32(0), false, nil
		}
		if n, _ := s.Stdin.Read(b[:]); n == 0 {
			return ^uint32(0), false, nil // end of input
		}
		return uint32(b[0]), false, nil
	case SysGetCmdline:
		a, err := s.args(c, a1, 2)
		if err != nil {
			return 0, false, err
		}
		cmd := []byte(s.Cmdline)
		if uint32(len(cmd))+1 > a[1] {
			return ^uint32(0), false, nil
		}
		for i, b := range append(cmd, 0) {
			if err := c.mem.Store(a[0]+uint32(i), 1, uint32(b)); err != nil {
				return 0, false, err
			}
		}
		return 0, false, c.mem.Store(a1+4, 4, uint32(len(cmd)))
	case SysHeapInfo:
		a, err := s.args(c, a1, 1)
		if err != nil {
			return 0, false, err
		}
		for i := uint32(0); i < 4; i++ {
			if err := c.mem.Store(a[0]+4*i, 4, 0); err != nil {
				return 0, false, err
			}
		}
		return 0, false, nil
	case SysExit:
		// On a 32-bit target the parameter is the reason itself.
		s.Exited, s.ExitCode = true, 1
		if a1 == adpStoppedApplicationExit {
			s.ExitCode = 0
		}
		return 0, true, nil
	case SysExitExtended:
		a, err := s.args(c, a1, 2)
		if err != nil {
			return 0, false, err
		}
		s.Exited, s.ExitCode = true, 1
		if a[0] == adpStoppedApplicationExit {
			s.ExitCode = int(int32(a[1]))
		}
		return 0, true, nil
	}
	return 0, false, fmt.Errorf("not implemented")
}
