#include "ui/viewport/picking.h"

#include <glm/gtc/matrix_transform.hpp>

#include <limits>

namespace rig::ui {

Ray rayThroughPixel(const OrbitCamera& camera, float x, float y, float w, float h)
{
    const float aspect = h > 0 ? w / h : 1.0f;
    const glm::vec4 viewport(0, 0, w, h);
    const glm::vec3 nearP = glm::unProject(glm::vec3(x, h - y, 0.0f), camera.view(), camera.projection(aspect), viewport);
    const glm::vec3 farP = glm::unProject(glm::vec3(x, h - y, 1.0f), camera.view(), camera.projection(aspect), viewport);
    return {nearP, glm::normalize(farP - nearP)};
}

std::optional<int> pickSphere(const Ray& ray, const std::vector<glm::vec3>& centers, float radius)
{
    std::optional<int> best;
    float bestT = std::numeric_limits<float>::max();
    for (size_t i = 0; i < centers.size(); ++i) {
        const glm::vec3 oc = ray.origin - centers[i];
        const float b = glm::dot(oc, ray.direction);
        const float c = glm::dot(oc, oc) - radius * radius;
        const float disc = b * b - c;
        if (disc < 0.0f)
            continue;
        const float t = -b - std::sqrt(disc);
        if (t > 0.0f && t < bestT) {
            bestT = t;
            best = static_cast<int>(i);
        }
    }
    return best;
}

} // namespace rig::ui
