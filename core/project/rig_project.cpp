#include "core/project/rig_project.h"

namespace rig {

void RigProject::setCharacter(std::shared_ptr<const LoadedCharacter> character)
{
    m_character = std::move(character);
}

} // namespace rig
