#include "core/import/declared_size.h"

#include "core/import/x_declared.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string lowerExtension(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

/// The first `n` bytes of `path` (fewer when it is shorter; empty when unreadable).
std::string head(const std::string& path, std::size_t n)
{
    std::string out(n, '\0');
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return {};
    out.resize(std::fread(out.data(), 1, n, f));
    std::fclose(f);
    return out;
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// Sums `count(line)` over the lines of `path` (without their '\n'), read in
/// 4 MiB blocks, stopping once the sum passes `stopAbove`.
std::optional<DeclaredSize> sumLines(const std::string& path, std::int64_t stopAbove,
                                     const std::function<int(std::string_view)>& count, const std::string& source)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return std::nullopt;
    DeclaredSize out{0, false, source};
    std::vector<char> buf(std::size_t(4) << 20);
    std::size_t kept = 0; // bytes of an unfinished line at the front of buf
    for (bool end = false; !end && !out.atLeast;) {
        if (kept == buf.size())
            buf.resize(2 * buf.size()); // a line longer than the buffer
        const std::size_t n = std::fread(buf.data() + kept, 1, buf.size() - kept, f);
        end = n == 0;
        const std::size_t size = kept + n;
        std::size_t at = 0;
        for (const char* nl; !out.atLeast && (nl = static_cast<const char*>(std::memchr(buf.data() + at, '\n', size - at)));) {
            out.triangles += count(std::string_view(buf.data() + at, static_cast<std::size_t>(nl - buf.data()) - at));
            out.atLeast = out.triangles > stopAbove;
            at = static_cast<std::size_t>(nl - buf.data()) + 1;
        }
        if (end && at < size) // the last line, without a '\n'
            out.triangles += count(std::string_view(buf.data() + at, size - at));
        kept = size - at;
        std::memmove(buf.data(), buf.data() + at, kept);
    }
    std::fclose(f);
    out.atLeast = out.atLeast || out.triangles > stopAbove;
    return out;
}

/// The triangles of an OBJ line: n - 2 for a face "f v1 v2 ... vn", else 0.
int objFaceTriangles(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && blank(line[i]))
        ++i;
    if (i + 1 >= line.size() || line[i] != 'f' || !blank(line[i + 1]))
        return 0;
    int corners = 0;
    bool inToken = false;
    for (++i; i < line.size() && line[i] != '#'; ++i) {
        const bool b = blank(line[i]);
        corners += !b && !inToken ? 1 : 0;
        inToken = !b;
    }
    return std::max(corners - 2, 0);
}

/// 1 for an ASCII STL line "endfacet", else 0.
int stlFacet(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && blank(line[i]))
        ++i;
    return line.substr(i, 8) == "endfacet" ? 1 : 0;
}

std::optional<DeclaredSize> plySize(const std::string& path)
{
    const std::string text = head(path, 8192);
    if (text.rfind("ply", 0) != 0)
        return std::nullopt;
    const std::size_t at = text.find("element face "), end = text.find("end_header");
    if (at == std::string::npos || (end != std::string::npos && at > end))
        return std::nullopt;
    return DeclaredSize{std::strtoll(text.c_str() + at + 13, nullptr, 10), false, "its PLY header declares",
                        "faces (at least as many triangles)"};
}

std::optional<DeclaredSize> stlSize(const std::string& path, std::int64_t stopAbove)
{
    const std::string text = head(path, 84);
    std::error_code ec;
    const auto bytes = fs::file_size(path, ec);
    if (text.size() == 84 && !ec) {
        std::uint32_t count = 0;
        std::memcpy(&count, text.data() + 80, 4);
        if (84 + 50ull * count == bytes) // a binary STL whose size agrees with its count
            return DeclaredSize{count, false, "its STL header declares"};
    }
    if (text.rfind("solid", 0) != 0)
        return std::nullopt;
    return sumLines(path, stopAbove, stlFacet, "its STL facets number");
}

