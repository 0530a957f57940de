#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/project/character_source.h"
#include "ui/render_offscreen.h"

#include <nlohmann/json.hpp>

#include <QGuiApplication>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <optional>

namespace rig::app {
namespace {

using json = nlohmann::json;

const std::vector<std::string> commands = {"info", "render"};

/// Parsed `--key value` options and positional arguments.
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::vector<std::string> flags;
    bool flag(const std::string& f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }
    std::optional<std::string> value(const std::string& k) const
    {
        auto it = values.find(k);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

Args parse(const std::vector<std::string>& raw, const std::vector<std::string>& valueOptions,
           const std::vector<std::string>& flagOptions, const std::string& command)
{
    Args a;
    for (size_t i = 0; i < raw.size(); ++i) {
        const std::string& s = raw[i];
        if (s.rfind("--", 0) == 0) {
            if (std::find(valueOptions.begin(), valueOptions.end(), s) != valueOptions.end()) {
                if (i + 1 >= raw.size())
                    throw Error("rigsmith " + command + ": " + s + " needs a value");
                a.values[s] = raw[++i];
            } else if (std::find(flagOptions.begin(), flagOptions.end(), s) != flagOptions.end()) {
                a.flags.push_back(s);
            } else {
                throw Error("rigsmith " + command + ": unknown option " + s + " (see rigsmith --help)");
            }
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

std::string needFile(const Args& a, const std::string& command)
{
    if (a.positional.size() != 1)
        throw Error("rigsmith " + command + ": expected one FILE (a path, 'default' or 'default:POSE')");
    return a.positional[0];
}

void writeJsonFile(const std::string& path, const json& j)
{
    std::ofstream out(path);
    if (!out)
        throw IoError("cannot write '" + path + "': check that the folder exists and is writable");
    out << j.dump(2) << '\n';
    if (!out)
        throw IoError("cannot write '" + path + "': disk full or I/O error");
}

json stagesJson(const StageTimings& stages)
{
    json a = json::array();
    for (const auto& s : stages)
        a.push_back({{"name", s.name}, {"seconds", s.seconds}});
    return a;
}

/// The common report schema: command, input, stages, total_seconds, then results.
void writeReport(const Args& a, const std::string& command, const std::string& input, const StageTimings& stages,
                 const json& results)
{
    const auto path = a.value("--report");
    if (!path)
        return;
    json r = {{"command", command}, {"input", input}, {"stages", stagesJson(stages)},
              {"total_seconds", totalSeconds(stages)}};
    for (auto it = results.begin(); it != results.end(); ++it)
        r[it.key()] = it.value();
    writeJsonFile(*path, r);
}

json infoJson(const LoadedCharacter& c)
{
    const MeshStats& s = c.stats;
    const Vec3 size = s.bounds.size();
    json j = {{"file", c.source},
              {"format", c.imported.info.format},
              {"vertices", s.vertices},
              {"triangles", s.triangles},
              {"parts", s.parts},
              {"components", s.components},
              {"watertight", s.watertight},
              {"manifold", s.manifold},
              {"size", {size.x(), size.y(), size.z()}},
              {"up_axis", c.imported.info.upAxis},
              {"up_axis_guessed", c.imported.info.upAxisGuessed},
              {"skeleton_joints", c.imported.skeleton ? c.imported.skeleton->names.size() : 0}};
    return j;
}

int cmdInfo(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report"}, {"--json"}, "info");
    const std::string file = needFile(a, "info");
    StageTimings stages;
    StageClock clock(stages);
    const LoadedCharacter c = loadCharacter(file);
    clock.lap("load");
    const json j = infoJson(c);
    if (a.flag("--json")) {
        std::cout << j.dump(2) << '\n';
    } else {
        const Vec3 size = c.stats.bounds.size();
        std::cout << c.source << '\n'
                  << "  vertices    " << c.stats.vertices << '\n'
                  << "  triangles   " << c.stats.triangles << '\n'
                  << "  parts       " << c.stats.parts << '\n'
                  << "  components  " << c.stats.components << '\n'
                  << "  watertight  " << (c.stats.watertight ? "yes" : "no") << '\n'
                  << "  manifold    " << (c.stats.manifold ? "yes" : "no") << '\n'
                  << "  size        " << size.x() << " x " << size.y() << " x " << size.z() << '\n'
                  << "  up axis     " << c.imported.info.upAxis << (c.imported.info.upAxisGuessed ? " (guessed)" : "")
                  << '\n'
                  << "  skeleton    "
                  << (c.imported.skeleton ? std::to_string(c.imported.skeleton->names.size()) + " joints" : "none")
                  << '\n';
    }
    writeReport(a, "info", file, stages, j);
    return 0;
}

int cmdRender(int argc, char** argv, const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--size", "--view"}, {"--wireframe"}, "render");
    const std::string file = needFile(a, "render");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith render: --out shot.png is required");
    int w = 1280, h = 720;
    if (auto size = a.value("--size")) {
        char x = 0;
        std::istringstream ss(*size);
        if (!(ss >> w >> x >> h) || (x != 'x' && x != 'X') || w < 16 || h < 16 || w > 8192 || h > 8192)
            throw Error("rigsmith render: --size must be WxH between 16x16 and 8192x8192, got '" + *size + "'");
    }
    const auto view = ui::parseViewPreset(QString::fromStdString(a.value("--view").value_or("three-quarter")));
    if (!view)
        throw Error("rigsmith render: --view must be front, side, top or three-quarter");
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        throw Error("rigsmith render: no display; run it under xvfb-run (xvfb-run -a rigsmith render ...)");

    StageTimings stages;
    StageClock clock(stages);
    const LoadedCharacter c = loadCharacter(file);
    clock.lap("load");
    QGuiApplication app(argc, argv);
    QString error;
    ui::RenderOptions options;
    options.wireframe = a.flag("--wireframe");
    const QImage image = ui::renderOffscreen(c.imported.mesh, QSize(w, h), *view, options, &error);
    if (image.isNull())
        throw Error("rigsmith render: " + error.toStdString());
    clock.lap("render");
    if (!image.save(QString::fromStdString(*out)))
        throw IoError("cannot write '" + *out + "': check the folder exists, is writable and the name ends in .png");
    clock.lap("save");
    std::cout << "wrote " << *out << " (" << w << "x" << h << ")\n";
    writeReport(a, "render", file, stages, {{"out", *out}, {"width", w}, {"height", h}});
    return 0;
}

} // namespace

std::string usage()
{
    return R"(Rigsmith: rig a character mesh.

Usage:
  rigsmith [FILE]                 open the app (on FILE, or on the default character)
  rigsmith info FILE [--json]     mesh statistics: vertices, triangles, parts, watertight, size
  rigsmith render FILE --out shot.png [--size WxH] [--view front|side|top|three-quarter] [--wireframe]
                                  render the viewport to a PNG (needs a display: use xvfb-run)
  rigsmith --help | --version

FILE is a path to any format Assimp reads (FBX, OBJ, glTF, Collada, ...), or
'default' for the bundled character, or 'default:POSE' with POSE one of
t, a, arms-down, knees-bent, sitting, reach, twist.

Every command takes --report R.json and writes
  {"command", "input", "stages": [{"name", "seconds"}], "total_seconds", ...results}.
Errors: one line on stderr and a non-zero exit code.
)";
}

bool isCliInvocation(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    const std::string& first = args[0];
    return first == "--help" || first == "-h" || first == "--version" ||
           std::find(commands.begin(), commands.end(), first) != commands.end() ||
           (first.rfind("-", 0) == 0 && first != "--screenshot");
}

int runCli(int argc, char** argv, const std::vector<std::string>& args)
{
    try {
        const std::string& command = args.at(0);
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (command == "--help" || command == "-h") {
            std::cout << usage();
            return 0;
        }
        if (command == "--version") {
            std::cout << "rigsmith " << RIGSMITH_VERSION << '\n';
            return 0;
        }
        if (command == "info")
            return cmdInfo(rest);
        if (command == "render")
            return cmdRender(argc, argv, rest);
        std::cerr << "rigsmith: unknown command or option '" << command << "' (see rigsmith --help)\n";
        return 2;
    } catch (const Cancelled&) {
        std::cerr << "rigsmith: cancelled\n";
        return 130;
    } catch (const std::bad_alloc&) {
        std::cerr << "rigsmith: out of memory (the input is too large for this machine)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rigsmith: " << e.what() << '\n';
        return 1;
    }
}

} // namespace rig::app
