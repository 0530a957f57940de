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

std::optional<int> pickMeshVertex(const Ray& ray, const MatrixX3d& V, const MatrixX3i& F)
{
    const Vec3 o(ray.origin.x, ray.origin.y, ray.origin.z);
    const Vec3 d(ray.direction.x, ray.direction.y, ray.direction.z);
    double bestT = std::numeric_limits<double>::max();
    Eigen::Index bestFace = -1;
    Vec3 bestPoint = Vec3::Zero();
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const Vec3 a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
        const Vec3 e1 = b - a, e2 = c - a;
        const Vec3 p = d.cross(e2);
        const double det = e1.dot(p);
        if (std::abs(det) < 1e-14) // parallel, either side: the mesh may be two-sided
            continue;
        const double inv = 1.0 / det;
        const Vec3 s = o - a;
        const double u = s.dot(p) * inv;
        if (u < 0.0 || u > 1.0)
            continue;
        const Vec3 q = s.cross(e1);
        const double v = d.dot(q) * inv;
        if (v < 0.0 || u + v > 1.0)
            continue;
        const double t = e2.dot(q) * inv;
        if (t > 0.0 && t < bestT) {
            bestT = t;
            bestFace = f;
            bestPoint = o + t * d;
        }
    }
    if (bestFace < 0)
        return std::nullopt;
    int best = F(bestFace, 0);
    for (int k = 1; k < 3; ++k)
        if ((V.row(F(bestFace, k)).transpose() - bestPoint).squaredNorm() <
            (V.row(best).transpose() - bestPoint).squaredNorm())
            best = F(bestFace, k);
    return best;
}

} // namespace rig::ui
