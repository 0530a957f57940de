#include "core/import/character_stream.h"

#include "core/common/error.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace rig {
namespace {

constexpr std::string_view kMagic = "RSCHAR02"; // 02: ImportInfo::recentred, collapsedTriangles, warnings
constexpr std::string_view kEnd = "RSEND";

// A field added to one of these structs must be streamed (else the importer
// process silently drops it): these sizes are those of the streamed fields on
// x86-64 with libstdc++. Update fields() below, then the size here.
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(Mesh) == 96, "Mesh changed: stream the new field in fields(Mesh) of character_stream.cpp");
static_assert(sizeof(ImportedAnimation) == 104,
              "ImportedAnimation changed: stream the new field in fields(ImportedAnimation)");
static_assert(sizeof(ImportedSkeleton) == 168,
              "ImportedSkeleton changed: stream the new field in fields(ImportedSkeleton)");
static_assert(sizeof(ImportInfo) == 208, "ImportInfo changed: stream the new field in fields(ImportInfo)");
static_assert(sizeof(ImportedCharacter) == 576,
              "ImportedCharacter changed: stream the new field in fields(ImportedCharacter)");
static_assert(sizeof(SourceTexture) == 96, "SourceTexture changed: stream the new field in fields(SourceTexture)");
static_assert(sizeof(SourceTextureRef) == 16, "SourceTextureRef changed: stream the new field");
static_assert(sizeof(SourceMaterial) == 208, "SourceMaterial changed: stream the new field in fields(SourceMaterial)");
static_assert(sizeof(SourceMesh) == 216, "SourceMesh changed: stream the new field in fields(SourceMesh)");
static_assert(sizeof(SourceAsset) == 96, "SourceAsset changed: stream the new field in fields(SourceAsset)");
#endif

struct Writer {
    static constexpr bool reading = false;
    std::string& out;
    void bytes(const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }
    /// Writes a count; `elementBytes` is used by the reader only.
    std::size_t count(std::size_t n, std::size_t /*elementBytes*/)
    {
        const std::uint64_t v = n;
        bytes(&v, sizeof v);
        return n;
    }
    void mark(std::string_view m) { bytes(m.data(), m.size()); }
};

/// Counts the bytes the Writer would write.
struct Counter {
    static constexpr bool reading = false;
    std::size_t total = 0;
    void bytes(const void*, std::size_t n) { total += n; }
    std::size_t count(std::size_t n, std::size_t)
    {
        total += sizeof(std::uint64_t);
        return n;
    }
    void mark(std::string_view m) { total += m.size(); }
};

struct Reader {
    static constexpr bool reading = true;
    std::string_view in;
    const std::string& source;
    std::size_t pos = 0;

    [[noreturn]] void corrupt(const std::string& why) const
    {
        throw IoError(source + ": the importer's stream is truncated or corrupt (" + why + " at byte " +
                      std::to_string(pos) + " of " + std::to_string(in.size()) + ")");
    }
    void bytes(void* p, std::size_t n)
    {
        if (n > in.size() - pos)
            corrupt("it ends early");
        if (n > 0)
            std::memcpy(p, in.data() + pos, n);
        pos += n;
    }
    /// Reads a count of elements taking at least `elementBytes` each: never more than the bytes left.
    std::size_t count(std::size_t, std::size_t elementBytes)
    {
        std::uint64_t v = 0;
        bytes(&v, sizeof v);
        const std::uint64_t left = in.size() - pos;
        if (elementBytes > 0 && v > left / elementBytes)
            corrupt("a count of " + std::to_string(v) + " exceeds what is left");
        if (elementBytes == 0 && v > (std::uint64_t(1) << 32))
            corrupt("an absurd count of " + std::to_string(v));
        return static_cast<std::size_t>(v);
    }
    void mark(std::string_view m)
    {
        std::string got(m.size(), '\0');
        bytes(got.data(), got.size());
        if (got != m)
            corrupt("the mark '" + std::string(m) + "' is missing");
    }
};

