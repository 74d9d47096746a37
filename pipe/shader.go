package pipe

import (
	"container/list"
	"fmt"
	"sync"

	"vortexgfx/shader/glsl"
)

// Stage is a shader stage.
type Stage uint8

// The graphics stages.
const (
	StageVertex Stage = iota
	StageFragment
	// StageGeometry is a geometry shader (GLSL 1.50): draws with one run on
	// the reference renderer (GateGeometryStage).
	StageGeometry
)

// TexOps is the set of texture operations a shader uses; the compiler fills it.
// spec: vortexpipe §2.3.2, §3.6
type TexOps uint32

// The texture operations that decide TEX routing.
const (
	TexOpShadow      TexOps = 1 << iota // compare samplers
	TexOpArray                          // 2D arrays
	TexOpCube                           // cube and cube arrays
	TexOp3D                             //
	TexOpGather                         // textureGather (tg4)
	TexOpFetch                          // texelFetch (txf)
	TexOpSize                           // textureSize (txs): a descriptor read
	TexOpGatherCube                     // tg4 on a cube
	TexOpFetchMS                        // txf_ms (multisample samplers)
	TexOpQueryLod                       // textureQueryLod
	TexOpQueryLevels                    // textureQueryLevels
	TexOp1DArray                        // 1D arrays
)

// ShaderInfo is what routing needs to know about a shader. The compiler fills it
// when it translates the GLSL; Compiled stays false until a device program
// exists, and an uncompiled shader gates every draw using it.
// spec: vortexpipe §2.3.2 (translation failure), §3.1
type ShaderInfo struct {
	Compiled      bool
	ColorOutputs  int  // fragment: colour outputs written (render targets used)
	WritesDepth   bool // fragment: gl_FragDepth
	WritesStencil bool
	Discards      bool
	DualSource    bool // fragment: writes the second (index 1) colour output
	VaryingVec4s  int  // vertex→fragment varyings (not flat), in vec4s
	FlatWords     int  // vertex→fragment flat varyings, in words
	NoPerspective bool // any noperspective varying
	TexOps        TexOps
	// Samplers is the fragment stage's sampler bindings: binding i samples
	// on TEX stage i (vx_tex's funct2 is fixed when the FS compiles, the
	// texture unit is a uniform), so more than abi.TexNumStages route TEX
	// to software whatever units they read. spec: vortexpipe §2.2
	// (emit_vx_tex), §3.6
	Samplers int
	// FramebufferFetch: the fragment stage reads the destination colour
	// (an inout output or gl_LastFragData; shader/lower's Program.Fetch),
	// which the device's fragment wrapper has no input for: such draws run
	// on the reference renderer (GateFramebufferFetch).
	// spec: EXT_shader_framebuffer_fetch
	FramebufferFetch bool
	// Storage: the stage declares storage blocks, atomic counters or
	// images, which only the reference renderer runs in a draw
	// (GateStorage, storage.go).
	Storage bool
}

// ShaderDesc describes a shader CSO: its GLSL source and (once compiled) its info.
type ShaderDesc struct {
	Stage Stage
	// Name is the shader's file name in compiler messages (default
	// "vertex.glsl" / "fragment.glsl").
	Name string
	GLSL string
	// Parts are further sources of the same stage, compiled and linked with
	// GLSL into the one stage, as GL links several shader objects of a stage
	// attached to one program (one defines main, the others functions it
	// calls). Their names are Name with "#1", "#2"... spec: GL 4.6 §7.3
	Parts []string
	// Options configure the GLSL front end (default version, compatibility
	// profile, predefined macros, accepted extensions).
	Options glsl.Options
	// Info is filled by CreateShaderState from the compiler; a value passed in
	// is replaced.
	Info ShaderInfo
}

// Shader is a vertex or fragment shader CSO. A fragment shader carries its
// variant cache (§2.3.1): the compiled program is per variant key.
type Shader struct {
	Desc     ShaderDesc
	Variants *VariantCache
	stage    *compiledStage // nil for a Shader built without CreateShaderState
}

// MaxFSVariants is VP_MAX_FS_VARIANTS, the variants kept per fragment CSO.
// spec: vortexpipe §2.3.1
const MaxFSVariants = 4

// VariantKey is the FS variant key: each field changes what the FS wrapper emits.
// spec: vortexpipe §2.3.1, §2.3.3
type VariantKey struct {
	SWTex    bool
	SWOM     bool
	SWRaster bool
	Samples  uint8 // 1, 2, 4, 8 or 16
	BGRAMask uint8 // bit i: colour attachment i is BGRA8
}

// String formats the key.
func (k VariantKey) String() string {
	return fmt.Sprintf("{sw_tex:%t sw_om:%t sw_raster:%t samples:%d bgra:%#x}", k.SWTex, k.SWOM, k.SWRaster, k.Samples, k.BGRAMask)
}

// CompileFunc compiles the fragment shader for one variant key; the result is
// opaque to the cache (a resident device program once the compiler is wired).
type CompileFunc func(key VariantKey) (any, error)

// VariantCache holds at most MaxFSVariants compiled variants of one fragment CSO,
// compiling lazily on first use and evicting the least recently used.
// Safe for concurrent use. spec: vortexpipe §2.3.1, §2.5 (resident once)
type VariantCache struct {
	compile CompileFunc
	evict   func(key VariantKey, program any)

	mu    sync.Mutex
	lru   *list.List // of *variant, front = most recent
	index map[VariantKey]*list.Element
	stats VariantStats
}

type variant struct {
	key     VariantKey
	program any
}

// VariantStats counts cache traffic.
type VariantStats struct {
	Compiles, Hits, Evictions uint64
}

// NewVariantCache returns a cache compiling with compile; evict (may be nil) is
// called for each evicted program so its device module can be unloaded.
func NewVariantCache(compile CompileFunc, evict func(VariantKey, any)) *VariantCache {
	return &VariantCache{compile: compile, evict: evict, lru: list.New(), index: map[VariantKey]*list.Element{}}
}

// Get returns the variant for key, compiling it on a miss.
func (c *VariantCache) Get(key VariantKey) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[key]; ok {
		c.lru.MoveToFront(el)
		c.stats.Hits++
		return el.Value.(*variant).program, nil
	}
	if c.compile == nil {
		return nil, fmt.Errorf("pipe: variant %v: no compiler attached", key)
	}
	p, err := c.compile(key)
	if err != nil {
		return nil, fmt.Errorf("pipe: compile variant %v: %w", key, err)
	}
	c.stats.Compiles++
	if c.lru.Len() >= MaxFSVariants {
		old := c.lru.Back()
		v := old.Value.(*variant)
		c.lru.Remove(old)
		delete(c.index, v.key)
		c.stats.Evictions++
		if c.evict != nil {
			c.evict(v.key, v.program)
		}
	}
	c.index[key] = c.lru.PushFront(&variant{key: key, program: p})
	return p, nil
}

// Keys lists the resident keys, most recently used first.
func (c *VariantCache) Keys() []VariantKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]VariantKey, 0, c.lru.Len())
	for el := c.lru.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(*variant).key)
	}
	return out
}

// programs lists the resident programs.
func (c *VariantCache) programs() []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]any, 0, c.lru.Len())
	for el := c.lru.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(*variant).program)
	}
	return out
}

// Stats returns the cache counters.
func (c *VariantCache) Stats() VariantStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}
