#version 300 es
precision highp float;
precision highp int;

layout(std140) uniform Material {
    vec4 baseColor;
    float roughness;
    int lightCount;
} material;

struct Light { vec3 dir; vec3 color; };
uniform Light lights[4];
uniform sampler2D albedo;
uniform highp sampler2DArray layers;
uniform highp isampler2D ids;

in vec3 normal;
in vec2 texcoord;
flat in int layer;
layout(location = 0) out vec4 fragColor;

vec3 shade(in Light l, vec3 n) {
    float d = max(dot(n, -normalize(l.dir)), 0.0);
    return l.color * d;
}

void main() {
    vec3 n = normalize(normal);
    vec3 acc = vec3(0.0);
    for (int i = 0; i < 4; i++) {
        if (i >= material.lightCount) break;
        acc += shade(lights[i], n);
    }
    vec4 tex = texture(albedo, texcoord) * texture(layers, vec3(texcoord, float(layer)));
    ivec4 id = texelFetch(ids, ivec2(gl_FragCoord.xy), 0);
    uint bits = uint(id.x) << 2u | 1u;
    switch (int(bits & 3u)) {
    case 0:
        acc *= 0.5;
        break;
    case 1:
    default:
        acc = clamp(acc, 0.0, 1.0);
    }
    fragColor = vec4(acc, 1.0) * tex * material.baseColor + vec4(textureSize(albedo, 0), 0, 0) * 0.0;
}
