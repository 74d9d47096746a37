package glsl

import (
	"fmt"
	"slices"

	"vortexgfx/shader/glsl/ast"
)

// StageProgram is the linked code of one stage: one or more compilation units.
type StageProgram struct {
	Units []*Shader
	// Main is the definition of main().
	Main *ast.FuncDecl
	// Defs maps every user function called anywhere in the stage to its definition,
	// which may live in another unit than the call (prototype-only units).
	Defs map[*ast.Func]*ast.FuncDecl
}

// Def returns the definition of f (f.Def when it is in f's own unit).
func (sp *StageProgram) Def(f *ast.Func) *ast.FuncDecl {
	if f.Def != nil {
		return f.Def
	}
	return sp.Defs[f]
}

// Varying is one vertex output matched to a fragment input.
type Varying struct {
	Name string
	Out  *ast.Var // vertex shader output
	In   *ast.Var // fragment shader input
	// Member is the member of Out's named block that In reads when they
	// matched by location (In a plain variable, Out the block instance),
	// else nil. spec: GLSL 4.40 §4.4.1 (block member locations)
	Member *ast.Var
}

// Uniform is one uniform of the program, merged across stages and units.
type Uniform struct {
	Name string
	Type *ast.Type
	Vars []*ast.Var // the declarations in each stage/unit
}

// Program is a linked vertex + fragment shader pair. spec: GLSL 4.50 §4.3.4-§4.3.5 (interface matching).
type Program struct {
	Vertex   *StageProgram
	Fragment *StageProgram
	// Geometry is the geometry stage (nil without one); GeometryLayout is its
	// input and output primitive and max_vertices, merged over its units.
	// spec: GLSL 1.50 §4.3.8.1, §4.3.8.2.
	Geometry       *StageProgram
	GeometryLayout ast.GeometryLayout
	// GeometryInputs are the vertex outputs matched to the geometry stage's
	// per-vertex inputs (In is an array of Out's type, one element per input
	// vertex); with a geometry stage Varyings pair its outputs with the
	// fragment inputs. spec: GLSL 1.50 §4.3.4.
	GeometryInputs []Varying
	// Compute is the compute stage; a program with a compute stage has no other.
	Compute *StageProgram
	// LocalSize is the compute stage's layout(local_size_x/y/z), merged over its units.
	LocalSize [3]int
	// Attributes are the vertex inputs used by the vertex stage (user-declared).
	Attributes []*ast.Var
	Varyings   []Varying
	Uniforms   []*Uniform
	// Outputs are the fragment shader's user outputs (empty when it writes gl_FragColor/gl_FragData).
	Outputs []*ast.Var
}

// Link links one vertex and one fragment shader.
func Link(vs, fs *Shader) (*Program, error) {
	return LinkShaders(vs, fs)
}

