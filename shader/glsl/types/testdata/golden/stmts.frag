#version 300 es
precision mediump float;
struct Light { vec3 pos; float i[2]; };
layout(std140) uniform Block { mat4 m; Light l; } blk;
in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    for (int i = 0; i < 4; ++i) {
        if (i == 2) continue;
        else if (i == 3) break;
    }
    int k = 0;
    while (k < 3) k++;
    do { k--; } while (k > 0);
    switch (k) {
    case 0:
        color = vec4(0.0);
        break;
    default:
        discard;
    }
    color = blk.m * vec4(blk.l.pos, 1.0);
    return;
}
