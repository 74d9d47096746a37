// Package types type-checks a parsed GLSL shader: it resolves names and overloads,
// applies GLSL's implicit conversions by inserting ast.Conv nodes, folds constant
// expressions and enforces the qualifier, l-value and statement rules of the
// language version and stage. spec: GLSL 4.50 §4-§8, GLSL ES 3.00 §4-§8.
package types

import (
	"fmt"
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Config describes the compilation.
type Config struct {
	Stage ast.Stage
	// Compatibility enables the compatibility-profile built-ins for GLSL >= 1.40.
	Compatibility bool
}

// entity is what a name in a scope denotes.
type entity struct {
	v     *ast.Var
	funcs []*ast.Func
	typ   *ast.StructType
	block bool // the name of an interface block
	pos   ast.Pos
}

type scope struct {
	parent *scope
	names  map[string]*entity
	global bool
	// floatPrec is set when a "precision ... float;" statement occurred in this scope.
	floatPrec bool
}

func (s *scope) lookup(name string) *entity {
	for ; s != nil; s = s.parent {
		if e := s.names[name]; e != nil {
			return e
		}
	}
	return nil
}

type checker struct {
	conf    Config
	file    *ast.File
	version int
	es      bool
	errs    ast.ErrorList
	builtin *scope // built-in variables and constants
	globals *scope
	cur     *scope
	// fragCoordLayout is the layout of the first redeclaration of
	// gl_FragCoord (origin and pixel-centre qualifiers, sorted); nil before it.
	fragCoordLayout []string
	// fragDepthLayout is the same for gl_FragDepth.
	fragDepthLayout []string
	// perVertexRedeclared is set by a redeclaration of gl_PerVertex;
	// redeclaredBuiltins names the built-ins redeclared one by one.
	perVertexRedeclared bool
	redeclaredBuiltins  map[string]bool
	// clipCullPos is where gl_ClipDistance or gl_CullDistance was last
	// redeclared, for the combined-size error.
	clipCullPos ast.Pos
	// fn is the function whose body is being checked.
	fn        *ast.Func
	loops     int
	breakable []bool // stack: true for loops, false for switch
	// writes records built-in outputs written (gl_FragColor vs gl_FragData).
	wroteFragColor, wroteFragData ast.Pos
	// calls is the static call graph for recursion detection.
	calls map[*ast.Func][]*ast.Func
	// funcPrec is the return precision of each user function (ES).
	funcPrec map[*ast.Func]ast.Precision
	// blockNames records declared interface block names per storage.
	blockNames map[string]bool
	// unsized lists implicitly sized arrays; maxIndex is their largest constant index.
	unsized  []*ast.Var
	maxIndex map[*ast.Var]int
	// implicitBuffers are the buffer blocks with an implicitly sized member,
	// laid out again once it is sized.
	implicitBuffers map[*ast.InterfaceBlock]*ast.BlockDecl
	// limit caps the implicit size of built-in arrays such as gl_ClipDistance.
	limit map[*ast.Var]int
	// defPrec holds the default precision per scalar base at global scope (ES).
	defPrec map[ast.Basic]ast.Precision
	// dead counts enclosing branches that a constant condition makes unreachable;
	// calls there do not need a definition at link time.
	dead int
	// userOutWritten is where a user-defined fragment output was first written.
	userOutWritten ast.Pos
	// woUses are the uses of writeonly storage members, in order; those that turn
	// out to be the target of a plain assignment are cleared.
	woUses []ast.Expr
	// blockDefault is the layout that layout(...) uniform; and layout(...)
	// buffer; set for the blocks declared after them, per storage.
	blockDefault map[ast.Storage]blockLayout
	// geom tracks a geometry shader's per-vertex inputs.
	geom geomState
	// xfb is the transform feedback layout (xfb.go).
	xfb xfbState
	// warns are diagnostics that do not fail the compile; Check appends them
	// to the file's Warnings after the preprocessor's.
	warns []warning
}

// blockLayout is a block's packing ("std140", "shared", "packed", "std430")
// and matrix order.
type blockLayout struct {
	packing  string
	rowMajor bool
}

// warning is one diagnostic that does not fail the compile.
type warning struct {
	pos ast.Pos
	msg string
}

// Check type-checks f for the given configuration, annotating the tree in place.
// The returned error is an ast.ErrorList sorted by position, or nil.
func Check(f *ast.File, conf Config) error {
	c := &checker{conf: conf, file: f, version: f.Version, es: f.ES, calls: map[*ast.Func][]*ast.Func{},
		maxIndex: map[*ast.Var]int{}, implicitBuffers: map[*ast.InterfaceBlock]*ast.BlockDecl{}, limit: map[*ast.Var]int{}}
	c.builtin = &scope{names: map[string]*entity{}}
	f.Geometry = ast.GeometryLayout{MaxVertices: -1}
	if conf.Stage == ast.StageGeometry && (c.es || c.version < 150) {
		c.errorf(f.Pos(), "geometry shaders require GLSL 1.50")
	}
	c.declareBuiltinVars()
	c.globals = &scope{parent: c.builtin, names: map[string]*entity{}, global: true}
	c.cur = c.globals
	c.blockNames = map[string]bool{}
	c.blockDefault = map[ast.Storage]blockLayout{
		ast.StorageUniform: {packing: "shared"}, ast.StorageBuffer: {packing: "shared"}}
	c.funcPrec = map[*ast.Func]ast.Precision{}
	if !c.es || conf.Stage == ast.StageVertex {
		c.builtin.floatPrec = true
	}
	// Default precisions. spec: GLSL ES 3.00 §4.5.4.
	c.defPrec = map[ast.Basic]ast.Precision{ast.Int: ast.PrecHigh, ast.Float: ast.PrecHigh}
	if conf.Stage == ast.StageFragment {
		c.defPrec = map[ast.Basic]ast.Precision{ast.Int: ast.PrecMedium}
	}
	if conf.Stage == ast.StageCompute && !c.hasCompute() {
		c.errorf(f.Pos(), "compute shaders require GLSL 4.30 or GLSL ES 3.10")
	}
	for _, d := range f.Decls {
		c.safe(func() { c.globalDecl(d) })
	}
	c.safe(c.checkRecursion)
	c.safe(c.writeOnlyReads)
	c.safe(c.workGroupSizeUse)
	if conf.Stage == ast.StageGeometry {
		c.safe(c.recordUnsizedIndices)
	}
	c.safe(c.sizeArrays)
	c.safe(c.xfbFinish)
	if f.InvariantAll.IsValid() && c.es && c.version >= 300 && conf.Stage == ast.StageFragment {
		c.errorf(f.InvariantAll, "#pragma STDGL invariant(all) is not allowed in fragment shaders")
	}
	c.flushWarnings()
	c.errs.Sort()
	return c.errs.Err()
}

// flushWarnings appends the checker's warnings, by position, to the file's
// Warnings in the preprocessor's format "file:line:col: warning: message".
func (c *checker) flushWarnings() {
	slices.SortStableFunc(c.warns, func(a, b warning) int {
		switch {
		case a.pos.Before(b.pos):
			return -1
		case b.pos.Before(a.pos):
			return 1
		}
		return 0
	})
	for _, w := range c.warns {
		where := w.pos.File
		if w.pos.IsValid() {
			where = w.pos.String()
		}
		c.file.Warnings = append(c.file.Warnings, where+": warning: "+w.msg)
	}
	c.warns = nil
}

// safe runs fn and turns an unexpected runtime panic into a diagnostic, so that a
// checker bug on hostile input reports an error instead of crashing the caller.
func (c *checker) safe(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			c.errs.Add(ast.Pos{File: c.file.Name}, fmt.Sprintf("internal compiler error: %v", r))
		}
	}()
	fn()
}

