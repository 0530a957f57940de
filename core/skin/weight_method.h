#pragma once
/// @file weight_method.h
/// What a weight method is to the rest of Rigsmith: one row of the table in
/// weight_methods.h. A row has a stable id (what projects store and the CLI
/// accepts), a title, its parameters described once (the Weights panel builds
/// its fields from them, the project file stores them as "<id>.<key>", the
/// CLI sets them with `--weight-param <id>.<key>=VALUE`), whether it reads the
/// segmentation, and the function that computes the weights.
///
/// Parameters are plain numbers by key (`ParameterValues`; a named choice is
/// its index), so a method registered at run time (a test, a plug-in) is
/// handled by every front end without code of its own. A method keeps its own
/// typed options struct: `ParameterSet<Options>` binds each parameter to a
/// field once and converts both ways.

#include "core/common/error.h"
#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"
#include "core/voxel/voxel_grid.h"

#include <any>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace rig {

/// One parameter of a method (or of the segmentation), described once.
struct MethodParameter {
    std::string key;                  ///< Stable, stored in projects ("c", "hierarchyLevel").
    std::string title;                ///< Shown in the panel ("Width c").
    std::string help;                 ///< Tooltip: what it does, the equation it enters.
    double min = 0.0;                 ///< Accepted range, inclusive.
    double max = 1.0;
    int decimals = 2;                 ///< 0: an integer (or a yes/no with range 0..1).
    std::vector<std::string> choices; ///< Non-empty: a named choice; the value is the index, stored by name.
    bool advanced = false;            ///< Shown in the panel only with "All parameters".
    std::vector<std::string> choiceTitles; ///< Shown instead of `choices` when not empty.
    double defaultValue = 0.0;        ///< Filled from the options struct's default (`ParameterSet::add`).
};

/// A number parameter (`decimals` 0: an integer; 0 with range 0..1: yes/no).
inline MethodParameter numberParameter(std::string key, std::string title, std::string help, double min, double max,
                                       int decimals, bool advanced = false)
{
    MethodParameter p;
    p.key = std::move(key);
    p.title = std::move(title);
    p.help = std::move(help);
    p.min = min;
    p.max = max;
    p.decimals = decimals;
    p.advanced = advanced;
    return p;
}

/// A named choice among `choices` (stored by name), shown as `titles` when given.
inline MethodParameter choiceParameter(std::string key, std::string title, std::string help,
                                       std::vector<std::string> choices, std::vector<std::string> titles = {})
{
    MethodParameter p = numberParameter(std::move(key), std::move(title), std::move(help), 0.0,
                                        static_cast<double>(choices.size()) - 1.0, 0);
    p.choices = std::move(choices);
    p.choiceTitles = std::move(titles);
    return p;
}

/// Parameter values by key (a choice as its index). A missing key is the default.
using ParameterValues = std::map<std::string, double>;

/// What a method computes from: the stage's inputs.
struct WeightMethodInput {
    const Mesh& mesh;                 ///< #V vertices, #F triangles.
    const Skeleton& skeleton;         ///< The rig (>= 2 joints).
    const VoxelGrid* solid;           ///< The filled voxel solid, may be null.
    const Segmentation& segmentation; ///< Always computed (the twist deformer needs it).
    const Progress& progress;
    /// #J: which joints may get weight (deform_joints.h); empty: every joint.
    /// Methods with bones (heat, geodesic voxel) leave the others' bones out.
    const std::vector<bool>& deforming;
};

/// What a method returns: the weights and what it had to do to get them.
struct WeightMethodResult {
    SkinWeights weights;              ///< #V rows, non-negative, summing to 1.
    int unreachedVertices = 0;        ///< Vertices no bone reached (bound to their nearest).
    std::vector<RigidPart> rigidParts;///< Parts bound rigidly to one bone.
};

