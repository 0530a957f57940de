#include "core/skin/weight_methods.h"

#include "core/skin/weights_atlas.h"
#include "core/skin/weights_gaussian.h"
#include "core/skin/weights_geodesic_voxel.h"
#include "core/skin/weights_heat.h"

#include <algorithm>
#include <sstream>

namespace rig {
namespace {

WeightMethod gaussianRow()
{
    ParameterSet<GaussianWeightOptions> p;
    p.add(numberParameter("hierarchyLevel", "Hierarchy level h",
           "How many neighbouring bones share a vertex (thesis Alg. 4.2.1; 0 = rigid)", 0, 8, 0),
          &GaussianWeightOptions::hierarchyLevel);
    p.add(choiceParameter("function", "Function", "The distribution of eq. 4.1 along the bone",
                          {"gaussian", "linear", "smoothstep"}, {"Gaussian (eq. 4.1)", "Linear", "Smoothstep"}),
          &GaussianWeightOptions::function);
    p.add(numberParameter("b", "Peak b", "Peak position along the bone in δ units (thesis: 0.5)", 0.0, 1.0, 2),
          &GaussianWeightOptions::b);
    p.add(numberParameter("c", "Width c", "Width of eq. 4.1 (thesis: 0.25): larger blends further across joints", 0.01, 10.0, 2),
          &GaussianWeightOptions::c);
    p.add(numberParameter("a", "Peak height a", "Height of eq. 4.1 (thesis: 1.3; cancels in the normalization of eq. 4.2)", 0.01,
           10.0, 2, true),
          &GaussianWeightOptions::a);
    p.add(numberParameter("maxInfluences", "Influences per vertex", "Kept per vertex (the smallest dropped, renormalized)", 1, 8, 0, true),
          &GaussianWeightOptions::maxInfluences);
    p.add(numberParameter("smoothingIterations", "Smoothing sweeps", "Sweeps of the smoothing across region borders (0: none)", 0,
           200, 0, true),
          &GaussianWeightOptions::smoothingIterations);
    p.add(numberParameter("smoothingWidth", "Smoothing width", "Width of the smoothing band, as a fraction of the mesh's diagonal",
           0.0, 1.0, 3, true),
          &GaussianWeightOptions::smoothingWidth);
    p.add(numberParameter("minRelativeWeight", "Prune below", "Weights below this fraction of the vertex's largest are dropped", 0.0,
           0.5, 3, true),
          &GaussianWeightOptions::minRelativeWeight);
    return makeWeightMethod<GaussianWeightOptions>(
        "gaussian", "Segmentation + Gaussian (thesis 4.2.1)", "Ramírez Flores 2015, thesis Alg. 4.2.1, eq. 4.1-4.2",
        true, p, [](const WeightMethodInput& in, const GaussianWeightOptions& o) {
            WeightMethodResult r;
            // segmentMesh() gives every vertex a link; a -1 would be an unreached
            // vertex (counted, and refused by segmentationWeights()).
            r.unreachedVertices =
                static_cast<int>(std::count(in.segmentation.bone.begin(), in.segmentation.bone.end(), -1));
            r.weights = segmentationWeights(in.mesh, in.skeleton, in.segmentation, o);
            return r;
        });
}

WeightMethod heatRow()
{
    ParameterSet<HeatWeightOptions> p;
    p.add(numberParameter("heatConstant", "Heat constant", "c in H = c / d²: larger follows the nearest bone more rigidly", 0.001,
           1000.0, 3),
          &HeatWeightOptions::heatConstant);
    p.add(numberParameter("visibilityTolerance", "Visibility tolerance", "Voxels near the vertex not tested for visibility", 0.0,
           10.0, 2, true),
          &HeatWeightOptions::visibilityTolerance);
    p.add(numberParameter("leafBoneLength", "Leaf bone length", "Length of a leaf joint's bone, as a fraction of its parent link",
           0.0, 2.0, 2, true),
          &HeatWeightOptions::leafBoneLength);
    p.add(numberParameter("leafBonesToSkin", "Leaf bones to the skin",
                          "Lengthen the bone of a joint that ends a chain (head, fingertip, toe) to the skin nearest "
                          "to it (1: on)",
                          0, 1, 0, true),
          &HeatWeightOptions::leafBonesToSkin);
    p.add(numberParameter("minWeight", "Minimum weight", "Weights below this are set to 0 before the influences are limited", 0.0,
           0.49, 4, true),
          &HeatWeightOptions::minWeight);
    p.add(numberParameter("separateLimbs", "Separate limbs", "Drop heat that diffused from one limb into another (1: on)", 0, 1, 0, true),
          &HeatWeightOptions::separateLimbs);
    p.add(numberParameter("maxInfluences", "Influences per vertex", "Kept per vertex (the largest, renormalized)", 1, 8, 0, true),
          &HeatWeightOptions::maxInfluences);
    p.add(numberParameter("minPartVertices", "Rigid below (vertices)", "Parts with fewer vertices are bound rigidly", 1, 1e6, 0, true),
          &HeatWeightOptions::minPartVertices);
    p.add(numberParameter("smallPartSize", "Rigid below (size)", "Parts smaller than this fraction of the height are bound rigidly",
           0.0, 0.99, 3, true),
          &HeatWeightOptions::smallPartSize);
    return makeWeightMethod<HeatWeightOptions>(
        "heat", "Bone heat (Baran & Popović)", "Baran & Popović 2007, Automatic rigging and animation of 3D characters",
        false, p, [](const WeightMethodInput& in, HeatWeightOptions o) {
            o.deforming = in.deforming;
            HeatWeightsResult heat = boneHeatWeights(in.mesh, in.skeleton, in.solid, o, in.progress, &in.segmentation);
            return WeightMethodResult{std::move(heat.weights), heat.unreachedVertices, std::move(heat.rigidParts)};
        });
}

/// geodesic-voxel: Dionne & de Lasa 2013 (weights_geodesic_voxel.h).
WeightMethod geodesicVoxelRow()
{
    ParameterSet<GeodesicVoxelOptions> p;
    p.add(numberParameter("falloff", "Falloff exponent", "λ of eq. 7: larger follows the nearest bone more rigidly", 0.1, 16.0, 2),
          &GeodesicVoxelOptions::falloff);
    p.add(numberParameter("alpha", "Falloff bias", "α of eq. 7: 0 falls off with the distance, 1 with its square", 0.0, 1.0, 2),
          &GeodesicVoxelOptions::alpha);
    p.add(numberParameter("maxInfluences", "Influences per vertex", "Kept per vertex (continuous limit, renormalized)", 1, 8, 0),
          &GeodesicVoxelOptions::maxInfluences);
    p.add(numberParameter("resolution", "Voxel resolution", "Voxels on the longest axis of the binding's own solid", 16, 1024, 0,
           true),
          &GeodesicVoxelOptions::resolution);
    p.add(numberParameter("maxSolidVoxels", "Solid voxel budget",
                          "A bulkier solid is voxelized coarser to hold at most this many voxels (0: no budget)", 0,
                          1e9, 0, true),
          &GeodesicVoxelOptions::maxSolidVoxels);
    p.add(numberParameter("leafBoneLength", "Leaf bone length", "Length of a leaf joint's bone, as a fraction of its parent link",
           0.0, 2.0, 2, true),
          &GeodesicVoxelOptions::leafBoneLength);
    p.add(numberParameter("leafBonesToSkin", "Leaf bones to the skin",
                          "Lengthen the bone of a joint that ends a chain (head, fingertip, toe) to the skin nearest "
                          "to it (1: on)",
                          0, 1, 0, true),
          &GeodesicVoxelOptions::leafBonesToSkin);
    p.add(numberParameter("separateLimbs", "Separate limbs", "Drop weight reaching from one limb into another (1: on)", 0, 1, 0, true),
          &GeodesicVoxelOptions::separateLimbs);
    return makeWeightMethod<GeodesicVoxelOptions>(
        "geodesic-voxel", "Geodesic voxel binding (Dionne & de Lasa)",
        "Dionne & de Lasa 2013, Geodesic Voxel Binding for Production Character Meshes, Alg. 1, eq. 7", false, p,
        [](const WeightMethodInput& in, GeodesicVoxelOptions o) {
            o.deforming = in.deforming;
            GeodesicVoxelResult g = geodesicVoxelWeights(in.mesh, in.skeleton, o, in.progress, &in.segmentation);
            return WeightMethodResult{std::move(g.weights), g.unreachedVertices, std::move(g.rigidParts)};
        });
}

/// Atlas-based weights, Lu, Hétroy, Gérot & Thibert 2008 (weights_atlas.h).
WeightMethod atlasRow()
{
    ParameterSet<AtlasWeightOptions> p;
    p.add(numberParameter("overlap", "Overlap", "Overlap half-width as a fraction of each boundary's diameter (§3.3: 0.5)",
                          0.05, 4.0, 2),
          &AtlasWeightOptions::overlap);
    p.add(numberParameter("maxInfluences", "Influences per vertex", "Kept per vertex (the smallest dropped, renormalized)",
                          1, 8, 0, true),
          &AtlasWeightOptions::maxInfluences);
    p.add(numberParameter("planeCandidates", "Planes per joint", "Cutting planes tried per joint; the shortest curve wins (§3.1)",
                          1, 90, 0, true),
          &AtlasWeightOptions::planeCandidates);
    p.add(numberParameter("tiltDegrees", "Plane tilt", "How far the tried planes tilt past the two bones' directions (degrees)",
                          0.0, 90.0, 1, true),
          &AtlasWeightOptions::tiltDegrees);
    return makeWeightMethod<AtlasWeightOptions>(
        "atlas", "Atlas-based (Lu, Hétroy, Gérot & Thibert)",
        "Lu, Hétroy, Gérot & Thibert 2008, Atlas-Based Character Skinning, INRIA RR-6406, §3-5, eq. 1", true, p,
        [](const WeightMethodInput& in, const AtlasWeightOptions& o) {
            WeightMethodResult r;
            r.weights = atlasWeights(in.mesh, in.skeleton, in.segmentation, o).weights;
            return r;
        });
}

/// The built-in rows, in the order the front ends list them (the first is the default).
std::vector<WeightMethod> builtInMethods() { return {gaussianRow(), heatRow(), geodesicVoxelRow(), atlasRow()}; }

std::vector<WeightMethod>& table()
{
    static std::vector<WeightMethod> methods = builtInMethods();
    return methods;
}

const ParameterSet<SegmentationOptions>& segmentationSet()
{
    static const ParameterSet<SegmentationOptions> set = [] {
        ParameterSet<SegmentationOptions> p;
        // The choice's names are the thesis's algorithm numbers, in enum order.
        p.add(choiceParameter("method", "Segmentation", "Which bone each vertex belongs to (thesis §3.2)",
                              {"3.2.1", "3.2.2", "3.2.4"},
                              {"Nearest link (3.2.1)", "Voxel line of sight (3.2.2)", "Region growing (3.2.4)"}),
              &SegmentationOptions::method);
        p.add(numberParameter("hierarchyLevel", "Post-process levels", "hLevel of the post-process of Alg. 3.2.2", 0, 4, 0, true),
              &SegmentationOptions::hierarchyLevel);
        p.add(numberParameter("maxNormalAngleDegrees", "Belonging angle", "Belonging test of Alg. 3.2.4 (degrees)", 0.0, 180.0, 1, true),
              &SegmentationOptions::maxNormalAngleDegrees);
        p.add(numberParameter("mergeRegions", "Merge regions", "Region merge of Alg. 3.2.4 (1: on)", 0, 1, 0, true),
              &SegmentationOptions::mergeRegions);
        p.add(numberParameter("rigidPartSize", "Rigid parts below", "Parts smaller than this fraction of the diagonal go to one link",
               0.0, 1.0, 3, true),
              &SegmentationOptions::rigidPartSize);
        return p;
    }();
    return set;
}

bool validId(const std::string& id)
{
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

} // namespace

const ParameterValues& WeightOptions::valuesOf(const std::string& id) const
{
    static const ParameterValues none;
    const auto it = parameters.find(id);
    return it == parameters.end() ? none : it->second;
}

double parameterValue(const std::vector<MethodParameter>& parameters, const ParameterValues& values,
                      const std::string& key, const std::string& owner)
{
    const auto p = std::find_if(parameters.begin(), parameters.end(), [&](const auto& q) { return q.key == key; });
    if (p == parameters.end())
        throw InvalidInput("'" + owner + "' has no parameter '" + key + "'");
    const auto it = values.find(key);
    return it == values.end() ? p->defaultValue : it->second;
}

void checkParameters(const std::vector<MethodParameter>& parameters, const ParameterValues& values,
                     const std::string& owner)
{
    for (const auto& [key, value] : values) {
        const std::string& name = key; // clang 14 cannot capture a structured binding
        const auto p = std::find_if(parameters.begin(), parameters.end(), [&](const auto& q) { return q.key == name; });
        if (p == parameters.end()) {
            std::string keys;
            for (const MethodParameter& q : parameters)
                keys += (keys.empty() ? "" : ", ") + q.key;
            throw InvalidInput("'" + owner + "' has no parameter '" + key + "'; it has: " + keys);
        }
        const bool whole = p->decimals == 0 || !p->choices.empty();
        if (!std::isfinite(value) || value < p->min || value > p->max || (whole && value != std::round(value))) {
            std::ostringstream s;
            s << owner << "." << key << " = " << value << " is out of range; use " << (whole ? "a whole number " : "")
              << "from " << p->min << " to " << p->max;
            throw InvalidInput(s.str());
        }
    }
}

const std::vector<WeightMethod>& weightMethods() { return table(); }

const WeightMethod& findWeightMethod(std::string_view id)
{
    for (const WeightMethod& m : table())
        if (m.id == id)
            return m;
    // "use a, b or c": the ids of the table, the last two joined by "or".
    std::string ids = weightMethodIds(", ");
    if (const size_t comma = ids.rfind(", "); comma != std::string::npos)
        ids.replace(comma, 2, " or ");
    throw InvalidInput("weight method '" + std::string(id) + "' not understood; use " + ids);
}

std::string weightMethodIds(std::string_view separator)
{
    std::string s;
    for (const WeightMethod& m : table())
        s += (s.empty() ? "" : std::string(separator)) + m.id;
    return s;
}

void registerWeightMethod(WeightMethod method)
{
    if (!validId(method.id))
        throw InvalidInput("rig::registerWeightMethod(): id '" + method.id + "' must be non-empty [a-z0-9_-]");
    if (!method.compute)
        throw InvalidInput("rig::registerWeightMethod(): method '" + method.id + "' has no compute function");
    for (const WeightMethod& m : table())
        if (m.id == method.id)
            throw InvalidInput("rig::registerWeightMethod(): a method '" + method.id + "' already exists");
    table().push_back(std::move(method));
}

const std::vector<MethodParameter>& segmentationParameters() { return segmentationSet().parameters(); }

SegmentationOptions segmentationOptions(const ParameterValues& values) { return segmentationSet().options(values); }

ParameterValues segmentationValues(const SegmentationOptions& options) { return segmentationSet().values(options); }

void checkWeightOptions(const WeightOptions& options)
{
    findWeightMethod(options.method);
    for (const auto& [id, values] : options.parameters)
        checkParameters(findWeightMethod(id).parameters, values, id);
    checkParameters(segmentationParameters(), segmentationValues(options.segmentation), "segmentation");
}

} // namespace rig
