package pipe

// Shaders the tests compile: a position/colour pass-through pair, a textured
// pair and a pair using a uniform.
const (
	testVS = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
void main() { gl_Position = pos; v_col = col; }
`
	testFS = `#version 330
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col; }
`
	texVS = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv;
out vec2 v_uv;
void main() { gl_Position = pos; v_uv = uv; }
`
	texFS = `#version 330
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texture(tex, v_uv); }
`
	uniformFS = `#version 330
uniform vec4 tint;
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col * tint; }
`
	depthFS = `#version 330
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col; gl_FragDepth = 0.25; }
`
	instVS = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 2) in vec2 offset;
out vec4 v_col;
void main() { gl_Position = pos + vec4(offset, 0.0, 0.0); v_col = col; }
`
)
