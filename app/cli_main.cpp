// rigsmith: the headless command line, without Qt (it starts in a few
// milliseconds); the window - no arguments, a file to open, --screenshot - and
// `render` run in rigsmith-gui beside it, which this process becomes (exec).

#include "app/cli.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Transparent huge pages for this process's heap. glibc (2.35 and later)
/// reads its tunables only at start-up, so the process runs itself again, once,
/// with `glibc.malloc.hugetlb=1` added to GLIBC_TUNABLES (what the importer
/// process already gets, core/import/guarded_import.cpp). On a virtual machine a
/// page fault costs microseconds, and `rig` on a 154k-vertex mesh faulted in
/// 11,000 pages of 4 KiB: with huge pages 1,300, and the whole run 1.10 ->
/// 0.76 s; the window opening and rigging it, 3.5 -> 3.05 s (bench/notes/pipeline-speed.md,
/// issue 20). Any hugetlb setting already in
/// GLIBC_TUNABLES is kept (`glibc.malloc.hugetlb=0` turns this off).
void runWithHugePages(char** argv)
{
#ifdef __GLIBC__
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const std::string before = tunables ? tunables : "";
    if (before.find("glibc.malloc.hugetlb") != std::string::npos)
        return;
    const std::string with = before.empty() ? "glibc.malloc.hugetlb=1" : before + ":glibc.malloc.hugetlb=1";
    if (::setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0)
        return;
    ::execv("/proc/self/exe", argv);
    // Not run again (no /proc): go on as we are, with the environment as it was.
    if (tunables)
        ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        ::unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

} // namespace

int main(int argc, char** argv)
{
    runWithHugePages(argv); // the window (rigsmith-gui, exec'd below) inherits it
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!rig::app::isCliInvocation(args) || args[0] == "render")
        return rig::app::runWindowExecutable(argc, argv);
#ifdef __GLIBC__
    // One command, then exit: keep freed memory in the heap rather than
    // returning it to the system and faulting it in again at the next large
    // vector (as the importer process does, core/import/guarded_import.cpp).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 30);
    ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
    ::mallopt(M_TOP_PAD, 64 << 20);
#endif
    return rig::app::runCli(argc, argv, args);
}