// Overloads for every streamed type (declared first so that each can use the others).
template <class S> void io(S& s, bool& v);
template <class S> void io(S& s, int& v);
template <class S> void io(S& s, double& v);
template <class S> void io(S& s, std::string& v);
template <class S, class T> void io(S& s, std::vector<T>& v);
template <class S, class T> void io(S& s, std::optional<T>& v);
template <class S, class T, int R, int C, int O> void io(S& s, Eigen::Matrix<T, R, C, O>& m);
template <class S> void io(S& s, Eigen::SparseMatrix<double, Eigen::RowMajor>& w);
template <class S> void io(S& s, Mesh& m);
template <class S> void io(S& s, ImportedAnimation& a);
template <class S> void io(S& s, ImportedSkeleton& k);
template <class S> void io(S& s, ImportInfo& i);
template <class S> void io(S& s, ImportedCharacter& c);
template <class S> void io(S& s, std::uint8_t& v);
template <class S> void io(S& s, SourceTexture& t);
template <class S> void io(S& s, SourceTextureRef& r);
template <class S> void io(S& s, SourceMaterial& m);
template <class S> void io(S& s, SourceMesh& m);
template <class S> void io(S& s, SourceAsset& a);

template <class S> void io(S& s, bool& v)
{
    std::uint8_t b = v ? 1 : 0;
    s.bytes(&b, 1);
    v = b != 0;
}
template <class S> void io(S& s, int& v) { s.bytes(&v, sizeof v); }
template <class S> void io(S& s, std::uint8_t& v) { s.bytes(&v, 1); }
template <class S> void io(S& s, double& v) { s.bytes(&v, sizeof v); }
template <class S> void io(S& s, std::string& v)
{
    const std::size_t n = s.count(v.size(), 1);
    if constexpr (S::reading)
        v.resize(n);
    s.bytes(v.data(), n);
}
template <class S, class T> void io(S& s, std::vector<T>& v)
{
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        const std::size_t n = s.count(v.size(), sizeof(T));
        if constexpr (S::reading)
            v.resize(n);
        s.bytes(v.data(), n * sizeof(T));
    } else {
        const std::size_t n = s.count(v.size(), 1); // every element takes at least a byte
        if constexpr (S::reading)
            v.resize(n);
        for (T& x : v)
            io(s, x);
    }
}
template <class S, class T> void io(S& s, std::optional<T>& v)
{
    bool has = v.has_value();
    io(s, has);
    if constexpr (S::reading) {
        if (has)
            v.emplace();
        else
            v.reset();
    }
    if (has)
        io(s, *v);
}
template <class S, class T, int R, int C, int O> void io(S& s, Eigen::Matrix<T, R, C, O>& m)
{
    if constexpr (R != Eigen::Dynamic && C != Eigen::Dynamic) {
        s.bytes(m.data(), sizeof(T) * R * C);
    } else {
        static_assert(C != Eigen::Dynamic, "streamed matrices have a fixed column count");
        const std::size_t rows = s.count(static_cast<std::size_t>(m.rows()), sizeof(T) * C);
        if constexpr (S::reading)
            m.resize(static_cast<Eigen::Index>(rows), C);
        s.bytes(m.data(), rows * C * sizeof(T));
    }
}
template <class S> void io(S& s, Eigen::SparseMatrix<double, Eigen::RowMajor>& w)
{
    int rows = static_cast<int>(w.rows()), cols = static_cast<int>(w.cols());
    io(s, rows);
    io(s, cols);
    std::vector<int> r, c;
    std::vector<double> v;
    if constexpr (!S::reading) {
        for (int k = 0; k < w.outerSize(); ++k)
            for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(w, k); it; ++it) {
                r.push_back(static_cast<int>(it.row()));
                c.push_back(static_cast<int>(it.col()));
                v.push_back(it.value());
            }
    }
    io(s, r);
    io(s, c);
    io(s, v);
    if constexpr (S::reading) {
        // A row per vertex, a column per joint: each took stream bytes of its own.
        if (rows < 0 || cols < 0 || static_cast<std::size_t>(rows) > s.in.size() ||
            static_cast<std::size_t>(cols) > s.in.size() || r.size() != c.size() || r.size() != v.size())
            s.corrupt("inconsistent skin weights");
        std::vector<Eigen::Triplet<double>> t;
        t.reserve(r.size());
        for (std::size_t k = 0; k < r.size(); ++k) {
            if (r[k] < 0 || r[k] >= rows || c[k] < 0 || c[k] >= cols)
                s.corrupt("a skin weight outside the matrix");
            t.emplace_back(r[k], c[k], v[k]);
        }
        w.resize(rows, cols);
        w.setFromTriplets(t.begin(), t.end());
    }
}

