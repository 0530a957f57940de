#pragma once
/// @file source_dir.h
/// Where this checkout lies, for tests that read fixtures from the repository
/// or the devset beside it (`../shared/devset`).
///
/// The absolute path is compiled into one translation unit (source_dir.cpp)
/// rather than passed to every test file as a definition: a definition holding
/// an absolute path differs from checkout to checkout, and the compiler cache
/// would then rebuild every test file of every fresh clone.

#include <string>
#include <string_view>

namespace rig::test {

/// The repository root, e.g. "/home/me/rigsmith" (no trailing slash).
const std::string& sourceDir();

/// sourceDir() + "/" + relative, e.g. sourcePath("../shared/devset/re_male.glb").
std::string sourcePath(std::string_view relative);

} // namespace rig::test
