#pragma once
/// @file dedup.h
/// Grouping equal items by hashing, in one flat open-addressing table (linear
/// probing, no allocation per item): the importer's joins of identical file
/// vertices and of coincident positions (core/import) use it, where a node-based
/// std::unordered_map spent most of the load on allocations (issue 20, item 3).

#include <bit>
#include <cstdint>
#include <vector>

namespace rig {

/// A 64-bit mix (the splitmix64 finalizer): spreads any input over the low
/// bits that index the table.
constexpr std::uint64_t mixHash(std::uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The classes of items 0..n-1 under `equal`: returns each item's class,
/// numbered in the order of the classes' first items, and sets `firsts` to
/// the first item of each class. `hash(i)` must agree with `equal(i, j)`
/// (equal items hash alike); it is mixed here.
template <class Hash, class Equal>
std::vector<int> groupEqual(int n, Hash hash, Equal equal, std::vector<int>& firsts)
{
    std::vector<int> classOf(static_cast<std::size_t>(n > 0 ? n : 0));
    firsts.clear();
    const std::size_t size = std::bit_ceil(static_cast<std::size_t>(2 * (n > 0 ? n : 0) + 2));
    const std::size_t mask = size - 1;
    std::vector<int> table(size, -1); // class index, or -1
    for (int i = 0; i < n; ++i) {
        std::size_t at = static_cast<std::size_t>(mixHash(static_cast<std::uint64_t>(hash(i)))) & mask;
        while (table[at] >= 0 && !equal(i, firsts[static_cast<std::size_t>(table[at])]))
            at = (at + 1) & mask;
        if (table[at] < 0) {
            table[at] = static_cast<int>(firsts.size());
            firsts.push_back(i);
        }
        classOf[static_cast<std::size_t>(i)] = table[at];
    }
    return classOf;
}

} // namespace rig
