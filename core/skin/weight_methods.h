#pragma once
/// @file weight_methods.h
/// The table of weight methods: the one place that lists them. The Weights
/// panel, the project file, the CLI (`--method`, `--weights`, its help) and
/// the weights report iterate it; none of them names a method.
///
/// Built in:
///  - `gaussian`: segmentation + Gaussian weights, thesis Alg. 4.2.1, eq. 4.1
///    (weights_gaussian.h), the default;
///  - `heat`: bone heat, Baran & Popović 2007 (weights_heat.h);
///  - `geodesic-voxel`: geodesic voxel binding, Dionne & de Lasa 2013
///    (weights_geodesic_voxel.h);
///  - `atlas`: atlas-based weights, Lu, Hétroy, Gérot & Thibert 2008
///    (weights_atlas.h).
/// The default (the first row) is the one that measured best on the devset
/// and assimp's rigged humanoid (bench/README.md, Weights).
///
/// Adding a method: its file pair (`core/skin/weights_NAME.h/.cpp`: an
/// options struct with commented defaults and a function returning
/// `SkinWeights`), one row in `builtInMethods()` of weight_methods.cpp built
/// with `makeWeightMethod()` (its parameters bound to the struct's fields),
/// and its tests. Nothing else changes.

#include "core/skin/segmentation.h"
#include "core/skin/weight_method.h"

#include <any>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// How the skinning weights are computed: the method's id and every method's
/// parameter values (kept per method, so switching back restores them).
struct WeightOptions {
    std::string method = "gaussian";                    ///< An id of `weightMethods()`.
    SegmentationOptions segmentation;                   ///< Always used (segmentation + twist).
    std::map<std::string, ParameterValues> parameters;  ///< By method id; missing keys are defaults.

    /// The values of method `id` (empty when all are defaults).
    const ParameterValues& valuesOf(const std::string& id) const;
};

/// Every method, built-in first, then those registered. The reference stays
/// valid; register methods before other threads read the table.
const std::vector<WeightMethod>& weightMethods();

/// The method with id `id`.
/// @throws rig::InvalidInput "weight method 'x' not understood; use gaussian, heat, ... or atlas".
const WeightMethod& findWeightMethod(std::string_view id);

/// The ids of every method joined by `separator` ("gaussian, heat").
std::string weightMethodIds(std::string_view separator = ", ");

/// Adds a method to the table (tests, plug-ins).
/// @throws rig::InvalidInput when the id is empty, has characters other than
/// [a-z0-9_-], is taken, or the row has no compute function.
void registerWeightMethod(WeightMethod method);

/// The segmentation's parameters, stored as "segmentation.<key>" (the method
/// is a choice among "3.2.1", "3.2.2", "3.2.4").
const std::vector<MethodParameter>& segmentationParameters();
SegmentationOptions segmentationOptions(const ParameterValues& values);
ParameterValues segmentationValues(const SegmentationOptions& options);

/// Checks the method id and every method's values.
/// @throws rig::InvalidInput naming the method, key and value.
void checkWeightOptions(const WeightOptions& options);

/// The typed options of method `id` (its struct, e.g. `GaussianWeightOptions`).
/// @throws rig::InvalidInput for an unknown id; std::bad_any_cast for a wrong type.
template <class Options>
Options methodOptions(const WeightOptions& o, const std::string& id)
{
    return std::any_cast<Options>(findWeightMethod(id).typedOptions(o.valuesOf(id)));
}

/// Sets the values of method `id` from its typed options.
template <class Options>
void setMethodOptions(WeightOptions& o, const std::string& id, const Options& typed)
{
    o.parameters[id] = findWeightMethod(id).valuesOf(std::any(typed));
}

} // namespace rig
