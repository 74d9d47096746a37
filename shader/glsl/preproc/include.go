package preproc

import (
	"strings"
)

// ExtShadingLanguageInclude is the extension that enables #include and
// "#line N "string"". spec: ARB_shading_language_include
const ExtShadingLanguageInclude = "GL_ARB_shading_language_include"

// maxIncludeDepth bounds nested #include (a string including itself would
// otherwise never end).
const maxIncludeDepth = 32

// Includes is the named-string tree and the search points of
// ARB_shading_language_include: GL's NamedStringARB strings, keyed by their
// cleaned absolute path ("/a/b/c", see CleanPath; Add cleans), and the
// ordered search points of CompileShaderIncludeARB. A named string's
// directories are not strings of their own (an #include of "/a/b" finds
// nothing unless a string was named "/a/b").
type Includes struct {
	Strings map[string]string
	Paths   []string
}

// Add names src at path (NamedStringARB): a later string at a path that
// cleans to the same one replaces the earlier. It reports false for a
// relative path.
func (in *Includes) Add(path, src string) bool {
	p, ok := CleanPath(path)
	if !ok {
		return false
	}
	if in.Strings == nil {
		in.Strings = map[string]string{}
	}
	in.Strings[p] = src
	return true
}

// CleanPath normalises an absolute include path: empty and "." components
// dropped, ".." removing the one before it (never above the root). It
// reports false for a path that does not start with '/'.
// spec: ARB_shading_language_include ("/", ".", ".." in path names)
func CleanPath(path string) (string, bool) {
	if !strings.HasPrefix(path, "/") {
		return "", false
	}
	var out []string
	for _, c := range strings.Split(path, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, c)
		}
	}
	return "/" + strings.Join(out, "/"), true
}

// lookup finds the named string at an absolute path.
func (in *Includes) lookup(path string) (string, string, bool) {
	if in == nil {
		return "", "", false
	}
	p, ok := CleanPath(path)
	if !ok {
		return "", "", false
	}
	src, ok := in.Strings[p]
	return p, src, ok
}

// resolve finds the string an #include names: an absolute path as it is; a
// relative one under the including string's own directory first when it was
// quoted with double quotes inside an included string (from is its path),
// then under each search point in order.
func (in *Includes) resolve(path string, quoted bool, from string) (string, string, bool) {
	if strings.HasPrefix(path, "/") {
		return in.lookup(path)
	}
	if in == nil {
		return "", "", false
	}
	if quoted && from != "" {
		if p, s, ok := in.lookup(from[:strings.LastIndexByte(from, '/')+1] + path); ok {
			return p, s, true
		}
	}
	for _, sp := range in.Paths {
		if p, s, ok := in.lookup(strings.TrimSuffix(sp, "/") + "/" + path); ok {
			return p, s, true
		}
	}
	return "", "", false
}

// includePath parses the operand of #include from the directive's raw text
// after the directive name: "path" or <path>, then nothing but white space
// or a comment.
func includePath(rest string) (path string, quoted bool, ok bool) {
	rest = strings.TrimLeft(rest, " \t\v\f\r")
	if rest == "" {
		return "", false, false
	}
	var end byte
	switch rest[0] {
	case '"':
		end, quoted = '"', true
	case '<':
		end = '>'
	default:
		return "", false, false
	}
	i := strings.IndexByte(rest[1:], end)
	if i < 0 {
		return "", false, false
	}
	path, tail := rest[1:1+i], strings.TrimSpace(rest[2+i:])
	if path == "" || tail != "" && !strings.HasPrefix(tail, "//") && !strings.HasPrefix(tail, "/*") {
		return "", false, false
	}
	return path, quoted, true
}

// include runs the directive #include on the line of the current string that
// holds it (raw, as written, which keeps the spaces a path may contain).
func (p *pp) include(name Token, raw string) {
	if !p.includeEnabled() {
		p.errorf(name.Pos, "#include requires #extension %s", ExtShadingLanguageInclude)
		return
	}
	k := strings.Index(raw, "include")
	if k < 0 {
		p.errorf(name.Pos, "#include expects \"path\" or <path>")
		return
	}
	path, quoted, ok := includePath(raw[k+len("include"):])
	if !ok {
		p.errorf(name.Pos, "#include expects \"path\" or <path>")
		return
	}
	from := ""
	if len(p.stack) > 0 {
		from = p.stack[len(p.stack)-1].path
	}
	full, src, found := p.opts.Includes.resolve(path, quoted, from)
	switch {
	case !found:
		p.errorf(name.Pos, "#include: no named string at %q", path)
		return
	case len(p.stack) >= maxIncludeDepth:
		p.errorf(name.Pos, "#include: nested more than %d deep (at %q)", maxIncludeDepth, full)
		return
	}
	lx := &lexer{src: src, file: full, line: 1, col: 1, errs: &p.errs}
	lx.run()
	// The included string has its own line numbers; the including one's
	// continue after the directive.
	delta := p.lineDelta
	p.stack = append(p.stack, includeFrame{path: full, lines: strings.Split(src, "\n")})
	p.lineDelta = 0
	p.lines(lx.tokens)
	p.stack = p.stack[:len(p.stack)-1]
	p.lineDelta = delta
}

// includeFrame is one string being preprocessed: the shader source (path
// "") or an included named string.
type includeFrame struct {
	path  string
	lines []string
}

// includeEnabled reports whether #extension GL_ARB_shading_language_include
// is in effect here.
func (p *pp) includeEnabled() bool {
	b := p.res.Extensions[ExtShadingLanguageInclude]
	return b == "enable" || b == "require" || b == "warn"
}
