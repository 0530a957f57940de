#include "core/import/guarded_import.h"

#include "core/common/error.h"
#include "core/import/character_stream.h"
#include "core/import/declared_size.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <new>
#include <vector>

#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RIGSMITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIGSMITH_ASAN 1
#endif
#endif

namespace rig {

// Weak: an executable that only ever reads foreign files in the importer
// process (the headless `rigsmith`) does not link the Assimp reader, nor load
// libassimp at start-up (8 ms of every command, issue 20); the in-process
// fallback below is then unavailable and says so. Executables that link
// core/import/mesh_import (the importer, the tests, the window) keep it.
ImportedCharacter importCharacter(const std::string& path, const ImportOptions& options, const Progress& progress)
    __attribute__((weak));

namespace {

namespace fs = std::filesystem;

// Records on the pipe, child to parent: a tag byte, then
//   'P' u32 length, step text, double fraction   progress
//   'C' u64 length, character stream             the result (last record)
//   'E' u8 kind (1 IoError, 2 InvalidInput, 3 other), u32 length, message (last record)
//   'M'                                          an allocation failed: the memory cap (last record)

std::string formatName(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    if (!ext.empty())
        ext.erase(0, 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::toupper(c); });
    return ext.empty() ? std::string("file") : ext;
}

std::string gigabytes(std::uint64_t bytes)
{
    char buf[32];
    if (bytes < 1'000'000'000)
        std::snprintf(buf, sizeof buf, "%.0f MB", static_cast<double>(bytes) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f GB", static_cast<double>(bytes) / 1e9);
    return buf;
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", s);
    return buf;
}

[[maybe_unused]] std::uint64_t physicalMemory()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size)
                                 : std::uint64_t(8) << 30;
}

std::string signalName(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    }
    return "signal " + std::to_string(sig);
}

/// Kills and reaps the child.
void killChild(pid_t pid)
{
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

/// Refuses a file that holds more triangles than `import` allows by a cheap
/// pre-scan (core/import/declared_size.h), before any reader starts: a
/// 10-million-triangle file was refused only after loading it whole.
/// Returns what the pre-scan found.
std::optional<DeclaredSize> checkDeclaredSize(const std::string& path, const ImportOptions& import)
{
    const std::optional<DeclaredSize> size = declaredSize(path, import.maxTriangles);
    if (!size || size->triangles <= import.maxTriangles)
        return size;
    throw InvalidInput(path + ": " + size->source + " " +
                       (size->atLeast ? "more than " + std::to_string(import.maxTriangles)
                                      : std::to_string(size->triangles)) +
                       " " + size->what + "; at most " + std::to_string(import.maxTriangles) + " are read (" +
                       kRaiseTriangleLimit + "). Refused before reading it");
}

/// Refuses a character whose reader returned far fewer triangles than the
/// file declares (`fallsShort()`): what came back is not the file's character.
ImportedCharacter checkReturnedSize(ImportedCharacter character, const std::optional<DeclaredSize>& declared,
                                    const std::string& path)
{
    if (!declared)
        return character;
    std::int64_t returned = 0;
    for (const SourceMesh& m : character.source.meshes)
        returned += m.F.rows();
    if (character.source.meshes.empty())
        returned = character.mesh.F.rows() + character.info.collapsedTriangles;
    if (fallsShort(*declared, returned))
        throw InvalidInput(path + ": the " + formatName(path) + " reader returned " + std::to_string(returned) +
                           (returned == 1 ? " triangle" : " triangles") + ", but " + declared->source + " " +
                           std::to_string(declared->triangles) + ": the reader misread the file (corrupt, or a variant it does not understand). "
                           "Nothing was read; re-export the file, or try another format");
    return character;
}

} // namespace

ImportOptions importDefaults()
{
    ImportOptions o;
    if (const char* e = std::getenv("RIGSMITH_MAX_TRIANGLES")) {
        char* end = nullptr;
        const long long n = std::strtoll(e, &end, 10);
        if (end != e && *end == '\0' && n > 0)
            o.maxTriangles = static_cast<int>(std::min<long long>(n, std::numeric_limits<int>::max()));
    }
    return o;
}

