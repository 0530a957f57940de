// The crashers of the issue-21 campaign (tests/fuzz/crashers/import: truncated
// and bit-flipped PLY, .X and FBX files on which Assimp 5.2.5 crashes, aborts
// or loops forever), replayed through the importer process: each must end in
// a rig::Error naming the file within the timeout, and this process survives.
// The files use the import_fuzz format: the first byte picks the extension.
#include "core/import/guarded_import.h"

#include "core/common/error.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace rig {
namespace {

namespace fs = std::filesystem;

TEST(ImportCrashers, EveryCrasherEndsInAMessageNamingTheFile)
{
    const fs::path dir = fs::path(rig::test::sourcePath("tests/fuzz/crashers/import"));
    const char* const extensions[] = {".ply", ".obj", ".gltf", ".x", ".fbx"};
    GuardedImportOptions options;
    options.timeoutSeconds = 3.0;
    options.memoryBytes = std::uint64_t(1) << 30;
    // What the readers print (an ai_assert failure, glibc's heap reports) goes
    // to this log, not to the user's (issue 47).
    options.logPath = (fs::temp_directory_path() / "rigsmith_crashers_import.log").string();
    int replayed = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        const std::string data = bytes.str();
        ASSERT_FALSE(data.empty()) << entry.path();
        const fs::path file = fs::temp_directory_path() / ("rigsmith_crasher_" + entry.path().filename().string() +
                                                           extensions[static_cast<unsigned char>(data[0]) % 5]);
        std::ofstream(file, std::ios::binary) << data.substr(1);
        const auto start = std::chrono::steady_clock::now();
        std::string message;
        try {
            importCharacterGuarded(file.string(), {}, options);
            message = "(read)";
        } catch (const Error& e) {
            message = e.what();
            EXPECT_NE(message.find(file.string()), std::string::npos) << message;
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << entry.path().filename().string() << ": " << message << " (" << seconds << " s)\n";
        EXPECT_LT(seconds, options.timeoutSeconds + 5.0);
        fs::remove(file);
        ++replayed;
    }
    EXPECT_GT(replayed, 0);
    fs::remove(options.logPath);
}

} // namespace
} // namespace rig
