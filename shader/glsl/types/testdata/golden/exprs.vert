#version 130
const int N = 2 + 3 * 4;
float f(in float x, out vec2 y) { y = vec2(x); return x; }
void main() {
    int a = 1, b = a++ + --a;
    float c = a < b ? 1.0 : 2.0e1;
    c += -c * (c - 1.0) / 3.0;
    a = a << 2 | b & 7 ^ ~a;
    bool t = !(a == b) && a != b || a >= b ^^ a <= b;
    vec4 v = vec4(1.0).wzyx;
    v.xy = v.zw, v.z = v[1];
    float arr[3] = float[3](1.0, 2.0, 3.0);
    c = f(arr[int(c)], v.xy) + float(arr.length());
}
