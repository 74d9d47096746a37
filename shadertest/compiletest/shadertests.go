package compiletest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/types"
)

// ShaderTests compiles and links the vertex, geometry and fragment shaders of every
// piglit execution test (tests/spec/<set>/**/*.shader_test of dir). These programs
// are all valid GLSL (except those whose [test] section expects "link error"), so the
// result measures false rejections on real shaders. Tests needing an extension,
// a tessellation or compute stage, or a passthrough vertex shader with no
// fragment shader or with a geometry shader are skipped.
func ShaderTests(dir string, sets ...string) ([]*Result, error) {
	if len(sets) == 0 {
		sets = Sets
	}
	var out []*Result
	for _, set := range sets {
		r := &Result{Set: "exec-" + set}
		root := filepath.Join(dir, "tests", "spec", set)
		files, err := walkFiles(root, ".shader_test")
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("piglit: %w", err)
			}
			rel, _ := filepath.Rel(dir, p)
			units, version, expectFail, skip := splitShaderTest(string(b))
			if skip || len(units) == 0 {
				r.Skipped++
				continue
			}
			var shaders []*glsl.Shader
			var cerr error
			for i, u := range units {
				name := fmt.Sprintf("%s[%d]", rel, i)
				// shader_runner compiles sources without #version at the
				// [require]d GLSL version.
				src := u.src
				if version < 0 && !strings.Contains(src, "#version") {
					src = fmt.Sprintf("#version %d%s\n", -version, map[bool]string{true: " es"}[version == -300]) + src
				}
				sh, err := glsl.Compile(name, src, u.stage, glsl.Options{DefaultVersion: version})
				if err != nil {
					cerr = err
					break
				}
				if verr := types.Verify(sh.File); verr != nil {
					return nil, fmt.Errorf("piglit: %s: checker broke its contract: %w", name, verr)
				}
				shaders = append(shaders, sh)
			}
			if cerr == nil {
				_, cerr = glsl.LinkShaders(shaders...)
			}
			r.Total++
			if (cerr != nil) == expectFail {
				r.Agreed++
				continue
			}
			msg := rel + ": expected success"
			if expectFail {
				msg = rel + ": expected link error"
			}
			if cerr != nil {
				first, _, _ := strings.Cut(cerr.Error(), "\n")
				msg += ": " + first
			}
			r.Mismatch = append(r.Mismatch, msg)
		}
		out = append(out, r)
	}
	return out, nil
}

type shaderUnit struct {
	stage glsl.Stage
	src   string
}

// splitShaderTest extracts the shader sections of a .shader_test file.
func splitShaderTest(src string) (units []shaderUnit, version int, expectFail, skip bool) {
	section := ""
	geometry, passthrough := false, false
	var cur *strings.Builder
	var curStage glsl.Stage
	flush := func() {
		if cur != nil {
			units = append(units, shaderUnit{stage: curStage, src: cur.String()})
			cur = nil
		}
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			flush()
			section = t
			switch section {
			case "[vertex shader]":
				cur, curStage = &strings.Builder{}, glsl.Vertex
			case "[fragment shader]":
				cur, curStage = &strings.Builder{}, glsl.Fragment
			case "[geometry shader]":
				cur, curStage = &strings.Builder{}, glsl.Geometry
				geometry = true
			case "[vertex shader passthrough]":
				// shader_runner generates the vertex shader; without it a
				// geometry shader would not link, so such files skip.
				passthrough = true
			case "[require]", "[test]", "[vertex data]":
			default:
				skip = true
			}
			continue
		}
		switch section {
		case "[vertex shader]", "[fragment shader]", "[geometry shader]":
			cur.WriteString(line)
		case "[require]":
			if strings.HasPrefix(t, "GL_") && !strings.HasPrefix(t, "GL_ES") || strings.HasPrefix(t, "GL >=") && strings.Contains(t, "4.") {
				skip = true
			}
			switch {
			case strings.HasPrefix(t, "GLSL ES >= 3.00"):
				version = -300 // GLSL ES without a #version line: prepend one
			case strings.HasPrefix(t, "GLSL ES >= 1.00"):
				version = -100
			}
			if v, ok := strings.CutPrefix(t, "GLSL >= "); ok {
				if maj, min, ok := strings.Cut(strings.TrimSpace(v), "."); ok && len(maj) == 1 && len(min) == 2 {
					version = int(maj[0]-'0')*100 + int(min[0]-'0')*10 + int(min[1]-'0')
				}
			}
		case "[test]":
			if strings.HasPrefix(t, "link error") {
				expectFail = true
			}
		}
	}
	flush()
	hasFS := false
	for _, u := range units {
		if u.stage == glsl.Fragment {
			hasFS = true
		}
	}
	if !hasFS || passthrough && geometry {
		skip = true
	}
	return units, version, expectFail, skip
}
