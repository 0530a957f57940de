#version 330 core
// Shaded character mesh: positions, normals and per-vertex colours in world space.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;

uniform mat4 uView;
uniform mat4 uProjection;
uniform vec4 uClipPlane; // keep where dot(plane, p) >= 0 (when GL_CLIP_DISTANCE0 is on)

out vec3 vNormal;   // view space
out vec3 vColor;
out vec3 vViewPos;  // view space

void main()
{
    vec4 viewPos = uView * vec4(aPosition, 1.0);
    vViewPos = viewPos.xyz;
    vNormal = mat3(uView) * aNormal;
    vColor = aColor;
    gl_Position = uProjection * viewPos;
    gl_ClipDistance[0] = dot(uClipPlane, vec4(aPosition, 1.0));
}