/// A row of the weight-method table.
struct WeightMethod {
    std::string id;                       ///< Stable: "gaussian", "heat".
    std::string title;                    ///< "Bone heat (Baran & Popović 2007)".
    std::string reference;                ///< The paper and section it implements.
    bool needsSegmentation = false;       ///< Reads `WeightMethodInput::segmentation`.
    std::vector<MethodParameter> parameters;
    /// Computes the weights from values checked by `checkParameters()`.
    std::function<WeightMethodResult(const WeightMethodInput&, const ParameterValues&)> compute;
    /// The method's typed options (an `std::any` of its struct) from values.
    std::function<std::any(const ParameterValues&)> typedOptions;
    /// Values from the method's typed options (an `std::any` of its struct).
    std::function<ParameterValues(const std::any&)> valuesOf;
};

/// The value of `key` in `values`, else its default.
/// @throws rig::InvalidInput (naming `owner`) when `parameters` has no such key.
double parameterValue(const std::vector<MethodParameter>& parameters, const ParameterValues& values,
                      const std::string& key, const std::string& owner);

/// Checks every value against its parameter: known key, finite, in range,
/// whole for integers and choices.
/// @throws rig::InvalidInput naming `owner`, the key, the value and the range.
void checkParameters(const std::vector<MethodParameter>& parameters, const ParameterValues& values,
                     const std::string& owner);

/// Binds the parameters of a method to the fields of its options struct, once.
/// Fields may be floating point, integers, bool or enums (a choice).
template <class Options>
class ParameterSet {
public:
    template <class T>
    ParameterSet& add(MethodParameter p, T Options::*field)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        p.defaultValue = toNumber(Options{}.*field);
        m_parameters.push_back(std::move(p));
        m_get.push_back([field](const Options& o) { return toNumber(o.*field); });
        m_set.push_back([field](Options& o, double v) { o.*field = fromNumber<T>(v); });
        return *this;
    }
    const std::vector<MethodParameter>& parameters() const { return m_parameters; }
    /// The options with `values` over the defaults.
    Options options(const ParameterValues& values) const
    {
        Options o;
        for (size_t i = 0; i < m_parameters.size(); ++i)
            if (auto it = values.find(m_parameters[i].key); it != values.end())
                m_set[i](o, it->second);
        return o;
    }
    /// Every parameter's value in `o`.
    ParameterValues values(const Options& o) const
    {
        ParameterValues v;
        for (size_t i = 0; i < m_parameters.size(); ++i)
            v[m_parameters[i].key] = m_get[i](o);
        return v;
    }

private:
    template <class T>
    static double toNumber(T value)
    {
        if constexpr (std::is_enum_v<T>)
            return static_cast<double>(static_cast<int>(value));
        else
            return static_cast<double>(value);
    }
    template <class T>
    static T fromNumber(double v)
    {
        if constexpr (std::is_enum_v<T>)
            return static_cast<T>(static_cast<int>(std::lround(v)));
        else if constexpr (std::is_same_v<T, bool>)
            return v != 0.0;
        else if constexpr (std::is_integral_v<T>)
            return static_cast<T>(std::lround(v));
        else
            return static_cast<T>(v);
    }
    std::vector<MethodParameter> m_parameters;
    std::vector<std::function<double(const Options&)>> m_get;
    std::vector<std::function<void(Options&, double)>> m_set;
};

/// A table row from a typed method: `compute(input, options)` with the
/// options built from the row's parameter values.
template <class Options>
WeightMethod makeWeightMethod(std::string id, std::string title, std::string reference, bool needsSegmentation,
                              const ParameterSet<Options>& set,
                              std::function<WeightMethodResult(const WeightMethodInput&, const Options&)> compute)
{
    WeightMethod m;
    m.id = std::move(id);
    m.title = std::move(title);
    m.reference = std::move(reference);
    m.needsSegmentation = needsSegmentation;
    m.parameters = set.parameters();
    m.compute = [set, compute](const WeightMethodInput& in, const ParameterValues& v) {
        return compute(in, set.options(v));
    };
    m.typedOptions = [set](const ParameterValues& v) { return std::any(set.options(v)); };
    m.valuesOf = [set](const std::any& o) { return set.values(std::any_cast<const Options&>(o)); };
    return m;
}

} // namespace rig
