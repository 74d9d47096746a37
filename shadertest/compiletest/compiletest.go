// Package compiletest measures the GLSL front end (packages shader/glsl and
// shader/glsl/types) against piglit's compiler tests: every .vert/.frag/.comp
// under spec/<set>/compiler is compiled and its outcome compared with the test's
// expect_result, and the shader sections of every execution test
// (spec/<set>/**/*.shader_test) are compiled and linked, since they are valid
// GLSL unless the test expects "link error". The result per set is an agreement
// count that CI holds against a ratchet (testdata/ratchet.txt). It is a harness
// of its own, not part of the compiler, because it reads piglit's file layout
// and config headers, which the compiler has no business knowing.
// spec: GLSL 4.50 (the language the tests exercise); piglit's
// tests/spec/<set>/compiler "[config] expect_result" convention.
package compiletest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/types"
)

// Sets are the piglit compiler-test sets the front end is measured on.
var Sets = []string{"glsl-1.10", "glsl-1.20", "glsl-1.30", "glsl-1.50", "glsl-3.30", "glsl-es-1.00", "glsl-es-3.00", "glsl-es-3.10"}

// ComputeSets are the piglit compiler-test sets of the compute features of
// GLSL 4.30 / GLSL ES 3.10. Their tests may require the extensions
// glsl.SupportedExtensions lists; a test is skipped only when it needs another one.
var ComputeSets = []string{"arb_compute_shader", "arb_shader_storage_buffer_object",
	"arb_shader_atomic_counters", "arb_shader_image_load_store", "glsl-es-3.10"}

// ExtensionSets are the piglit compiler-test sets of the extensions the front
// end implements for GLSL 1.10-1.30 (glsl.SupportedExtensions); as in
// ComputeSets, a test is skipped only when it needs an extension we lack.
var ExtensionSets = []string{"amd_shader_trinary_minmax", "mesa_shader_integer_functions",
	"arb_shading_language_packing", "arb_shader_bit_encoding", "ext_shader_integer_mix",
	"arb_texture_query_levels", "arb_texture_query_lod", "ext_texture_array", "arb_shader_texture_lod",
	"arb_shading_language_420pack", "arb_uniform_buffer_object", "arb_explicit_uniform_location",
	"arb_arrays_of_arrays", "arb_shading_language_include", "arb_draw_instanced", "arb_gpu_shader5",
	"arb_sample_shading", "oes_sample_variables", "EXT_shader_framebuffer_fetch", "EXT_shader_framebuffer_fetch_non_coherent",
	"amd_conservative_depth/glsl-1.30", "arb_separate_shader_objects", "arb_enhanced_layouts"}

// LaterSets are the compiler-test sets of the other GLSL versions (the
// execution tests of Sets are also compiled and linked, ShaderTests; these
// are compiler tests only). The front end parses and checks GLSL up to 4.60;
// the stages and types it does not implement (tessellation, doubles) fail
// there, as they should, and the ratchet keeps the rest from regressing.
var LaterSets = []string{"glsl-1.40", "glsl-4.00", "glsl-4.10", "glsl-4.20",
	"glsl-4.30", "glsl-4.40", "glsl-4.50", "glsl-4.60", "glsl-es-3.20"}

// Result is the agreement of the compiler with one piglit test set.
type Result struct {
	Set      string
	Agreed   int      // tests whose outcome matched expect_result
	Total    int      // tests run (excluding skipped)
	Skipped  int      // tests needing an extension we do not implement
	Mismatch []string // "path: expected pass|fail[: first error]" for disagreements
}

// Rate returns Agreed/Total (1 for an empty set).
func (r *Result) Rate() float64 {
	if r.Total == 0 {
		return 1
	}
	return float64(r.Agreed) / float64(r.Total)
}

type config struct {
	expect     string
	extensions []string
	checkLink  bool
	// includes is the named-string tree of dummy_shader_include (a string at
	// /dummy/path_to/shader_include) and shader_include_path (a search
	// point), as piglit's glslparsertest sets them up; nil without either.
	includes *glsl.Includes
}

// dummyInclude is the path of glslparsertest's dummy named string. Its text
// is a comment here: the tests that use it check path resolution only.
const dummyInclude = "/dummy/path_to/shader_include"

