#version 130
// Fragment shader of the built-in model shader (scene.ModelDescription): the
// glTF 2.0 metallic-roughness material (Appendix B BRDF: GGX distribution,
// Smith-Schlick visibility, Schlick Fresnel) with the base colour × vertex
// colour × texture, alpha modes, normal, occlusion and emissive textures,
// each texture reading its own coordinate set through its
// KHR_texture_transform matrix. Lit by one directional light plus ambient,
// or by the model's KHR_lights_punctual lights (LIGHT_COUNT). Colour
// textures are sRGB-encoded and decoded with a 2.2 power; the output is
// encoded the same way. Variant switches: HAS_UV1, HAS_COLOR,
// HAS_NORMAL_MAP, UNLIT, LIGHT_COUNT.
uniform sampler2D u_base_color_tex;
uniform sampler2D u_metallic_roughness_tex;
uniform sampler2D u_occlusion_tex;
uniform sampler2D u_emissive_tex;
uniform vec4 u_base_color_factor;
uniform float u_metallic_factor;
uniform float u_roughness_factor;
uniform vec3 u_emissive_factor;
uniform float u_occlusion_strength;
uniform float u_alpha_cutoff;
uniform float u_alpha_mode;
uniform vec3 u_ambient;
uniform vec3 u_camera_pos;
// Per texture: the coordinate input it reads (0: v_texcoord, 1:
// v_texcoord1) and its KHR_texture_transform.
uniform float u_base_color_uv_set;
uniform mat3 u_base_color_uv_transform;
uniform float u_metallic_roughness_uv_set;
uniform mat3 u_metallic_roughness_uv_transform;
uniform float u_occlusion_uv_set;
uniform mat3 u_occlusion_uv_transform;
uniform float u_emissive_uv_set;
uniform mat3 u_emissive_uv_transform;
in vec3 v_world_pos;
in vec3 v_normal;
in vec2 v_texcoord;
#ifdef HAS_UV1
in vec2 v_texcoord1;
#endif
#ifdef HAS_COLOR
in vec4 v_color;
#endif
#ifdef HAS_NORMAL_MAP
uniform sampler2D u_normal_tex;
uniform float u_normal_scale;
uniform float u_normal_uv_set;
uniform mat3 u_normal_uv_transform;
in vec4 v_tangent;
#endif
#ifdef LIGHT_COUNT
// World-space light positions and directions (where the light shines),
// colour × intensity, and (type 0 directional / 1 point / 2 spot, range in
// model units or 0, cos inner cone, cos outer cone); u_fit_scale converts
// world distances back to the model's units for the inverse-square falloff.
uniform vec3 u_light_position[LIGHT_COUNT];
uniform vec3 u_light_direction[LIGHT_COUNT];
uniform vec3 u_light_color[LIGHT_COUNT];
uniform vec4 u_light_params[LIGHT_COUNT];
uniform float u_fit_scale;
#else
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
#endif
out vec4 frag_color;
const float PI = 3.14159265;

vec2 uv(float set, mat3 xform) {
    vec2 t = v_texcoord;
#ifdef HAS_UV1
    if (set > 0.5) {
        t = v_texcoord1;
    }
#endif
    return (xform * vec3(t, 1.0)).xy;
}

// brdf is the radiance reflected towards v from light direction l per unit
// of incoming radiance, times n·l.
vec3 brdf(vec3 n, vec3 v, vec3 l, vec3 base, float metallic, float roughness) {
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    float ndv = max(dot(n, v), 0.0001);
    float ndh = max(dot(n, h), 0.0);
    float vdh = max(dot(v, h), 0.0);
    vec3 f0 = mix(vec3(0.04), base, metallic);
    vec3 fresnel = f0 + (vec3(1.0) - f0) * pow(1.0 - vdh, 5.0);
    float a = roughness * roughness;
    float a2 = a * a;
    float dd = ndh * ndh * (a2 - 1.0) + 1.0;
    float distribution = a2 / (PI * dd * dd);
    float k = a * 0.5;
    float visibility = 1.0 / ((ndl * (1.0 - k) + k) * (ndv * (1.0 - k) + k) * 4.0);
    vec3 specular = fresnel * (distribution * visibility);
    vec3 diffuse = (vec3(1.0) - fresnel) * (1.0 - metallic) * base / PI;
    return (diffuse + specular) * ndl;
}

void main() {
    vec4 tex = texture(u_base_color_tex, uv(u_base_color_uv_set, u_base_color_uv_transform));
    vec4 base = u_base_color_factor * vec4(pow(tex.rgb, vec3(2.2)), tex.a);
#ifdef HAS_COLOR
    base *= v_color;
#endif
    if (u_alpha_mode == 1.0 && base.a < u_alpha_cutoff) {
        discard;
    }
    float alpha = 1.0;
    if (u_alpha_mode == 2.0) {
        alpha = base.a;
    }
#ifdef UNLIT
    frag_color = vec4(pow(clamp(base.rgb, 0.0, 1.0), vec3(1.0 / 2.2)), alpha);
#else
    vec4 mr = texture(u_metallic_roughness_tex, uv(u_metallic_roughness_uv_set, u_metallic_roughness_uv_transform));
    float roughness = clamp(u_roughness_factor * mr.g, 0.04, 1.0);
    float metallic = clamp(u_metallic_factor * mr.b, 0.0, 1.0);
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
#ifdef HAS_NORMAL_MAP
    vec3 t = normalize(v_tangent.xyz - n * dot(n, v_tangent.xyz));
    vec3 b = cross(n, t) * v_tangent.w;
    if (!gl_FrontFacing) {
        b = -b;
    }
    vec3 tn = texture(u_normal_tex, uv(u_normal_uv_set, u_normal_uv_transform)).xyz * 2.0 - 1.0;
    tn.xy *= u_normal_scale;
    n = normalize(mat3(t, b, n) * tn);
#endif
    vec3 v = normalize(u_camera_pos - v_world_pos);
    vec3 color = vec3(0.0);
#ifdef LIGHT_COUNT
    for (int i = 0; i < LIGHT_COUNT; i++) {
        vec4 p = u_light_params[i];
        vec3 l = -u_light_direction[i];
        float att = 1.0;
        if (p.x > 0.5) {
            vec3 d = u_light_position[i] - v_world_pos;
            float dist = length(d) / u_fit_scale;
            l = normalize(d);
            // KHR_lights_punctual: inverse square, windowed by the range.
            att = 1.0 / max(dist * dist, 0.0001);
            if (p.y > 0.0) {
                float r = dist / p.y;
                att *= clamp(1.0 - r * r * r * r, 0.0, 1.0);
            }
            if (p.x > 1.5) {
                float cd = dot(u_light_direction[i], -l);
                att *= smoothstep(p.w, p.z, cd);
            }
        }
        color += brdf(n, v, l, base.rgb, metallic, roughness) * u_light_color[i] * att;
    }
#else
    color = brdf(n, v, normalize(u_light_dir), base.rgb, metallic, roughness) * u_light_color * PI;
#endif
    float ao = 1.0 + u_occlusion_strength * (texture(u_occlusion_tex, uv(u_occlusion_uv_set, u_occlusion_uv_transform)).r - 1.0);
    color += u_ambient * base.rgb * ao;
    color += u_emissive_factor * pow(texture(u_emissive_tex, uv(u_emissive_uv_set, u_emissive_uv_transform)).rgb, vec3(2.2));
    frag_color = vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2)), alpha);
#endif
}
