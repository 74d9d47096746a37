#version 130
// Vertex shader of the built-in model shader (scene.ModelDescription):
// world-space position, normal and tangent for lighting, two texture
// coordinate sets and the vertex colour passed through. With HAS_SKIN the
// vertex is blended from four joint matrices (glTF 2.0 §3.7.3.3): position
// and normal are skinned here, on whichever path runs the vertex stage.
// Variant switches (#defines the description inserts): HAS_UV1, HAS_COLOR,
// HAS_NORMAL_MAP (a_tangent), HAS_SKIN with JOINT_COUNT.
uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
in vec3 a_position;
in vec3 a_normal;
in vec2 a_texcoord;
out vec3 v_world_pos;
out vec3 v_normal;
out vec2 v_texcoord;
#ifdef HAS_UV1
in vec2 a_texcoord1;
out vec2 v_texcoord1;
#endif
#ifdef HAS_COLOR
in vec4 a_color;
out vec4 v_color;
#endif
#ifdef HAS_NORMAL_MAP
in vec4 a_tangent;
out vec4 v_tangent;
#endif
#ifdef HAS_SKIN
in vec4 a_joints;
in vec4 a_weights;
uniform mat4 u_joints[JOINT_COUNT];
#endif
void main() {
    vec4 pos = vec4(a_position, 1.0);
    vec3 nrm = a_normal;
#ifdef HAS_NORMAL_MAP
    vec3 tan = a_tangent.xyz;
#endif
#ifdef HAS_SKIN
    mat4 skin = a_weights.x * u_joints[int(a_joints.x)]
              + a_weights.y * u_joints[int(a_joints.y)]
              + a_weights.z * u_joints[int(a_joints.z)]
              + a_weights.w * u_joints[int(a_joints.w)];
    pos = skin * pos;
    nrm = mat3(skin) * nrm;
#ifdef HAS_NORMAL_MAP
    tan = mat3(skin) * tan;
#endif
#endif
    vec4 world = u_model * pos;
    v_world_pos = world.xyz;
    v_normal = u_normal_matrix * nrm;
    v_texcoord = a_texcoord;
#ifdef HAS_UV1
    v_texcoord1 = a_texcoord1;
#endif
#ifdef HAS_COLOR
    v_color = a_color;
#endif
#ifdef HAS_NORMAL_MAP
    v_tangent = vec4(mat3(u_model) * tan, a_tangent.w);
#endif
    gl_Position = u_mvp * pos;
}
