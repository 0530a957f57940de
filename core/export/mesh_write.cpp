#include "core/export/mesh_write.h"

#include "core/common/atomic_write.h"
#include "core/common/error.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace rig {
namespace {

void append(std::string& out, const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }

std::string plyBytes(const Mesh& m)
{
    std::string out = "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(m.vertexCount()) +
                      "\nproperty float x\nproperty float y\nproperty float z\nelement face " +
                      std::to_string(m.triangleCount()) + "\nproperty list uchar int vertex_indices\nend_header\n";
    out.reserve(out.size() + 12 * static_cast<size_t>(m.vertexCount()) + 13 * static_cast<size_t>(m.triangleCount()));
    for (int v = 0; v < m.vertexCount(); ++v) {
        const float p[3] = {float(m.V(v, 0)), float(m.V(v, 1)), float(m.V(v, 2))};
        append(out, p, sizeof p);
    }
    for (int t = 0; t < m.triangleCount(); ++t) {
        const unsigned char three = 3;
        const std::int32_t i[3] = {m.F(t, 0), m.F(t, 1), m.F(t, 2)};
        append(out, &three, 1);
        append(out, i, sizeof i);
    }
    return out;
}

std::string objBytes(const Mesh& m)
{
    std::string out;
    char line[96];
    for (int v = 0; v < m.vertexCount(); ++v)
        out.append(line, static_cast<size_t>(std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", m.V(v, 0), m.V(v, 1), m.V(v, 2))));
    for (int t = 0; t < m.triangleCount(); ++t)
        out.append(line, static_cast<size_t>(std::snprintf(line, sizeof line, "f %d %d %d\n", m.F(t, 0) + 1, m.F(t, 1) + 1, m.F(t, 2) + 1)));
    return out;
}

} // namespace

void writeMesh(const std::string& path, const Mesh& mesh)
{
    if (std::endian::native != std::endian::little)
        throw IoError("'" + path + "': binary PLY is written on little-endian machines only");
    const bool obj = std::filesystem::path(path).extension() == ".obj";
    writeFileAtomically(path, obj ? objBytes(mesh) : plyBytes(mesh), "the mesh");
}

} // namespace rig
