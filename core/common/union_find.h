#pragma once
/// @file union_find.h
/// Disjoint sets over the integers 0..n-1 as a parent array (parent[x] == x
/// for a set's root): the connected pieces of a mesh (core/mesh/mesh_queries),
/// of a voxel skeleton's junction clusters (core/skeleton/curve_skeleton) and
/// of a surface cut into cubes (core/skeleton/contacts).

#include <numeric>
#include <vector>

namespace rig {

/// n singleton sets.
inline std::vector<int> unionFindSets(int n)
{
    std::vector<int> parent(static_cast<size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    return parent;
}

/// The root of x's set, halving the path on the way.
inline int unionFindRoot(std::vector<int>& parent, int x)
{
    while (parent[static_cast<size_t>(x)] != x) {
        parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        x = parent[static_cast<size_t>(x)];
    }
    return x;
}

/// Joins the sets of a and b.
inline void unionFindJoin(std::vector<int>& parent, int a, int b)
{
    parent[static_cast<size_t>(unionFindRoot(parent, a))] = unionFindRoot(parent, b);
}

} // namespace rig
