package lower

import (
	"sort"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// The stages' interface words: vertex inputs and outputs, the pre-raster
// outputs and the fragment inputs matched to them (legacy varyings included).

// legacyVarying maps fragment built-in inputs to the vertex outputs they read.
var legacyVarying = map[string]string{
	"gl_Color":          "gl_FrontColor",
	"gl_SecondaryColor": "gl_FrontSecondaryColor",
	"gl_TexCoord":       "gl_TexCoord",
	"gl_FogFragCoord":   "gl_FogFragCoord",
}

// noPersp reports a noperspective (screen-linear) varying.
func noPersp(v *ast.Var) bool { return v.Qual.Interp == ast.InterpNoPerspective }

func flat(v *ast.Var) bool {
	if v.Qual.Interp == ast.InterpFlat {
		return true
	}
	for _, b := range ast.WordBases(v.Type) {
		if b != ast.Float {
			return true
		}
	}
	return false
}

// layoutVertex assigns input and output words and returns the output words by name.
func (l *lowerer) layoutVertex() map[string]int {
	var user, builtin []*ast.Var
	var outs, legacyOuts []*ast.Var
	var pos, psize *ast.Var
	for _, v := range l.globals {
		switch {
		case v.Kind == ast.VarIn && !v.Builtin:
			user = append(user, v)
		case v.Kind == ast.VarIn && v.Used:
			builtin = append(builtin, v)
		case v.Kind == ast.VarOut && v.Name == "gl_Position":
			pos = v
		case v.Kind == ast.VarOut && v.Name == "gl_PointSize":
			if v.Used {
				psize = v
			}
		case v.Kind == ast.VarOut && !v.Builtin:
			outs = append(outs, v)
		case v.Kind == ast.VarOut && v.Used:
			legacyOuts = append(legacyOuts, v)
		}
	}
	sort.SliceStable(user, func(i, j int) bool {
		a, b := user[i].Location, user[j].Location
		if (a >= 0) != (b >= 0) {
			return a >= 0
		}
		return a < b
	})
	p := l.p
	for _, v := range append(user, builtin...) {
		n := v.Type.Slots()
		p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: p.InputWords, Words: n, Type: slotType(v.Type), Location: v.Location})
		l.inputs[v] = p.InputWords
		l.inVars = append(l.inVars, v)
		p.InputWords += n
	}
	return l.layoutPreRasterOutputs(pos, psize, outs, legacyOuts)
}

// layoutPreRasterOutputs lays out the outputs of the stage that feeds the
// rasterizer (vertex or geometry): gl_Position at words 0..3 (zero when not
// written), the user outputs, the used built-in outputs, then gl_PointSize.
// It returns the output words by name.
func (l *lowerer) layoutPreRasterOutputs(pos, psize *ast.Var, outs, legacyOuts []*ast.Var) map[string]int {
	p := l.p
	byName := map[string]int{}
	addOut := func(v *ast.Var, name string) {
		n := v.Type.Slots()
		p.Outputs = append(p.Outputs, ir.Slot{Name: name, Word: p.OutputWords, Words: n, Type: slotType(v.Type), Location: v.Location, Flat: flat(v), NoPerspective: noPersp(v), Sample: v.Qual.Sample, Centroid: v.Qual.Centroid})
		l.outputs[v] = p.OutputWords
		l.outVars = append(l.outVars, v)
		byName[name] = p.OutputWords
		p.OutputWords += n
	}
	if pos != nil {
		addOut(pos, "gl_Position")
	} else {
		p.Outputs = append(p.Outputs, ir.Slot{Name: "gl_Position", Word: 0, Words: 4, Type: ir.F32, Location: -1})
		p.OutputWords = 4
	}
	first := map[string]*ast.Var{}
	for _, v := range outs {
		// An output declared in several units of the stage is one
		// variable (storageOf shares its registers): one slot, which the
		// other declarations (a block instance perhaps under another
		// instance name) reach by their names too.
		if f := first[outputKey(v)]; f != nil {
			l.outputs[v] = l.outputs[f]
			byName[v.Name] = l.outputs[f]
			continue
		}
		first[outputKey(v)] = v
		addOut(v, v.Name)
	}
	for _, v := range legacyOuts {
		addOut(v, v.Name)
	}
	if psize != nil {
		addOut(psize, "gl_PointSize")
	}
	return byName
}

