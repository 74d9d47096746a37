package codegen

import "vortexgfx/isa/rv32"

// Asm is the generator's assembler opened to hand-written kernels (the
// front-end kernels of gfx/fecode): instructions, labels, pc-relative
// addresses and read-only data words, laid out with the same branch
// relaxation as compiled code (a conditional branch beyond ±4 KiB becomes an
// inverted branch over a jal), so every machine-code kernel of the project is
// encoded by one assembler. The zero value is an empty program.
// spec: vortex-hardware-facts.md §9 (RV32IMAF + the Vortex ops)
type Asm struct{ a asm }

// Emit appends one instruction.
func (x *Asm) Emit(in rv32.Inst) { x.a.emit(in) }

// NewLabel returns a new, unplaced label.
func (x *Asm) NewLabel() int { return x.a.newLabel() }

// Place binds label l to the next instruction appended.
func (x *Asm) Place(l int) { x.a.place(l) }

// Branch appends a conditional branch (BEQ, BNE, BLT, BGE, BLTU, BGEU) to l.
func (x *Asm) Branch(op rv32.Op, rs1, rs2 uint8, l int) { x.a.branch(op, rs1, rs2, l) }

// Jump appends jal x0 to l.
func (x *Asm) Jump(l int) { x.a.jump(l) }

// La loads the address of label l into rd (auipc + addi: position independent).
func (x *Asm) La(rd uint8, l int) { x.a.la(rd, l) }

// Word appends a read-only data word (reached through La).
func (x *Asm) Word(w uint32) { x.a.word(w) }

// Li loads the 32-bit constant v into rd (addi, or lui + addi).
func (x *Asm) Li(rd uint8, v uint32) { x.a.li(rd, v) }

// Words lays the program out and encodes it; an unplaced label or an
// unencodable instruction is an error naming it.
func (x *Asm) Words() ([]uint32, error) { return x.a.words() }
