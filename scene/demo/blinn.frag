#version 130
// Demo fragment shader: textured Blinn-Phong with one directional light.
uniform sampler2D u_albedo;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_camera_pos;
uniform float u_specular;
uniform float u_shininess;
in vec3 v_world_pos;
in vec3 v_normal;
in vec2 v_texcoord;
out vec4 frag_color;
void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) {
        n = -n;
    }
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_camera_pos - v_world_pos);
    vec3 h = normalize(l + v);
    vec3 albedo = texture(u_albedo, v_texcoord).rgb;
    float ndl = max(dot(n, l), 0.0);
    float spec = 0.0;
    if (ndl > 0.0) {
        spec = pow(max(dot(n, h), 0.0), u_shininess);
    }
    vec3 color = albedo * (u_ambient + u_light_color * ndl) + u_light_color * (u_specular * spec);
    frag_color = vec4(min(color, vec3(1.0)), 1.0);
}