// layoutFragment assigns input words (at the matching vertex output's words when
// linked) and output words.
func (l *lowerer) layoutFragment(vsOut map[string]int, vs *ir.Program) {
	vsWords := map[string]int{}
	if vs != nil {
		for _, s := range vs.Outputs {
			vsWords[s.Name] = s.Words
		}
	}
	p := l.p
	if vs != nil {
		p.InputWords = vs.OutputWords
	}
	outOf := map[*ast.Var]*ast.Var{}
	memberOf := map[*ast.Var]*ast.Var{}
	for _, vy := range l.lp.Varyings {
		outOf[vy.In] = vy.Out
		if vy.Member != nil {
			memberOf[vy.In] = vy.Member
		}
	}
	var late []*ast.Var
	var sys []*ast.Var
	var last []*ast.Var // gl_LastFragData (fetch.go)
	for _, v := range l.globals {
		if v.Kind != ast.VarIn || (v.Builtin && !v.Used) {
			continue
		}
		if fetchLast(v) {
			last = append(last, v)
			continue
		}
		switch v.Name {
		case "gl_FragCoord", "gl_FrontFacing", "gl_PointCoord", "gl_HelperInvocation",
			"gl_SampleID", "gl_SamplePosition", "gl_SampleMaskIn", "gl_NumSamples", SamplePositionTable:
			sys = append(sys, v)
			continue
		case "gl_PrimitiveID":
			// Without a geometry stage writing it, the renderer's
			// primitive counter. spec: GLSL 1.50 §7.1
			if _, ok := vsOut[v.Name]; !ok {
				sys = append(sys, v)
				continue
			}
		}
		name := v.Name
		if o := outOf[v]; o != nil {
			name = o.Name
		} else if lv, ok := legacyVarying[v.Name]; ok && v.Builtin {
			name = lv
		}
		if outOf[v] == nil && v.Block != nil && v == v.Block.InstanceVar && v.Type.IsStruct() && l.blockFromMembers(v, vsOut, vsWords) {
			continue
		}
		if o := outOf[v]; o != nil && o.Block != nil && o == o.Block.InstanceVar && (v.Block != nil && v.Block.Instance == "" || memberOf[v] != nil) && o.Type.IsStruct() {
			// A member of an unnamed block reading its part of the
			// previous stage's block instance, or a plain input matched
			// by location to one member of it.
			if w, ok := vsOut[o.Name]; ok {
				want := v.Name
				if m := memberOf[v]; m != nil {
					want = m.Name
				}
				off := 0
				for _, f := range o.Type.Struct.Fields {
					if f.Name == want {
						break
					}
					off += f.Type.Slots()
				}
				n := v.Type.Slots()
				if off+n <= vsWords[o.Name] {
					l.inputs[v] = w + off
					l.inVars = append(l.inVars, v)
					p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: w + off, Words: n, Type: slotType(v.Type), Location: v.Location, Flat: flat(v), NoPerspective: noPersp(v), Sample: v.Qual.Sample, Centroid: v.Qual.Centroid})
					continue
				}
			}
		}
		if w, ok := vsOut[name]; ok {
			n := min(v.Type.Slots(), vsWords[name])
			l.inputs[v] = w
			l.inCount[v] = n
			l.inVars = append(l.inVars, v)
			p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: w, Words: n, Type: slotType(v.Type), Location: v.Location, Flat: flat(v), NoPerspective: noPersp(v), Sample: v.Qual.Sample, Centroid: v.Qual.Centroid})
			continue
		}
		late = append(late, v)
	}
	for _, v := range append(late, sys...) {
		n := v.Type.Slots()
		l.inputs[v] = p.InputWords
		l.inVars = append(l.inVars, v)
		p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: p.InputWords, Words: n, Type: slotType(v.Type), Location: v.Location, Flat: flat(v), NoPerspective: noPersp(v), Sample: v.Qual.Sample, Centroid: v.Qual.Centroid})
		p.InputWords += n
	}
	// Outputs.
	maxLoc := -1
	next := 0
	var depth, sampleMask *ast.Var
	var second []*ast.Var // layout(index = 1): dual-source second colours
	first := map[string]*ast.Var{}
	var dups [][2]*ast.Var // a later unit's declaration, the first one
	for _, v := range l.globals {
		if v.Kind != ast.VarOut || (v.Builtin && !v.Used) {
			continue
		}
		if !v.Builtin {
			// An output declared in several units is one variable
			// (storageOf shares its registers) at one location.
			if f := first[outputKey(v)]; f != nil {
				dups = append(dups, [2]*ast.Var{v, f})
				continue
			}
			first[outputKey(v)] = v
		}
		loc := 0
		switch {
		case v.Name == "gl_FragDepth":
			depth = v
			continue
		case v.Name == "gl_SampleMask":
			sampleMask = v
			continue
		case v.Index == 1 && !v.Builtin:
			second = append(second, v)
			continue
		case v.Builtin: // gl_FragColor, gl_FragData
			loc = 0
		case v.Location >= 0:
			loc = v.Location
		default:
			loc = next
		}
		n := v.Type.Slots()
		span := (n + 3) / 4
		if v.Type.Kind == ast.KindArray {
			span = v.Type.Len * ((v.Type.Elem.Slots() + 3) / 4)
		}
		next = max(next, loc+span)
		maxLoc = max(maxLoc, loc+span-1)
		// layout(component = C) places a scalar or vector output at
		// channel C of its target. spec: GLSL 4.40 §4.4.2
		w := 4*loc + v.Component
		l.outputs[v] = w
		l.outVars = append(l.outVars, v)
		p.Outputs = append(p.Outputs, ir.Slot{Name: v.Name, Word: w, Words: n, Type: slotType(v.Type), Location: loc})
	}
	p.OutputWords = 4 * (maxLoc + 1)
	// The second colours of dual-source blending follow the indexed-0 colours,
	// one vec4 each, in declaration order; their slot keeps the location of
	// the target they blend into and carries Index 1.
	// spec: GLSL 3.30 §4.3.8.2, GL_ARB_blend_func_extended.
	for _, v := range second {
		n := v.Type.Slots()
		w := p.OutputWords
		l.outputs[v] = w
		l.outVars = append(l.outVars, v)
		p.Outputs = append(p.Outputs, ir.Slot{Name: v.Name, Word: w, Words: n, Type: slotType(v.Type), Location: v.Location, Index: 1})
		p.OutputWords += 4 * ((n + 3) / 4)
	}
	if depth != nil {
		l.outputs[depth] = p.OutputWords
		l.outVars = append(l.outVars, depth)
		p.Outputs = append(p.Outputs, ir.Slot{Name: "gl_FragDepth", Word: p.OutputWords, Words: 1, Type: ir.F32, Location: -1})
		p.OutputWords++
	}
	if sampleMask != nil {
		n := sampleMask.Type.Slots()
		l.outputs[sampleMask] = p.OutputWords
		l.outVars = append(l.outVars, sampleMask)
		p.Outputs = append(p.Outputs, ir.Slot{Name: "gl_SampleMask", Word: p.OutputWords, Words: n, Type: ir.I32, Location: -1})
		p.OutputWords += n
	}
	for _, d := range dups {
		l.outputs[d[0]] = l.outputs[d[1]]
	}
	l.layoutFetch(last)
}
