#include "core/project/rig_project.h"

#include "core/skeleton/humanoid_ends.h"

#include "core/common/error.h"
#include "core/motion/bvh_file.h"
#include "core/motion/clip_file.h"
#include "core/skin/deform_joints.h"

#include <Eigen/SVD>

#include <algorithm>
#include <filesystem>

namespace rig {

void RigProject::setCharacterSpec(const std::string& spec)
{
    if (spec == m_characterSpec)
        return;
    m_characterSpec = spec;
    m_requestedLabels = {};
    m_partBindings.clear();
    setCharacter(nullptr);
}

void RigProject::setOrientation(const OrientationOptions& options)
{
    if (options == m_orientation)
        return;
    m_orientation = options;
    setCharacter(nullptr);
}

void RigProject::setRigSource(RigSource source)
{
    if (source == m_rigSource)
        return;
    m_rigSource = source;
    setRig({}, nullptr);
}

void RigProject::setFingerOptions(const FingerOptions& options)
{
    if (options == m_fingerOptions)
        return;
    m_fingerOptions = options;
    setRig(m_labels, nullptr);
}

void RigProject::setDeformer(std::string_view id) { m_deformer = findDeformer(id).id; }

void RigProject::setLabels(const EndNodeLabels& labels)
{
    m_requestedLabels = labels;
    setRig({}, nullptr);
}

void RigProject::setWeightOptions(const WeightOptions& options)
{
    m_weightOptions = options;
    ++m_weightOptionsRevision;
}

void RigProject::setPartBindings(const std::vector<PartBinding>& bindings)
{
    m_partBindings = bindings;
    ++m_weightOptionsRevision;
}

void RigProject::setClipPath(const std::string& path)
{
    if (path == m_clipPath)
        return;
    m_clipPath = path;
    m_clip.reset();
    m_clipRig.reset();
}

void RigProject::setClip(std::shared_ptr<const LoadedClip> clip)
{
    m_clip = std::move(clip);
    m_clipPath = m_clip ? m_clip->path : std::string();
    m_clipRig = m_clip ? m_rig : nullptr;
}

void RigProject::setCharacter(std::shared_ptr<const LoadedCharacter> character)
{
    if (character)
        m_characterSpec = character->source;
    m_character = std::move(character);
    m_curveSkeleton.reset();
    m_humanoidCheck.reset();
    m_labels = {};
    m_rig.reset();
    m_skinning.reset();
    m_clip.reset(); // the clip path stays: the clip stage retargets it onto the new character
    m_clipRig.reset();
}

void RigProject::setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton)
{
    m_curveSkeleton = std::move(skeleton);
    m_humanoidCheck.reset();
    m_labels = {};
    m_rig.reset();
    m_skinning.reset();
}

void RigProject::setRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig)
{
    m_labels = labels;
    m_rig = std::move(rig);
    m_skinning.reset();
}

SkinningResult computeSkinning(const RigProject& project, const Progress& progress)
{
    if (!project.character())
        throw InvalidInput("rig::computeSkinning(): no character loaded; open one first");
    if (!project.rig())
        throw InvalidInput("rig::computeSkinning(): no rig yet; label the end nodes and fit the skeleton first");
    const VoxelGrid* solid = project.curveSkeleton() ? &project.curveSkeleton()->solid : nullptr;
    const Skeleton& s = project.rig()->skeleton;
    const auto& imported = project.character()->imported.skeleton;
    // A file's own skeleton: only the joints that deform have bones (tags, IK goals and attachments none).
    const std::vector<bool> deforming = project.rigSource() == RigSource::FileSkeleton && imported
                                            ? deformJoints(project.deformJoints(), s, &imported->W)
                                            : std::vector<bool>{};
    return computeSkinning(project.character()->imported.mesh, s, solid, project.weightOptions(), progress, deforming);
}

