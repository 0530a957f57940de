#include "core/import/guarded_import.h"

#include "core/common/error.h"
#include "core/import/character_stream.h"

#include <algorithm>
#include <cerrno>
#include <new>
#include <string>

#include <malloc.h>
#include <unistd.h>

namespace rig {
namespace {

bool writeAll(int fd, const void* data, std::size_t n)
{
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

int g_childFd = -1; // for the new-handler of the importer process

void outOfMemory()
{
    const char tag = 'M';
    [[maybe_unused]] const ssize_t w = ::write(g_childFd, &tag, 1);
    ::_exit(kImporterOutOfMemoryExit);
}

} // namespace

int runImporterChild(const std::string& path, const ImportOptions& import, int fd)
{
#ifdef __GLIBC__
    // A fresh process has a cold heap: glibc serves every large block with a
    // new mmap (page faults and zeroing at each vector growth) until its
    // threshold adapts. The child lives for one import: keep freed memory in
    // the heap instead (hires OBJ of 155k vertices: 3.0 -> 2.3 s alone).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 30);
    ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
    ::mallopt(M_TOP_PAD, 64 << 20);
#endif
    g_childFd = fd;
    std::set_new_handler(outOfMemory);
    auto errorRecord = [&](char kind, const std::string& message) {
        const char tag = 'E';
        const std::uint32_t len = static_cast<std::uint32_t>(std::min<std::size_t>(message.size(), 1 << 20));
        return writeAll(fd, &tag, 1) && writeAll(fd, &kind, 1) && writeAll(fd, &len, 4) &&
               writeAll(fd, message.data(), len);
    };
    Progress progress;
    std::string lastStep;
    double lastFraction = -1.0;
    progress.report = [&](std::string_view step, double fraction) {
        if (step == lastStep && fraction - lastFraction < 0.01 && fraction < 1.0)
            return; // at most a hundred records per step
        lastStep.assign(step);
        lastFraction = fraction;
        const char tag = 'P';
        const std::uint32_t len = static_cast<std::uint32_t>(step.size());
        writeAll(fd, &tag, 1) && writeAll(fd, &len, 4) && writeAll(fd, step.data(), len) &&
            writeAll(fd, &fraction, 8);
    };
    try {
        const ImportedCharacter c = importCharacter(path, import, progress);
        std::string bytes;
        appendCharacterStream(c, bytes);
        const char tag = 'C';
        const std::uint64_t len = bytes.size();
        return writeAll(fd, &tag, 1) && writeAll(fd, &len, 8) && writeAll(fd, bytes.data(), bytes.size()) ? 0 : 1;
    } catch (const std::bad_alloc&) {
        outOfMemory();
    } catch (const IoError& e) {
        return errorRecord(1, e.what()) ? 0 : 1;
    } catch (const InvalidInput& e) {
        return errorRecord(2, e.what()) ? 0 : 1;
    } catch (const std::exception& e) {
        return errorRecord(3, path + ": " + e.what()) ? 0 : 1;
    }
    return 1;
}

} // namespace rig