// The fields of each struct, in stream order: one line per field.
template <class S> void io(S& s, Mesh& m)
{
    io(s, m.V);
    io(s, m.F);
    io(s, m.N);
    io(s, m.part);
    io(s, m.partNames);
}
template <class S> void io(S& s, ImportedAnimation& a)
{
    io(s, a.name);
    io(s, a.duration);
    io(s, a.times);
    io(s, a.global);
    io(s, a.animatedJoints);
    io(s, a.channels);
    io(s, a.mappedChannels);
}
template <class S> void io(S& s, ImportedSkeleton& k)
{
    io(s, k.names);
    io(s, k.parents);
    io(s, k.bindGlobal);
    io(s, k.W);
    io(s, k.animations);
}
template <class S> void io(S& s, ImportInfo& i)
{
    io(s, i.path);
    io(s, i.format);
    io(s, i.upAxis);
    io(s, i.upAxisGuessed);
    io(s, i.fileVertices);
    io(s, i.fileMeshes);
    io(s, i.weldMap);
    io(s, i.metresPerUnit);
    io(s, i.meshesPlacedBySkeleton);
    io(s, i.recentred);
    io(s, i.collapsedTriangles);
    io(s, i.warnings);
}
template <class S> void io(S& s, SourceTexture& t)
{
    io(s, t.name);
    io(s, t.mimeType);
    io(s, t.bytes);
    io(s, t.embedded);
}
template <class S> void io(S& s, SourceTextureRef& r)
{
    io(s, r.texture);
    io(s, r.uvSet);
    io(s, r.scale);
}
template <class S> void io(S& s, SourceMaterial& m)
{
    io(s, m.name);
    io(s, m.baseColor);
    io(s, m.metallic);
    io(s, m.roughness);
    io(s, m.emissive);
    int alpha = static_cast<int>(m.alphaMode);
    io(s, alpha);
    if constexpr (S::reading) {
        if (alpha < 0 || alpha > 2)
            s.corrupt("an unknown alpha mode");
        m.alphaMode = static_cast<SourceAlphaMode>(alpha);
    }
    io(s, m.alphaCutoff);
    io(s, m.doubleSided);
    for (SourceTextureRef* r : {&m.baseColorTexture, &m.metallicRoughnessTexture, &m.normalTexture,
                                &m.occlusionTexture, &m.emissiveTexture})
        io(s, *r);
}
template <class S> void io(S& s, SourceMesh& m)
{
    io(s, m.name);
    io(s, m.nodeName);
    io(s, m.node);
    io(s, m.V);
    io(s, m.F);
    io(s, m.N);
    io(s, m.uv);
    io(s, m.colors);
    io(s, m.tangents);
    io(s, m.material);
    io(s, m.welded);
}
template <class S> void io(S& s, SourceAsset& a)
{
    io(s, a.meshes);
    io(s, a.materials);
    io(s, a.textures);
    io(s, a.warnings);
}
template <class S> void io(S& s, ImportedCharacter& c)
{
    io(s, c.mesh);
    io(s, c.skeleton);
    io(s, c.info);
    io(s, c.source);
}

} // namespace

void appendCharacterStream(const ImportedCharacter& character, std::string& out)
{
    Counter size;
    size.mark(kMagic);
    io(size, const_cast<ImportedCharacter&>(character));
    size.mark(kEnd);
    out.reserve(out.size() + size.total); // one allocation: a 155k-vertex character is 20 MB
    Writer w{out};
    w.mark(kMagic);
    io(w, const_cast<ImportedCharacter&>(character)); // the writer only reads it
    w.mark(kEnd);
}

ImportedCharacter readCharacterStream(std::string_view bytes, const std::string& source)
{
    Reader r{bytes, source};
    r.mark(kMagic);
    ImportedCharacter c;
    io(r, c);
    r.mark(kEnd);
    if (r.pos != bytes.size())
        r.corrupt(std::to_string(bytes.size() - r.pos) + " bytes after the end mark");
    return c;
}

} // namespace rig
