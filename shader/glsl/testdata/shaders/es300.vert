#version 300 es
in vec4 position;
in vec3 inNormal;
uniform mat4 mvp;
out vec3 normal;
out vec2 texcoord;
flat out int layer;
void main() {
    normal = inNormal;
    texcoord = position.xy;
    layer = gl_InstanceID;
    gl_Position = mvp * position;
}
