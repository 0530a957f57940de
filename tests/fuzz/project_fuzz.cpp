// libFuzzer target for the project reader (core/export/project_file.h).
//
// Any input may be refused with a rig::Error; anything else escaping, a crash,
// a sanitizer report, or an accepted project that breaks the reader's promises
// (ranges, sizes, a valid rig) is a finding. Run with scripts/fuzz.sh.

#include "core/common/error.h"
#include "core/export/project_file.h"
#include "core/voxel/voxelize.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    rig::ProjectFile p;
    try {
        p = rig::parseProjectFile(bytes, "/nonexistent/fuzz/hero.rsproj");
    } catch (const rig::Error&) {
        return 0; // refused with a message
    }
    if (p.resolution < rig::kMinVoxelResolution || p.resolution > rig::kMaxVoxelResolution)
        std::abort();
    if (p.rig)
        rig::validateSkeleton(*p.rig); // throws (a finding) when the reader let a bad rig through
    if (p.computedWeights) {
        const rig::SkinWeights& w = *p.computedWeights;
        if (w.joints.rows() != w.weights.rows() || w.joints.cols() != w.maxInfluences || (w.joints.array() < 0).any())
            std::abort();
    }
    if (p.labels)
        for (int n : p.labels->nodes)
            if (n < -1)
                std::abort();
    return 0;
}
