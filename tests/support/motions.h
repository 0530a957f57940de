#pragma once
// Motions built in code for the retargeting tests.
#include "core/motion/motion.h"

#include <string>
#include <vector>

namespace rig::test {

/// A motion over a rest hierarchy: root 6 channels (X Y Z position, Z Y X
/// rotation), 3 (Z Y X) elsewhere, `frames` zero frames at 30 per second.
Motion makeMotion(std::vector<std::string> names, std::vector<int> parents, const MatrixX3d& offsets, int frames);

} // namespace rig::test