/// The triangles of a glTF document's meshes (each mesh once, as the reader
/// keeps them): per primitive, its index accessor's count (else its
/// positions'), over 3 for triangle lists, less 2 for strips and fans.
std::optional<DeclaredSize> gltfTriangles(std::string_view text)
{
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("meshes") || !doc.contains("accessors"))
        return std::nullopt;
    const nlohmann::json& accessors = doc["accessors"];
    auto countOf = [&](const nlohmann::json& index) -> std::int64_t {
        if (!index.is_number_unsigned() || index.get<std::size_t>() >= accessors.size())
            return 0;
        const nlohmann::json& a = accessors[index.get<std::size_t>()];
        return a.is_object() && a.contains("count") && a["count"].is_number_unsigned() ? a["count"].get<std::int64_t>()
                                                                                        : 0;
    };
    DeclaredSize out{0, false, "its glTF accessors declare"};
    for (const nlohmann::json& mesh : doc["meshes"]) {
        if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array())
            continue;
        for (const nlohmann::json& p : mesh["primitives"]) {
            if (!p.is_object())
                continue;
            const int mode = p.contains("mode") && p["mode"].is_number_integer() ? p["mode"].get<int>() : 4;
            const bool indexed = p.contains("indices");
            const std::int64_t n = indexed ? countOf(p["indices"])
                                   : p.contains("attributes") && p["attributes"].is_object() &&
                                             p["attributes"].contains("POSITION")
                                       ? countOf(p["attributes"]["POSITION"])
                                       : 0;
            out.triangles += mode == 4 ? n / 3 : mode == 5 || mode == 6 ? std::max<std::int64_t>(n - 2, 0) : 0;
        }
    }
    return out;
}

std::optional<DeclaredSize> glbSize(const std::string& path)
{
    const std::string header = head(path, 20);
    if (header.size() < 20 || header.compare(0, 4, "glTF") != 0 || header.compare(16, 4, "JSON") != 0)
        return std::nullopt;
    std::uint32_t length = 0;
    std::memcpy(&length, header.data() + 12, 4);
    std::error_code ec;
    if (fs::file_size(path, ec) < 20ull + length || ec)
        return std::nullopt;
    return gltfTriangles(std::string_view(head(path, 20ull + length)).substr(20));
}

std::optional<DeclaredSize> gltfSize(const std::string& path)
{
    std::error_code ec;
    const auto bytes = fs::file_size(path, ec);
    if (ec)
        return std::nullopt;
    return gltfTriangles(head(path, static_cast<std::size_t>(bytes)));
}

/// A .X file's Mesh objects (core/import/x_declared.h); the whole file is read,
/// up to `maxBytes` (larger files are left to the reader).
std::optional<DeclaredSize> xSize(const std::string& path, std::uintmax_t maxBytes)
{
    std::error_code ec;
    const auto bytes = fs::file_size(path, ec);
    if (ec || bytes > maxBytes)
        return std::nullopt;
    const std::optional<std::int64_t> triangles = xDeclaredTriangles(head(path, static_cast<std::size_t>(bytes)));
    if (!triangles)
        return std::nullopt;
    return DeclaredSize{*triangles, false, "its .X Mesh objects declare"};
}

} // namespace

std::optional<DeclaredSize> declaredSize(const std::string& path, std::int64_t stopAbove)
{
    const std::string ext = lowerExtension(path);
    if (ext == ".ply")
        return plySize(path);
    if (ext == ".stl")
        return stlSize(path, stopAbove);
    if (ext == ".obj")
        return sumLines(path, stopAbove, objFaceTriangles, "its OBJ face lines hold");
    if (ext == ".glb")
        return glbSize(path);
    if (ext == ".gltf")
        return gltfSize(path);
    if (ext == ".x")
        return xSize(path, std::uintmax_t(1) << 30);
    return std::nullopt;
}

bool fallsShort(const DeclaredSize& declared, std::int64_t returned)
{
    return !declared.atLeast && declared.triangles >= 8 && 2 * returned < declared.triangles;
}

} // namespace rig