func (c *checker) errorf(pos ast.Pos, format string, args ...any) {
	c.errs.Add(pos, fmt.Sprintf(format, args...))
}

// warnf records a diagnostic that does not fail the compile.
func (c *checker) warnf(pos ast.Pos, format string, args ...any) {
	c.warns = append(c.warns, warning{pos: pos, msg: fmt.Sprintf(format, args...)})
}

// atLeast reports desktop >= d or ES >= e (e == 0: never on ES).
func (c *checker) atLeast(d, e int) bool {
	if c.es {
		return e != 0 && c.version >= e
	}
	return c.version >= d
}

// compat reports whether the compatibility-profile built-ins exist.
func (c *checker) compat() bool {
	return !c.es && (c.version < 140 || c.conf.Compatibility)
}

// hasFloatPrecision reports whether a default float precision is in effect.
func (c *checker) hasFloatPrecision() bool {
	for s := c.cur; s != nil; s = s.parent {
		if s.floatPrec {
			return true
		}
	}
	return false
}

// extEnabled reports whether #extension name : enable/require is in effect.
func (c *checker) extEnabled(name string) bool {
	if c.file == nil {
		return false
	}
	b := c.file.Extensions[name]
	return b == "enable" || b == "require" || b == "warn"
}

// defaultFloatPrec returns the float precision in effect at global scope (ES).
func (c *checker) defaultFloatPrec() ast.Precision { return c.defPrec[ast.Float] }

func (c *checker) openScope() {
	c.cur = &scope{parent: c.cur, names: map[string]*entity{}}
}

func (c *checker) closeScope() { c.cur = c.cur.parent }

// declareVar adds v to the current scope, reporting redeclarations.
func (c *checker) declareVar(v *ast.Var) {
	if e := c.cur.names[v.Name]; e != nil {
		c.errorf(v.DeclPos, "redeclaration of '%s'", v.Name)
		return
	}
	c.cur.names[v.Name] = &entity{v: v, pos: v.DeclPos}
	if c.cur.global {
		c.file.Globals = append(c.file.Globals, v)
	}
}

// checkName reports a declared identifier that the language reserves: the
// prefix gl_ is an error (GLSL 4.50 §3.7). Identifiers containing two
// consecutive underscores are reserved too: the early specifications list them
// as "possible future keywords" (GLSL 1.10 §3.6, GLSL ES 1.00 and 3.00 §3.7),
// and GLSL 4.50 §3.7 adds that using such a name "does not itself result in an
// error"; Mesa warns in every version, and so do we.
func (c *checker) checkName(name string, pos ast.Pos) {
	if len(name) >= 3 && name[:3] == "gl_" {
		c.errorf(pos, "identifier '%s' uses the reserved prefix gl_", name)
	} else if strings.Contains(name, "__") {
		c.warnf(pos, "identifier '%s' uses the reserved '__' string", name)
	}
}

// checkRecursion reports static recursion, which GLSL forbids. spec: GLSL 4.50 §6.1.
func (c *checker) checkRecursion() {
	const (
		unvisited = iota
		onStack
		done
	)
	state := map[*ast.Func]int{}
	var visit func(f *ast.Func)
	visit = func(f *ast.Func) {
		state[f] = onStack
		for _, g := range c.calls[f] {
			switch state[g] {
			case onStack:
				pos := g.DeclPos
				if g.Def != nil {
					pos = g.Def.NamePos
				}
				c.errorf(pos, "function '%s' is recursive", g.Name)
			case unvisited:
				visit(g)
			}
		}
		state[f] = done
	}
	for _, f := range c.file.Funcs {
		if state[f] == unvisited {
			visit(f)
		}
	}
}
