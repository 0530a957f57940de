#include "core/deform/streaming_floor.h"

#include "core/common/error.h"
#include "core/deform/skinning_kernels.h"

namespace rig {
namespace {

using skinning::F4;

inline F4 load4(const float* p)
{
    F4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline void store4(float* p, F4 v) { __builtin_memcpy(p, &v, sizeof v); }

// The loop of one layout (a template, so the layout's test is not in the
// loop): vector adds of the records, the scalars summed into the output's
// spare lane; no dependency between vertices.
template <StreamingLayout L>
void stream(const SkinBinding& b, SkinnedMesh& out, int threads)
{
    const auto k = static_cast<size_t>(b.influences);
    skinning::parallelVertices(b.vertexCount, threads, 4096, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (auto v = static_cast<size_t>(begin); v < static_cast<size_t>(end); ++v) {
            const float* w = b.weights.data() + v * k;
            const std::int32_t* j = (L == StreamingLayout::Twist ? b.twistOffset.data() : b.jointOffset.data()) + v * k;
            F4 p = load4(b.rest[v].p), n = load4(b.rest[v].n);
            float s = 0.0f;
            std::int32_t t = 0;
            for (size_t q = 0; q < k; ++q) {
                s += w[q];
                t |= j[q];
                if constexpr (L == StreamingLayout::Dqs)
                    t |= b.dqOffset[v * k + q];
            }
            if constexpr (L == StreamingLayout::Twist) {
                p += load4(b.arm[v].p) + load4(b.armCross[v].p);
                n += load4(b.arm[v].n) + load4(b.armCross[v].n);
                s += b.delta[v];
                t |= b.segment[v];
            }
            p[3] = s + static_cast<float>(t);
            store4(out.vertices[v].p, p);
            store4(out.vertices[v].n, n);
        }
    });
}

} // namespace

void streamingFloor(const SkinBinding& b, StreamingLayout layout, SkinnedMesh& out, int threads)
{
    if (layout == StreamingLayout::Twist && !b.hasTwist())
        throw InvalidInput("rig::streamingFloor(): the twist layout needs a binding with bindTwist()");
    if (layout == StreamingLayout::Dqs && b.dqOffset.size() != b.weights.size())
        throw InvalidInput("rig::streamingFloor(): the DQS layout needs the binding's dual-quaternion offsets");
    out.vertices.resize(static_cast<size_t>(b.vertexCount));
    switch (layout) {
    case StreamingLayout::Lbs: stream<StreamingLayout::Lbs>(b, out, threads); break;
    case StreamingLayout::Dqs: stream<StreamingLayout::Dqs>(b, out, threads); break;
    case StreamingLayout::Twist: stream<StreamingLayout::Twist>(b, out, threads); break;
    }
}

} // namespace rig
