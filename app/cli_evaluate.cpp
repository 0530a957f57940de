// rigsmith evaluate (issue 14): a rig and weights scored against the artist's own.
#include "app/cli_common.h"
#include "app/cli_evaluate_retarget.h"
#include "app/cli_evaluate_batch.h"
#include "app/cli_evaluate_standard.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/joint_map.h"
#include "core/eval/joint_score.h"
#include "core/eval/weight_compare.h"
#include "core/import/animation_poses.h"
#include "core/project/pipeline.h"
#include "core/project/rig_project.h"
#include "core/rig/humanoid_check.h"
#include "core/skin/deform_joints.h"
#include "core/skin/skinning.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace rig::app {
namespace {

std::string pad(std::string s, size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

json numberOrNull(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

/// A joint's bind position (the oriented frame the scores use) as [x, y, z].
json positionJson(const Skeleton& s, int joint)
{
    const auto p = s.bindPositions.row(joint);
    return json{p.x(), p.y(), p.z()};
}

/// The auto rig's weights for the retarget section: --retarget-weights's
/// method (default: the product's) with the --weight-params given for it.
WeightOptions retargetWeights(const Args& a, const WeightOptions& params)
{
    WeightOptions w = params;
    w.method = a.value("--retarget-weights").value_or(WeightOptions{}.method);
    return w;
}

/// The mapping of one skeleton as JSON: canonical key -> {joint, how} (null when unmapped).
json mapJson(const Skeleton& s, const CanonicalJointMap& m)
{
    json out = json::object();
    for (int c = 0; c < canonicalJointCount; ++c) {
        const int j = m.joints[static_cast<size_t>(c)];
        const std::string key(canonicalJointKey(static_cast<CanonicalJoint>(c)));
        out[key] = j < 0 ? json(nullptr) : json{{"joint", s.names[static_cast<size_t>(j)]}, {"how", m.how[static_cast<size_t>(c)]}};
    }
    return out;
}

json unmappedJson(const CanonicalJointMap& m)
{
    json out = json::array();
    for (CanonicalJoint c : m.unmapped())
        out.push_back(std::string(canonicalJointKey(c)));
    return out;
}

/// Frames of every animation of the file with two frames or more (at most
/// `perClip` each, evenly spaced): the skinning transforms of all joints.
std::vector<std::vector<Eigen::Affine3d>> allAnimationFrames(const ImportedSkeleton& file, int perClip,
                                                             std::string& source)
{
    std::vector<std::vector<Eigen::Affine3d>> frames;
    std::vector<std::string> clips;
    for (const ImportedAnimation& anim : file.animations) {
        if (anim.frameCount() < 2)
            continue;
        auto f = animationSkinning(file, anim, perClip);
        clips.push_back("'" + anim.name + "' (" + std::to_string(f.size()) + ")");
        frames.insert(frames.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
    }
    if (clips.empty()) {
        source = std::to_string(WeightCompareOptions{}.randomPoses) + " random poses (+-45 deg)";
    } else {
        source = "file animations ";
        for (size_t k = 0; k < clips.size(); ++k)
            source += (k ? ", " : "") + clips[k];
        source += ": " + std::to_string(frames.size()) + " frames";
    }
    return frames;
}

/// The bundled character's true joints as a skeleton (the reference of `evaluate default...`).
FitResult groundTruthRig(const Humanoid& h)
{
    FitResult r;
    r.skeleton.names = h.jointNames;
    r.skeleton.parents = h.jointParents;
    r.skeleton.bindPositions = h.joints;
    r.skeleton.bindOrientations.assign(h.jointNames.size(), Eigen::Quaterniond::Identity());
    r.jointNode.assign(h.jointNames.size(), -1);
    return r;
}

/// The finger joints of the fitted rig against the artist's (issue 18): per
/// finger the artist has, the distance of the fitted finger's last joint (its
/// tip joint) and first joint (knuckle) from the artist's, in % of height.
/// Prints the table and returns the report's "fingers" object.
json fingerSection(const Skeleton& artist, const Skeleton* fitted, double height)
{
    const FingerJointMap a = mapFingerJoints(artist);
    const FingerJointMap f = fitted ? mapFingerJoints(*fitted) : FingerJointMap{};
    json rows = json::array();
    double sum = 0.0, worst = 0.0;
    int scored = 0;
    auto distance = [&](int aj, int fj) {
        return 100.0 * (artist.bindPositions.row(aj) - fitted->bindPositions.row(fj)).norm() / height;
    };
    for (int side = 0; side < 2; ++side)
        for (int finger = 0; finger < 5; ++finger) {
            const auto& ac = a.chains[static_cast<size_t>(side)][static_cast<size_t>(finger)];
            if (ac.empty())
                continue;
            const auto& fc = f.chains[static_cast<size_t>(side)][static_cast<size_t>(finger)];
            json row = {{"side", side == 0 ? "l" : "r"},
                        {"finger", std::string(fingerKey(finger))},
                        {"artist_tip", artist.names[static_cast<size_t>(ac.back())]},
                        {"fitted_tip", fc.empty() ? json(nullptr) : json(fitted->names[static_cast<size_t>(fc.back())])},
                        {"tip_error_percent", nullptr},
                        {"knuckle_error_percent", nullptr}};
            if (!fc.empty()) {
                const double tip = distance(ac.back(), fc.back());
                row["tip_error_percent"] = tip;
                row["knuckle_error_percent"] = distance(ac.front(), fc.front());
                sum += tip;
                worst = std::max(worst, tip);
                ++scored;
            }
            rows.push_back(row);
        }
    if (rows.empty())
        return {{"artist_fingers", json::array({0, 0})}, {"joints", rows}};
    std::cout << "  fingers      artist " << a.fingers(0) << " + " << a.fingers(1) << ", fitted "
              << f.fingers(0) << " + " << f.fingers(1) << " (left + right)\n"
              << "    " << pad("finger", 10) << pad("artist tip joint", 24) << pad("fitted", 18) << pad("tip %", 8)
              << "knuckle %\n";
    for (const json& r : rows)
        std::cout << "    " << pad(r["side"].get<std::string>() + "_" + r["finger"].get<std::string>(), 10)
                  << pad(r["artist_tip"].get<std::string>(), 24)
                  << pad(r["fitted_tip"].is_null() ? "-" : r["fitted_tip"].get<std::string>(), 18)
                  << pad(r["tip_error_percent"].is_null() ? "-" : fixedOrDash(r["tip_error_percent"].get<double>(), 2), 8)
                  << (r["knuckle_error_percent"].is_null() ? "-" : fixedOrDash(r["knuckle_error_percent"].get<double>(), 2))
                  << '\n';
    if (scored > 0)
        std::cout << "    tip joints mean " << fixedOrDash(sum / scored, 2) << "% of height, max " << fixedOrDash(worst, 2) << "%, "
                  << scored << " fingers scored\n";
    return {{"artist_fingers", json::array({a.fingers(0), a.fingers(1)})},
            {"fitted_fingers", json::array({f.fingers(0), f.fingers(1)})},
            {"joints", rows},
            {"scored", scored},
            {"mean_tip_error_percent", scored ? json(sum / scored) : json(nullptr)},
            {"max_tip_error_percent", scored ? json(worst) : json(nullptr)}};
}

/// The artist's skeleton and its canonical joints: the reference the fit is
/// scored against (for the bundled character the generator's true joints).
struct Reference {
    const ImportedSkeleton* file = nullptr; ///< The artist's skeleton and weights; null for the generated character.
    bool exists = false;                    ///< A file skeleton or the generator's joints.
    FitResult artist;
    CanonicalJointMap map;
};

Reference referenceOf(const LoadedCharacter& c)
{
    Reference r;
    r.file = c.imported.skeleton ? &*c.imported.skeleton : nullptr;
    r.exists = r.file || c.groundTruth;
    r.artist = r.file ? rigFromImportedSkeleton(*r.file) : r.exists ? groundTruthRig(*c.groundTruth) : FitResult{};
    r.map = r.exists ? mapCanonicalJoints(r.artist.skeleton) : CanonicalJointMap{};
    return r;
}

/// The auto-rig as `fit` gives it, and its scores against the reference.
struct FitScore {
    std::optional<FitResult> fitted;
    std::optional<JointScores> scores;
    std::array<EndLabelCheck, limbCount> labels{};
    bool sidesMirrored = false; ///< The artist's left on the character's right (joint_score.h).
    std::string error;          ///< The labelling's or the fit's own message (reports count it).
    HumanoidCheck humanoid;
    std::string refusal; ///< What `rig` and `fit` say without --force (evaluate fits anyway).
    std::optional<SkeletonMetrics> standard; ///< RigNet's, against the artist's skeleton.
    json warnings = json::array();
};

/// The skeleton and rig stages of core on `project`, with fit's defaults and
/// without the humanoid refusal; then the scores.
FitScore fitAndScore(const Args& a, RigProject& project, const Reference& ref, double height, StageTimings& stages)
{
    FitScore f;
    project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate("humanoid21")));
    // Fit's defaults: the rig a user gets. Before, fingers were fitted where the
    // artist's skeleton had them, a choice made from the reference (issue 39).
    project.setFingerOptions(parseFingersArg(a, "evaluate"));
    project.setRequireHumanoid(false);
    try {
        try {
            const StageTimings t = runStages(project, Stage::Skeleton, Stage::Rig);
            stages.insert(stages.end(), t.begin(), t.end());
        } catch (const AutoRigFailed& e) {
            f.error = e.reason; // as the summary counts it
        }
        if (const auto& check = project.humanoidCheck()) {
            f.humanoid = *check;
            f.refusal = check->message();
        }
        if (!project.rig())
            return f;
        StageClock clock(stages);
        f.fitted = *project.rig();
        f.warnings = fitWarningsJson(project, "evaluate", &f.humanoid, true);
        const OrientationResult& oriented = project.orientationResult();
        if (const auto out = a.value("--rig-out"))
            writeRigInFileFrame(*out, f.fitted->skeleton, oriented.rotation, project.rigTemplate()->name);
        if (ref.exists) {
            const CanonicalJointMap fittedMap = mapCanonicalJoints(f.fitted->skeleton);
            const JointScoreOptions frame{.up = Vec3::UnitY(), .front = oriented.front};
            // Scored by the character's own sides (joint_score.h).
            f.sidesMirrored = artistSidesMirrored(ref.artist.skeleton, ref.map, frame);
            const CanonicalJointMap ownSides = f.sidesMirrored ? swapSides(ref.map) : ref.map;
            f.scores = scoreJoints(ref.artist.skeleton, ownSides, f.fitted->skeleton, fittedMap, height, frame);
            f.labels = checkEndLabels(project.curveSkeleton()->refined, project.labels(), ref.artist.skeleton, ownSides);
            f.standard = standardSkeleton(f.fitted->skeleton, ref.artist.skeleton, project.character()->imported.mesh);
        }
        clock.lap("score");
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        f.error = e.what();
    }
    return f;
}

struct MethodResult {
    std::string method;
    std::optional<WeightComparison> comparison;
    std::optional<SkinMetrics> standard;
    std::string error;
};

/// The weights of each method of `methodIds` on the artist's own skeleton
/// (core's weights stage with the file's skeleton), against the artist's.
std::vector<MethodResult> weighMethods(const Args& a, const RigProject& fitted, const Reference& ref,
                                       const std::vector<std::string>& methodIds, const WeightOptions& params,
                                       const std::vector<std::vector<Eigen::Affine3d>>& frames, StageTimings& stages)
{
    std::vector<MethodResult> methods;
    if (!ref.file)
        return methods; // the generated character has no artist's weights
    RigProject project = fitted;
    project.setRigSource(RigSource::FileSkeleton);
    project.setDeformJoints(a.value("--deform-joints").value_or("auto"));
    const LoadedCharacter& c = *project.character();
    for (const std::string& id : methodIds) { // --methods, in the table's order
        MethodResult r;
        r.method = findWeightMethod(id).id;
        StageClock clock(stages);
        try {
            WeightOptions wo = params;
            wo.method = r.method;
            project.setWeightOptions(wo);
            runStages(project, Stage::Rig, Stage::Weights);
            const SkinWeights& w = project.skinning()->weights;
            r.comparison = compareWeightsAnimated(c.imported.mesh, ref.artist.skeleton, w, ref.file->W,
                                                  std::span<const std::vector<Eigen::Affine3d>>(frames));
            r.standard = skinMetrics(c.imported.mesh, ref.artist.skeleton, w, ref.file->W, c.imported.info.weldMap);
            if (const auto out = a.value("--weights-out"))
                writeWeightsForScorer(*out + "." + r.method + ".json", ref.artist.skeleton, w, c.imported.info.weldMap);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        clock.lap("weights_" + r.method);
        methods.push_back(std::move(r));
    }
    return methods;
}

/// The joints table, the labels and the fit's outcome on stdout.
void printFit(const Reference& ref, const FitScore& f, const json& outcome)
{
    const Skeleton& artist = ref.artist.skeleton;
    std::cout << "  " << pad("canonical", 12) << pad("artist joint", 28) << pad("fitted", 14) << pad("error %", 9)
              << "offset % (left, up, front)\n";
    for (int k = 0; k < canonicalJointCount; ++k) {
        const auto cj = static_cast<CanonicalJoint>(k);
        const int aj = ref.map[cj];
        std::string artistName = aj < 0 ? "(unmapped)" : artist.names[static_cast<size_t>(aj)];
        if (aj >= 0 && ref.map.how[static_cast<size_t>(k)] != "name")
            artistName += " *";
        std::string fittedName = "-", err = "-", off;
        if (f.scores) {
            const CanonicalJointScore& s = f.scores->joints[static_cast<size_t>(k)];
            if (s.fitted >= 0)
                fittedName = f.fitted->skeleton.names[static_cast<size_t>(s.fitted)];
            if (s.scored()) {
                err = fixedOrDash(s.errorPercent, 2);
                off = fixedOrDash(s.offsetPercent.x(), 2) + ", " + fixedOrDash(s.offsetPercent.y(), 2) + ", " +
                      fixedOrDash(s.offsetPercent.z(), 2);
            }
        }
        std::cout << "  " << pad(std::string(canonicalJointKey(cj)), 12) << pad(artistName, 28) << pad(fittedName, 14)
                  << pad(err, 9) << off << '\n';
    }
    std::cout << "  (* found by hierarchy shape, not by name)\n";
    if (!ref.map.unmapped().empty()) {
        std::cout << "  unmapped     ";
        for (CanonicalJoint u : ref.map.unmapped())
            std::cout << canonicalJointKey(u) << ' ';
        std::cout << "(not scored)\n";
    }
    if (f.scores) {
        std::cout << "  joints       mean " << fixedOrDash(f.scores->meanPercent, 2) << "% of height, max "
                  << fixedOrDash(f.scores->maxPercent, 2) << "% (" << canonicalJointKey(f.scores->worst) << "), "
                  << f.scores->scored << " joints scored\n  labels       ";
        int right = 0, known = 0;
        for (const EndLabelCheck& l : f.labels) {
            known += l.known;
            right += l.known && l.right;
            std::cout << limbKey(l.limb) << ' '
                      << (!l.known ? "?" : l.right ? "ok" : "WRONG (at " + std::string(canonicalJointKey(l.nearest)) + ")")
                      << "  ";
        }
        std::cout << "(" << right << "/" << known << " right)\n";
        for (const std::string& note : f.fitted->notes)
            std::cout << "  note         " << note << '\n';
        if (!f.refusal.empty())
            std::cout << "  WARNING      rig and fit refuse this character without --force: " << f.refusal << '\n';
    } else if (!f.error.empty()) {
        std::cout << "  fit          FAILED: " << f.error << '\n';
    } else {
        std::cout << "  fit          no reference: the file has no skeleton, so the fit is scored for its outcome only\n";
    }
    std::cout << "  outcome      " << outcome["kind"].get<std::string>()
              << (outcome["message"].get<std::string>().empty() ? "" : ": " + outcome["message"].get<std::string>())
              << '\n';
    if (const SkeletonMetrics* m = f.standard ? &*f.standard : nullptr)
        std::cout << "  standard     CD-J2J " << fixedOrDash(m->cdJ2J, 3) << ", J2B " << fixedOrDash(m->cdJ2B, 3) << ", B2B "
                  << fixedOrDash(m->cdB2B, 3) << ", IoU " << fixedOrDash(m->iou, 1) << "%, P " << fixedOrDash(m->precision, 1)
                  << "%, R " << fixedOrDash(m->recall, 1) << "% (" << m->predictedJoints << " vs " << m->referenceJoints
                  << " joints)\n";
}

/// The weight tables on stdout.
void printWeights(const Reference& ref, bool generated, const std::string& deformSpec, const json& excluded,
                  const std::string& poseSource, const std::vector<MethodResult>& methods)
{
    if (!ref.file)
        std::cout << "  weights      not compared: no reference (" << (generated ? "the generated character" : "the file")
                  << " has no artist's weights)\n";
    else
        std::cout << "  deform       " << deformSpec << ": " << excluded.size() << " joints get no weight "
                  << excluded.dump() << '\n'
                  << "  weights over " << poseSource << '\n'
                  << "    " << pad("method", 16) << pad("L1", 8) << pad("prec %", 8) << pad("recall %", 10)
                  << pad("mean d %", 10) << pad("max d %", 10) << "unweighted\n";
    for (const MethodResult& m : methods) {
        if (!m.comparison) {
            std::cout << "    " << pad(m.method, 16) << "failed: " << m.error << '\n';
            continue;
        }
        const WeightComparison& w = *m.comparison;
        std::cout << "    " << pad(m.method, 16) << pad(fixedOrDash(w.meanL1, 3), 8) << pad(fixedOrDash(100 * w.precision, 1), 8)
                  << pad(fixedOrDash(100 * w.recall, 1), 10) << pad(fixedOrDash(w.meanDistancePercent, 3), 10)
                  << pad(fixedOrDash(w.maxDistancePercent, 3), 10) << w.unweightedComputed << '\n';
    }
    if (!methods.empty())
        std::cout << "  standard skinning (file vertices; deformation in % of the longest side, 20 seeded poses)\n"
                  << "    " << pad("method", 16) << pad("prec %", 8) << pad("recall %", 10) << pad("L1", 8)
                  << pad("mean d %", 10) << "max d %\n";
    for (const MethodResult& m : methods)
        if (m.standard)
            std::cout << "    " << pad(m.method, 16) << pad(fixedOrDash(m.standard->precision, 1), 8)
                      << pad(fixedOrDash(m.standard->recall, 1), 10) << pad(fixedOrDash(m.standard->l1, 3), 8)
                      << pad(fixedOrDash(m.standard->deformationMean, 3), 10) << fixedOrDash(m.standard->deformationMax, 3) << '\n';
}

/// The report's "joints" and "end_labels" arrays.
std::pair<json, json> jointsAndLabelsJson(const Reference& ref, const FitScore& f)
{
    json joints = json::array(), labels = json::array();
    if (!f.scores)
        return {joints, labels};
    const Skeleton& artist = ref.artist.skeleton;
    for (const CanonicalJointScore& s : f.scores->joints)
        joints.push_back(
            {{"canonical", std::string(canonicalJointKey(s.joint))},
             {"artist", s.artist < 0 ? json(nullptr) : json(artist.names[static_cast<size_t>(s.artist)])},
             {"fitted", s.fitted < 0 ? json(nullptr) : json(f.fitted->skeleton.names[static_cast<size_t>(s.fitted)])},
             {"error_percent", numberOrNull(s.errorPercent)},
             {"offset_percent", s.scored() ? json{s.offsetPercent.x(), s.offsetPercent.y(), s.offsetPercent.z()}
                                           : json(nullptr)},
             {"artist_position", s.artist < 0 ? json(nullptr) : positionJson(artist, s.artist)},
             {"fitted_position", s.fitted < 0 ? json(nullptr) : positionJson(f.fitted->skeleton, s.fitted)}});
    for (const EndLabelCheck& l : f.labels)
        labels.push_back({{"label", std::string(limbKey(l.limb))},
                          {"node", l.node},
                          {"right", l.known ? json(l.right) : json(nullptr)},
                          {"nearest", l.known ? json(std::string(canonicalJointKey(l.nearest))) : json(nullptr)}});
    return {joints, labels};
}

/// The report's "weights" and "standard.skinning" arrays.
std::pair<json, json> methodsJson(const std::vector<MethodResult>& methods)
{
    json weights = json::array(), standard = json::array();
    for (const MethodResult& m : methods) {
        standard.push_back(m.standard ? standardSkinJson(m.method, *m.standard)
                                      : json{{"method", m.method}, {"error", m.error}});
        json w = {{"method", m.method}};
        if (const WeightComparison* r = m.comparison ? &*m.comparison : nullptr)
            w.update({{"mean_l1", r->meanL1},
                      {"precision", r->precision},
                      {"recall", r->recall},
                      {"mean_distance_percent", r->meanDistancePercent},
                      {"max_distance_percent", r->maxDistancePercent},
                      {"poses", r->poses},
                      {"compared_vertices", r->comparedVertices},
                      {"unweighted_vertices", r->unweightedComputed}});
        else
            w["error"] = m.error;
        weights.push_back(w);
    }
    return {weights, standard};
}

/// The report's "fit" object.
json fitJson(const RigProject& project, const FitScore& f)
{
    return {{"succeeded", f.scores.has_value()},
            {"error", f.error.empty() ? json(nullptr) : json(f.error)},
            {"labels", project.rig() ? json(formatEndNodeLabels(project.labels())) : json(nullptr)},
            {"warnings", f.warnings},
            {"humanoid_check", f.refusal.empty() ? json(nullptr) : json(f.refusal)},
            {"notes", f.fitted ? json(f.fitted->notes) : json::array()},
            {"legs_joined_by_cloth", f.fitted && f.fitted->legsJoinedByCloth}};
}

int endLabelsRight(const FitScore& f)
{
    int right = 0;
    for (const EndLabelCheck& l : f.labels)
        right += l.known && l.right;
    return right;
}

} // namespace

int cmdEvaluate(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, evaluateValueOptions, evaluateFlagOptions, "evaluate");
    if (isEvaluateBatch(a))
        return cmdEvaluateBatch(a);
    const std::string file = needFile(a, "evaluate");
    const int resolution = parseResolution(a, "evaluate");
    WeightOptions weightParams; // each method's parameters (--weight-params), checked before any work
    applyWeightParams(a, "evaluate", weightParams);
    const std::vector<std::string> methodIds = parseEvaluateMethods(a, "all");

    // 1. The character, loaded and oriented as `fit` and `rig` do it: the rig scored is the rig a user gets.
    RigProject project = projectFor(file, resolution, parseOrientationArgs(a, "evaluate"));
    StageTimings stages = runStages(project, Stage::Load, Stage::Load);
    printLoadWarnings(project);
    const LoadedCharacter& c = *project.character();
    const Mesh& mesh = c.imported.mesh;
    const double height = heightAlong(mesh.V, Vec3::UnitY());
    const OrientationResult& oriented = project.orientationResult();

    // 2. The reference: the artist's skeleton (a file without one is scored for the fit's outcome only).
    StageClock clock(stages);
    const Reference ref = referenceOf(c);
    clock.lap("map");

    // 3. The auto-rig from the mesh alone (the pipeline never reads the file's skeleton), scored.
    const FitScore fit = fitAndScore(a, project, ref, height, stages);

    // 4. Weights for the artist's own skeleton with each method, against the artist's.
    std::string poseSource = "none";
    const auto frames = ref.file ? allAnimationFrames(*ref.file, 200, poseSource)
                                 : std::vector<std::vector<Eigen::Affine3d>>{};
    const std::string deformSpec = a.value("--deform-joints").value_or("auto");
    const std::vector<bool> deform = ref.exists ? deformJoints(deformSpec, ref.artist.skeleton,
                                                               ref.file ? &ref.file->W : nullptr)
                                                : std::vector<bool>{};
    json excluded = json::array();
    for (int j = 0; j < ref.artist.skeleton.jointCount(); ++j)
        if (!deform[static_cast<size_t>(j)])
            excluded.push_back(ref.artist.skeleton.names[static_cast<size_t>(j)]);
    const std::vector<MethodResult> methods = weighMethods(a, project, ref, methodIds, weightParams, frames, stages);

    // 5. The table.
    std::cout << file << ": " << mesh.vertexCount() << " vertices, height " << fixedOrDash(height, 4) << " (along +Y), "
              << ref.artist.skeleton.jointCount() << " artist joints, resolution " << resolution << '\n'
              << "  orientation  " << oriented.summary() << '\n'
              << "  joint map    " << ref.map.convention << " (" << canonicalJointCount - ref.map.unmapped().size()
              << " of " << canonicalJointCount << " canonical joints)\n";
    const json outcome = outcomeJson(fit.humanoid, fit.error, fit.warnings);
    printFit(ref, fit, outcome);
    const json fingersReport = ref.exists ? fingerSection(ref.artist.skeleton, fit.fitted ? &fit.fitted->skeleton : nullptr,
                                                          height)
                                          : json(nullptr);
    printWeights(ref, c.groundTruth.has_value(), deformSpec, excluded, poseSource, methods);

    // 6. The file's own clips retargeted onto the auto rig (issue 22).
    const json retargetReport = fit.fitted && ref.file ? evaluateRetargetSection(project, ref.map, height,
                                                                                 retargetWeights(a, weightParams))
                                                       : json(nullptr);

    // 7. The report.
    const auto [jointsJson, labelsJson] = jointsAndLabelsJson(ref, fit);
    const auto [weightsOut, standardSkin] = methodsJson(methods);
    json results = {{"resolution", resolution},
                    {"outcome", outcome},
                    {"standard", {{"skeleton", fit.standard ? standardSkeletonJson(*fit.standard) : json(nullptr)},
                                  {"skinning", ref.file ? standardSkin : json(nullptr)},
                                  {"reference", ref.file ? "artist" : c.groundTruth ? "generator (joints only)" : "no reference"},
                                  {"vertices", mesh.vertexCount()}}},
                    {"height", height},
                    {"orientation", orientationJson(oriented)},
                    {"artist_joints", ref.exists ? json(ref.artist.skeleton.jointCount()) : json(nullptr)},
                    {"joint_map", {{"convention", ref.map.convention},
                                   {"mapping", mapJson(ref.artist.skeleton, ref.map)},
                                   {"unmapped", unmappedJson(ref.map)}}},
                    {"fit", fitJson(project, fit)},
                    {"joints", jointsJson},
                    {"mean_joint_error_percent", fit.scores ? numberOrNull(fit.scores->meanPercent) : json(nullptr)},
                    {"max_joint_error_percent", fit.scores ? numberOrNull(fit.scores->maxPercent) : json(nullptr)},
                    {"worst_joint", fit.scores ? json(std::string(canonicalJointKey(fit.scores->worst))) : json(nullptr)},
                    {"end_labels", labelsJson},
                    {"fingers", fingersReport},
                    {"end_labels_right", fit.scores ? json(endLabelsRight(fit)) : json(nullptr)},
                    {"artist_sides_mirrored", fit.scores ? json(fit.sidesMirrored) : json(nullptr)},
                    {"pose_source", poseSource},
                    {"deform_joints", {{"spec", deformSpec}, {"excluded", excluded}}},
                    {"weights", weightsOut},
                    {"retarget", retargetReport}};
    writeReport(a, "evaluate", file, stages, results);
    return 0;
}

} // namespace rig::app
