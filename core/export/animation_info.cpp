// readAnimationInfo() (declared in gltf_export.h): reading back what an export
// wrote, through Assimp. Its own file so that linking the glTF writer does not
// link the Assimp reader (the headless `rigsmith` reads files only in the
// importer process, core/import/guarded_import.h).
#include "core/export/gltf_export.h"

#include "core/common/error.h"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <algorithm>

namespace rig {

std::vector<ImportedAnimationInfo> readAnimationInfo(const std::string& path)
{
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene)
        throw IoError(path + ": cannot read the file's animations (" + importer.GetErrorString() + ")");
    std::vector<ImportedAnimationInfo> out;
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        const aiAnimation* an = scene->mAnimations[a];
        ImportedAnimationInfo info;
        info.name = an->mName.C_Str();
        const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 1.0;
        info.durationSeconds = an->mDuration / tps;
        info.channels = static_cast<int>(an->mNumChannels);
        for (unsigned c = 0; c < an->mNumChannels; ++c) {
            const aiNodeAnim* ch = an->mChannels[c];
            info.maxKeys = std::max({info.maxKeys, static_cast<int>(ch->mNumRotationKeys),
                                     static_cast<int>(ch->mNumPositionKeys), static_cast<int>(ch->mNumScalingKeys)});
        }
        out.push_back(info);
    }
    return out;
}

} // namespace rig
