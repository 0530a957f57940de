#version 330 core
// Two-sided studio lighting in view space: a key light from above, slightly
// left of the camera, a cool fill from the right and a rim from behind. Back faces (seen
// through holes) are lit with the flipped normal and darkened so holes read.
in vec3 vNormal;
in vec3 vColor;
in vec3 vViewPos;
in vec2 vUV;

uniform bool uFlat;        // wireframe pass: a single colour
uniform vec4 uFlatColor;
uniform float uAlpha;      // < 1 makes the mesh translucent (skeleton overlays)
uniform bool uTextured;    // multiply the colour by the base-colour image at vUV
uniform sampler2D uBaseColor;

out vec4 fragColor;

void main()
{
    if (uFlat) {
        fragColor = uFlatColor;
        return;
    }
    vec3 n = normalize(vNormal);
    bool back = !gl_FrontFacing;
    if (back)
        n = -n;
    vec3 v = normalize(-vViewPos);
    // The key comes mostly from the front (a strongly lateral key drew the two
    // sides of a symmetric body about 11% apart in brightness); the fill from
    // the right balances what is left of its slant.
    vec3 key = normalize(vec3(-0.3, 0.6, 0.75));
    vec3 fill = normalize(vec3(0.7, 0.1, 0.5));
    float diffuse = max(dot(n, key), 0.0) * 0.7 + max(dot(n, fill), 0.0) * 0.3;
    vec3 h = normalize(key + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.18;
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.25;
    vec3 albedo = uTextured ? vColor * texture(uBaseColor, vUV).rgb : vColor;
    vec3 color = albedo * (0.22 + diffuse) + vec3(spec) + vec3(0.6, 0.7, 0.9) * rim;
    if (back)
        color *= vec3(0.55, 0.45, 0.45);
    fragColor = vec4(pow(color, vec3(1.0 / 1.1)), uAlpha);
}
