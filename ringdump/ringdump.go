// Package ringdump converts raw CP command-ring bytes to and from JSON lines, the form
// `vortex cp decode` prints and `vortex cp encode` reads, so a user can inspect a ring
// captured from hardware or write one by hand.
//
// Decoding prints, for each 64-byte line in ring order, one object per command
//
//	{"line":L,"offset":O,"op":"MEM_WRITE","opcode":1,"flags":F,"size":S,"arg0":A0,"arg1":A1,"arg2":A2}
//
// (arg N present only when its 8-byte slot lies wholly inside the opcode's size without
// the profile trailer; FENCE's arg0 is the 32-bit word at offset 4; "profile_slot":P
// when F_PROFILE is set), then one object {"line":L,"end":"no_room"|"sentinel"|
// "unknown_opcode"|"overrun","offset":O} saying why and where the walk of the line
// stopped. spec: command-processor §2.1
//
// Encoding reads the same objects. Commands are placed in the line their "line" field
// names (lines skipped in between are written as padding), at the next free offset; an
// "offset" that disagrees with that is an error. End objects open their line if it is
// not open yet, so decode∘encode∘decode = decode, and encode∘decode is the identity
// on every ring whose bytes outside decoded commands are zero and whose lines hold at
// most five commands (the encoder never exceeds VX_CP_MAX_CMDS_PER_CL).
package ringdump

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"vortexgfx/abi"
)

