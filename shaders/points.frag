#version 330 core
in vec3 vColor;
out vec4 fragColor;

void main()
{
    // A light bevel so neighbouring voxels read apart.
    vec2 d = abs(gl_PointCoord - 0.5) * 2.0;
    float edge = max(d.x, d.y);
    fragColor = vec4(vColor * (edge > 0.8 ? 0.7 : 1.0), 1.0);
}
