#include "core/import/character_stream.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <cstring>

namespace rig {
namespace {

/// A character with every field set to something other than its default.
ImportedCharacter everyField()
{
    ImportedCharacter c;
    c.mesh.V.resize(3, 3);
    c.mesh.V << 0, 0, 0, 1, 0.1 / 3.0, 0, 0, 1, -1e-300;
    c.mesh.F.resize(1, 3);
    c.mesh.F << 0, 1, 2;
    c.mesh.N.resize(3, 3);
    c.mesh.N << 0, 0, 1, 0, 0, 1, 0, 0, -1;
    c.mesh.part = {0, 1, 1};
    c.mesh.partNames = {"Body", std::string("Eyes\0with NUL", 13)};
    ImportedSkeleton k;
    k.names = {"Hips", "Spine"};
    k.parents = {-1, 0};
    Eigen::Matrix4d a = Eigen::Matrix4d::Identity(), b = Eigen::Matrix4d::Identity();
    a(0, 3) = 0.5;
    b(1, 3) = 1.25;
    b(2, 1) = -0.25;
    k.bindGlobal = {a, b};
    k.W.resize(3, 2);
    k.W.insert(0, 0) = 1.0;
    k.W.insert(1, 0) = 0.25;
    k.W.insert(1, 1) = 0.75;
    k.W.insert(2, 1) = 1.0;
    k.W.makeCompressed();
    ImportedAnimation anim;
    anim.name = "Walk";
    anim.duration = 1.5;
    anim.times = {0.0, 0.75, 1.5};
    anim.global = {{a, b}, {b, a}, {a, a}};
    anim.animatedJoints = 2;
    anim.channels = 3;
    anim.mappedChannels = 2;
    k.animations = {anim, ImportedAnimation{}};
    c.skeleton = k;
    c.info.path = "/tmp/hero.fbx";
    c.info.format = "fbx";
    c.info.upAxis = "-Z";
    c.info.upAxisGuessed = true;
    c.info.fileVertices = 5;
    c.info.fileMeshes = 2;
    c.info.weldMap = {0, 1, 2, 1, 0};
    c.info.meshesPlacedBySkeleton = 1;
    return c;
}

void expectSame(const ImportedCharacter& x, const ImportedCharacter& y)
{
    EXPECT_EQ(x.mesh.V, y.mesh.V);
    EXPECT_EQ(x.mesh.F, y.mesh.F);
    EXPECT_EQ(x.mesh.N, y.mesh.N);
    EXPECT_EQ(x.mesh.part, y.mesh.part);
    EXPECT_EQ(x.mesh.partNames, y.mesh.partNames);
    ASSERT_EQ(x.skeleton.has_value(), y.skeleton.has_value());
    if (x.skeleton) {
        const ImportedSkeleton &a = *x.skeleton, &b = *y.skeleton;
        EXPECT_EQ(a.names, b.names);
        EXPECT_EQ(a.parents, b.parents);
        ASSERT_EQ(a.bindGlobal.size(), b.bindGlobal.size());
        for (size_t i = 0; i < a.bindGlobal.size(); ++i)
            EXPECT_EQ(a.bindGlobal[i], b.bindGlobal[i]);
        EXPECT_EQ(Eigen::MatrixXd(a.W), Eigen::MatrixXd(b.W));
        EXPECT_EQ(a.W.nonZeros(), b.W.nonZeros());
        ASSERT_EQ(a.animations.size(), b.animations.size());
        for (size_t i = 0; i < a.animations.size(); ++i) {
            const ImportedAnimation &p = a.animations[i], &q = b.animations[i];
            EXPECT_EQ(p.name, q.name);
            EXPECT_EQ(p.duration, q.duration);
            EXPECT_EQ(p.times, q.times);
            ASSERT_EQ(p.global.size(), q.global.size());
            for (size_t f = 0; f < p.global.size(); ++f) {
                ASSERT_EQ(p.global[f].size(), q.global[f].size());
                for (size_t j = 0; j < p.global[f].size(); ++j)
                    EXPECT_EQ(p.global[f][j], q.global[f][j]);
            }
            EXPECT_EQ(p.animatedJoints, q.animatedJoints);
            EXPECT_EQ(p.channels, q.channels);
            EXPECT_EQ(p.mappedChannels, q.mappedChannels);
        }
    }
    EXPECT_EQ(x.info.path, y.info.path);
    EXPECT_EQ(x.info.format, y.info.format);
    EXPECT_EQ(x.info.upAxis, y.info.upAxis);
    EXPECT_EQ(x.info.upAxisGuessed, y.info.upAxisGuessed);
    EXPECT_EQ(x.info.fileVertices, y.info.fileVertices);
    EXPECT_EQ(x.info.fileMeshes, y.info.fileMeshes);
    EXPECT_EQ(x.info.weldMap, y.info.weldMap);
    EXPECT_EQ(x.info.meshesPlacedBySkeleton, y.info.meshesPlacedBySkeleton);
}

TEST(CharacterStream, EveryFieldRoundTripsExactly)
{
    const ImportedCharacter c = everyField();
    std::string bytes;
    appendCharacterStream(c, bytes);
    expectSame(c, readCharacterStream(bytes, "hero.fbx"));
    // Without a skeleton, and empty.
    ImportedCharacter plain = c;
    plain.skeleton.reset();
    bytes.clear();
    appendCharacterStream(plain, bytes);
    expectSame(plain, readCharacterStream(bytes, "hero.fbx"));
    bytes.clear();
    appendCharacterStream(ImportedCharacter{}, bytes);
    expectSame(ImportedCharacter{}, readCharacterStream(bytes, "empty"));
}

TEST(CharacterStream, TruncatedOrCorruptStreamsAreRefused)
{
    std::string bytes;
    appendCharacterStream(everyField(), bytes);
    // Cut anywhere (a child killed while writing): always a clear error, never a crash.
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
        try {
            readCharacterStream(std::string_view(bytes).substr(0, cut), "hero.fbx");
            ADD_FAILURE() << "a stream cut at " << cut << " of " << bytes.size() << " was accepted";
        } catch (const IoError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("hero.fbx: the importer's stream is truncated or corrupt", 0), 0u)
                << e.what();
        }
    }
    EXPECT_THROW(readCharacterStream(bytes + "x", "hero.fbx"), IoError);
    // A count claiming more than is left: refused before allocating.
    std::string huge = bytes;
    const std::uint64_t absurd = std::uint64_t(1) << 60;
    std::memcpy(huge.data() + 8, &absurd, 8); // the vertex count, right after the magic
    EXPECT_THROW(readCharacterStream(huge, "hero.fbx"), IoError);
    // Every single flipped byte: an error or a character, never a crash.
    for (size_t i = 0; i < bytes.size(); ++i) {
        std::string flipped = bytes;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
        try {
            readCharacterStream(flipped, "hero.fbx");
        } catch (const IoError&) {
        }
    }
}

} // namespace
} // namespace rig
