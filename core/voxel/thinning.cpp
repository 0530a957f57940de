#include "core/voxel/thinning.h"

#include "core/common/error.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <vector>

namespace rig {
namespace {

// Adjacency tables over the 26 neighbourhood positions (bit k = offsets26[k]).
struct Tables {
    std::array<std::uint32_t, 26> adj26{}; // positions 26-adjacent to k
    std::array<std::uint32_t, 26> adj6{};  // positions of N18 6-adjacent to k
    std::uint32_t n18 = 0;                 // the 18-neighbourhood (no corners)
    std::uint32_t faces = 0;               // the 6 face neighbours
    Tables()
    {
        const auto& o = neighbourOffsets26();
        for (int k = 0; k < 26; ++k) {
            const int l1 = std::abs(o[k].x()) + std::abs(o[k].y()) + std::abs(o[k].z());
            if (l1 <= 2)
                n18 |= 1u << k;
            if (l1 == 1)
                faces |= 1u << k;
        }
        for (int k = 0; k < 26; ++k)
            for (int l = 0; l < 26; ++l) {
                if (l == k)
                    continue;
                const Vec3i d = (o[k] - o[l]).cwiseAbs();
                if (d.maxCoeff() == 1)
                    adj26[k] |= 1u << l;
                if (d.sum() == 1 && (n18 >> l & 1u))
                    adj6[k] |= 1u << l;
            }
    }
};

const Tables& tables()
{
    static const Tables t;
    return t;
}

// The component of `mask` containing the bits of `seed`, through `adj`.
std::uint32_t component(std::uint32_t seed, std::uint32_t mask, const std::array<std::uint32_t, 26>& adj)
{
    std::uint32_t comp = seed, frontier = seed;
    while (frontier) {
        const int k = std::countr_zero(frontier);
        frontier &= frontier - 1;
        const std::uint32_t grow = adj[static_cast<size_t>(k)] & mask & ~comp;
        comp |= grow;
        frontier |= grow;
    }
    return comp;
}

// Neighbour index of direction d in offsets26 order: (dx, dy, dz) -> k.
constexpr int offsetBit(int dx, int dy, int dz)
{
    const int k = (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
    return k < 13 ? k : k - 1; // the centre (13) is skipped
}

/// isSimplePoint() remembered per neighbourhood: a direct-mapped table of
/// 2^16 entries (the neighbourhood, a valid bit and the answer). Thinning
/// asks about the same few configurations over and over (flat and gently
/// curved borders), and a look-up costs a hash and a compare where the test
/// costs two flood fills of the 26-neighbourhood.
class SimpleMemo {
public:
    SimpleMemo() : m_table(std::size_t{1} << kBits, 0) {}
    bool simple(Neighbourhood n)
    {
        const std::uint32_t slot = (n * 2654435761u) >> (32 - kBits);
        const std::uint32_t entry = m_table[slot];
        if ((entry & kValid) && (entry & kKey) == n)
            return entry & kAnswer;
        const bool answer = isSimplePoint(n);
        m_table[slot] = n | kValid | (answer ? kAnswer : 0u);
        return answer;
    }

private:
    static constexpr int kBits = 16;
    static constexpr std::uint32_t kKey = (1u << 26) - 1, kAnswer = 1u << 30, kValid = 1u << 31;
    std::vector<std::uint32_t> m_table;
};

} // namespace

Neighbourhood neighbourhoodOf(const VoxelGrid& g, std::int64_t index)
{
    // Row by row: the three bytes x - 1 .. x + 1 of each of the nine rows
    // (dy, dz) become three bits (a state is 0, 1 or 2: w | w >> 1 marks the
    // solid ones), placed as bits 3·row .. 3·row + 2 of the 27-voxel cube,
    // whose centre bit 13 is then dropped (offsets26 order: dx fastest).
    const std::int64_t nx = g.dims.x(), nxy = nx * g.dims.y();
    const std::uint8_t* s = g.states.data() + index - 1;
    std::uint32_t cube = 0;
    int row = 0;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy, ++row) {
            const std::uint8_t* r = s + dy * nx + dz * nxy;
            std::uint32_t w = r[0] | static_cast<std::uint32_t>(r[1]) << 8 | static_cast<std::uint32_t>(r[2]) << 16;
            w = (w | w >> 1) & 0x010101u;
            cube |= ((w | w >> 7 | w >> 14) & 7u) << (3 * row);
        }
    return (cube & 0x1FFFu) | ((cube >> 14) << 13);
}

bool isSimplePoint(Neighbourhood n)
{
    const Tables& t = tables();
    if (n == 0)
        return false; // isolated voxel: deleting it removes a component
    if (component(n & (~n + 1), n, t.adj26) != n)
        return false; // more than one object component
    const std::uint32_t bg = ~n & t.n18;
    const std::uint32_t bgFaces = bg & t.faces;
    if (bgFaces == 0)
        return false; // interior voxel: deleting it opens a cavity
    const std::uint32_t comp = component(bgFaces & (~bgFaces + 1), bg, t.adj6);
    return (bgFaces & ~comp) == 0;
}

// One bit set: not std::popcount() (nor std::has_single_bit(), which libstdc++
// writes with it): without -mpopcnt that is a call into libgcc, 1.8 % of a
// 4k-vertex `rigsmith fit` (two calls per border voxel and subiteration).
bool isEndPoint(Neighbourhood n) { return n != 0 && (n & (n - 1)) == 0; }

ThinningResult thin(const VoxelGrid& solid, const ThinningOptions& options, const Progress& progress)
{
    if (solid.empty() || (solid.dims.array() < 3).any())
        throw InvalidInput("rig::thin(): the voxel grid is empty");
    const Vec3i d = solid.dims;
    const std::int64_t nx = d.x(), nxy = nx * d.y();
    // Check the outer layer is empty: neighbourhoods are read without bounds checks.
    for (int z = 0; z < d.z(); ++z)
        for (int y = 0; y < d.y(); ++y)
            for (int x = 0; x < d.x(); ++x) {
                const bool outer = x == 0 || y == 0 || z == 0 || x == d.x() - 1 || y == d.y() - 1 || z == d.z() - 1;
                if (outer && solid.solid(solid.index(x, y, z)))
                    throw InvalidInput("rig::thin(): a solid voxel lies on the grid's outer layer");
            }

    ThinningResult r;
    r.skeleton = solid;
    auto& s = r.skeleton.states;
    const std::int64_t step6[6] = {nx, -nx, -nxy, nxy, 1, -1}; // up, down, north, south, east, west
    const int bit6[6] = {offsetBit(0, 1, 0), offsetBit(0, -1, 0), offsetBit(0, 0, -1),
                         offsetBit(0, 0, 1),  offsetBit(1, 0, 0),  offsetBit(-1, 0, 0)};

    // Candidate list: the border voxels (a face neighbour in the background).
    std::vector<std::int64_t> border;
    std::vector<std::uint8_t> listed(s.size(), 0);
    std::int64_t solidCount = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (!s[i])
            continue;
        ++solidCount;
        for (std::int64_t st : step6)
            if (!s[static_cast<size_t>(static_cast<std::int64_t>(i) + st)]) {
                border.push_back(static_cast<std::int64_t>(i));
                listed[i] = 1;
                break;
            }
    }

