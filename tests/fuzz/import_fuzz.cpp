// libFuzzer target for the import of foreign files end to end: the bytes are
// written to a file (the first byte picks the extension: 0 .ply, 1 .obj,
// 2 .gltf, 3 .x, 4 .fbx, modulo 5) and read through the importer process (core/import/guarded_import.h) under
// a 5 s timeout and a 1 GB memory cap. Whatever Assimp does in the child -
// crash, abort, loop, allocate - the parent must survive and report with a
// rig::Error naming the file; anything else escaping, or a crash of this
// process, is a finding. The importer is $RIGSMITH_IMPORTER (scripts/fuzz.sh
// sets the one of the normal build). Run with scripts/fuzz.sh.

#include "core/common/error.h"
#include "core/import/guarded_import.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

const char* const kExtensions[] = {".ply", ".obj", ".gltf", ".x", ".fbx"};

rig::GuardedImportOptions options()
{
    rig::GuardedImportOptions o;
    const char* importer = std::getenv("RIGSMITH_IMPORTER");
    if (!importer || !*importer) {
        std::fprintf(stderr, "import_fuzz: set RIGSMITH_IMPORTER to the rigsmith-import of a normal build\n");
        std::abort();
    }
    o.importer = importer;
    o.timeoutSeconds = 5.0;
    o.memoryBytes = std::uint64_t(1) << 30;
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const rig::GuardedImportOptions guard = options();
    if (size == 0)
        return 0;
    static const std::string folder = std::filesystem::temp_directory_path().string();
    const std::string path = folder + "/rigsmith_import_fuzz_" + std::to_string(::getpid()) + kExtensions[data[0] % 5];
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data) + 1, static_cast<std::streamsize>(size - 1));
    }
    try {
        const rig::ImportedCharacter c = rig::importCharacterGuarded(path, {}, guard);
        if (c.mesh.vertexCount() == 0 || c.mesh.triangleCount() == 0 ||
            static_cast<int>(c.info.weldMap.size()) != c.info.fileVertices)
            std::abort(); // import promises a non-empty mesh and a full weld map
    } catch (const rig::Error& e) {
        if (std::string(e.what()).find(path) == std::string::npos && std::string(e.what()) != "cancelled")
            std::abort(); // every message names the file
    }
    std::remove(path.c_str());
    return 0;
}
