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

} // namespace

int cmdEvaluate(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, evaluateValueOptions, evaluateFlagOptions, "evaluate");
    if (isEvaluateBatch(a))
        return cmdEvaluateBatch(a);
    const std::string file = needFile(a, "evaluate");
    const int resolution = parseResolution(a, "evaluate");
    // The orientation `fit` and `rig` use, so that the rig scored is the rig a user gets.
    const OrientationOptions orientation = parseOrientationArgs(a, "evaluate");
    WeightOptions weightParams; // each method's parameters (--weight-params), checked before any work
    applyWeightParams(a, "evaluate", weightParams);
    const std::vector<std::string> methodIds = parseEvaluateMethods(a, "all");

    StageTimings stages;
    RigProject project;
    OrientationResult oriented;
    {
        StageClock clock(stages);
        LoadedCharacter loaded = loadCharacter(file);
        clock.lap("load");
        oriented = orientCharacter(loaded, orientation);
        clock.lap("orient");
        if (!oriented.warning.empty())
            std::cerr << "rigsmith: warning: " << oriented.warning << '\n';
        project.setCharacter(std::make_shared<const LoadedCharacter>(std::move(loaded)));
    }
    const LoadedCharacter& c = *project.character();
    // The reference: the artist's skeleton, or for the bundled character the
    // generator's true joints (no weights to compare with then).
    const ImportedSkeleton* fileSkeleton = c.imported.skeleton ? &*c.imported.skeleton : nullptr;
    const Mesh& mesh = c.imported.mesh;
    const double height = heightAlong(mesh.V, Vec3::UnitY());
    project.setFront(oriented.front);

    // The artist's skeleton and its canonical joints.
    StageClock clock(stages);
    // A file without a skeleton is scored for the fit only (its outcome and timings): no reference.
    const bool hasReference = fileSkeleton || c.groundTruth;
    const FitResult artist = fileSkeleton  ? rigFromImportedSkeleton(*fileSkeleton)
                             : hasReference ? groundTruthRig(*c.groundTruth)
                                            : FitResult{};
    const CanonicalJointMap artistMap = hasReference ? mapCanonicalJoints(artist.skeleton) : CanonicalJointMap{};
    clock.lap("map");

    // The auto-rig, from the mesh alone (the pipeline never reads the file's skeleton).
    json fitJson;
    std::optional<FitResult> fitted;
    std::optional<JointScores> scores;
    std::array<EndLabelCheck, limbCount> labelChecks{};
    bool sidesMirrored = false; // the artist's left on the character's right (joint_score.h)
    std::string fitError;
    std::string humanoidRefusal; // what `rig` and `fit` say without --force (evaluate fits anyway)
    HumanoidCheck humanoid;
    std::optional<SkeletonMetrics> skeletonScores; // RigNet's, against the artist's skeleton
    json warnings = json::array();
    try {
        CurveSkeletonOptions so;
        so.voxelize.resolution = resolution;
        project.setCurveSkeletonOptions(so);
        auto curve = std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project));
        stages.insert(stages.end(), curve->timings.begin(), curve->timings.end());
        project.setCurveSkeleton(curve);
        humanoid = checkHumanoid(project.character()->imported.mesh, curve->refined,
                                 project.character()->imported.info.format);
        humanoidRefusal = humanoid.message();
        StageClock fitClock(stages);
        project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate("humanoid21")));
        // Fit's defaults: the rig a user gets. Before, fingers were fitted where the
        // artist's skeleton had them, a choice made from the reference (issue 39).
        const FingerOptions fingers = parseFingersArg(a, "evaluate");
        project.setFingerOptions(fingers);
        const EndNodeLabels labels = suggestLabels(project);
        fitClock.lap("label");
        fitted = fitRig(project, labels);
        project.setRig(labels, std::make_shared<const FitResult>(*fitted));
        fitClock.lap("fit");
        warnings = fitWarningsJson(project, "evaluate", &humanoid, true);
        if (const auto out = a.value("--rig-out"))
            writeRigInFileFrame(*out, fitted->skeleton, oriented.rotation, project.rigTemplate()->name);
        if (hasReference) {
            const CanonicalJointMap fittedMap = mapCanonicalJoints(fitted->skeleton);
            const JointScoreOptions frame{.up = Vec3::UnitY(), .front = oriented.front};
            // Scored by the character's own sides (joint_score.h).
            sidesMirrored = artistSidesMirrored(artist.skeleton, artistMap, frame);
            const CanonicalJointMap ownSides = sidesMirrored ? swapSides(artistMap) : artistMap;
            scores = scoreJoints(artist.skeleton, ownSides, fitted->skeleton, fittedMap, height, frame);
            labelChecks = checkEndLabels(curve->refined, labels, artist.skeleton, ownSides);
            skeletonScores = standardSkeleton(fitted->skeleton, artist.skeleton, mesh);
        }
        fitClock.lap("score");
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        fitError = e.what();
    }

    // Weights for the artist's own skeleton with each method, against the artist's.
    std::string poseSource = "none";
    const auto frames = fileSkeleton ? allAnimationFrames(*fileSkeleton, 200, poseSource)
                                     : std::vector<std::vector<Eigen::Affine3d>>{};
    struct MethodResult {
        std::string method;
        std::optional<WeightComparison> comparison;
        std::optional<SkinMetrics> standard;
        std::string error;
    };
    std::vector<MethodResult> methods;
    const std::string deformSpec = a.value("--deform-joints").value_or("auto");
    const std::vector<bool> deform = hasReference ? deformJoints(deformSpec, artist.skeleton,
                                                                 fileSkeleton ? &fileSkeleton->W : nullptr)
                                                  : std::vector<bool>{};
    json excluded = json::array();
    for (int j = 0; j < artist.skeleton.jointCount(); ++j)
        if (!deform[static_cast<size_t>(j)])
            excluded.push_back(artist.skeleton.names[static_cast<size_t>(j)]);
    const VoxelGrid* solid = project.curveSkeleton() ? &project.curveSkeleton()->solid : nullptr;
    for (const std::string& id : methodIds) { // --methods, in the table's order
        if (!fileSkeleton)
            break; // the generated character has no artist's weights
        const WeightMethod& m = findWeightMethod(id);
        MethodResult r;
        r.method = m.id;
        StageClock wclock(stages);
        try {
            WeightOptions wo = weightParams;
            wo.method = m.id;
            const SkinningResult s = computeSkinning(mesh, artist.skeleton, solid, wo, {}, deform);
            const SkinWeights w = restrictToDeformJoints(s.weights, artist.skeleton, deform);
            r.comparison = compareWeightsAnimated(mesh, artist.skeleton, w, fileSkeleton->W,
                                          std::span<const std::vector<Eigen::Affine3d>>(frames));
            r.standard = skinMetrics(mesh, artist.skeleton, w, fileSkeleton->W, c.imported.info.weldMap);
            if (const auto out = a.value("--weights-out"))
                writeWeightsForScorer(*out + "." + m.id + ".json", artist.skeleton, w, c.imported.info.weldMap);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        wclock.lap("weights_" + r.method);
        methods.push_back(std::move(r));
    }

    // The table.
    std::cout << file << ": " << mesh.vertexCount() << " vertices, height " << fixedOrDash(height, 4) << " (along +Y), "
              << artist.skeleton.jointCount() << " artist joints, resolution " << resolution << '\n'
              << "  orientation  " << oriented.summary() << '\n'
              << "  joint map    " << artistMap.convention << " (" << canonicalJointCount - artistMap.unmapped().size()
              << " of " << canonicalJointCount << " canonical joints)\n";
    std::cout << "  " << pad("canonical", 12) << pad("artist joint", 28) << pad("fitted", 14) << pad("error %", 9)
              << "offset % (left, up, front)\n";
    for (int k = 0; k < canonicalJointCount; ++k) {
        const auto cj = static_cast<CanonicalJoint>(k);
        const int aj = artistMap[cj];
        std::string artistName = aj < 0 ? "(unmapped)" : artist.skeleton.names[static_cast<size_t>(aj)];
        if (aj >= 0 && artistMap.how[static_cast<size_t>(k)] != "name")
            artistName += " *";
        std::string fittedName = "-", err = "-", off;
        if (scores) {
            const CanonicalJointScore& s = scores->joints[static_cast<size_t>(k)];
            if (s.fitted >= 0)
                fittedName = fitted->skeleton.names[static_cast<size_t>(s.fitted)];
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
    if (!artistMap.unmapped().empty()) {
        std::cout << "  unmapped     ";
        for (CanonicalJoint u : artistMap.unmapped())
            std::cout << canonicalJointKey(u) << ' ';
        std::cout << "(not scored)\n";
    }
    int labelsRight = 0, labelsKnown = 0;
    if (scores) {
        std::cout << "  joints       mean " << fixedOrDash(scores->meanPercent, 2) << "% of height, max "
                  << fixedOrDash(scores->maxPercent, 2) << "% (" << canonicalJointKey(scores->worst) << "), "
                  << scores->scored << " joints scored\n  labels       ";
        for (const EndLabelCheck& l : labelChecks) {
            labelsKnown += l.known;
            labelsRight += l.known && l.right;
            std::cout << limbKey(l.limb) << ' '
                      << (!l.known ? "?" : l.right ? "ok" : "WRONG (at " + std::string(canonicalJointKey(l.nearest)) + ")")
                      << "  ";
        }
        std::cout << "(" << labelsRight << "/" << labelsKnown << " right)\n";
        for (const std::string& note : fitted->notes)
            std::cout << "  note         " << note << '\n';
        if (!humanoidRefusal.empty())
            std::cout << "  WARNING      rig and fit refuse this character without --force: " << humanoidRefusal << '\n';
    } else if (!fitError.empty()) {
        std::cout << "  fit          FAILED: " << fitError << '\n';
    } else {
        std::cout << "  fit          no reference: the file has no skeleton, so the fit is scored for its outcome only\n";
    }
    const json outcome = outcomeJson(humanoid, fitError, warnings);
    std::cout << "  outcome      " << outcome["kind"].get<std::string>()
              << (outcome["message"].get<std::string>().empty() ? "" : ": " + outcome["message"].get<std::string>())
              << '\n';
    if (const SkeletonMetrics* m = skeletonScores ? &*skeletonScores : nullptr)
        std::cout << "  standard     CD-J2J " << fixedOrDash(m->cdJ2J, 3) << ", J2B " << fixedOrDash(m->cdJ2B, 3) << ", B2B "
                  << fixedOrDash(m->cdB2B, 3) << ", IoU " << fixedOrDash(m->iou, 1) << "%, P " << fixedOrDash(m->precision, 1)
                  << "%, R " << fixedOrDash(m->recall, 1) << "% (" << m->predictedJoints << " vs " << m->referenceJoints
                  << " joints)\n";
    const json fingersReport = hasReference ? fingerSection(artist.skeleton, fitted ? &fitted->skeleton : nullptr, height)
                                            : json(nullptr);
    if (!fileSkeleton)
        std::cout << "  weights      not compared: no reference (" << (c.groundTruth ? "the generated character" : "the file")
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

    // The file's own clips retargeted onto the auto rig (issue 22).
    const json retargetReport = fitted && fileSkeleton
                                  ? evaluateRetargetSection(mesh, *fileSkeleton, artistMap, *fitted, solid, height,
                                                            retargetWeights(a, weightParams))
                                  : json(nullptr);

    // The report.
    json jointsJson = json::array();
    if (scores)
        for (const CanonicalJointScore& s : scores->joints)
            jointsJson.push_back(
                {{"canonical", std::string(canonicalJointKey(s.joint))},
                 {"artist", s.artist < 0 ? json(nullptr) : json(artist.skeleton.names[static_cast<size_t>(s.artist)])},
                 {"fitted", s.fitted < 0 ? json(nullptr) : json(fitted->skeleton.names[static_cast<size_t>(s.fitted)])},
                 {"error_percent", numberOrNull(s.errorPercent)},
                 {"offset_percent", s.scored() ? json{s.offsetPercent.x(), s.offsetPercent.y(), s.offsetPercent.z()}
                                               : json(nullptr)},
                 {"artist_position", s.artist < 0 ? json(nullptr) : positionJson(artist.skeleton, s.artist)},
                 {"fitted_position", s.fitted < 0 ? json(nullptr) : positionJson(fitted->skeleton, s.fitted)}});
    json labelsJson = json::array();
    for (const EndLabelCheck& l : labelChecks)
        if (scores)
            labelsJson.push_back({{"label", std::string(limbKey(l.limb))},
                                  {"node", l.node},
                                  {"right", l.known ? json(l.right) : json(nullptr)},
                                  {"nearest", l.known ? json(std::string(canonicalJointKey(l.nearest))) : json(nullptr)}});
    json weightsOut = json::array(), standardSkin = json::array();
    for (const MethodResult& m : methods)
        standardSkin.push_back(m.standard ? standardSkinJson(m.method, *m.standard)
                                          : json{{"method", m.method}, {"error", m.error}});
    for (const MethodResult& m : methods) {
        json w = {{"method", m.method}};
        if (m.comparison) {
            const WeightComparison& r = *m.comparison;
            w.update({{"mean_l1", r.meanL1},
                      {"precision", r.precision},
                      {"recall", r.recall},
                      {"mean_distance_percent", r.meanDistancePercent},
                      {"max_distance_percent", r.maxDistancePercent},
                      {"poses", r.poses},
                      {"compared_vertices", r.comparedVertices},
                      {"unweighted_vertices", r.unweightedComputed}});
        } else {
            w["error"] = m.error;
        }
        weightsOut.push_back(w);
    }
    json results = {{"resolution", resolution},
                    {"outcome", outcome},
                    {"standard", {{"skeleton", skeletonScores ? standardSkeletonJson(*skeletonScores) : json(nullptr)},
                                  {"skinning", fileSkeleton ? standardSkin : json(nullptr)},
                                  {"reference", fileSkeleton ? "artist" : c.groundTruth ? "generator (joints only)" : "no reference"},
                                  {"vertices", mesh.vertexCount()}}},
                    {"height", height},
                    {"orientation", orientationJson(oriented)},
                    {"artist_joints", hasReference ? json(artist.skeleton.jointCount()) : json(nullptr)},
                    {"joint_map", {{"convention", artistMap.convention},
                                   {"mapping", mapJson(artist.skeleton, artistMap)},
                                   {"unmapped", unmappedJson(artistMap)}}},
                    {"fit", {{"succeeded", scores.has_value()},
                             {"error", fitError.empty() ? json(nullptr) : json(fitError)},
                             {"labels", project.rig() ? json(formatEndNodeLabels(project.labels())) : json(nullptr)},
                             {"warnings", warnings},
                             {"humanoid_check", humanoidRefusal.empty() ? json(nullptr) : json(humanoidRefusal)},
                             {"notes", fitted ? json(fitted->notes) : json::array()},
                             {"legs_joined_by_cloth", fitted && fitted->legsJoinedByCloth}}},
                    {"joints", jointsJson},
                    {"mean_joint_error_percent", scores ? numberOrNull(scores->meanPercent) : json(nullptr)},
                    {"max_joint_error_percent", scores ? numberOrNull(scores->maxPercent) : json(nullptr)},
                    {"worst_joint", scores ? json(std::string(canonicalJointKey(scores->worst))) : json(nullptr)},
                    {"end_labels", labelsJson},
                    {"fingers", fingersReport},
                    {"end_labels_right", scores ? json(labelsRight) : json(nullptr)},
                    {"artist_sides_mirrored", scores ? json(sidesMirrored) : json(nullptr)},
                    {"pose_source", poseSource},
                    {"deform_joints", {{"spec", deformSpec}, {"excluded", excluded}}},
                    {"weights", weightsOut},
                    {"retarget", retargetReport}};
    writeReport(a, "evaluate", file, stages, results);
    return 0;
}

} // namespace rig::app