func (c *config) includeTree() *glsl.Includes {
	if c.includes == nil {
		c.includes = &glsl.Includes{}
	}
	return c.includes
}

// parseConfig reads the "[config] ... [end config]" comment header.
func parseConfig(src string) (config, bool) {
	var cfg config
	start := strings.Index(src, "[config]")
	end := strings.Index(src, "[end config]")
	if start < 0 || end < start {
		return cfg, false
	}
	for _, line := range strings.Split(src[start:end], "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "/*# ")
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "expect_result":
			cfg.expect = v
		case "require_extensions":
			for _, e := range strings.Fields(v) {
				if !strings.HasPrefix(e, "!") {
					cfg.extensions = append(cfg.extensions, e)
				}
			}
		case "check_link":
			cfg.checkLink = v == "true"
		case "dummy_shader_include":
			if strings.EqualFold(v, "true") {
				cfg.includeTree().Add(dummyInclude, "// glslparsertest's dummy named string\n")
			}
		case "shader_include_path":
			cfg.includeTree().Paths = append(cfg.includeTree().Paths, v)
		}
	}
	return cfg, cfg.expect == "pass" || cfg.expect == "fail"
}

// Agreement compiles every piglit compiler test (.vert/.frag under
// tests/spec/<set>/compiler and generated_tests/spec/<set>/compiler of dir) and
// reports, per set, how often the outcome agrees with the test's expect_result.
// Tests that require an extension are counted as skipped. With no sets given it
// measures Sets.
func Agreement(dir string, sets ...string) ([]*Result, error) {
	if len(sets) == 0 {
		sets = Sets
	}
	var out []*Result
	for _, set := range sets {
		r := &Result{Set: set}
		var files []string
		for _, top := range []string{"tests", "generated_tests"} {
			// "compile" is arb_shading_language_include's name for it.
			for _, sub := range []string{"compiler", "compile"} {
				found, err := walkFiles(filepath.Join(dir, top, "spec", set, sub), ".vert", ".frag", ".comp", ".geom")
				if err != nil {
					return nil, err
				}
				files = append(files, found...)
			}
		}
		sort.Strings(files)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("piglit: %w", err)
			}
			src := string(b)
			cfg, ok := parseConfig(src)
			if !ok {
				continue
			}
			if len(cfg.extensions) > 0 && (!slices.Contains(ComputeSets, set) && !slices.Contains(ExtensionSets, set) || !supported(cfg.extensions)) {
				r.Skipped++
				continue
			}
			stage := glsl.Vertex
			switch {
			case strings.HasSuffix(p, ".frag"):
				stage = glsl.Fragment
			case strings.HasSuffix(p, ".comp"):
				stage = glsl.Compute
			case strings.HasSuffix(p, ".geom"):
				stage = glsl.Geometry
			}
			rel, _ := filepath.Rel(dir, p)
			sh, err := glsl.Compile(rel, src, stage, glsl.Options{Includes: cfg.includes})
			if err == nil {
				if verr := types.Verify(sh.File); verr != nil {
					return nil, fmt.Errorf("piglit: %s: checker broke its contract: %w", rel, verr)
				}
			}
			if err == nil && cfg.checkLink {
				_, err = glsl.LinkShaders(sh)
			}
			got := "pass"
			if err != nil {
				got = "fail"
			}
			r.Total++
			if got == cfg.expect {
				r.Agreed++
				continue
			}
			msg := rel + ": expected " + cfg.expect
			if err != nil {
				first, _, _ := strings.Cut(err.Error(), "\n")
				msg += ": " + first
			}
			r.Mismatch = append(r.Mismatch, msg)
		}
		out = append(out, r)
	}
	return out, nil
}

// supported reports whether the front end implements every extension in exts.
func supported(exts []string) bool {
	for _, e := range exts {
		if !slices.Contains(glsl.SupportedExtensions(), e) {
			return false
		}
	}
	return true
}

// walkFiles lists the files below root whose names end in one of the
// suffixes, in walk order; a missing root has none.
func walkFiles(root string, suffixes ...string) ([]string, error) {
	if _, err := os.Stat(root); err != nil {
		return nil, nil
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && slices.ContainsFunc(suffixes, func(s string) bool { return strings.HasSuffix(p, s) }) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("piglit: walk %s: %w", root, err)
	}
	return files, nil
}
