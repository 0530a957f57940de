#pragma once
/// @file weights_file.h
/// Reading the weights file that `rigsmith weights` writes (format
/// "rigsmith-weights", version 1: "joints" [{"name", "parent", "position"}],
/// "vertex_count", "vertices" [{"joints": [j...], "weights": [w...]}]).
/// The reader is strict (core/export/strict_json.h): no NUL byte, no trailing
/// garbage, every integer range-checked as the JSON number it is.

#include "core/rig/skeleton.h"

#include <Eigen/SparseCore>

#include <string>
#include <string_view>

namespace rig {

/// Reads a rigsmith-weights file as a #V by #J matrix over `skeleton`'s joints (matched by name).
/// @throws rig::IoError naming the file, the field and the value when the file
///         cannot be read, is not JSON or not a version-1 weights file, or a
///         field is malformed; rig::InvalidInput when it does not fit `skeleton`
///         or `vertexCount`.
Eigen::SparseMatrix<double, Eigen::RowMajor> readWeightsFile(const std::string& path, const Skeleton& skeleton,
                                                             int vertexCount);
/// `readWeightsFile()` of bytes already read; `path` names the file in messages.
Eigen::SparseMatrix<double, Eigen::RowMajor> parseWeightsFile(std::string_view bytes, const std::string& path,
                                                              const Skeleton& skeleton, int vertexCount);

} // namespace rig
