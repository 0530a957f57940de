#version 330 core
// Voxels drawn as square points sized to one voxel on screen.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aColor;

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uVoxelSize;      // world units
uniform float uViewportHeight; // pixels
uniform vec4 uClipPlane;       // keep where dot(plane, p) >= 0 (when GL_CLIP_DISTANCE0 is on)

out vec3 vColor;

void main()
{
    vec4 viewPos = uView * vec4(aPosition, 1.0);
    gl_Position = uProjection * viewPos;
    // Projected size of a voxel: focal length in pixels times size over depth.
    float focal = uProjection[1][1] * 0.5 * uViewportHeight;
    gl_PointSize = max(1.0, focal * uVoxelSize / max(-viewPos.z, 1e-4));
    gl_ClipDistance[0] = dot(uClipPlane, vec4(aPosition, 1.0));
    vColor = aColor;
}
