// rigsmith evaluate, retargeting section (issue 22): the artist's own clips on the auto rig.
#include "app/cli_evaluate_retarget.h"

#include "core/common/error.h"
#include "core/eval/retarget_eval.h"
#include "core/motion/clip_file.h"
#include "core/motion/retarget.h"
#include "core/motion/skeleton_structure.h"
#include "core/project/pipeline.h"
#include "core/skin/skinning.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

namespace rig::app {
namespace {

std::string num(double v, int decimals)
{
    if (std::isnan(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string cell(std::string s, size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s + ' ';
}

/// Rig joints on the rig's arm and leg chains that no source joint drives.
std::vector<std::string> undrivenLimbJoints(const Skeleton& rig, const RetargetMapping& m)
{
    const BodyStructure body = findBodyStructure(rig.names, rig.parents, rig.bindPositions);
    std::vector<std::string> out;
    for (const auto* limbs : {&body.arms, &body.legs})
        for (const BodyLimb& l : *limbs)
            for (int j : l.chain)
                if (m.joints[static_cast<size_t>(j)].sources.empty())
                    out.push_back(rig.names[static_cast<size_t>(j)]);
    return out;
}

struct ClipScore {
    RetargetedClip clip;
    RetargetEvaluation eval;
    std::vector<std::string> undriven;
};

ClipScore scoreWith(const Mesh& mesh, const ImportedSkeleton& file, int k, const Motion& source,
                    const RetargetOptions& options, const CanonicalJointMap& artistMap, const FitResult& fitted,
                    const CanonicalJointMap& fittedMap, const SkinWeights& weights, double height)
{
    ClipScore s;
    s.clip = retargetClip(source, fitted.skeleton, options);
    s.eval = evaluateRetarget({&mesh.V, &file, k, &artistMap}, {&fitted.skeleton, &weights, &fittedMap, &s.clip}, height);
    s.undriven = undrivenLimbJoints(fitted.skeleton, s.clip.mapping);
    return s;
}

nlohmann::json scoreJson(const ClipScore& s)
{
    const RetargetEvaluation& e = s.eval;
    nlohmann::json bones = nlohmann::json::object();
    for (const BoneDirectionError& b : e.bones)
        bones[b.bone] = b.degrees;
    return {{"rest", std::string(retargetRestName(s.clip.mapping.restUsed))},
            {"driven_joints", s.clip.mapping.mappedCount()},
            {"undriven_limb_joints", s.undriven},
            {"translation_scale", s.clip.mapping.translationScale},
            {"raw_percent", e.mean.raw},
            {"aligned_percent", e.mean.aligned},
            {"unposed_raw_percent", e.mean.unposedRaw},
            {"unposed_aligned_percent", e.mean.unposedAligned},
            {"raw_ratio", e.rawRatio()},
            {"aligned_ratio", e.alignedRatio()},
            {"mean_bone_degrees", e.meanBoneDegrees},
            {"bone_degrees", bones},
            {"messages", s.clip.mapping.messages}};
}

/// One clip: retargeted by structure (now) and by the mapper before issue 22, both scored.
nlohmann::json scoreClip(const Mesh& mesh, const ImportedSkeleton& file, int k, const CanonicalJointMap& artistMap,
                         const FitResult& fitted, const CanonicalJointMap& fittedMap, const SkinWeights& weights,
                         double height)
{
    const std::string name = file.animations[static_cast<size_t>(k)].name;
    const Motion source = motionFromAnimation(file, k, "artist");
    const ClipScore now = scoreWith(mesh, file, k, source, {}, artistMap, fitted, fittedMap, weights, height);
    RetargetOptions old;
    old.rest = detectRestPose(source);
    old.structureFirst = false;
    const ClipScore before = scoreWith(mesh, file, k, source, old, artistMap, fitted, fittedMap, weights, height);
    const RetargetEvaluation& e = now.eval;
    std::cout << "    " << cell(name, 12) << cell(std::to_string(now.clip.frames.size()), 6)
              << cell(std::string(retargetRestName(now.clip.mapping.restUsed)), 6)
              << cell(std::to_string(now.clip.mapping.mappedCount()) + "/" + std::to_string(fitted.skeleton.jointCount()), 7)
              << cell(std::to_string(now.undriven.size()) + " (" + std::to_string(before.undriven.size()) + ")", 9)
              << cell(num(now.clip.mapping.translationScale, 3), 7)
              << cell(num(e.mean.raw, 2) + " / " + num(e.mean.unposedRaw, 2), 15)
              << cell(num(e.mean.aligned, 2) + " / " + num(e.mean.unposedAligned, 2), 15)
              << cell(num(e.rawRatio(), 2) + " (" + num(before.eval.rawRatio(), 2) + ")", 12)
              << cell(num(e.alignedRatio(), 2) + " (" + num(before.eval.alignedRatio(), 2) + ")", 12)
              << num(e.meanBoneDegrees, 1) << " (" << num(before.eval.meanBoneDegrees, 1) << ")\n";
    for (const std::string& msg : now.clip.mapping.messages)
        std::cout << "      " << msg << '\n';
    nlohmann::json out = scoreJson(now);
    out["animation"] = name;
    out["frames"] = now.clip.frames.size();
    out["rig_joints"] = fitted.skeleton.jointCount();
    out["before_issue_22"] = scoreJson(before);
    return out;
}

} // namespace

nlohmann::json evaluateRetargetSection(const RigProject& fittedProject, const CanonicalJointMap& artistMap, double height,
                                       const WeightOptions& weights)
{
    nlohmann::json out = nlohmann::json::array();
    const ImportedSkeleton& file = *fittedProject.character()->imported.skeleton;
    if (file.animations.empty()) {
        std::cout << "  retarget     not measured: the file has no animation\n";
        return out;
    }
    RigProject project = fittedProject;
    project.setWeightOptions(weights);
    runStages(project, Stage::Weights, Stage::Weights);
    const SkinningResult& skin = *project.skinning();
    const Mesh& mesh = project.character()->imported.mesh;
    const FitResult& fitted = *project.rig();
    const CanonicalJointMap fittedMap = mapCanonicalJoints(fitted.skeleton);
    std::string given; // the parameters given for the method (--weight-params), "" when all are defaults
    for (const auto& [key, value] : weights.valuesOf(weights.method)) {
        std::ostringstream v;
        v << value;
        given += ", " + key + " = " + v.str();
    }
    std::cout << "  retarget     the file's animations on the auto rig (" << weights.method << " weights" << given
              << "); errors % of height, ours / unposed\n"
              << "    (in brackets: the name/segment mapper before issue 22)\n"
              << "    " << cell("clip", 12) << cell("frames", 6) << cell("rest", 6) << cell("driven", 7)
              << cell("undriven", 9) << cell("scale", 7) << cell("raw", 15) << cell("aligned", 15) << cell("raw r", 12)
              << cell("align r", 12) << "bone deg\n";
    for (int k = 0; k < static_cast<int>(file.animations.size()); ++k) {
        try {
            out.push_back(scoreClip(mesh, file, k, artistMap, fitted, fittedMap, skin.weights, height));
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            const std::string name = file.animations[static_cast<size_t>(k)].name;
            std::cout << "    " << cell(name, 12) << "failed: " << e.what() << '\n';
            out.push_back({{"animation", name}, {"error", e.what()}});
        }
    }
    return out;
}

} // namespace rig::app
