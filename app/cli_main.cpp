// rigsmith: the headless command line, without Qt (it starts in a few
// milliseconds); the window - no arguments, a file to open, --screenshot - and
// `render` run in rigsmith-gui beside it, which this process becomes (exec).

#include "app/cli.h"

#include <malloc.h>

#include <string>
#include <vector>

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!rig::app::isCliInvocation(args) || args[0] == "render")
        return rig::app::runWindowExecutable(argc, argv);
#ifdef __GLIBC__
    // One command, then exit: keep freed memory in the heap rather than
    // returning it to the system and faulting it in again at the next large
    // vector (as the importer process does, core/io/guarded_import.cpp).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 30);
    ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
    ::mallopt(M_TOP_PAD, 64 << 20);
#endif
    return rig::app::runCli(argc, argv, args);
}