GuardedImportOptions guardedImportDefaults()
{
    GuardedImportOptions o;
    if (const char* e = std::getenv("RIGSMITH_IMPORT_IN_PROCESS"); e && std::string(e) == "1")
        o.isolate = false;
    if (const char* e = std::getenv("RIGSMITH_IMPORT_TIMEOUT")) {
        char* end = nullptr;
        const double t = std::strtod(e, &end);
        if (end != e && t > 0 && std::isfinite(t))
            o.timeoutSeconds = t;
    }
    if (const char* e = std::getenv("RIGSMITH_IMPORT_MEMORY_MB")) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(e, &end, 10);
        if (end != e && mb > 0)
            o.memoryBytes = mb << 20;
    }
    return o;
}

std::uint64_t importMemoryCap(const GuardedImportOptions& options)
{
#ifdef RIGSMITH_ASAN
    (void)options;
    return 0; // AddressSanitizer reserves far more address space than any cap
#else
    return options.memoryBytes ? options.memoryBytes : physicalMemory() / 2;
#endif
}

std::string findImporter(const GuardedImportOptions& options)
{
    std::vector<std::string> candidates;
    if (!options.importer.empty())
        return ::access(options.importer.c_str(), X_OK) == 0 ? options.importer : std::string();
    if (const char* e = std::getenv("RIGSMITH_IMPORTER"); e && *e)
        candidates.emplace_back(e);
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back((self.parent_path() / "rigsmith-import").string());
#ifdef RIGSMITH_IMPORTER_PATH
    candidates.emplace_back(RIGSMITH_IMPORTER_PATH);
#endif
    for (const std::string& c : candidates)
        if (::access(c.c_str(), X_OK) == 0)
            return c;
    return {};
}

std::string importLogPath(const GuardedImportOptions& options)
{
    if (!options.logPath.empty())
        return options.logPath;
    if (const char* e = std::getenv("RIGSMITH_IMPORT_LOG"); e && *e)
        return e;
    if (const char* e = std::getenv("XDG_STATE_HOME"); e && *e)
        return std::string(e) + "/rigsmith/import.log";
    if (const char* e = std::getenv("HOME"); e && *e)
        return std::string(e) + "/.local/state/rigsmith/import.log";
    return {};
}