LoadedClip loadClip(const RigProject& project, const std::string& path, const RetargetOptions& options,
                    const Progress& progress)
{
    if (!project.rig())
        throw InvalidInput("cannot play '" + path + "' yet: fit a rig first (the clip is retargeted onto it)");
    LoadedClip clip;
    clip.path = path;
    clip.name = std::filesystem::path(path).filename().string();
    clip.source = readClipFile(path, {}, progress).motion; // BVH, or any rigged and animated file (issue 22)
    clip.retargeted = retargetClip(clip.source, project.rig()->skeleton, options, progress);
    clip.retargeted.name = clip.name;
    return clip;
}

LoadedClip retargetLoadedClip(const RigProject& project, const LoadedClip& clip, const RetargetOptions& options,
                              const Progress& progress)
{
    if (!project.rig())
        throw InvalidInput("cannot retarget '" + clip.path + "': fit a rig first");
    LoadedClip out;
    out.path = clip.path;
    out.name = clip.name;
    out.source = clip.source;
    // The artist's corrections of the mapping survive a rig edit (same joints).
    const RetargetMapping& m = clip.retargeted.mapping;
    const bool edited = std::any_of(m.joints.begin(), m.joints.end(),
                                    [](const JointRetarget& j) { return j.match == RetargetMatch::User; });
    if (edited && m.targetNames == project.rig()->skeleton.names)
        out.retargeted = retargetClip(clip.source, project.rig()->skeleton, m, options, progress);
    else
        out.retargeted = retargetClip(clip.source, project.rig()->skeleton, options, progress);
    out.retargeted.name = clip.name;
    return out;
}

RigTemplate resolveTemplate(const std::string& spec)
{
    std::string ext = std::filesystem::path(spec).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".bvh")
        return templateFromSkeleton(motionSkeleton(readBvh(spec)), std::filesystem::path(spec).filename().string());
    if (ext == ".json")
        return loadTemplate(spec);
    return builtinTemplate(spec);
}

FitResult fitRig(const RigProject& project, const EndNodeLabels& labels)
{
    if (!project.curveSkeleton())
        throw InvalidInput("rig::fitRig(): no curve skeleton yet; build it first");
    RigTemplate t = project.rigTemplate() ? *project.rigTemplate() : builtinTemplate("humanoid21");
    const FingerOptions& fingers = project.fingerOptions();
    if (fingers.mode != FingerMode::None && t.name == "humanoid21" && !hasFingers(t))
        t = builtinTemplate("humanoid51");
    FitOptions options;
    options.front = project.front();
    if (!project.character())
        return fitTemplate(project.curveSkeleton()->refined, labels, t, options);
    return fitWithFingers(project.curveSkeleton()->refined, labels, t, project.character()->imported.mesh, options,
                          fingers);
}

EndNodeLabels suggestLabels(const RigProject& project)
{
    if (!project.curveSkeleton())
        throw InvalidInput("rig::suggestLabels(): no curve skeleton yet; build it first");
    LabelOptions options;
    options.front = project.front();
    const CurveSkeleton& s = project.curveSkeleton()->refined;
    // The five ends of the body found among all the ends (issue 39), else the
    // highest, the two lowest and the two most lateral.
    if (project.character()) {
        const MatrixX3d& V = project.character()->imported.mesh.V;
        HumanoidEndsOptions bo;
        bo.front = options.front;
        if (V.rows() > 0)
            if (const auto body = findHumanoidEnds(s, V.col(1).minCoeff(), V.col(1).maxCoeff() - V.col(1).minCoeff(), bo))
                return body->labels;
    }
    return suggestEndNodeLabels(s, options);
}

Vec3 parseFacing(const std::string& text)
{
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    if (t == "+z" || t == "z")
        return Vec3::UnitZ();
    if (t == "-z")
        return -Vec3::UnitZ();
    if (t == "+x" || t == "x")
        return Vec3::UnitX();
    if (t == "-x")
        return -Vec3::UnitX();
    throw InvalidInput("facing direction '" + text + "' not understood; use +z, -z, +x or -x");
}

