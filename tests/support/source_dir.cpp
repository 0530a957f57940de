#include "tests/support/source_dir.h"

namespace rig::test {

const std::string& sourceDir()
{
    static const std::string dir = RIGSMITH_SOURCE_DIR;
    return dir;
}

std::string sourcePath(std::string_view relative)
{
    return sourceDir() + "/" + std::string(relative);
}

} // namespace rig::test
