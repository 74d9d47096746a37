#version 130
// Vertex shader of the demo and of the built-in PBR shader: world-space
// position and normal for lighting, texcoord passed through.
uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
in vec3 a_position;
in vec3 a_normal;
in vec2 a_texcoord;
out vec3 v_world_pos;
out vec3 v_normal;
out vec2 v_texcoord;
void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world_pos = world.xyz;
    v_normal = u_normal_matrix * a_normal;
    v_texcoord = a_texcoord;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