// LinkShaders links any number of vertex and fragment compilation units (piglit links
// several sources of one stage together). Each stage needs exactly one main().
// The error is an ast.ErrorList in "file:line:col: error: message" form.
func LinkShaders(shaders ...*Shader) (prog *Program, err error) {
	defer func() {
		// A linker bug must not crash the caller: report it as an error.
		if r := recover(); r != nil {
			prog, err = nil, ast.ErrorList{{Msg: fmt.Sprintf("internal linker error: %v", r)}}
		}
	}()
	var errs ast.ErrorList
	var byStage [4][]*Shader
	for _, s := range shaders {
		if s != nil && int(s.Stage) < len(byStage) {
			byStage[s.Stage] = append(byStage[s.Stage], s)
			errs = append(errs, s.File.LinkErrors...)
		}
	}
	p := &Program{}
	if len(byStage[Compute]) > 0 {
		if len(byStage[Vertex])+len(byStage[Fragment])+len(byStage[Geometry]) > 0 {
			errs.Add(ast.Pos{}, "compute shaders cannot be linked with vertex, geometry or fragment shaders")
			return nil, errs
		}
		p.Compute = linkStage(byStage[Compute], &errs)
		p.linkLocalSize(&errs)
		p.collectUniforms(shaders, &errs)
		p.checkBlocks(shaders, &errs)
		if len(errs) > 0 {
			errs.Sort()
			return nil, errs
		}
		return p, nil
	}
	if len(byStage[Vertex]) > 0 {
		p.Vertex = linkStage(byStage[Vertex], &errs)
	}
	if len(byStage[Fragment]) > 0 {
		p.Fragment = linkStage(byStage[Fragment], &errs)
	}
	if len(byStage[Geometry]) > 0 {
		p.Geometry = linkStage(byStage[Geometry], &errs)
		p.linkGeometry(&errs)
	}
	if p.Vertex == nil && p.Fragment == nil && p.Geometry == nil {
		errs.Add(ast.Pos{}, "no shaders to link")
		return nil, errs
	}
	if len(errs) == 0 && p.Geometry != nil {
		p.matchGeometryInterfaces(&errs)
	}
	if p.Fragment != nil {
		p.linkFragCoord(&errs)
	}
	p.linkPerVertex(&errs)
	if len(errs) == 0 && p.Vertex != nil && p.Fragment != nil && p.Geometry == nil {
		p.matchVaryings(&errs)
		p.matchColorInterp(&errs)
		p.matchBuiltinInvariance(&errs)
	}
	p.collectUniforms(shaders, &errs)
	p.checkUniformLocations(&errs)
	p.checkBlocks(shaders, &errs)
	if p.Vertex != nil && len(errs) == 0 {
		p.checkPosition(&errs)
	}
	if p.Vertex != nil {
		for _, u := range p.Vertex.Units {
			for _, v := range u.File.Globals {
				if v.Kind == ast.VarIn && !v.Builtin {
					p.Attributes = append(p.Attributes, v)
				}
			}
		}
	}
	if p.Fragment != nil {
		for _, u := range p.Fragment.Units {
			for _, v := range u.File.Globals {
				if v.Kind == ast.VarOut && !v.Builtin {
					p.Outputs = append(p.Outputs, v)
				}
			}
		}
	}
	p.checkStageAliasing(&errs)
	if p.Fragment != nil && len(p.Outputs) > 1 && p.Fragment.Units[0].File.ES {
		for _, v := range p.Outputs {
			if v.Location < 0 {
				errs.Add(v.DeclPos, "fragment shader output '"+v.Name+"' needs layout(location) when there are several outputs")
			}
		}
	}
	errs.Sort()
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

func indexSuffix(index int) string {
	if index == 0 {
		return ""
	}
	return " index " + itoa(index)
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func sigKey(f *ast.Func) string {
	k := f.Name + "("
	for i, p := range f.Params {
		if i > 0 {
			k += ","
		}
		k += p.Type.String()
	}
	return k + ")"
}

// linkStage resolves functions across the units of one stage.
func linkStage(units []*Shader, errs *ast.ErrorList) *StageProgram {
	sp := &StageProgram{Units: units, Defs: map[*ast.Func]*ast.FuncDecl{}}
	defs := map[string]*ast.FuncDecl{}
	for _, u := range units {
		for _, f := range u.File.Funcs {
			if f.Def == nil {
				continue
			}
			k := sigKey(f)
			if prev := defs[k]; prev != nil {
				errs.Add(f.Def.NamePos, "function '"+k+"' is defined in more than one shader (previous definition at "+prev.NamePos.String()+")")
				continue
			}
			defs[k] = f.Def
			if f.Name == "main" {
				sp.Main = f.Def
			}
		}
	}
	for _, u := range units {
		for _, f := range u.File.Funcs {
			if f.Def != nil || !f.Used {
				continue
			}
			if d := defs[sigKey(f)]; d != nil {
				if !ast.Identical(d.Func.Result, f.Result) {
					errs.Add(f.DeclPos, "function '"+f.Name+"' declared with a different return type than its definition")
					continue
				}
				sp.Defs[f] = d
				continue
			}
			errs.Add(f.DeclPos, "unresolved function '"+sigKey(f)+"': called but never defined")
		}
	}
	if sp.Main == nil {
		pos := units[0].File.Pos()
		errs.Add(pos, units[0].Stage.String()+" shader has no main() function")
	}
	sizeBlockMembers(units, errs)
	crossValidateGlobals(units, errs)
	return sp
}

// crossValidateGlobals checks that a global declared in several units of one stage
// is declared alike: the same type (an implicitly sized array may not be indexed past
// another unit's explicit size), the same centroid / invariant / interpolation
// qualifiers, and initialisers that are the same constant value (a non-constant
// initialiser may appear in one unit only). spec: GLSL 1.20 §4.3, §4.1.9; 4.50 §4.3
func crossValidateGlobals(units []*Shader, errs *ast.ErrorList) {
	inits := map[*ast.Var]ast.Expr{}
	for _, u := range units {
		for _, d := range u.File.Decls {
			if g, ok := d.(*ast.DeclGroup); ok {
				for _, vs := range g.Vars {
					if vs.Var != nil && vs.Init != nil {
						inits[vs.Var] = vs.Init
					}
				}
			}
		}
	}
	seen := map[string]*ast.Var{}
	for _, u := range units {
		for _, v := range u.File.Globals {
			if v.Builtin {
				continue
			}
			prev := seen[v.Name]
			if prev == nil {
				seen[v.Name] = v
				continue
			}
			name := "global '" + v.Name + "'"
			switch {
			case u.Stage == Geometry && v.Kind == ast.VarIn && prev.Type.IsArray() && v.Type.IsArray() &&
				(prev.Type.Len == 0 || v.Type.Len == 0) && sameType(prev.Type.Elem, v.Type.Elem):
				// A per-vertex input left unsized in one unit: the input
				// primitive sizes it (linkGeometry).
			case prev.ImplicitSize && v.ImplicitSize:
				// both take the largest size of the units
			case prev.ImplicitSize || v.ImplicitSize:
				impl, expl := prev, v
				if v.ImplicitSize {
					impl, expl = v, prev
				}
				if !impl.Type.IsArray() || !expl.Type.IsArray() || !sameType(impl.Type.Elem, expl.Type.Elem) {
					errs.Add(v.DeclPos, name+" declared as "+v.Type.String()+" and as "+prev.Type.String())
				} else if impl.Type.Len > expl.Type.Len {
					errs.Add(impl.DeclPos, fmt.Sprintf("%s is indexed up to %d here but declared with size %d in another shader", name, impl.Type.Len-1, expl.Type.Len))
				}
			case !sameType(prev.Type, v.Type):
				errs.Add(v.DeclPos, name+" declared as "+v.Type.String()+" and as "+prev.Type.String())
				continue
			}
			if prev.Qual.Centroid != v.Qual.Centroid {
				errs.Add(v.DeclPos, name+" is declared centroid in one shader and not in another")
			}
			if prev.Qual.Invariant != v.Qual.Invariant {
				errs.Add(v.DeclPos, name+" is declared invariant in one shader and not in another")
			}
			if (v.Kind == ast.VarIn || v.Kind == ast.VarOut) && interp(prev) != interp(v) {
				errs.Add(v.DeclPos, name+" has different interpolation qualifiers in two shaders")
			}
			pi, vi := inits[prev], inits[v]
			if pi == nil || vi == nil {
				if vi != nil {
					seen[v.Name] = v // keep the initialised declaration for later units
				}
				continue
			}
			pc, vc := constOf(prev, pi), constOf(v, vi)
			switch {
			case pc == nil || vc == nil:
				errs.Add(v.DeclPos, name+" has an initialiser in more than one shader; only constant initialisers may be repeated")
			case !slices.Equal(pc.Words, vc.Words):
				errs.Add(v.DeclPos, name+" is initialised to different values in two shaders")
			}
		}
	}
}

// constOf returns the folded constant value of a declaration's initialiser, or nil.
func constOf(v *ast.Var, init ast.Expr) *ast.Value {
	if v.ConstValue != nil {
		return v.ConstValue
	}
	return init.Value()
}

// sameType compares types across compilation units (structs by name and members).
func sameType(a, b *ast.Type) bool {
	if a.IsStruct() && b.IsStruct() {
		if a.Struct.Name != b.Struct.Name || len(a.Struct.Fields) != len(b.Struct.Fields) {
			return false
		}
		for i := range a.Struct.Fields {
			fa, fb := a.Struct.Fields[i], b.Struct.Fields[i]
			if fa.Name != fb.Name || !sameType(fa.Type, fb.Type) {
				return false
			}
		}
		return true
	}
	if a.IsArray() && b.IsArray() {
		return a.Len == b.Len && sameType(a.Elem, b.Elem)
	}
	return ast.Identical(a, b)
}

// checkPosition requires GLSL 1.10-1.30 vertex shaders to write
// gl_Position, and legacy varyings read by the fragment shader to be written.
func (p *Program) checkPosition(errs *ast.ErrorList) {
	u0 := p.Vertex.Units[0]
	legacy := !u0.File.ES && u0.File.Version < 140
	if !legacy {
		return
	}
	wrote := false
	for _, u := range p.Vertex.Units {
		for _, v := range u.File.Globals {
			if v.Builtin && v.Name == "gl_Position" && v.Written {
				wrote = true
			}
		}
	}
	if !wrote {
		errs.Add(u0.File.Pos(), "vertex shader does not write to gl_Position")
	}
	for _, vy := range p.Varyings {
		if vy.In.Used && !vy.Out.Written && vy.Out.Qual.Storage == ast.StorageVarying {
			errs.Add(vy.In.DeclPos, "fragment shader varying '"+vy.Name+"' is not written by the vertex shader")
		}
	}
}

// linkLocalSize merges the local size declarations of the compute units: every unit
// that declares one must declare the same size (components it leaves out being 1),
// and at least one unit must declare one. spec: GLSL 4.50 §4.4.1.4;
// ARB_compute_shader ("the declarations must be identical").
func (p *Program) linkLocalSize(errs *ast.ErrorList) {
	p.LocalSize = [3]int{1, 1, 1}
	declared := false
	for _, u := range p.Compute.Units {
		f := u.File
		if f.LocalSizeSet == [3]bool{} {
			continue
		}
		if declared && f.LocalSize != p.LocalSize {
			errs.Add(f.Pos(), fmt.Sprintf("local size %dx%dx%d conflicts with %dx%dx%d declared in another compute shader",
				f.LocalSize[0], f.LocalSize[1], f.LocalSize[2], p.LocalSize[0], p.LocalSize[1], p.LocalSize[2]))
			continue
		}
		p.LocalSize, declared = f.LocalSize, true
	}
	if !declared {
		pos := ast.Pos{}
		if len(p.Compute.Units) > 0 {
			pos = p.Compute.Units[0].File.Pos()
		}
		errs.Add(pos, "compute shader has no layout(local_size_x/y/z) in declaration")
	}
}
