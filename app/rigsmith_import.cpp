// rigsmith-import: the importer process (issue 21). Reads one foreign file with
// Assimp (rig::importCharacter) and streams the character back to the
// application on a pipe (core/import/guarded_import.h, core/import/character_stream.h),
// so that a reader that crashes, hangs or eats all memory takes only this
// process with it. Started by the application under limits; not meant to be
// run by hand (it writes binary records to --out-fd).
#include "core/import/guarded_import.h"
#include "core/import/mesh_import.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int usage()
{
    std::fprintf(stderr,
                 "usage: rigsmith-import --out-fd FD [--weld-tolerance X] [--max-triangles N]\n"
                 "                       [--max-animation-frames N] [--recentre-distance X]\n"
                 "                       [--precision-fraction X] [--no-guess-up] [--] FILE\n"
                 "       rigsmith-import --list-extensions\n"
                 "Reads FILE with Assimp and writes the character as binary records to FD\n"
                 "(the protocol of core/import/guarded_import.cpp). Run by rigsmith.\n"
                 "--list-extensions prints the extensions Assimp reads, one a line.\n");
    return 2;
}

bool number(const char* text, double& out)
{
    char* end = nullptr;
    out = std::strtod(text, &end);
    return end != text && *end == '\0';
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 2 && std::strcmp(argv[1], "--list-extensions") == 0) {
        for (const std::string& e : rig::supportedExtensions())
            std::printf("%s\n", e.c_str());
        return 0;
    }
    rig::ImportOptions options;
    int fd = -1;
    std::string path;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](double& out) { return i + 1 < argc && number(argv[++i], out); };
        double v = 0.0;
        if (a == "--out-fd" && value(v))
            fd = static_cast<int>(v);
        else if (a == "--weld-tolerance" && value(v))
            options.weldTolerance = v;
        else if (a == "--max-triangles" && value(v))
            options.maxTriangles = static_cast<int>(v);
        else if (a == "--max-animation-frames" && value(v))
            options.maxAnimationFrames = static_cast<int>(v);
        else if (a == "--recentre-distance" && value(v))
            options.recentreDistance = v;
        else if (a == "--precision-fraction" && value(v))
            options.precisionFraction = v;
        else if (a == "--no-guess-up")
            options.guessUpAxis = false;
        else if (a == "--" && i + 2 == argc)
            path = argv[++i];
        else
            return usage();
    }
    if (fd < 0 || path.empty())
        return usage();
    return rig::runImporterChild(path, options, fd);
}
