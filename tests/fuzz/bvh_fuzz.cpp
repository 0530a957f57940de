// libFuzzer target for the BVH reader (core/motion/bvh_file.h).
//
// Any input may be rejected with a rig::Error; anything else escaping, a crash,
// a sanitizer report, or a parsed clip that does not survive a write/read
// round trip unchanged is a finding. Run with scripts/fuzz.sh.

#include "core/common/error.h"
#include "core/motion/bvh_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

bool same(const rig::Motion& a, const rig::Motion& b)
{
    return a.names == b.names && a.parents == b.parents && a.offsets == b.offsets && a.channels == b.channels &&
           a.channelStarts == b.channelStarts && a.endSiteParents == b.endSiteParents &&
           a.endSiteOffsets == b.endSiteOffsets && a.frameTime == b.frameTime && a.frames.rows() == b.frames.rows() &&
           a.frames.cols() == b.frames.cols() && a.frames == b.frames;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rig::BvhReadOptions options;
    options.maxJoints = 2'000; // keep single runs fast; the limits themselves are tested
    options.maxDepth = 200;
    rig::Motion motion;
    try {
        motion = rig::parseBvh(text, "fuzz.bvh", options);
    } catch (const rig::Error&) {
        return 0; // rejected with a message: the expected outcome for garbage
    }
    // From here on every exception is a finding (it escapes and aborts).
    rig::validateMotion(motion);
    const rig::Motion again = rig::parseBvh(rig::formatBvh(motion), "fuzz-roundtrip.bvh", options);
    if (!same(motion, again))
        std::abort();
    if (motion.frameCount() > 0) {
        const rig::MotionWorld world = rig::worldTransforms(motion, rig::evaluateFrame(motion, 0));
        (void)world;
    }
    (void)rig::motionSkeleton(motion, {true});
    return 0;
}
