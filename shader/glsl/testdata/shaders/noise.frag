// A procedural-noise fragment shader in the style of the widely used glsl-noise
// code: macros, many small overloaded helpers, vector swizzles and loops.
#version 120

#define OCTAVES 4
#define LACUNARITY 2.0
#define GAIN 0.5
#define MOD_PRIME(x) ((x) - floor((x) * (1.0 / 289.0)) * 289.0)
#define SQ(x) ((x) * (x))

uniform float time;
uniform vec2 resolution;
varying vec2 uv;

vec3 wrap289(vec3 x) { return MOD_PRIME(x); }
vec4 wrap289(vec4 x) { return MOD_PRIME(x); }
vec2 wrap289(vec2 x) { return MOD_PRIME(x); }

vec4 scramble(vec4 x) { return wrap289(((x * 34.0) + 1.0) * x); }
vec3 scramble(vec3 x) { return wrap289(((x * 34.0) + 1.0) * x); }

vec4 invSqrtApprox(vec4 r) { return 1.79284291400159 - 0.85373472095314 * r; }

float gradientNoise(vec2 p) {
    const vec4 C = vec4(0.211324865405187, 0.366025403784439,
                        -0.577350269189626, 0.024390243902439);
    vec2 i = floor(p + dot(p, C.yy));
    vec2 x0 = p - i + dot(i, C.xx);
    vec2 i1 = (x0.x > x0.y) ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
    vec4 x12 = x0.xyxy + C.xxzz;
    x12.xy -= i1;
    i = wrap289(i);
    vec3 perm = scramble(scramble(i.y + vec3(0.0, i1.y, 1.0)) + i.x + vec3(0.0, i1.x, 1.0));
    vec3 m = max(0.5 - vec3(dot(x0, x0), dot(x12.xy, x12.xy), dot(x12.zw, x12.zw)), 0.0);
    m = SQ(m);
    m = m * m;
    vec3 x = 2.0 * fract(perm * C.www) - 1.0;
    vec3 h = abs(x) - 0.5;
    vec3 ox = floor(x + 0.5);
    vec3 a0 = x - ox;
    m *= invSqrtApprox(vec4(a0 * a0 + h * h, 0.0)).xyz;
    vec3 g;
    g.x = a0.x * x0.x + h.x * x0.y;
    g.yz = a0.yz * x12.xz + h.yz * x12.yw;
    return 130.0 * dot(m, g);
}

float fbm(vec2 p) {
    float sum = 0.0;
    float amp = 0.5;
    for (int i = 0; i < OCTAVES; ++i) {
        sum += amp * gradientNoise(p);
        p *= LACUNARITY;
        amp *= GAIN;
    }
    return sum;
}

mat2 rotation(float a) {
    float c = cos(a), s = sin(a);
    return mat2(c, s, -s, c);
}

void main() {
    vec2 p = uv * resolution / min(resolution.x, resolution.y);
    p = rotation(time * 0.1) * p;
    float n = fbm(p * 3.0 + vec2(time, -time) * 0.25);
    vec3 col = mix(vec3(0.1, 0.2, 0.4), vec3(0.9, 0.8, 0.6), smoothstep(-0.6, 0.6, n));
#if OCTAVES > 2
    col *= 0.8 + 0.2 * clamp(fbm(p + 10.0), -1.0, 1.0);
#endif
    gl_FragColor = vec4(col, 1.0);
}