namespace {

/// A file descriptor closed when it goes out of scope.
struct UniqueFd {
    int fd = -1;
    explicit UniqueFd(int f) : fd(f) {}
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// What the importer prints on its stderr is kept in memory (its size capped
/// by RLIMIT_FSIZE in the child), then appended to the log by `logDiagnostics()`.
constexpr std::uint64_t kDiagnosticsBytes = std::uint64_t(1) << 20;

/// Appends what the importer printed (if anything) to the log, after a line
/// naming the time and `path`. Returns the log's path when something was
/// written there, else empty (nothing printed, or no log could be opened).
std::string logDiagnostics(int diagnostics, const GuardedImportOptions& options, const std::string& path)
{
    struct stat st {};
    if (diagnostics < 0 || ::fstat(diagnostics, &st) != 0 || st.st_size <= 0)
        return {};
    const std::string log = importLogPath(options);
    if (log.empty())
        return {};
    std::error_code ec;
    fs::create_directories(fs::path(log).parent_path(), ec);
    const UniqueFd out(::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (out.fd < 0)
        return {};
    char when[32] = "";
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    if (::gmtime_r(&now, &tm))
        std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    std::string text = std::string("== ") + when + " rigsmith-import " + path + "\n";
    text.resize(text.size() + static_cast<std::size_t>(std::min<off_t>(st.st_size, kDiagnosticsBytes)));
    const std::size_t head = text.size() - static_cast<std::size_t>(std::min<off_t>(st.st_size, kDiagnosticsBytes));
    const ssize_t n = ::pread(diagnostics, text.data() + head, text.size() - head, 0);
    text.resize(head + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (text.back() != '\n')
        text += '\n';
    return ::write(out.fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? log : std::string();
}

/// The importer's command line and environment, prepared before fork(): after
/// it, in a threaded parent, only async-signal-safe calls are allowed.
struct ImporterCommand {
    std::vector<std::string> args, env;
    std::vector<char*> argv, envp; ///< Null-terminated views of args and env.
};

ImporterCommand importerCommand(const std::string& importer, const std::string& path, const ImportOptions& import)
{
    ImporterCommand c;
    auto number = [](const char* format, auto value) {
        char buf[64];
        std::snprintf(buf, sizeof buf, format, value);
        return std::string(buf);
    };
    c.args = {importer,
              "--out-fd", "3",
              "--weld-tolerance", number("%.17g", import.weldTolerance),
              "--max-triangles", number("%d", import.maxTriangles),
              "--max-animation-frames", number("%d", import.maxAnimationFrames),
              "--recentre-distance", number("%.17g", import.recentreDistance),
              "--precision-fraction", number("%.17g", import.precisionFraction)};
    if (!import.guessUpAxis)
        c.args.emplace_back("--no-guess-up");
    c.args.emplace_back("--");
    c.args.push_back(path);
    // Ours, plus transparent huge pages for malloc (glibc 2.35+; a fresh
    // process page-faults its whole heap, 4 KiB at a time otherwise).
    bool tunables = false;
    for (char** e = environ; *e; ++e) {
        c.env.emplace_back(*e);
        if (c.env.back().rfind("GLIBC_TUNABLES=", 0) == 0) {
            c.env.back() += ":glibc.malloc.hugetlb=1";
            tunables = true;
        }
    }
    if (!tunables)
        c.env.emplace_back("GLIBC_TUNABLES=glibc.malloc.hugetlb=1");
    for (std::string& a : c.args)
        c.argv.push_back(a.data());
    c.argv.push_back(nullptr);
    for (std::string& e : c.env)
        c.envp.push_back(e.data());
    c.envp.push_back(nullptr);
    return c;
}

/// The running importer: its process and the read end of its pipe.
struct Child {
    pid_t pid = -1;
    int in = -1;
};

/// Forks and execs the importer under the address-space cap `memory` (0:
/// none) and `stackBytes`, its records going to fd 3, stdin and stdout on
/// /dev/null, stderr to `diagnostics` (when open); the child dies with us.
Child startImporter(ImporterCommand& command, std::uint64_t memory, std::uint64_t stackBytes, int diagnostics,
                    const std::string& path)
{
    const rlimit as{memory ? memory : RLIM_INFINITY, memory ? memory : RLIM_INFINITY};
    const rlimit stack{stackBytes, stackBytes};
    const rlimit fileSize{kDiagnosticsBytes, kDiagnosticsBytes}; // the importer writes no file but its stderr
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw IoError(path + ": cannot start the importer (" + std::strerror(errno) + ")");
#ifdef F_SETPIPE_SZ
    ::fcntl(fds[0], F_SETPIPE_SZ, 1 << 20); // fewer switches between the processes (best effort: the default 64 KiB works)
#endif
    const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        if (devNull >= 0)
            ::close(devNull);
        throw IoError(path + ": cannot start the importer (" + std::strerror(e) + ")");
    }
    if (pid == 0) {
        // The child: async-signal-safe calls only.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
        ::setrlimit(RLIMIT_AS, &as);
        ::setrlimit(RLIMIT_STACK, &stack);
        // Copies above 3 first: where the caller had fd 3 free (a shell's
        // command), the diagnostics file is fd 3 and dup2 onto 3 would send
        // the reader's stderr into the record pipe.
        const int out = ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
        const int diag = diagnostics >= 0 ? ::fcntl(diagnostics, F_DUPFD_CLOEXEC, 10) : -1;
        ::dup2(out, 3); // dup2 clears FD_CLOEXEC on the copy
        if (diag >= 0) {
            ::dup2(diag, 2);
            ::setrlimit(RLIMIT_FSIZE, &fileSize);
            ::signal(SIGXFSZ, SIG_IGN); // past the cap, writes fail instead of killing the reader
        }
        if (devNull >= 0) {
            ::dup2(devNull, 0);
            ::dup2(devNull, 1);
        }
        ::execve(command.argv[0], command.argv.data(), command.envp.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    if (devNull >= 0)
        ::close(devNull);
    return {pid, fds[0]};
}

/// What the importer sent: its last record (the character, its error, or
/// that an allocation failed), progress records passed on as they come.
struct ChildRecords {
    bool done = false;        ///< A last record arrived.
    bool outOfMemory = false; ///< 'M'
    /// 'C': the character stream is `buffer[characterAt, characterAt + characterLength)`
    /// (read in place: a 155k-vertex character is 20 MB, copied once less).
    std::string buffer;
    std::size_t characterAt = 0, characterLength = 0;
    std::string_view character() const { return std::string_view(buffer).substr(characterAt, characterLength); }
    int errorKind = 0;        ///< 'E': 1 IoError, 2 InvalidInput, 3 other
    std::string errorText;
};

/// Parses the complete records of `buf` from `pos` on (advancing it); stops at
/// an incomplete one or after the last. Returns false on an unknown tag.
bool parseRecords(std::string_view buf, std::size_t& pos, const Progress& progress, ChildRecords& out, char& badTag)
{
    while (!out.done && pos < buf.size()) {
        const char tag = buf[pos];
        const std::size_t left = buf.size() - pos - 1;
        const char* body = buf.data() + pos + 1;
        if (tag == 'P') {
            std::uint32_t len = 0;
            if (left < 4)
                return true;
            std::memcpy(&len, body, 4);
            if (left < 4 + std::size_t(len) + 8)
                return true;
            double fraction = 0.0;
            std::memcpy(&fraction, body + 4 + len, 8);
            if (progress.report)
                progress.report(std::string_view(body + 4, len), fraction);
            pos += 1 + 4 + len + 8;
        } else if (tag == 'C') {
            std::uint64_t len = 0;
            if (left < 8)
                return true;
            std::memcpy(&len, body, 8);
            if (left < 8 + len)
                return true;
            out.characterAt = pos + 1 + 8;
            out.characterLength = static_cast<std::size_t>(len);
            pos += 1 + 8 + static_cast<std::size_t>(len);
            out.done = true;
        } else if (tag == 'E') {
            std::uint32_t len = 0;
            if (left < 5)
                return true;
            std::memcpy(&len, body + 1, 4);
            if (left < 5 + std::size_t(len))
                return true;
            out.errorKind = static_cast<unsigned char>(body[0]);
            out.errorText.assign(body + 5, len);
            pos += 1 + 5 + len;
            out.done = true;
        } else if (tag == 'M') {
            out.outOfMemory = true;
            pos += 1;
            out.done = true;
        } else {
            badTag = tag;
            return false;
        }
    }
    return true;
}

/// The bytes still missing from the character record that starts at `pos`
/// (its header read), so the reader can make room for all of it; 0 otherwise.
std::size_t pendingRecordBytes(std::string_view buf, std::size_t pos)
{
    if (pos >= buf.size() || buf[pos] != 'C' || buf.size() - pos < 9)
        return 0;
    std::uint64_t len = 0;
    std::memcpy(&len, buf.data() + pos + 1, 8);
    const std::uint64_t have = buf.size() - pos - 9;
    constexpr std::uint64_t cap = std::uint64_t(1) << 28; // at most 256 MiB ahead: a corrupt length is not allocated
    return len > have ? static_cast<std::size_t>(std::min(len - have, cap)) : 0;
}

/// Reads the child's records until its last one, the pipe closing, the
/// clock running out or the user cancelling (the last two kill the child).
ChildRecords readRecords(const Child& child, const GuardedImportOptions& options, const Progress& progress,
                         const std::string& path)
{
    const auto start = std::chrono::steady_clock::now();
    auto failAndKill = [&](const std::string& message) {
        ::close(child.in);
        killChild(child.pid);
        throw IoError(path + ": " + message);
    };
    ChildRecords out;
    std::string& buf = out.buffer;
    std::size_t pos = 0;  // start of the first unparsed record
    std::size_t used = 0; // bytes of buf read so far (buf.size() is its room)
    while (!out.done) {
        if (progress.cancelled()) {
            ::close(child.in);
            killChild(child.pid);
            throw Cancelled();
        }
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed > options.timeoutSeconds)
            failAndKill("reading took longer than " + seconds(options.timeoutSeconds) +
                        " and was stopped (a corrupt or very large file?); nothing was changed. The limit is "
                        "$RIGSMITH_IMPORT_TIMEOUT (seconds)");
        pollfd p{child.in, POLLIN, 0};
        const int wait = static_cast<int>(std::clamp((options.timeoutSeconds - elapsed) * 1000.0, 1.0, 50.0));
        const int r = ::poll(&p, 1, wait);
        if (r < 0 && errno != EINTR)
            failAndKill(std::string("lost the importer (") + std::strerror(errno) + ")");
        if (r <= 0)
            continue;
        // Read straight into the buffer, with room for the whole of a record
        // whose length is known (the character: one allocation, no regrowth).
        const std::size_t room = std::max<std::size_t>(1 << 16, pendingRecordBytes({buf.data(), used}, pos));
        if (buf.size() < used + room)
            buf.resize(std::max(used + room, std::min<std::size_t>(2 * buf.size(), used + (std::size_t(1) << 26))));
        const ssize_t n = ::read(child.in, buf.data() + used, buf.size() - used);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            break; // the child closed the pipe: exited or died
        used += static_cast<std::size_t>(n);
        char badTag = 0;
        if (!parseRecords({buf.data(), used}, pos, progress, out, badTag))
            failAndKill("the importer's output is corrupt (record '" + std::string(1, badTag) + "')");
        if (pos > (1 << 20) && !out.done) { // drop parsed progress records
            buf.erase(0, pos);
            used -= pos;
            pos = 0;
        }
    }
    ::close(child.in);
    return out;
}

/// Waits for the child to end; its wait status.
int reap(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

/// Throws what ended the child when it hit the memory cap or sent no last
/// record: a crash, an abort, a failed start (naming `log` when the reader's
/// own messages went there). Returns when it ended normally.
void throwIfChildFailed(const std::string& path, const std::string& importer, const ChildRecords& records,
                        int status, std::uint64_t memory, const std::string& log)
{
    if (records.outOfMemory || (WIFEXITED(status) && WEXITSTATUS(status) == kImporterOutOfMemoryExit))
        throw IoError(path + ": reading needed more than " + gigabytes(memory) +
                      " of memory and was stopped (a corrupt file, or one too large for this machine); nothing "
                      "was changed");
    if (records.done)
        return;
    const std::string reader = "the " + formatName(path) + " reader";
    const std::string logged = log.empty() ? std::string() : ". The reader's own messages are in " + log;
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        if (sig == SIGABRT)
            throw IoError(path + ": " + reader + " aborted on this file (SIGABRT); the file is probably corrupt. "
                                                 "Nothing was changed" + logged);
        if (sig == SIGKILL)
            throw IoError(path + ": " + reader + " was killed (SIGKILL: out of memory?); nothing was changed" + logged);
        throw IoError(path + ": " + reader + " crashed on this file (" + signalName(sig) +
                      "); the file is probably corrupt. Nothing was changed" + logged);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        throw IoError(path + ": cannot start the importer " + importer);
    throw IoError(path + ": the importer stopped without a result (exit code " +
                  std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "); nothing was changed");
}

/// The child's own refusal, rethrown as the type it had.
[[noreturn]] void rethrowChildError(const ChildRecords& records)
{
    if (records.errorKind == 2)
        throw InvalidInput(records.errorText);
    throw IoError(records.errorText); // 1: IoError; 3: anything else, named as an I/O failure
}

} // namespace

ImportedCharacter importCharacterGuarded(const std::string& path, const ImportOptions& import,
                                         const GuardedImportOptions& options, const Progress& progress)
{
    const std::string importer = options.isolate ? findImporter(options) : std::string();
    if (options.isolate && !options.importer.empty() && importer.empty())
        throw IoError(path + ": cannot start the importer " + options.importer + " (missing or not executable)");
    const std::optional<DeclaredSize> declared = checkDeclaredSize(path, import);
    if (importer.empty()) {
        if (!importCharacter) // this executable does not contain Assimp (see the declaration above)
            throw IoError(path + (options.isolate
                                      ? ": cannot read it: the importer rigsmith-import was not found beside this "
                                        "program (reinstall Rigsmith, or set RIGSMITH_IMPORTER to its path)"
                                      : ": cannot read it in this process ($RIGSMITH_IMPORT_IN_PROCESS=1): this "
                                        "program reads files only through the importer rigsmith-import; unset it"));
        return checkReturnedSize(importCharacter(path, import, progress), declared, path);
    }

    ImporterCommand command = importerCommand(importer, path, import);
    const std::uint64_t memory = importMemoryCap(options);
    const UniqueFd diagnostics(::memfd_create("rigsmith-import-stderr", MFD_CLOEXEC));
    const Child child = startImporter(command, memory, options.stackBytes, diagnostics.fd, path);
    ChildRecords records;
    try {
        records = readRecords(child, options, progress, path);
    } catch (const Error&) { // a time-out or a cancel: what it printed until then is logged too
        logDiagnostics(diagnostics.fd, options, path);
        throw;
    }
    const int status = reap(child.pid);
    throwIfChildFailed(path, importer, records, status, memory, logDiagnostics(diagnostics.fd, options, path));
    if (records.errorKind != 0)
        rethrowChildError(records);
    return checkReturnedSize(readCharacterStream(records.character(), path), declared, path);
}

} // namespace rig