std::optional<int> mirrorJoint(const Skeleton& skeleton, int joint)
{
    const std::string& name = skeleton.names.at(static_cast<size_t>(joint));
    for (const auto& [a, b] : {std::pair<std::string, std::string>{"Left", "Right"}, {"Right", "Left"}}) {
        if (const auto pos = name.find(a); pos != std::string::npos) {
            std::string other = name;
            other.replace(pos, a.size(), b);
            return skeleton.find(other);
        }
    }
    return std::nullopt;
}

FitResult rigFromImportedSkeleton(const ImportedSkeleton& s)
{
    const std::string fn = "rig::rigFromImportedSkeleton(): ";
    const size_t n = s.names.size();
    if (n == 0)
        throw InvalidInput(fn + "the file's skeleton has no joints");
    if (s.parents.size() != n || s.bindGlobal.size() != n)
        throw InvalidInput(fn + "the skeleton's names, parents and bind matrices differ in size");
    FitResult r;
    Skeleton& k = r.skeleton;
    k.names = s.names;
    k.parents = s.parents;
    k.bindPositions.resize(static_cast<Eigen::Index>(n), 3);
    for (size_t j = 0; j < n; ++j) {
        const Eigen::Matrix4d& m = s.bindGlobal[j];
        if (!m.allFinite())
            throw InvalidInput(fn + "joint '" + s.names[j] + "' has a non-finite bind matrix");
        const int p = s.parents[j];
        if (p >= static_cast<int>(j) || p < -1)
            throw InvalidInput(fn + "joint '" + s.names[j] + "' has parent " + std::to_string(p) +
                               "; parents must come before their children");
        if (j > 0 && p < 0)
            k.parents[j] = 0; // an extra root: hang it from the first
        k.bindPositions.row(static_cast<Eigen::Index>(j)) = m.block<3, 1>(0, 3).transpose();
        // Polar decomposition: the rotation nearest to the linear part.
        const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m.block<3, 3>(0, 0), Eigen::ComputeFullU | Eigen::ComputeFullV);
        Eigen::Matrix3d rot = svd.matrixU() * svd.matrixV().transpose();
        if (rot.determinant() < 0.0) { // a mirrored bind: flip the weakest axis
            Eigen::Matrix3d u = svd.matrixU();
            u.col(2) *= -1.0;
            rot = u * svd.matrixV().transpose();
        }
        k.bindOrientations.push_back(Eigen::Quaterniond(rot).normalized());
    }
    try {
        validateSkeleton(k);
    } catch (const InvalidInput& e) {
        throw InvalidInput(fn + e.what());
    }
    r.jointNode.assign(n, -1);
    r.front = Vec3::UnitZ();
    return r;
}

FitResult moveJoint(const FitResult& rig, int joint, const Vec3& position, bool mirror)
{
    if (joint < 0 || joint >= rig.skeleton.jointCount())
        throw InvalidInput("rig::moveJoint(): joint " + std::to_string(joint) + " does not exist");
    if (!position.allFinite())
        throw InvalidInput("rig::moveJoint(): the new position is not finite");
    FitResult out = rig;
    out.skeleton.bindPositions.row(joint) = position.transpose();
    out.jointNode[static_cast<size_t>(joint)] = -1; // moved by hand: no longer tied to a node
    if (mirror) {
        if (const auto other = mirrorJoint(rig.skeleton, joint); other && *other != joint) {
            const double cx = rig.skeleton.bindPositions(0, 0); // mirror plane through the hips
            Vec3 m = position;
            m.x() = 2.0 * cx - position.x();
            out.skeleton.bindPositions.row(*other) = m.transpose();
            out.jointNode[static_cast<size_t>(*other)] = -1;
        }
    }
    orientBones(out.skeleton, {.up = Vec3::UnitY(), .front = rig.front});
    return out;
}

CurveSkeletonResult computeCurveSkeleton(const RigProject& project, const Progress& progress)
{
    if (!project.hasCharacter())
        throw InvalidInput("rig::computeCurveSkeleton(): no character is loaded; open one first");
    CurveSkeletonOptions options = project.curveSkeletonOptions();
    options.fill.watertight = project.character()->stats.watertight; // read on load (meshStats())
    return extractCurveSkeleton(project.character()->imported.mesh, options, progress);
}

} // namespace rig
