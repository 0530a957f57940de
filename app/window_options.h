#pragma once
/// @file window_options.h
/// The options of the window (`rigsmith [options] [FILE]`): what to open and,
/// for scripted screenshots, what to show. Parsed here, without Qt, so the
/// command line can tell them from a command and tests can reach them.
/// Options come in any order, each once, with at most one FILE.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rig::app {

struct WindowOptions {
    std::string screenshot;   ///< --screenshot PATH: save the window as PNG once the stages are idle, then quit.
    int width = 0;            ///< --size WxH (0: the last session's size).
    int height = 0;
    std::string dock;         ///< --dock pipeline|rig|weights|pose|parts|paint: that dock's tab in front.
    std::string frame;        ///< --frame JOINT: select the joint and frame it.
    std::string colour;       ///< --colour shaded|segments|weights: the mesh colouring.
    std::optional<std::string> file; ///< The file (or default character spec) to open.
};

/// The window's object name of a dock named on the command line ("weights":
/// "weightDock"), or null for a name that is none.
const char* dockObjectName(std::string_view dock);

/// Whether `arg` is one of the window's options (--screenshot, --size, …).
bool isWindowOption(const std::string& arg);

/// Parses the window's arguments (without the program name). Returns the
/// options, or an empty optional with `error` set to a one-line message: an
/// unknown option, an option without its value or given twice, a bad size,
/// dock or colouring, a second file.
std::optional<WindowOptions> parseWindowOptions(const std::vector<std::string>& args, std::string& error);

} // namespace rig::app
