#include "app/cli_evaluate_standard.h"

#include "core/export/rig_file.h"

#include <cmath>
#include <regex>

namespace rig::app {
namespace {

json finiteOrNull(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

/// A refusal's reason with its numbers replaced by N ("30 skeleton ends" ->
/// "N skeleton ends"), so that the summary can count reasons.
std::string reasonKind(const std::string& reason)
{
    static const std::regex number("[0-9]+([.][0-9]+)?");
    return std::regex_replace(reason, number, "N");
}

} // namespace

json outcomeJson(const HumanoidCheck& check, const std::string& fitError, const json& warnings)
{
    json reasons = json::array(), kinds = json::array();
    for (const std::string& r : check.reasons) {
        reasons.push_back(r);
        kinds.push_back(reasonKind(r));
    }
    std::string kind = "rigged", message;
    if (!check.looksHumanoid()) {
        kind = "refused";
        message = check.message();
    } else if (!fitError.empty()) {
        kind = "failed";
        message = fitError;
        // "rig::suggestEndNodeLabels(): the skeleton has 4 end nodes; ..." -> "the skeleton has N end nodes"
        const size_t from = fitError.find("(): ");
        const std::string what = from == std::string::npos ? fitError : fitError.substr(from + 4);
        kinds.push_back(reasonKind(what.substr(0, what.find(';'))));
    } else if (!warnings.empty()) {
        kind = "warned";
    }
    return {{"kind", kind},         {"message", message},
            {"reasons", reasons},   {"reason_kinds", kinds},
            {"warnings", warnings.size()}, {"body", check.body},
            {"body_confidence", check.bodyConfidence}};
}

SkeletonMetrics standardSkeleton(const Skeleton& fitted, const Skeleton& artist, const Mesh& mesh)
{
    return skeletonMetrics(fitted.bindPositions, fitted.parents, artist.bindPositions, artist.parents, mesh.V, mesh.F);
}

json standardSkeletonJson(const SkeletonMetrics& m)
{
    return {{"cd_j2j", m.cdJ2J},          {"cd_j2b", finiteOrNull(m.cdJ2B)},
            {"cd_b2b", finiteOrNull(m.cdB2B)}, {"iou", m.iou},
            {"precision", m.precision},   {"recall", m.recall},
            {"predicted_joints", m.predictedJoints}, {"reference_joints", m.referenceJoints},
            {"mean_shape_diameter", m.meanShapeDiameter}};
}

json standardSkinJson(const std::string& method, const SkinMetrics& m)
{
    const double f1 = m.precision + m.recall > 0 ? 2 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
    return {{"method", method},
            {"precision", m.precision},
            {"recall", m.recall},
            {"f1", f1},
            {"l1", m.l1},
            {"deformation_mean", m.deformationMean},
            {"deformation_max", m.deformationMax},
            {"poses", m.poses},
            {"unweighted", m.unweighted},
            {"vertices", m.vertices}};
}

void writeRigInFileFrame(const std::string& path, const Skeleton& skeleton, const Eigen::Matrix3d& rotation,
                         const std::string& templateName)
{
    RigFile rig;
    rig.skeleton = skeleton;
    rig.skeleton.bindPositions = skeleton.bindPositions * rotation; // rows: (R^T p)^T = p^T R
    const Eigen::Quaterniond back(rotation.transpose());
    for (Eigen::Quaterniond& q : rig.skeleton.bindOrientations)
        q = (back * q).normalized();
    rig.templateName = templateName;
    writeRigFile(rig, path);
}

void writeWeightsForScorer(const std::string& path, const Skeleton& skeleton, const SkinWeights& weights,
                           std::span<const int> weldMap)
{
    const Eigen::MatrixXd W = skinWeightsForFileVertices(weights, skeleton.jointCount(), weldMap);
    json joints = json::array(), values = json::array();
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        json js = json::array(), ws = json::array();
        for (Eigen::Index j = 0; j < W.cols(); ++j)
            if (W(i, j) != 0.0) {
                js.push_back(j);
                ws.push_back(W(i, j));
            }
        joints.push_back(std::move(js));
        values.push_back(std::move(ws));
    }
    writeJsonFile(path, {{"joint_names", skeleton.names}, {"joints", joints}, {"weights", values}});
}

} // namespace rig::app