    std::vector<std::int64_t> candidates;
    SimpleMemo memo;
    for (;;) {
        if (options.maxIterations > 0 && r.iterations >= options.maxIterations)
            break;
        progress.update("thin", solidCount ? static_cast<double>(r.deletedVoxels) / solidCount : 1.0);
        ++r.iterations;
        std::int64_t deleted = 0;
        for (int dir = 0; dir < 6; ++dir) {
            candidates.clear();
            for (std::int64_t v : border) {
                if (!s[static_cast<size_t>(v)] || s[static_cast<size_t>(v + step6[dir])])
                    continue;
                const Neighbourhood n = neighbourhoodOf(r.skeleton, v);
                if (!isEndPoint(n) && memo.simple(n))
                    candidates.push_back(v);
            }
            for (std::int64_t v : candidates) {
                const Neighbourhood n = neighbourhoodOf(r.skeleton, v); // sequential re-check
                if (isEndPoint(n) || !memo.simple(n))
                    continue;
                s[static_cast<size_t>(v)] = 0;
                ++deleted;
                for (int k = 0; k < 6; ++k) {
                    const std::int64_t w = v + step6[k];
                    if ((n >> bit6[k] & 1u) && !listed[static_cast<size_t>(w)]) {
                        listed[static_cast<size_t>(w)] = 1;
                        border.push_back(w);
                    }
                }
            }
        }
        // Drop the deleted voxels from the candidate list.
        size_t kept = 0;
        for (std::int64_t v : border)
            if (s[static_cast<size_t>(v)])
                border[kept++] = v;
        border.resize(kept);
        r.deletedVoxels += deleted;
        if (deleted == 0)
            break;
    }
    r.skeletonVoxels = solidCount - r.deletedVoxels;
    progress.update("thin", 1.0);
    return r;
}

} // namespace rig
