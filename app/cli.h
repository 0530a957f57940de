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

/// The usage text of `--help`.
std::string usage();

} // namespace rig::app
