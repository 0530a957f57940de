// libFuzzer target for the rig file and weights file readers
// (core/export/rig_file.h, core/export/weights_file.h). The first byte picks the reader.
//
// Any input may be refused with a rig::Error; anything else escaping, a crash,
// a sanitizer report, or an accepted file that breaks the reader's promises is
// a finding. Run with scripts/fuzz.sh.

#include "core/common/error.h"
#include "core/export/rig_file.h"
#include "core/export/weights_file.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

rig::Skeleton twoJoints()
{
    rig::Skeleton k;
    k.names = {"Hips", "Spine"};
    k.parents = {-1, 0};
    k.bindPositions.resize(2, 3);
    k.bindPositions << 0, 1, 0, 0, 1.5, 0;
    k.bindOrientations.assign(2, Eigen::Quaterniond::Identity());
    return k;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] % 2 == 0) {
        rig::RigFile r;
        try {
            r = rig::parseRigFile(bytes, "fuzz-rig.json");
        } catch (const rig::Error&) {
            return 0;
        }
        rig::validateSkeleton(r.skeleton); // a finding if it throws
        if (r.labels)
            for (int n : r.labels->nodes)
                if (n < 0)
                    std::abort();
    } else {
        static const rig::Skeleton skeleton = twoJoints();
        try {
            const auto W = rig::parseWeightsFile(bytes, "fuzz-weights.json", skeleton, 2);
            if (W.rows() != 2 || W.cols() != skeleton.jointCount())
                std::abort();
        } catch (const rig::Error&) {
            return 0;
        }
    }
    return 0;
}
