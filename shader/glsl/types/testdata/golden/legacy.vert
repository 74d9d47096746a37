#version 120
uniform vec4 tint[2];
attribute vec4 pos;
varying vec2 uv;
float scale(int k) { return float(k) * 0.5; }
void main() {
    uv = pos.xy * scale(3) + tint[1].zw;
    mat2 m = mat2(1, 2, 3, 4);
    vec2 r = m * uv;
    gl_Position = gl_ModelViewProjectionMatrix * vec4(r, 0, 1);
    gl_FrontColor = vec4(uv.x > 0.5 ? 1 : 0);
}
