#include "core/project/project_io.h"

#include "core/project/pipeline.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace rig {
namespace {

/// Writes one group's parameters as "<group>.<key>": choices by name, the rest as numbers.
void putGroup(ProjectWeightSettings& s, const std::string& group, const std::vector<MethodParameter>& parameters,
              const ParameterValues& values)
{
    for (const MethodParameter& p : parameters) {
        const double v = parameterValue(parameters, values, p.key, group);
        if (p.choices.empty())
            s.numbers[group + "." + p.key] = v;
        else
            s.names[group + "." + p.key] = p.choices[static_cast<size_t>(std::lround(v))];
    }
}

/// "a, b or c".
std::string alternatives(const std::vector<std::string>& names)
{
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
}

/// Reads one group's parameters; keys the file lacks keep their defaults.
ParameterValues getGroup(const ProjectWeightSettings& s, const std::string& group,
                         const std::vector<MethodParameter>& parameters)
{
    ParameterValues values;
    for (const MethodParameter& p : parameters) {
        const std::string key = group + "." + p.key;
        if (p.choices.empty()) {
            if (auto it = s.numbers.find(key); it != s.numbers.end())
                values[p.key] = p.decimals == 0 ? std::round(it->second) : it->second;
            continue;
        }
        const auto it = s.names.find(key);
        if (it == s.names.end())
            continue;
        const auto c = std::find(p.choices.begin(), p.choices.end(), it->second);
        if (c == p.choices.end())
            throw InvalidInput("rig::weightOptionsFrom(): \"" + key + "\" must be " + alternatives(p.choices) +
                               ", got '" + it->second + "'");
        values[p.key] = static_cast<double>(c - p.choices.begin());
    }
    return values;
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

/// The saved part bindings whose part is still there under the same name;
/// each other one is dropped with a note naming it.
std::vector<PartBinding> matchingPartBindings(const std::vector<PartBinding>& saved,
                                              const std::vector<CharacterPart>& parts, std::vector<std::string>& notes)
{
    std::vector<PartBinding> kept;
    for (const PartBinding& b : saved) {
        if (b.part >= 0 && static_cast<size_t>(b.part) < parts.size() &&
            parts[static_cast<size_t>(b.part)].name == b.partName)
            kept.push_back(b);
        else
            notes.push_back("the part '" + b.partName + "' bound to " + b.joint +
                            " is not in the character any more; its binding is dropped");
    }
    return kept;
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
    s.method = o.method;
    putGroup(s, "segmentation", segmentationParameters(), segmentationValues(o.segmentation));
    for (const WeightMethod& m : weightMethods())
        putGroup(s, m.id, m.parameters, o.valuesOf(m.id));
    return s;
}

WeightOptions weightOptionsFrom(const ProjectWeightSettings& s)
{
    WeightOptions o;
    o.method = findWeightMethod(s.method).id;
    o.segmentation = segmentationOptions(getGroup(s, "segmentation", segmentationParameters()));
    for (const WeightMethod& m : weightMethods())
        if (ParameterValues v = getGroup(s, m.id, m.parameters); !v.empty())
            o.parameters[m.id] = std::move(v);
    checkWeightOptions(o);
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
    f.orientationUp = project.orientation().up;
    f.orientationFacing = project.orientation().facing;
    f.orientationShapeWhereSilent = project.orientation().shapeWhereFileIsSilent;
    f.templateSpec = !state.templateSpec.empty() ? state.templateSpec
                     : project.rigTemplate()     ? project.rigTemplate()->name
                                                 : std::string("humanoid21");
    f.fingerMode = fingerModeId(project.fingerOptions().mode);
    f.fingerCount = project.fingerOptions().count;
    if (project.rig()) {
        const EndNodeLabels& l = project.labels();
        if (std::any_of(l.nodes.begin(), l.nodes.end(), [](int n) { return n >= 0; }))
            f.labels = l;
        f.rig = project.rig()->skeleton;
    }
    f.weights = weightSettings(project.weightOptions());
    f.partBindings = project.partBindings();
    f.deformer = project.deformer();
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
    p.setCharacterSpec(file.meshPath);
    // The frame the saved joints are in.
    p.setOrientation({file.orientationUp, file.orientationFacing, file.orientationShapeWhereSilent});
    CurveSkeletonOptions options = p.curveSkeletonOptions();
    options.voxelize.resolution = file.resolution;
    p.setCurveSkeletonOptions(options);
    runStages(p, Stage::Load, Stage::Skeleton, progress);
    p.setFront(parseFacing(file.facing));
    try {
        p.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(file.templateSpec)));
    } catch (const Error& e) {
        r.notes.push_back("the template '" + file.templateSpec + "' could not be loaded (" + e.what() +
                          "); the saved joints are kept, humanoid21 is used for re-fitting");
    }
    try {
        p.setFingerOptions({.mode = parseFingerMode(file.fingerMode), .count = file.fingerCount});
    } catch (const InvalidInput& e) {
        r.notes.push_back(std::string("the saved fingers could not be read (") + e.what() + "); no fingers are fitted");
    }
    p.setWeightOptions(weightOptionsFrom(file.weights));
    try { // a deformer of a newer build or a plug-in this one lacks: the project still opens
        p.setDeformer(file.deformer);
    } catch (const InvalidInput& e) {
        r.notes.push_back(std::string("the saved deformer could not be used (") + e.what() + "); " +
                          std::string(RigProject::defaultDeformer) + " is used");
    }
    p.setPartBindings(matchingPartBindings(file.partBindings, characterParts(p.character()->imported), r.notes));

    if (file.rig) {
        try {
            validateSkeletonNearMesh(*file.rig, p.character()->stats.bounds);
        } catch (const InvalidInput& e) {
            throw InvalidInput(std::string("the saved rig does not fit the mesh ") + file.meshPath + ": " + e.what());
        }
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
