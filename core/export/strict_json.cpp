#include "core/export/strict_json.h"

#include "core/common/error.h"

#include <fstream>
#include <limits>
#include <sstream>

namespace rig {

std::string jsonValueText(const nlohmann::json& v)
{
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (s.size() > 40)
        s = s.substr(0, 37) + "...";
    return s;
}

nlohmann::json parseStrictJson(std::string_view bytes, const std::string& path)
{
    if (const auto nul = bytes.find('\0'); nul != std::string_view::npos)
        throw IoError(path + ": contains a NUL byte at offset " + std::to_string(nul) +
                      " (corrupt file? JSON text never holds one)");
    try {
        // strict parsing: anything but white space after the value is an error.
        return nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, true, false);
    } catch (const nlohmann::json::exception& e) {
        throw IoError(path + ": not valid JSON (truncated or corrupt?): " + e.what());
    }
}

std::string readFileBytes(const std::string& path, const std::string& what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IoError(path + ": cannot open the " + what + " (missing or unreadable)");
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (in.bad())
        throw IoError(path + ": read error in the " + what);
    return buffer.str();
}

nlohmann::json readStrictJsonFile(const std::string& path, const std::string& what)
{
    return parseStrictJson(readFileBytes(path, what), path);
}

std::int64_t jsonInteger(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, const std::string& path,
                         const std::string& field)
{
    auto fail = [&] {
        return IoError(path + ": " + field + " must be a whole number from " + std::to_string(lo) + " to " +
                       std::to_string(hi) + ", got " + jsonValueText(v));
    };
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
            static_cast<std::int64_t>(u) < lo || static_cast<std::int64_t>(u) > hi)
            throw fail();
        return static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        if (i < lo || i > hi)
            throw fail();
        return i;
    }
    throw fail();
}

} // namespace rig
