package arbasm

import "fmt"

// optIndex reads an optional "[n]" with n in [0, limit), defaulting to 0.
func (p *parser) optIndex(what string, limit int) (int, error) {
	if !p.isPunct("[") {
		return 0, nil
	}
	p.take()
	n, _, err := p.intIndex(what, 0, limit)
	if err != nil {
		return 0, err
	}
	_, err = p.expect("]")
	return n, err
}

// subName reads ".name" when the next tokens are a '.' and one of names,
// leaving anything else (a swizzle or write mask) unread.
func (p *parser) subName(names ...string) string {
	if !p.isPunct(".") {
		return ""
	}
	t := p.peekN(1)
	if t.kind != tokIdent {
		return ""
	}
	for _, n := range names {
		if t.text == n {
			p.take()
			p.take()
			return n
		}
	}
	return ""
}

// attribBinding reads vertex.* (vertex programs) or fragment.* (fragment
// programs) and returns the vec4 GLSL expression of the attribute; "" when
// the next token starts no attribute binding. spec: ARB_vertex_program
// §2.14.3.1 (table X.2.1: vertex attribute bindings; the normal's w and the
// fog coordinate's y, z, w are 1, 0, 0, 1), ARB_fragment_program §3.11.3.1
// (table X.2: fragment attribute bindings)
func (p *parser) attribBinding() (string, error) {
	t := p.peek()
	if t.kind != tokIdent || (t.text != "vertex" && t.text != "fragment") {
		return "", nil
	}
	want := "vertex"
	if p.prog.target == FragmentProgram {
		want = "fragment"
	}
	if t.text != want {
		return "", p.errAt(t, "%s attributes are not available in a %s", t.text, p.prog.target)
	}
	p.take()
	if _, err := p.expect("."); err != nil {
		return "", err
	}
	n, err := p.ident("an attribute name")
	if err != nil {
		return "", err
	}
	unsupported := func(what string) (string, error) {
		return "", p.unsupportedAt(n, "attribute %s.%s is not supported (%s)", t.text, n.text, what)
	}
	if want == "vertex" {
		switch n.text {
		case "position":
			return "gl_Vertex", nil
		case "normal":
			return "vec4(gl_Normal, 1.0)", nil
		case "color":
			if p.subName("primary", "secondary") == "secondary" {
				return "gl_SecondaryColor", nil
			}
			return "gl_Color", nil
		case "fogcoord":
			return "vec4(gl_FogCoord, 0.0, 0.0, 1.0)", nil
		case "texcoord":
			k, err := p.optIndex("texture coordinate set", MaxTexCoords)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("gl_MultiTexCoord%d", k), nil
		case "attrib":
			if !p.isPunct("[") {
				return "", p.errAt(p.peek(), "vertex.attrib needs an index")
			}
			k, err := p.optIndex("generic attribute", 16)
			if err != nil {
				return "", err
			}
			if k != 0 {
				return unsupported("only generic attribute 0, which aliases vertex.position, is bound")
			}
			return "gl_Vertex", nil
		case "weight", "matrixindex":
			return unsupported("vertex blending (ARB_vertex_blend, ARB_matrix_palette) is not implemented")
		}
		return "", p.errAt(n, "unknown vertex attribute vertex.%s", n.text)
	}
	switch n.text {
	case "color":
		if p.subName("primary", "secondary") == "secondary" {
			return "gl_SecondaryColor", nil
		}
		return "gl_Color", nil
	case "texcoord":
		k, err := p.optIndex("texture coordinate set", MaxTexCoords)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("gl_TexCoord[%d]", k), nil
	case "fogcoord":
		return "vec4(gl_FogFragCoord, 0.0, 0.0, 1.0)", nil
	case "position":
		if p.prog.options["ARB_fragment_coord_pixel_center_integer"] {
			// Pixel centres at integers: half a pixel below GL's
			// half-integer centres. spec: ARB_fragment_coord_conventions
			return "(gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0))", nil
		}
		return "gl_FragCoord", nil
	}
	return "", p.errAt(n, "unknown fragment attribute fragment.%s", n.text)
}

