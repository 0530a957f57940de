#pragma once
/// @file cli.h
/// The headless command line: `rigsmith info|render ...`. Every command calls
/// the same engine stages as the GUI, takes `--report FILE.json`, prints one
/// line on stderr and exits non-zero on any error.

#include <string>
#include <vector>

namespace rig::app {

/// True when the arguments name a command (or --help / --version) rather than a file to open in the GUI.
bool isCliInvocation(const std::vector<std::string>& args);

/// Runs a command. `args` excludes the program name. Returns the exit code.
int runCli(int argc, char** argv, const std::vector<std::string>& args);

/// A command that needs Qt and OpenGL (`render`): linked into the window
/// executable only, which registers it with `setWindowCommand()`.
using WindowCommand = int (*)(int argc, char** argv, const std::vector<std::string>& args);
void setWindowCommand(WindowCommand render);

/// Replaces this process by the window executable `rigsmith-gui` beside the
/// running one, with the same arguments: the GUI, `--screenshot` and `render`
/// from the Qt-free `rigsmith`, so that the headless commands start without
/// loading Qt (issue 20: 25 ms of a 4k-vertex `rig`). Returns only on failure,
/// with the exit code after a message naming the missing executable.
int runWindowExecutable(int argc, char** argv);

/// The usage text of `--help`.
std::string usage();

} // namespace rig::app
