#pragma once
/// @file strict_json.h
/// Strict reading of Rigsmith's own JSON files (project, rig, weights): the
/// whole file must be one JSON value - no NUL byte (nlohmann's lexer would
/// stop there and ignore the rest), nothing but white space after the value -
/// and integers are range-checked as the JSON numbers they are, never
/// narrowed (`get<int>()` would read 4294967297 as 1). Every refusal is an
/// `rig::IoError` naming the file, the field and the value.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace rig {

/// Parses `bytes`, the content of `path` (a `what` such as "project file" for the messages).
/// @throws rig::IoError "PATH: contains a NUL byte at offset N (corrupt file?)",
///         "PATH: not valid JSON (truncated or corrupt?): ..." (trailing garbage included).
nlohmann::json parseStrictJson(std::string_view bytes, const std::string& path);

/// The bytes of `path`. @throws rig::IoError "PATH: cannot open the WHAT (missing or unreadable)".
std::string readFileBytes(const std::string& path, const std::string& what);

/// Reads `path` whole and parses it with `parseStrictJson()`.
/// @throws rig::IoError "PATH: cannot open the WHAT (missing or unreadable)" and the above.
nlohmann::json readStrictJsonFile(const std::string& path, const std::string& what);

/// `v` as an integer in [lo, hi]: it must be a JSON integer (not 1.0, not "1")
/// within the range, compared exactly (unsigned values above INT64_MAX are out of range).
/// @throws rig::IoError "PATH: FIELD must be a whole number from LO to HI, got VALUE".
std::int64_t jsonInteger(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, const std::string& path,
                         const std::string& field);

/// `v` shortened for a message (at most about 40 characters of its JSON text).
std::string jsonValueText(const nlohmann::json& v);

} // namespace rig