// resultBinding reads result.*. spec: ARB_vertex_program §2.14.3.2 (table
// X.3: result bindings; the fog coordinate and point size take the x
// component), ARB_fragment_program §3.11.3.3 (result.color, result.depth: its
// z component; result.color[n] under ARB_draw_buffers)
func (p *parser) resultBinding() (*output, error) {
	p.take()
	if _, err := p.expect("."); err != nil {
		return nil, err
	}
	n, err := p.ident("a result name")
	if err != nil {
		return nil, err
	}
	vec := func(name, glsl string) (*output, error) { return &output{name: name, glsl: glsl, scalar: -1}, nil }
	if p.prog.target == VertexProgram {
		switch n.text {
		case "position":
			return vec("result.position", "gl_Position")
		case "color":
			face := p.subName("front", "back")
			kind := p.subName("primary", "secondary")
			if face == "" {
				face = p.subName("front", "back")
			}
			g := "gl_FrontColor"
			switch {
			case face == "back" && kind == "secondary":
				g = "gl_BackSecondaryColor"
			case face == "back":
				g = "gl_BackColor"
			case kind == "secondary":
				g = "gl_FrontSecondaryColor"
			}
			return vec("result.color", g)
		case "fogcoord":
			return &output{name: "result.fogcoord", glsl: "gl_FogFragCoord", scalar: 0}, nil
		case "pointsize":
			return &output{name: "result.pointsize", glsl: "gl_PointSize", scalar: 0}, nil
		case "texcoord":
			k, err := p.optIndex("texture coordinate set", MaxTexCoords)
			if err != nil {
				return nil, err
			}
			return vec(fmt.Sprintf("result.texcoord[%d]", k), fmt.Sprintf("gl_TexCoord[%d]", k))
		}
		return nil, p.errAt(n, "unknown vertex program result result.%s", n.text)
	}
	switch n.text {
	case "color":
		if p.isPunct("[") {
			at := p.peek()
			k, err := p.optIndex("colour output", 8)
			if err != nil {
				return nil, err
			}
			if !p.prog.options["ARB_draw_buffers"] {
				return nil, p.errAt(at, "result.color[n] needs OPTION ARB_draw_buffers")
			}
			return vec(fmt.Sprintf("result.color[%d]", k), fmt.Sprintf("gl_FragData[%d]", k))
		}
		if p.prog.options["ARB_draw_buffers"] {
			return vec("result.color", "gl_FragData[0]")
		}
		return vec("result.color", "gl_FragColor")
	case "depth":
		return &output{name: "result.depth", glsl: "gl_FragDepth", scalar: 2}, nil
	}
	return nil, p.errAt(n, "unknown fragment program result result.%s", n.text)
}

// matrixRows returns the four row expressions of a state matrix.
func matrixRows(m string, transpose bool) [4]string {
	var rows [4]string
	for i := range rows {
		if transpose {
			rows[i] = fmt.Sprintf("%s[%d]", m, i)
		} else {
			// Row i of a column-major GLSL matrix.
			rows[i] = fmt.Sprintf("vec4(%s[0][%d], %s[1][%d], %s[2][%d], %s[3][%d])", m, i, m, i, m, i, m, i)
		}
	}
	return rows
}

