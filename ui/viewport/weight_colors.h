#pragma once
/// @file weight_colors.h
/// What colour each vertex gets in the weight views (plain C++ + GLM, no Qt,
/// no GL, so tests reach it): one colour per segment (bone), or the weights of
/// one joint as a heat map. Vertices no bone reached (segment -1) are magenta
/// in both views so that problems show instead of hiding.

#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <glm/vec3.hpp>

#include <vector>

namespace rig::ui {

/// What the viewport colours the mesh by (the Weights dock's choice).
enum class MeshColoring { Shaded, Segments, Weights };

/// The colour of segment (bone) `bone`: distinct hues by the golden angle, so
/// neighbouring bones differ; -1 (unsegmented) is magenta.
glm::vec3 segmentColor(int bone);

/// The heat-map colour of a weight in [0, 1]: dark blue (0) through cyan,
/// green and yellow to red (1).
glm::vec3 heatColor(float weight);

/// #V colours: each vertex in its segment's colour, shaded slightly darker
/// towards the parent joint (δ = 0) so the direction along the bone shows.
std::vector<glm::vec3> segmentColors(const Segmentation& segmentation);

/// The categorical palette of the segment view (issue 19 item 6): colours far
/// apart in hue and lightness, none near the magenta of unsegmented vertices.
inline constexpr int segmentPaletteSize = 9;
glm::vec3 paletteColor(int index);

/// For each bone (0 .. the largest segment id), the bones whose segments touch
/// it on the surface: a triangle has vertices in both.
std::vector<std::vector<int>> segmentAdjacency(const Segmentation& segmentation, const MatrixX3i& F);

/// A palette index per bone so that bones whose segments touch get different
/// colours: greedy graph colouring, most neighbours first, each bone taking the
/// least used colour its coloured neighbours do not have. A bone whose
/// neighbours use every colour takes the one used by the fewest of them.
std::vector<int> colourSegments(const std::vector<std::vector<int>>& adjacency);

/// #V colours of the segment view with the categorical palette assigned by
/// `colourSegments()` over the surface adjacency of `F`; shaded towards the
/// parent joint as `segmentColors(segmentation)` is. Unsegmented vertices magenta.
std::vector<glm::vec3> segmentColors(const Segmentation& segmentation, const MatrixX3i& F);

/// #V colours: the weight of `joint` at each vertex as a heat map; segment -1
/// vertices magenta. `joint` outside the skeleton gives the colour of 0.
std::vector<glm::vec3> weightColors(const SkinWeights& weights, const Segmentation& segmentation, int joint);

} // namespace rig::ui
