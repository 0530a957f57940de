#include "app/window_options.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>
#include <utility>

namespace rig::app {
namespace {

constexpr std::array<const char*, 5> kOptions = {"--screenshot", "--size", "--dock", "--frame", "--colour"};
/// The docks by name, and the window's object name of each.
constexpr std::array<std::pair<const char*, const char*>, 6> kDocks = {{{"pipeline", "pipelineDock"},
                                                                         {"rig", "rigDock"},
                                                                         {"weights", "weightDock"},
                                                                         {"pose", "poseDock"},
                                                                         {"parts", "partsDock"},
                                                                         {"paint", "paintDock"}}};
constexpr std::array<const char*, 3> kColourings = {"shaded", "segments", "weights"};

template <size_t N>
bool oneOf(const std::array<const char*, N>& names, const std::string& value)
{
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return value == n; });
}

/// Stores `value` as option `name`; false with `error` set when it is not valid.
bool setOption(WindowOptions& o, const std::string& name, const std::string& value, std::string& error)
{
    if (name == "--screenshot") {
        o.screenshot = value;
    } else if (name == "--size") {
        char tail = 0;
        if (std::sscanf(value.c_str(), "%dx%d%c", &o.width, &o.height, &tail) != 2 || o.width < 200 || o.height < 200 ||
            o.width > 16384 || o.height > 16384) {
            error = "--size wants WxH between 200 and 16384 pixels, e.g. 1600x1000; got '" + value + "'";
            return false;
        }
    } else if (name == "--dock") {
        if (!dockObjectName(value)) {
            error = "--dock '" + value + "' not understood; use pipeline, rig, weights, pose, parts or paint";
            return false;
        }
        o.dock = value;
    } else if (name == "--frame") {
        o.frame = value;
    } else {
        if (!oneOf(kColourings, value)) {
            error = "--colour '" + value + "' not understood; use shaded, segments or weights";
            return false;
        }
        o.colour = value;
    }
    return true;
}

} // namespace

const char* dockObjectName(std::string_view dock)
{
    for (const auto& [name, object] : kDocks)
        if (dock == name)
            return object;
    return nullptr;
}

bool isWindowOption(const std::string& arg)
{
    return oneOf(kOptions, arg);
}

std::optional<WindowOptions> parseWindowOptions(const std::vector<std::string>& args, std::string& error)
{
    WindowOptions o;
    std::vector<std::string> seen;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (isWindowOption(a)) {
            if (std::find(seen.begin(), seen.end(), a) != seen.end()) {
                error = a + " is given twice";
                return std::nullopt;
            }
            if (i + 1 >= args.size()) {
                error = a + " wants a value (see rigsmith --help)";
                return std::nullopt;
            }
            seen.push_back(a);
            if (!setOption(o, a, args[++i], error))
                return std::nullopt;
        } else if (a.rfind("--", 0) == 0) {
            error = "unknown window option '" + a +
                    "'; the window takes --screenshot, --size, --dock, --frame, --colour and one FILE (see rigsmith --help)";
            return std::nullopt;
        } else if (o.file) {
            error = "the window opens one file; got '" + *o.file + "' and '" + a + "'";
            return std::nullopt;
        } else {
            o.file = a;
        }
    }
    return o;
}

} // namespace rig::app
