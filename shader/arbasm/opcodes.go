package arbasm

// opKind is how an instruction's operands and result are shaped.
type opKind uint8

const (
	opVector opKind = iota // vector operands, vector result
	opScalar               // scalar operands (a one-component suffix), the result replicated
	opArl                  // ARL: a scalar operand into an address register
	opSwz                  // SWZ: one vector operand and an extended swizzle
	opKil                  // KIL: one vector operand, no destination
	opTex                  // TEX, TXP, TXB: a coordinate, a unit and a target
)

// opInfo is one opcode of the instruction sets.
type opInfo struct {
	name string
	kind opKind
	nsrc int
	vp   bool // in ARBvp1.0
	fp   bool // in ARBfp1.0
	// mask limits the write mask (SCS writes only x and y); 0 means any.
	mask uint8
}

// opcodes lists both instruction sets. spec: ARB_vertex_program §2.14.5
// (table X.5: the 27 vertex program instructions), ARB_fragment_program
// §3.11.5 (table X.5: the 33 fragment program instructions)
var opcodes = map[string]*opInfo{
	"ABS": {name: "ABS", kind: opVector, nsrc: 1, vp: true, fp: true},
	"ADD": {name: "ADD", kind: opVector, nsrc: 2, vp: true, fp: true},
	"ARL": {name: "ARL", kind: opArl, nsrc: 1, vp: true},
	"CMP": {name: "CMP", kind: opVector, nsrc: 3, fp: true},
	"COS": {name: "COS", kind: opScalar, nsrc: 1, fp: true},
	"DP3": {name: "DP3", kind: opVector, nsrc: 2, vp: true, fp: true},
	"DP4": {name: "DP4", kind: opVector, nsrc: 2, vp: true, fp: true},
	"DPH": {name: "DPH", kind: opVector, nsrc: 2, vp: true, fp: true},
	"DST": {name: "DST", kind: opVector, nsrc: 2, vp: true, fp: true},
	"EX2": {name: "EX2", kind: opScalar, nsrc: 1, vp: true, fp: true},
	"EXP": {name: "EXP", kind: opScalar, nsrc: 1, vp: true},
	"FLR": {name: "FLR", kind: opVector, nsrc: 1, vp: true, fp: true},
	"FRC": {name: "FRC", kind: opVector, nsrc: 1, vp: true, fp: true},
	"KIL": {name: "KIL", kind: opKil, nsrc: 1, fp: true},
	"LG2": {name: "LG2", kind: opScalar, nsrc: 1, vp: true, fp: true},
	"LIT": {name: "LIT", kind: opVector, nsrc: 1, vp: true, fp: true},
	"LOG": {name: "LOG", kind: opScalar, nsrc: 1, vp: true},
	"LRP": {name: "LRP", kind: opVector, nsrc: 3, fp: true},
	"MAD": {name: "MAD", kind: opVector, nsrc: 3, vp: true, fp: true},
	"MAX": {name: "MAX", kind: opVector, nsrc: 2, vp: true, fp: true},
	"MIN": {name: "MIN", kind: opVector, nsrc: 2, vp: true, fp: true},
	"MOV": {name: "MOV", kind: opVector, nsrc: 1, vp: true, fp: true},
	"MUL": {name: "MUL", kind: opVector, nsrc: 2, vp: true, fp: true},
	"POW": {name: "POW", kind: opScalar, nsrc: 2, vp: true, fp: true},
	"RCP": {name: "RCP", kind: opScalar, nsrc: 1, vp: true, fp: true},
	"RSQ": {name: "RSQ", kind: opScalar, nsrc: 1, vp: true, fp: true},
	"SCS": {name: "SCS", kind: opScalar, nsrc: 1, fp: true, mask: 0x3},
	"SGE": {name: "SGE", kind: opVector, nsrc: 2, vp: true, fp: true},
	"SIN": {name: "SIN", kind: opScalar, nsrc: 1, fp: true},
	"SLT": {name: "SLT", kind: opVector, nsrc: 2, vp: true, fp: true},
	"SUB": {name: "SUB", kind: opVector, nsrc: 2, vp: true, fp: true},
	"SWZ": {name: "SWZ", kind: opSwz, nsrc: 1, vp: true, fp: true},
	"TEX": {name: "TEX", kind: opTex, nsrc: 1, fp: true},
	"TXB": {name: "TXB", kind: opTex, nsrc: 1, fp: true},
	"TXP": {name: "TXP", kind: opTex, nsrc: 1, fp: true},
	"XPD": {name: "XPD", kind: opVector, nsrc: 2, vp: true, fp: true},
}

// texTarget is a texture instruction's target. spec: ARB_fragment_program
// §3.11.2 (<texTarget>), ARB_fragment_program_shadow (SHADOW1D, SHADOW2D,
// SHADOWRECT)
type texTarget uint8

const (
	tex1D texTarget = iota
	tex2D
	tex3D
	texCube
	texRect
	texShadow1D
	texShadow2D
	texShadowRect
)

var texTargets = map[string]texTarget{"1D": tex1D, "2D": tex2D, "3D": tex3D, "CUBE": texCube, "RECT": texRect,
	"SHADOW1D": texShadow1D, "SHADOW2D": texShadow2D, "SHADOWRECT": texShadowRect}

// shadow reports a depth-compare target.
func (t texTarget) shadow() bool { return t >= texShadow1D }

var texTargetNames = [...]string{tex1D: "1D", tex2D: "2D", tex3D: "3D", texCube: "CUBE", texRect: "RECT",
	texShadow1D: "SHADOW1D", texShadow2D: "SHADOW2D", texShadowRect: "SHADOWRECT"}

// String is the target's name in the program text.
func (t texTarget) String() string {
	if int(t) < len(texTargetNames) {
		return texTargetNames[t]
	}
	return "?"
}

// Implementation limits. spec: ARB_vertex_program §2.14.1 (MAX_PROGRAM_ENV_PARAMETERS_ARB,
// MAX_PROGRAM_LOCAL_PARAMETERS_ARB: 96 at least), ARB_fragment_program
// (MAX_TEXTURE_IMAGE_UNITS_ARB)
const (
	MaxEnvParams   = 256
	MaxLocalParams = 1024
	MaxTextureUnit = 16
	MaxTexCoords   = 8
	// maxAddressOffset bounds a relative offset's magnitude (exclusive):
	// the parameter space, as Mesa allows (ARB_vertex_program's grammar
	// has -64..63).
	maxAddressOffset = MaxLocalParams
)
