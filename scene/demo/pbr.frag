#version 130
// Built-in metallic-roughness shader for models (glTF 2.0 Appendix B BRDF:
// GGX distribution, Smith-Schlick visibility, Schlick Fresnel) with one
// directional light plus ambient. Colour textures are sRGB-encoded and
// decoded with a 2.2 power; the output is encoded the same way.
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
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_camera_pos;
in vec3 v_world_pos;
in vec3 v_normal;
in vec2 v_texcoord;
out vec4 frag_color;
const float PI = 3.14159265;
void main() {
    vec4 tex = texture(u_base_color_tex, v_texcoord);
    vec4 base = u_base_color_factor * vec4(pow(tex.rgb, vec3(2.2)), tex.a);
    if (u_alpha_mode == 1.0 && base.a < u_alpha_cutoff) {
        discard;
    }
    vec4 mr = texture(u_metallic_roughness_tex, v_texcoord);
    float roughness = clamp(u_roughness_factor * mr.g, 0.04, 1.0);
    float metallic = clamp(u_metallic_factor * mr.b, 0.0, 1.0);
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
    vec3 v = normalize(u_camera_pos - v_world_pos);
    vec3 l = normalize(u_light_dir);
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    float ndv = max(dot(n, v), 0.0001);
    float ndh = max(dot(n, h), 0.0);
    float vdh = max(dot(v, h), 0.0);
    vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
    vec3 fresnel = f0 + (vec3(1.0) - f0) * pow(1.0 - vdh, 5.0);
    float a = roughness * roughness;
    float a2 = a * a;
    float dd = ndh * ndh * (a2 - 1.0) + 1.0;
    float distribution = a2 / (PI * dd * dd);
    float k = a * 0.5;
    float visibility = 1.0 / ((ndl * (1.0 - k) + k) * (ndv * (1.0 - k) + k) * 4.0);
    vec3 specular = fresnel * (distribution * visibility);
    vec3 diffuse = (vec3(1.0) - fresnel) * (1.0 - metallic) * base.rgb / PI;
    vec3 color = (diffuse + specular) * u_light_color * (ndl * PI);
    float ao = 1.0 + u_occlusion_strength * (texture(u_occlusion_tex, v_texcoord).r - 1.0);
    color += u_ambient * base.rgb * ao;
    color += u_emissive_factor * pow(texture(u_emissive_tex, v_texcoord).rgb, vec3(2.2));
    float alpha = 1.0;
    if (u_alpha_mode == 2.0) {
        alpha = base.a;
    }
    frag_color = vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2)), alpha);
}
