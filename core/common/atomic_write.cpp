#include "core/common/atomic_write.h"

#include "core/common/error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rig {
namespace {

std::string errnoText(int e)
{
    if (e == ENOSPC)
        return "disk full";
    if (e == ENOENT)
        return "no such folder";
    if (e == EACCES || e == EPERM || e == EROFS)
        return "permission denied: the folder is not writable";
    return std::strerror(e);
}

/// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += static_cast<size_t>(n);
    }
    return 0;
}

} // namespace

bool isAtomicTemporaryName(std::string_view name)
{
    constexpr std::string_view tmp = ".tmp.";
    if (name.size() < tmp.size() + 6 + 2 || name.substr(name.size() - 6 - tmp.size(), tmp.size()) != tmp)
        return false;
    for (const char c : name.substr(name.size() - 6))
        if (!std::isalnum(static_cast<unsigned char>(c)))
            return false;
    const std::string_view target = name.substr(0, name.size() - 6 - tmp.size());
    const auto dot = target.rfind('.');
    if (dot == std::string_view::npos || dot == 0)
        return false;
    std::string ext(target.substr(dot + 1));
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* ours : {"glb", "gltf", "bvh", "rsproj", "json", "obj", "ply", "png", "jpg", "jpeg", "webp", "bin"})
        if (ext == ours)
            return true;
    return false;
}

int removeStaleTemporaries(const std::string& path, double maxAgeSeconds)
{
    const std::filesystem::path dir = std::filesystem::absolute(std::filesystem::path(path)).parent_path();
    const std::time_t before = std::time(nullptr) - static_cast<std::time_t>(maxAgeSeconds);
    int removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().string();
        struct stat st {};
        if (!isAtomicTemporaryName(it->path().filename().string()) || ::lstat(file.c_str(), &st) != 0 ||
            !S_ISREG(st.st_mode) || st.st_uid != ::getuid() || st.st_mtime >= before)
            continue;
        removed += ::unlink(file.c_str()) == 0 ? 1 : 0;
    }
    return removed;
}

namespace {

/// Writes the pieces `next` produces to `fd`; returns 0 or the errno of the failure.
int writePieces(int fd, const std::function<bool(std::string&)>& next)
{
    std::string piece;
    for (bool more = true; more;) {
        piece.clear();
        more = next(piece);
        if (const int e = writeAll(fd, piece); e != 0)
            return e;
    }
    return 0;
}

/// `writeFileAtomically()` with the bytes written to the open file by `body`
/// (which returns 0 or the errno of its failure).
void writeAtomically(const std::string& path, const std::function<int(int)>& body, const std::string& what)
{
    removeStaleTemporaries(path); // a killed write left them; a day old, none is under way
    const std::string prefix = path + ": cannot write " + what + " (";
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A device or a pipe: there is nothing to replace atomically.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            throw IoError(prefix + errnoText(errno) + ")");
        const int e = body(fd);
        const int c = ::close(fd) == 0 ? 0 : errno;
        if (e != 0 || c != 0)
            throw IoError(prefix + errnoText(e != 0 ? e : c) + ")");
        return;
    }
    std::string tmp = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw IoError(prefix + errnoText(errno) + ")");
    auto fail = [&](int e) {
        ::unlink(tmp.c_str());
        throw IoError(prefix + errnoText(e) + "; the previous file, if any, is unchanged)");
    };
    int e = 0;
    try {
        e = body(fd);
    } catch (...) { // the producer failed: leave nothing behind
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (e == 0 && ::fsync(fd) != 0)
        e = errno;
    // mkstemp creates 0600; give the file the usual permissions (umask applies).
    if (e == 0) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
    }
    if (::close(fd) != 0 && e == 0)
        e = errno;
    if (e != 0)
        fail(e);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        fail(errno);
    // Make the rename durable too: sync the folder (best effort).
    const std::string dir = std::filesystem::path(path).parent_path().empty()
                                ? std::string(".")
                                : std::filesystem::path(path).parent_path().string();
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes, const std::string& what)
{
    writeAtomically(path, [bytes](int fd) { return writeAll(fd, bytes); }, what);
}

void writeFileAtomically(const std::string& path, const std::function<bool(std::string&)>& next,
                         const std::string& what)
{
    writeAtomically(path, [&next](int fd) { return writePieces(fd, next); }, what);
}

} // namespace rig