// Decode writes the JSON-lines form of ring to w. ring must be a whole number of
// 64-byte lines.
func Decode(w io.Writer, ring []byte, f abi.Flavor) error {
	if len(ring)%abi.LineBytes != 0 {
		return fmt.Errorf("ring is %d bytes, not a whole number of %d-byte lines (%d bytes left over)",
			len(ring), abi.LineBytes, len(ring)%abi.LineBytes)
	}
	bw := bufio.NewWriter(w)
	var cmds []abi.LineCommand
	buf := make([]byte, 0, 256)
	for l := 0; l < len(ring)/abi.LineBytes; l++ {
		var end abi.LineEnd
		var endOff int
		cmds, end, endOff = abi.AppendLine(cmds[:0], ring[l*abi.LineBytes:(l+1)*abi.LineBytes], f)
		for _, c := range cmds {
			buf = appendCommand(buf[:0], l, c)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		buf = fmt.Appendf(buf[:0], "{\"line\":%d,\"end\":%q,\"offset\":%d}\n", l, end.String(), endOff)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func appendCommand(b []byte, line int, c abi.LineCommand) []byte {
	b = fmt.Appendf(b, "{\"line\":%d,\"offset\":%d,\"op\":%q,\"opcode\":%d,\"flags\":%d,\"size\":%d",
		line, c.Offset, c.Op.String(), uint8(c.Op), c.Flags, c.Size())
	n := c.Op.NumArgs()
	if c.Op.HasFenceWord() {
		n = 1
	}
	for i := 0; i < n; i++ {
		b = append(b, ",\"arg"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "\":"...)
		b = strconv.AppendUint(b, c.Args[i], 10)
	}
	if c.Flags&abi.FlagProfile != 0 {
		b = append(b, ",\"profile_slot\":"...)
		b = strconv.AppendUint(b, c.ProfileSlot, 10)
	}
	return append(b, "}\n"...)
}

// object is one JSON line; pointer fields tell absent from zero.
type object struct {
	Line        *json.Number `json:"line"`
	Offset      *json.Number `json:"offset"`
	Op          *string      `json:"op"`
	Opcode      *json.Number `json:"opcode"`
	Flags       *json.Number `json:"flags"`
	Size        *json.Number `json:"size"`
	Arg0        *json.Number `json:"arg0"`
	Arg1        *json.Number `json:"arg1"`
	Arg2        *json.Number `json:"arg2"`
	ProfileSlot *json.Number `json:"profile_slot"`
	End         *string      `json:"end"`
}

func num(n *json.Number, bits int, what string) (uint64, error) {
	v, err := strconv.ParseUint(n.String(), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%s %s: want an unsigned %d-bit integer", what, n.String(), bits)
	}
	return v, nil
}

// Encode reads JSON lines from r (name is used in messages) and returns the ring bytes.
func Encode(r io.Reader, name string) ([]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var p abi.Packer
	p.Reset()
	lineNo := 0
	for sc.Scan() {
		lineNo++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if err := encodeObject(&p, text); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	return append([]byte(nil), p.Bytes()...), nil
}

// maxLines bounds the ring a JSON file may ask for (a "line" of 10^9 must not make us
// allocate 64 GB): 1 << 24 lines is a 1 GiB ring, beyond any CP's ring size.
const maxLines = 1 << 24

func encodeObject(p *abi.Packer, text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var o object
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("bad JSON object: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value on the line")
	}
	if o.Line != nil {
		l, err := num(o.Line, 32, "line")
		if err != nil {
			return err
		}
		if l >= maxLines {
			return fmt.Errorf("line %d: rings are limited to %d lines", l, maxLines)
		}
		if int(l) < p.Lines()-1 {
			return fmt.Errorf("line %d comes after line %d: lines must be in order", l, p.Lines()-1)
		}
		for p.Lines() <= int(l) {
			p.NewLine()
		}
	}
	if o.End != nil {
		if _, ok := abi.ParseLineEnd(*o.End); !ok {
			return fmt.Errorf("end %q: want no_room, sentinel, unknown_opcode or overrun", *o.End)
		}
		if p.Lines() == 0 {
			p.NewLine()
		}
		return nil
	}
	c, err := command(&o)
	if err != nil {
		return err
	}
	line, off, err := p.Add(c)
	if err != nil {
		return err
	}
	if o.Line != nil {
		want, _ := num(o.Line, 32, "line")
		if uint64(line) != want {
			return fmt.Errorf("%v (%d bytes) does not fit in line %d; it would land in line %d", c.Op, c.Size(), want, line)
		}
	}
	if o.Offset != nil {
		want, err := num(o.Offset, 8, "offset")
		if err != nil {
			return err
		}
		if uint64(off) != want {
			return fmt.Errorf("offset %d: the command lands at offset %d of line %d", want, off, line)
		}
	}
	return nil
}

func command(o *object) (abi.Command, error) {
	var c abi.Command
	switch {
	case o.Op != nil:
		op, ok := abi.OpcodeByName(*o.Op)
		if !ok {
			return c, fmt.Errorf("unknown op %q", *o.Op)
		}
		c.Op = op
		if o.Opcode != nil {
			v, err := num(o.Opcode, 8, "opcode")
			if err != nil {
				return c, err
			}
			if abi.Opcode(v) != op {
				return c, fmt.Errorf("op %q is opcode %d, not %d", *o.Op, uint8(op), v)
			}
		}
	case o.Opcode != nil:
		v, err := num(o.Opcode, 8, "opcode")
		if err != nil {
			return c, err
		}
		c.Op = abi.Opcode(v)
		if !c.Op.Valid() {
			return c, fmt.Errorf("opcode %d is not defined", v)
		}
	default:
		return c, fmt.Errorf("object has neither \"op\", \"opcode\" nor \"end\"")
	}
	if o.Flags != nil {
		v, err := num(o.Flags, 8, "flags")
		if err != nil {
			return c, err
		}
		c.Flags = uint8(v)
	}
	nargs := c.Op.NumArgs()
	argBits := 64
	if c.Op.HasFenceWord() {
		nargs, argBits = 1, 32
	}
	for i, a := range []*json.Number{o.Arg0, o.Arg1, o.Arg2} {
		if a == nil {
			continue
		}
		if i >= nargs {
			return c, fmt.Errorf("%v has no arg%d on the wire (size %d)", c.Op, i, c.Op.BaseSize())
		}
		v, err := num(a, argBits, fmt.Sprintf("arg%d", i))
		if err != nil {
			return c, err
		}
		c.Args[i] = v
	}
	if o.ProfileSlot != nil {
		if c.Flags&abi.FlagProfile == 0 {
			return c, fmt.Errorf("profile_slot given without F_PROFILE (flags bit 0)")
		}
		v, err := num(o.ProfileSlot, 64, "profile_slot")
		if err != nil {
			return c, err
		}
		c.ProfileSlot = v
	}
	if o.Size != nil {
		v, err := num(o.Size, 8, "size")
		if err != nil {
			return c, err
		}
		if int(v) != c.Size() {
			return c, fmt.Errorf("size %d: %v with flags %d is %d bytes", v, c.Op, c.Flags, c.Size())
		}
	}
	if c.IsSentinel() {
		return c, fmt.Errorf("a NOP with zero flags is the line sentinel, not a command")
	}
	return c, nil
}
