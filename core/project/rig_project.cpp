#include "core/project/rig_project.h"

#include "core/common/error.h"
#include "core/motion/bvh_file.h"

#include <algorithm>
#include <filesystem>

namespace rig {

void RigProject::setCharacter(std::shared_ptr<const LoadedCharacter> character)
{
    m_character = std::move(character);
    m_curveSkeleton.reset();
}

void RigProject::setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton)
{
    m_curveSkeleton = std::move(skeleton);
    m_labels = {};
    m_rig.reset();
}

void RigProject::setRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig)
{
    m_labels = labels;
    m_rig = std::move(rig);
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
    const RigTemplate t = project.rigTemplate() ? *project.rigTemplate() : builtinTemplate("humanoid21");
    FitOptions options;
    options.front = project.front();
    return fitTemplate(project.curveSkeleton()->refined, labels, t, options);
}

EndNodeLabels suggestLabels(const RigProject& project)
{
    if (!project.curveSkeleton())
        throw InvalidInput("rig::suggestLabels(): no curve skeleton yet; build it first");
    LabelOptions options;
    options.front = project.front();
    return suggestEndNodeLabels(project.curveSkeleton()->refined, options);
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
    return extractCurveSkeleton(project.character()->imported.mesh, project.curveSkeletonOptions(), progress);
}

} // namespace rig
