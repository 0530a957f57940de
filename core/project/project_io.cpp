#include "core/project/project_io.h"

#include "core/common/error.h"

#include <algorithm>
#include <filesystem>

namespace rig {
namespace {

std::string_view functionName(WeightFunction f)
{
    switch (f) {
    case WeightFunction::Gaussian: return "gaussian";
    case WeightFunction::Linear: return "linear";
    case WeightFunction::Smoothstep: return "smoothstep";
    }
    return "gaussian";
}

WeightFunction parseFunction(const std::string& name)
{
    if (name == "gaussian")
        return WeightFunction::Gaussian;
    if (name == "linear")
        return WeightFunction::Linear;
    if (name == "smoothstep")
        return WeightFunction::Smoothstep;
    throw InvalidInput("rig::weightOptionsFrom(): \"gaussian.function\" must be gaussian, linear or smoothstep, got '" +
                       name + "'");
}

/// The saved weights, if they fit the mesh and the rig (else a note says why not).
std::optional<SkinWeights> savedWeights(const ProjectFile& file, int vertices, int joints,
                                        std::vector<std::string>& notes)
{
    if (!file.computedWeights)
        return std::nullopt;
    try {
        validateSkinWeights(*file.computedWeights, vertices, joints);
    } catch (const InvalidInput& e) {
        notes.push_back(std::string("the saved weights do not fit the mesh and rig and were dropped (") + e.what() +
                        "); compute them again");
        return std::nullopt;
    }
    return file.computedWeights;
}

} // namespace

std::string facingName(const Vec3& front)
{
    const std::pair<const char*, Vec3> axes[] = {
        {"+z", Vec3::UnitZ()}, {"-z", -Vec3::UnitZ()}, {"+x", Vec3::UnitX()}, {"-x", -Vec3::UnitX()}};
    const auto best = std::max_element(std::begin(axes), std::end(axes),
                                       [&](const auto& a, const auto& b) { return a.second.dot(front) < b.second.dot(front); });
    return best->first;
}

ProjectWeightSettings weightSettings(const WeightOptions& o)
{
    ProjectWeightSettings s;
    s.method = std::string(weightMethodName(o.method));
    s.names["segmentation.method"] = std::string(segmentationMethodName(o.segmentation.method));
    s.numbers["segmentation.hierarchyLevel"] = o.segmentation.hierarchyLevel;
    s.numbers["segmentation.maxNormalAngleDegrees"] = o.segmentation.maxNormalAngleDegrees;
    s.numbers["segmentation.mergeRegions"] = o.segmentation.mergeRegions ? 1 : 0;
    s.numbers["segmentation.rigidPartSize"] = o.segmentation.rigidPartSize;
    s.names["gaussian.function"] = std::string(functionName(o.gaussian.function));
    s.numbers["gaussian.hierarchyLevel"] = o.gaussian.hierarchyLevel;
    s.numbers["gaussian.a"] = o.gaussian.a;
    s.numbers["gaussian.b"] = o.gaussian.b;
    s.numbers["gaussian.c"] = o.gaussian.c;
    s.numbers["gaussian.maxInfluences"] = o.gaussian.maxInfluences;
    s.numbers["gaussian.smoothingIterations"] = o.gaussian.smoothingIterations;
    s.numbers["gaussian.minRelativeWeight"] = o.gaussian.minRelativeWeight;
    s.numbers["heat.heatConstant"] = o.heat.heatConstant;
    s.numbers["heat.visibilityTolerance"] = o.heat.visibilityTolerance;
    s.numbers["heat.leafBoneLength"] = o.heat.leafBoneLength;
    s.numbers["heat.minWeight"] = o.heat.minWeight;
    s.numbers["heat.maxInfluences"] = o.heat.maxInfluences;
    s.numbers["heat.minPartVertices"] = o.heat.minPartVertices;
    s.numbers["heat.smallPartSize"] = o.heat.smallPartSize;
    return s;
}

WeightOptions weightOptionsFrom(const ProjectWeightSettings& s)
{
    WeightOptions o;
    o.method = parseWeightMethod(s.method);
    if (auto it = s.names.find("segmentation.method"); it != s.names.end())
        o.segmentation.method = parseSegmentationMethod(it->second);
    if (auto it = s.names.find("gaussian.function"); it != s.names.end())
        o.gaussian.function = parseFunction(it->second);
    auto number = [&](const char* key, auto& field) {
        if (auto it = s.numbers.find(key); it != s.numbers.end()) {
            using T = std::decay_t<decltype(field)>;
            if constexpr (std::is_same_v<T, bool>)
                field = it->second != 0;
            else if constexpr (std::is_integral_v<T>)
                field = static_cast<T>(std::lround(it->second));
            else
                field = it->second;
        }
    };
    number("segmentation.hierarchyLevel", o.segmentation.hierarchyLevel);
    number("segmentation.maxNormalAngleDegrees", o.segmentation.maxNormalAngleDegrees);
    number("segmentation.mergeRegions", o.segmentation.mergeRegions);
    number("segmentation.rigidPartSize", o.segmentation.rigidPartSize);
    number("gaussian.hierarchyLevel", o.gaussian.hierarchyLevel);
    number("gaussian.a", o.gaussian.a);
    number("gaussian.b", o.gaussian.b);
    number("gaussian.c", o.gaussian.c);
    number("gaussian.maxInfluences", o.gaussian.maxInfluences);
    number("gaussian.smoothingIterations", o.gaussian.smoothingIterations);
    number("gaussian.minRelativeWeight", o.gaussian.minRelativeWeight);
    number("heat.heatConstant", o.heat.heatConstant);
    number("heat.visibilityTolerance", o.heat.visibilityTolerance);
    number("heat.leafBoneLength", o.heat.leafBoneLength);
    number("heat.minWeight", o.heat.minWeight);
    number("heat.maxInfluences", o.heat.maxInfluences);
    number("heat.minPartVertices", o.heat.minPartVertices);
    number("heat.smallPartSize", o.heat.smallPartSize);
    return o;
}

ProjectFile projectFileFrom(const RigProject& project, const ProjectSaveState& state)
{
    if (!project.character())
        throw InvalidInput("rig::projectFileFrom(): no character is loaded; nothing to save");
    ProjectFile f;
    f.meshPath = project.character()->source;
    if (!isDefaultCharacterSpec(f.meshPath)) {
        f.meshHash = fileHash(f.meshPath);
        std::error_code ec;
        const auto size = std::filesystem::file_size(f.meshPath, ec);
        f.meshBytes = ec ? 0 : size;
    }
    f.resolution = project.curveSkeletonOptions().voxelize.resolution;
    f.facing = facingName(project.front());
    f.templateSpec = !state.templateSpec.empty() ? state.templateSpec
                     : project.rigTemplate()     ? project.rigTemplate()->name
                                                 : std::string("humanoid21");
    if (project.rig()) {
        const EndNodeLabels& l = project.labels();
        if (std::any_of(l.nodes.begin(), l.nodes.end(), [](int n) { return n >= 0; }))
            f.labels = l;
        f.rig = project.rig()->skeleton;
    }
    f.weights = weightSettings(project.weightOptions());
    f.clipPath = !state.clipPath.empty() ? state.clipPath : project.clip() ? project.clip()->path : std::string();
    f.camera = state.camera;
    if (state.includeWeights && project.skinning())
        f.computedWeights = project.skinning()->weights;
    return f;
}

RestoredProject restoreProject(const ProjectFile& file, const Progress& progress)
{
    RestoredProject r;
    r.mesh = checkProjectMesh(file);
    if (r.mesh.status == MeshStatus::Missing)
        throw IoError(r.mesh.message);
    if (r.mesh.status == MeshStatus::Changed)
        r.notes.push_back(r.mesh.message);
    RigProject& p = r.project;
    p.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter(file.meshPath, progress)));
    CurveSkeletonOptions options = p.curveSkeletonOptions();
    options.voxelize.resolution = file.resolution;
    p.setCurveSkeletonOptions(options);
    p.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(p, progress)));
    p.setFront(parseFacing(file.facing));
    try {
        p.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(file.templateSpec)));
    } catch (const Error& e) {
        r.notes.push_back("the template '" + file.templateSpec + "' could not be loaded (" + e.what() +
                          "); the saved joints are kept, humanoid21 is used for re-fitting");
    }
    p.setWeightOptions(weightOptionsFrom(file.weights));

    if (file.rig) {
        // The saved joints win over a re-fit: they carry the artist's edits.
        // The fit is still run (when the labels allow) for the chains and the
        // joint-to-node map the rig tools use.
        auto rig = std::make_shared<FitResult>();
        EndNodeLabels labels;
        if (file.labels) {
            try {
                *rig = fitRig(p, *file.labels);
                labels = *file.labels;
            } catch (const InvalidInput& e) {
                r.notes.push_back(std::string("the saved labels do not fit the curve skeleton (") + e.what() +
                                  "); the saved joints are kept without labels");
                *rig = FitResult{};
            }
        }
        if (rig->skeleton.names != file.rig->names || rig->skeleton.parents != file.rig->parents) {
            rig->jointNode.assign(static_cast<size_t>(file.rig->jointCount()), -1);
        } else {
            // A joint the artist moved is no longer tied to its node (as `moveJoint()` leaves it).
            for (int j = 0; j < file.rig->jointCount(); ++j)
                if (file.rig->bindPositions.row(j) != rig->skeleton.bindPositions.row(j))
                    rig->jointNode[static_cast<size_t>(j)] = -1;
        }
        rig->skeleton = *file.rig;
        rig->front = p.front();
        p.setRig(labels, rig);
        r.weights = savedWeights(file, p.character()->imported.mesh.vertexCount(), file.rig->jointCount(), r.notes);
    } else if (file.labels) {
        try {
            p.setRig(*file.labels, std::make_shared<const FitResult>(fitRig(p, *file.labels)));
        } catch (const InvalidInput& e) {
            r.notes.push_back(std::string("the saved labels do not fit the curve skeleton (") + e.what() + ")");
        }
    }
    r.clipPath = file.clipPath;
    r.camera = file.camera;
    return r;
}

} // namespace rig
