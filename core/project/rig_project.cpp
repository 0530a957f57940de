#include "core/project/rig_project.h"

#include "core/common/error.h"

namespace rig {

void RigProject::setCharacter(std::shared_ptr<const LoadedCharacter> character)
{
    m_character = std::move(character);
    m_curveSkeleton.reset();
}

void RigProject::setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton)
{
    m_curveSkeleton = std::move(skeleton);
}

CurveSkeletonResult computeCurveSkeleton(const RigProject& project, const Progress& progress)
{
    if (!project.hasCharacter())
        throw InvalidInput("rig::computeCurveSkeleton(): no character is loaded; open one first");
    return extractCurveSkeleton(project.character()->imported.mesh, project.curveSkeletonOptions(), progress);
}

} // namespace rig
