// libFuzzer target for retargeting (core/motion/retarget.h): a BVH clip onto
// the default character's rig (tests/fuzz/default_rig.json, written by
// `rigsmith fit default`). The clip may be refused by the reader or the
// retargeting with a rig::Error; a crash, a sanitizer report (the 4-byte read
// before a vector in pairInOrder of issue 21) or a non-finite result is a finding.

#include "core/common/error.h"
#include "core/export/rig_file.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const rig::Skeleton& target()
{
    static const rig::Skeleton s = rig::readRigFile(RIGSMITH_SOURCE_DIR "/tests/fuzz/default_rig.json").skeleton;
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rig::BvhReadOptions options;
    options.maxJoints = 300;
    options.maxDepth = 100;
    options.maxFrames = 200;
    rig::Motion clip;
    try {
        clip = rig::parseBvh(text, "fuzz.bvh", options);
    } catch (const rig::Error&) {
        return 0;
    }
    rig::RetargetOptions ro;
    ro.frameStep = 8;
    try {
        const rig::RetargetedClip r = rig::retargetClip(clip, target(), ro);
        for (const rig::Pose& p : rig::toPoses(r.frames)) {
            if (!p.rootTranslation.allFinite())
                std::abort();
            for (const auto& q : p.localRotations)
                if (!q.coeffs().allFinite())
                    std::abort();
        }
    } catch (const rig::Error&) {
        return 0;
    }
    return 0;
}
