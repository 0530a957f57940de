#version 330 core
// Shaded character mesh: positions, normals and per-vertex colours in world
// space, optionally skinned on the GPU by one of the three deformers of
// core/deform (ui/viewport/skin_data.h documents the texel layout):
//   uDeformer 0: LBS (thesis eq. 4.3), 1: DQS (Kavan et al. 2008, hemisphere
//   aligned on the most-weighted influence), 2: twist-corrected LBS (thesis
//   §4.4, eq. 4.4-4.9; the swings blended as dual quaternions, as
//   core/deform/twist_lbs.cpp does), -1: not skinned (glyphs, unweighted meshes).
// The skinned world position and normal also go out as vWorldPosition /
// vWorldNormal for transform feedback (the GPU-vs-CPU test).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;
layout(location = 3) in ivec4 aJoints;
layout(location = 4) in vec4 aWeights;
layout(location = 5) in int aSegment;
layout(location = 6) in float aDelta;
layout(location = 7) in vec2 aUV; // textured meshes only (the file's own meshes)

uniform mat4 uView;
uniform mat4 uProjection;
uniform vec4 uClipPlane; // keep where dot(plane, p) >= 0 (when GL_CLIP_DISTANCE0 is on)
uniform int uDeformer = -1;
uniform samplerBuffer uSkin; // skinTexelsPerJoint RGBA32F texels per joint

out vec3 vNormal;   // view space
out vec3 vColor;
out vec3 vViewPos;  // view space
out vec3 vWorldPosition;
out vec3 vWorldNormal;
out vec2 vUV;

const int kTexels = 16;

vec4 texel(int joint, int slot) { return texelFetch(uSkin, joint * kTexels + slot); }

// Σ w_s (3 rows starting at `slot`) of the four influences: a 3x4 matrix as rows.
void blendRows(int slot, out vec4 r0, out vec4 r1, out vec4 r2)
{
    r0 = vec4(0.0); r1 = vec4(0.0); r2 = vec4(0.0);
    for (int s = 0; s < 4; ++s) {
        float w = aWeights[s];
        if (w == 0.0)
            continue;
        int j = aJoints[s];
        r0 += w * texel(j, slot);
        r1 += w * texel(j, slot + 1);
        r2 += w * texel(j, slot + 2);
    }
}

vec3 applyPoint(vec4 r0, vec4 r1, vec4 r2, vec3 p)
{
    vec4 h = vec4(p, 1.0);
    return vec3(dot(r0, h), dot(r1, h), dot(r2, h));
}

vec3 applyLinear(vec4 r0, vec4 r1, vec4 r2, vec3 n) { return vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n)); }

// Rodrigues (thesis eq. 4.9): v cos φ + (u × v) sin φ + u (u·v)(1 − cos φ).
vec3 rodrigues(vec3 u, float s, float c, vec3 v) { return v * c + cross(u, v) * s + u * (dot(u, v) * (1.0 - c)); }

void skinLbs(inout vec3 p, inout vec3 n)
{
    vec4 r0, r1, r2;
    blendRows(0, r0, r1, r2);
    p = applyPoint(r0, r1, r2, p);
    n = applyLinear(r0, r1, r2, n);
}

// Dual-quaternion linear blending of the four influences' dual quaternions
// at texels `slot` (real) and `slot + 1` (dual), in the hemisphere of the
// most-weighted influence, applied as a rigid motion.
void blendDualQuaternions(int slot, inout vec3 p, inout vec3 n)
{
    int pivot = 0;
    for (int s = 1; s < 4; ++s)
        if (aWeights[s] > aWeights[pivot])
            pivot = s;
    vec4 q0 = texel(aJoints[pivot], slot);
    vec4 br = vec4(0.0), bd = vec4(0.0);
    for (int s = 0; s < 4; ++s) {
        float w = aWeights[s];
        if (w == 0.0)
            continue;
        vec4 r = texel(aJoints[s], slot);
        if (dot(r, q0) < 0.0)
            w = -w;
        br += w * r;
        bd += w * texel(aJoints[s], slot + 1);
    }
    float inv = inversesqrt(dot(br, br));
    br *= inv;
    bd *= inv;
    // (w, x, y, z) real, dual: t = 2 (w0 ve − we v0 + v0 × ve) (Kavan et al. 2008, Alg. 1).
    vec3 v0 = br.yzw, ve = bd.yzw;
    vec3 t = 2.0 * (br.x * ve - bd.x * v0 + cross(v0, ve));
    p = p + 2.0 * cross(v0, cross(v0, p) + br.x * p) + t;
    n = n + 2.0 * cross(v0, cross(v0, n) + br.x * n);
}

void skinDqs(inout vec3 p, inout vec3 n) { blendDualQuaternions(3, p, n); }

void skinTwist(inout vec3 p, inout vec3 n)
{
    int c = aSegment;
    if (c < 0) {
        skinLbs(p, n); // unsegmented: plain LBS with M
        return;
    }
    vec4 bt = texel(c, 11);
    vec4 ui = texel(c, 12);
    if (ui.w == 0.0) {
        // The shared partial twist T_c(θ_c δ) about the link axis, then H_c.
        float a = bt.w * aDelta;
        float s = sin(a), co = cos(a);
        vec3 r = rodrigues(ui.xyz, s, co, p - bt.xyz);
        vec4 h0 = texel(c, 8), h1 = texel(c, 9), h2 = texel(c, 10);
        p = applyPoint(h0, h1, h2, r);
        n = applyLinear(h0, h1, h2, rodrigues(ui.xyz, s, co, n));
    }
    // The swings: the untwisted transforms G_k blended rigidly (DLB).
    blendDualQuaternions(13, p, n);
}

void main()
{
    vec3 p = aPosition;
    vec3 n = aNormal;
    if (uDeformer == 0)
        skinLbs(p, n);
    else if (uDeformer == 1)
        skinDqs(p, n);
    else if (uDeformer == 2)
        skinTwist(p, n);
    if (uDeformer >= 0) {
        float len2 = dot(n, n);
        n = len2 > 0.0 ? n * inversesqrt(len2) : n;
    }
    vWorldPosition = p;
    vWorldNormal = n;
    vec4 viewPos = uView * vec4(p, 1.0);
    vViewPos = viewPos.xyz;
    vNormal = mat3(uView) * n;
    vColor = aColor;
    vUV = aUV;
    gl_Position = uProjection * viewPos;
    gl_ClipDistance[0] = dot(uClipPlane, vec4(p, 1.0));
}
