#pragma once
/// @file guarded_import.h
/// Importing a foreign file (every format Assimp reads) in a child process, so
/// that a reader that crashes, aborts, loops or eats all memory on a hostile
/// file ends in one clear message instead of taking the application - and the
/// artist's unsaved work - with it (issue 21: 31 crashing mutants in 5 Assimp
/// 5.2.5 sites, 2 hang classes, stack and memory exhaustion).
///
/// The child is the small `rigsmith-import` executable (app/rigsmith_import.cpp,
/// built from the same sources), which runs `importCharacter()` and streams the
/// result back on a pipe (core/import/character_stream.h) with progress records
/// before it. The parent (this file, POSIX fork/exec, no Qt) runs it under
/// limits: a wall-clock timeout, an address-space cap (RLIMIT_AS) and a stack
/// size (RLIMIT_STACK); cancellation kills it at once. The child dies with
/// the parent (PR_SET_PDEATHSIG). Formats Rigsmith reads itself (project, rig,
/// weights, BVH clips) stay in-process.

#include "core/common/progress.h"
#include "core/import/mesh_import.h"

#include <cstdint>
#include <string>

namespace rig {

/// How a foreign file is read.
struct GuardedImportOptions {
    /// Read in the importer process (true) or in this one (false, as the
    /// importer itself does). $RIGSMITH_IMPORT_IN_PROCESS=1 sets false.
    bool isolate = true;
    /// The importer executable. Empty: $RIGSMITH_IMPORTER, else
    /// `rigsmith-import` beside the running executable, else the one in the
    /// build tree. When none exists the file is read in-process.
    std::string importer;
    /// Wall-clock limit in seconds; $RIGSMITH_IMPORT_TIMEOUT overrides the default.
    double timeoutSeconds = 60.0;
    /// Address-space cap of the child in bytes; 0: half the physical memory
    /// ($RIGSMITH_IMPORT_MEMORY_MB overrides). Not applied under AddressSanitizer,
    /// which reserves terabytes of address space.
    std::uint64_t memoryBytes = 0;
    /// Stack size of the child in bytes: the usual 8 MiB, set explicitly (not
    /// inherited): deep recursion in a reader (Assimp's BVH reader on 40,000
    /// nested joints) ends at once in a crash message rather than running on
    /// to the timeout.
    std::uint64_t stackBytes = std::uint64_t(8) << 20;
    /// Where the importer's own diagnostics go: what Assimp and the C library
    /// print on its stderr ("ai_assert failure in ...", "free(): double free
    /// detected") is appended to this file after a line naming the file read,
    /// never to this process's stderr (the command line's messages stay ours).
    /// Empty: $RIGSMITH_IMPORT_LOG, else $XDG_STATE_HOME/rigsmith/import.log
    /// (~/.local/state/rigsmith/import.log); dropped when it cannot be written.
    std::string logPath;
};

/// The file the importer's diagnostics are appended to (see `logPath`).
std::string importLogPath(const GuardedImportOptions& options);

/// The options with the environment's overrides applied (see the fields).
GuardedImportOptions guardedImportDefaults();

/// How to read a character unless told otherwise: `ImportOptions{}` with
/// $RIGSMITH_MAX_TRIANGLES (a positive count) as `maxTriangles`.
ImportOptions importDefaults();

/// The advice of a refusal for too many triangles: how to raise the limit.
inline constexpr const char* kRaiseTriangleLimit =
    "decimate it first, or raise the limit with the environment variable RIGSMITH_MAX_TRIANGLES=N";

/// The address-space cap the child runs under (`memoryBytes`, or half the
/// physical memory); 0 (none) in builds with AddressSanitizer.
std::uint64_t importMemoryCap(const GuardedImportOptions& options);

/// The importer executable `options` resolve to; empty when none is found.
std::string findImporter(const GuardedImportOptions& options);

/// `importCharacter(path, import, progress)` in the importer process, after a
/// pre-scan (core/import/declared_size.h) refuses a file with more triangles than
/// `import.maxTriangles` before any reader starts.
/// @throws rig::IoError naming the file and what happened when the child
///         crashed ("the PLY reader crashed on this file (SIGSEGV)"), aborted,
///         ran past the timeout ("reading took longer than 60 s"), hit the
///         memory cap ("reading needed more than 8.0 GB of memory") or could
///         not be started, adding where the reader's own messages were logged
///         when it printed any; the child's own IoError / InvalidInput unchanged.
/// @throws rig::Cancelled when `progress` asks to stop (the child is killed).
ImportedCharacter importCharacterGuarded(const std::string& path, const ImportOptions& import = importDefaults(),
                                         const GuardedImportOptions& options = guardedImportDefaults(),
                                         const Progress& progress = {});

/// The importer's side (core/import/importer_child.cpp, linked by rigsmith-import):
/// `importCharacter()` with its records written to `fd` (progress, then the
/// character or the error). Returns the process exit code.
int runImporterChild(const std::string& path, const ImportOptions& import, int fd);

/// The importer's exit code when an allocation failed.
inline constexpr int kImporterOutOfMemoryExit = 3;

} // namespace rig
