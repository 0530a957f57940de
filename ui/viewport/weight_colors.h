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

/// The colour of segment (bone) `bone`: distinct hues by the golden angle, so
/// neighbouring bones differ; -1 (unsegmented) is magenta.
glm::vec3 segmentColor(int bone);

/// The heat-map colour of a weight in [0, 1]: dark blue (0) through cyan,
/// green and yellow to red (1).
glm::vec3 heatColor(float weight);

/// #V colours: each vertex in its segment's colour, shaded slightly darker
/// towards the parent joint (δ = 0) so the direction along the bone shows.
std::vector<glm::vec3> segmentColors(const Segmentation& segmentation);

/// #V colours: the weight of `joint` at each vertex as a heat map; segment -1
/// vertices magenta. `joint` outside the skeleton gives the colour of 0.
std::vector<glm::vec3> weightColors(const SkinWeights& weights, const Segmentation& segmentation, int joint);

} // namespace rig::ui
