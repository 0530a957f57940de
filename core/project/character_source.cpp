#include "core/project/character_source.h"

#include "core/common/error.h"
#include "core/import/guarded_import.h"

#include <filesystem>

namespace rig {

bool isDefaultCharacterSpec(const std::string& spec)
{
    return spec == "default" || spec.rfind("default:", 0) == 0 || spec.rfind("default+", 0) == 0;
}

LoadedCharacter loadCharacter(const std::string& spec, const Progress& progress)
{
    return loadCharacter(spec, guardedImportDefaults(), progress);
}

LoadedCharacter loadCharacter(const std::string& spec, const GuardedImportOptions& guard, const Progress& progress)
{
    LoadedCharacter out;
    out.source = spec;
    if (!isDefaultCharacterSpec(spec)) {
        // Foreign formats are read by Assimp in the importer process: a reader that
        // crashes or hangs on a hostile file costs a message, not the session.
        out.imported = importCharacterGuarded(spec, importDefaults(), guard, progress);
        out.displayName = std::filesystem::path(spec).filename().string();
        out.stats = meshStats(out.imported.mesh);
        return out;
    }
    HumanoidOptions options;
    std::string poseSpec = spec;
    if (const auto plus = spec.find('+'); plus != std::string::npos) { // "default:a+skirt", "default+robe+props"
        poseSpec = spec.substr(0, plus);
        for (size_t at = plus; at != std::string::npos;) {
            const size_t next = spec.find('+', at + 1);
            const std::string g = spec.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
            at = next;
            if (g == "props") {
                options.props = true;
                continue;
            }
            const auto garment = parseHumanoidGarment(g);
            if (!garment)
                throw InvalidInput("unknown option '" + g + "' in '" + spec + "'; valid: skirt, robe, props");
            options.garment = *garment;
        }
    }
    if (poseSpec != "default") {
        const std::string name = poseSpec.substr(8);
        const auto pose = parseHumanoidPose(name);
        if (!pose) {
            std::string valid;
            for (HumanoidPose p : allHumanoidPoses())
                valid += (valid.empty() ? "" : ", ") + std::string(humanoidPoseName(p));
            throw InvalidInput("unknown pose '" + name + "' in '" + spec + "'; valid poses: " + valid);
        }
        options.pose = *pose;
    }
    progress.update("generate", 0.0);
    Humanoid h = generateHumanoid(options);
    progress.update("generate", 1.0);
    out.imported.mesh = h.mesh;
    out.imported.info.path = spec;
    out.imported.info.format = "procedural";
    out.imported.info.upAxis = "+Y";
    out.imported.info.fileVertices = h.mesh.vertexCount();
    out.imported.info.fileMeshes = 1;
    out.imported.info.weldMap.resize(static_cast<size_t>(h.mesh.vertexCount()));
    for (int i = 0; i < h.mesh.vertexCount(); ++i)
        out.imported.info.weldMap[i] = i;
    out.displayName = "Default character (" + std::string(humanoidPoseName(h.pose)) + "-pose" +
                      (options.garment == HumanoidGarment::LongSkirt ? ", long skirt"
                       : options.garment == HumanoidGarment::Robe    ? ", robe"
                                                                     : "") +
                      (options.props ? ", props" : "") + ")";
    out.groundTruth = std::move(h);
    out.stats = meshStats(out.imported.mesh);
    return out;
}

} // namespace rig