// stateBinding reads state.*: the GL state a program reads as parameters,
// as the GLSL compatibility built-in uniforms that hold it (which the driver
// loads at every draw, pipe.LegacyState). spec: ARB_vertex_program §2.14.3.4
// (table X.4: program parameter state bindings), ARB_fragment_program
// §3.11.3.4
func (p *parser) stateBinding(multi bool) ([]paramElem, error) {
	st := p.take()
	if _, err := p.expect("."); err != nil {
		return nil, err
	}
	n, err := p.ident("a state name")
	if err != nil {
		return nil, err
	}
	one := func(expr string) ([]paramElem, error) { return []paramElem{{kind: elemState, expr: expr}}, nil }
	unsupported := func(what string) ([]paramElem, error) {
		return nil, p.unsupportedAt(st, "state binding %s is not supported", what)
	}
	side := func() string {
		if p.subName("front", "back") == "back" {
			return "Back"
		}
		return "Front"
	}
	member := func(names ...string) (string, token, error) {
		if _, err := p.expect("."); err != nil {
			return "", token{}, err
		}
		t, err := p.ident("a state member")
		if err != nil {
			return "", t, err
		}
		for _, m := range names {
			if t.text == m {
				return m, t, nil
			}
		}
		return "", t, p.errAt(t, "unknown state member %s", t.text)
	}
	switch n.text {
	case "matrix":
		return p.stateMatrix(st, multi)
	case "light":
		k, err := p.optIndex("light", 8)
		if err != nil {
			return nil, err
		}
		m, _, err := member("ambient", "diffuse", "specular", "position", "attenuation", "spot", "half")
		if err != nil {
			return nil, err
		}
		l := fmt.Sprintf("gl_LightSource[%d]", k)
		switch m {
		case "attenuation":
			return one(fmt.Sprintf("vec4(%s.constantAttenuation, %s.linearAttenuation, %s.quadraticAttenuation, %s.spotExponent)", l, l, l, l))
		case "spot":
			if _, _, err := member("direction"); err != nil {
				return nil, err
			}
			return one(fmt.Sprintf("vec4(%s.spotDirection, %s.spotCosCutoff)", l, l))
		case "half":
			return unsupported("state.light[n].half")
		}
		return one(l + "." + m)
	case "lightprod":
		k, err := p.optIndex("light", 8)
		if err != nil {
			return nil, err
		}
		s := side()
		m, _, err := member("ambient", "diffuse", "specular")
		if err != nil {
			return nil, err
		}
		return one(fmt.Sprintf("gl_%sLightProduct[%d].%s", s, k, m))
	case "material":
		s := side()
		m, _, err := member("ambient", "diffuse", "specular", "emission", "shininess")
		if err != nil {
			return nil, err
		}
		if m == "shininess" {
			return one(fmt.Sprintf("vec4(gl_%sMaterial.shininess, 0.0, 0.0, 1.0)", s))
		}
		return one(fmt.Sprintf("gl_%sMaterial.%s", s, m))
	case "lightmodel":
		if p.subName("ambient") != "" {
			return one("gl_LightModel.ambient")
		}
		s := side()
		if _, _, err := member("scenecolor"); err != nil {
			return nil, err
		}
		return one(fmt.Sprintf("gl_%sLightModelProduct.sceneColor", s))
	case "clip":
		k, err := p.optIndex("clip plane", 8)
		if err != nil {
			return nil, err
		}
		if _, _, err := member("plane"); err != nil {
			return nil, err
		}
		return one(fmt.Sprintf("gl_ClipPlane[%d]", k))
	case "depth":
		if _, _, err := member("range"); err != nil {
			return nil, err
		}
		return one("vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0)")
	case "point":
		m, _, err := member("size", "attenuation")
		if err != nil {
			return nil, err
		}
		if m == "size" {
			return one("vec4(gl_Point.size, gl_Point.sizeMin, gl_Point.sizeMax, gl_Point.fadeThresholdSize)")
		}
		return one("vec4(gl_Point.distanceConstantAttenuation, gl_Point.distanceLinearAttenuation, gl_Point.distanceQuadraticAttenuation, 1.0)")
	case "fog", "texgen", "texenv":
		return unsupported("state." + n.text + " (the driver keeps no fixed-function " + n.text + " state)")
	}
	return nil, p.errAt(n, "unknown state binding state.%s", n.text)
}

// stateMatrix reads state.matrix.<name>[.inverse|.transpose|.invtrans]
// [.row[a] | .row[a..b]]: without .row, all four rows (arrays only).
func (p *parser) stateMatrix(st token, multi bool) ([]paramElem, error) {
	if _, err := p.expect("."); err != nil {
		return nil, err
	}
	n, err := p.ident("a matrix name")
	if err != nil {
		return nil, err
	}
	var m string
	switch n.text {
	case "modelview":
		// Only modelview[0] exists without ARB_vertex_blend.
		if _, err := p.optIndex("modelview matrix", 1); err != nil {
			return nil, err
		}
		m = "gl_ModelViewMatrix"
	case "projection":
		m = "gl_ProjectionMatrix"
	case "mvp":
		m = "gl_ModelViewProjectionMatrix"
	case "texture":
		k, err := p.optIndex("texture matrix", MaxTexCoords)
		if err != nil {
			return nil, err
		}
		m = fmt.Sprintf("gl_TextureMatrix[%d]", k)
	case "palette", "program":
		return nil, p.unsupportedAt(n, "state.matrix.%s is not supported", n.text)
	default:
		return nil, p.errAt(n, "unknown matrix state.matrix.%s", n.text)
	}
	transpose := false
	switch mod := p.subName("inverse", "transpose", "invtrans"); mod {
	case "transpose":
		transpose = true
	case "inverse", "invtrans":
		return nil, p.unsupportedAt(st, "state.matrix.%s.%s is not supported (GLSL 1.20 has no matrix inverse)", n.text, mod)
	}
	rows := matrixRows(m, transpose)
	a, b := 0, 3
	if p.subName("row") != "" {
		if _, err := p.expect("["); err != nil {
			return nil, err
		}
		if a, _, err = p.intIndex("matrix row", 0, 4); err != nil {
			return nil, err
		}
		b = a
		if p.isPunct("..") {
			p.take()
			var bt token
			if b, bt, err = p.intIndex("matrix row", 0, 4); err != nil {
				return nil, err
			}
			if b < a {
				return nil, p.errAt(bt, "range %d..%d is reversed", a, b)
			}
		}
		if _, err := p.expect("]"); err != nil {
			return nil, err
		}
	}
	if a != b && !multi {
		return nil, p.errAt(st, "a binding of %d matrix rows needs an array PARAM", b-a+1)
	}
	var out []paramElem
	for i := a; i <= b; i++ {
		out = append(out, paramElem{kind: elemState, expr: rows[i]})
	}
	return out, nil
}
