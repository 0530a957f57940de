// Issue 47, "huge clips stream": a retargeted clip is kept in flat arrays of
// frames × joints, and retargeting or writing it as BVH allocates the same
// whatever the number of frames. (The speed of 10^6 frames is a bench figure:
// bench/README.md, "Reader limits and huge inputs".)
//
// Allocations are counted by replacing the global operator new in this test
// binary; Eigen's dynamic matrices allocate through malloc and are not
// counted, but every std::vector (a Pose's rotations, a MotionPose's, a
// PosedSkeleton's) is.
#include "core/motion/retarget.h"

#include "core/motion/bvh_file.h"
#include "core/common/error.h"
#include "core/rig/template.h"

#include "tests/support/motions.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>

#include <unistd.h>

namespace {
std::atomic<long long> allocations{0};
}

// GCC takes these replacements for the library's and warns that free() does
// not match operator new; they are the replacements, so it does.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t& t) noexcept { return operator new(size, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace rig {
namespace {

/// The humanoid21 template as a clip: root 6 channels, Z Y X elsewhere, every
/// frame different (a sway of every joint and a walk of the root).
Motion swayClip(int frames)
{
    const RigTemplate t = builtinTemplate("humanoid21");
    Motion m = test::makeMotion(t.names, t.parents, t.offsets, frames);
    m.frameTime = 1.0 / 120.0;
    for (int f = 0; f < frames; ++f) {
        const double s = std::sin(0.05 * f);
        for (int c = 3; c < m.channelCount(); ++c)
            m.frames(f, c) = ((c * 37) % 23 - 11) * 1.5 * s;
        m.frames(f, 0) = 0.01 * f;
        m.frames(f, 1) = m.offsets(0, 1) + 0.02 * s;
    }
    return m;
}

Skeleton target() { return motionSkeleton(swayClip(0)); }

template <class F>
long long allocationsOf(F&& work)
{
    const long long before = allocations.load();
    work();
    return allocations.load() - before;
}

TEST(RetargetMemory, FramesAreTwoFlatArraysOfFramesByJoints)
{
    const Skeleton t = target();
    const RetargetedClip clip = retargetClip(swayClip(500), t, {.rest = RetargetRest::Zero});
    const auto nj = static_cast<size_t>(t.jointCount());
    ASSERT_EQ(clip.frames.size(), 500u);
    EXPECT_EQ(clip.frames.jointCount, t.jointCount());
    // Memory in proportion to frames × joints: exactly F·J rotations and F
    // translations, no slack, no per-frame blocks.
    EXPECT_EQ(clip.frames.rotations.size(), 500 * nj);
    EXPECT_EQ(clip.frames.rotations.capacity(), 500 * nj);
    EXPECT_EQ(clip.frames.rootTranslations.capacity(), 500u);
    // A frame is a view into the one array.
    EXPECT_EQ(clip.frames.rotationsOf(499).data(), clip.frames.rotations.data() + 499 * nj);
    const Pose p = clip.frames.pose(499);
    ASSERT_EQ(p.localRotations.size(), nj);
    EXPECT_TRUE(p.localRotations[3].coeffs() == clip.frames.rotationsOf(499)[3].coeffs());
    EXPECT_TRUE(p.rootTranslation == clip.frames.rootTranslations[499]);
}

TEST(RetargetMemory, RetargetingAllocatesTheSameForTenOrTwoThousandFrames)
{
    // Before issue 47 every frame took a Pose (a vector) and the per-frame
    // forward kinematics four more: 2,000 frames made over 10,000 allocations.
    const Skeleton t = target();
    const Motion shortClip = swayClip(10), longClip = swayClip(2000);
    for (const RetargetRest rest : {RetargetRest::Zero, RetargetRest::FirstFrame}) {
        const long long few = allocationsOf([&] { (void)retargetClip(shortClip, t, {.rest = rest}); });
        const long long many = allocationsOf([&] { (void)retargetClip(longClip, t, {.rest = rest}); });
        EXPECT_LE(many - few, 8) << "retargeting allocates per frame: " << few << " allocations for 10 frames, "
                                 << many << " for 2,000";
    }
}

TEST(RetargetMemory, WritingABvhAllocatesTheSameForTenOrTenThousandFrames)
{
    // 10,000 frames cross the writer's 4,096-frame pieces.
    const Skeleton t = target();
    const RetargetedClip shortClip = retargetClip(swayClip(10), t, {.rest = RetargetRest::Zero});
    const RetargetedClip longClip = retargetClip(swayClip(10'000), t, {.rest = RetargetRest::Zero});
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("rigsmith_retarget_memory_" + std::to_string(::getpid()) + ".bvh");
    const long long few = allocationsOf([&] { writeRetargetedBvh(shortClip, t, path.string()); });
    const long long many = allocationsOf([&] { writeRetargetedBvh(longClip, t, path.string()); });
    std::filesystem::remove(path);
    EXPECT_LE(many - few, 16) << "the BVH writer allocates per frame: " << few << " allocations for 10 frames, "
                              << many << " for 10,000";
}

void expectSameClip(const RetargetedClip& a, const RetargetedClip& b)
{
    ASSERT_EQ(a.frames.size(), b.frames.size());
    ASSERT_EQ(a.frames.jointCount, b.frames.jointCount);
    for (size_t k = 0; k < a.frames.rotations.size(); ++k)
        ASSERT_TRUE(a.frames.rotations[k].coeffs() == b.frames.rotations[k].coeffs()) << "rotation " << k;
    EXPECT_TRUE(a.frames.rootTranslations == b.frames.rootTranslations);
    EXPECT_EQ(a.frameTime, b.frameTime);
    EXPECT_EQ(a.contactFrames, b.contactFrames);
    EXPECT_EQ(a.footErrorBefore, b.footErrorBefore);
    EXPECT_EQ(a.footErrorAfter, b.footErrorAfter);
    EXPECT_EQ(a.mapping.restUsed, b.mapping.restUsed);
}

TEST(RetargetMemory, BlocksOfAnySizeRetargetAsTheWholeClip)
{
    // ClipRetargeter: the source frames a block at a time (as `rigsmith
    // retarget` reads a BVH file), the same clip bit for bit.
    const Skeleton t = target();
    const Motion clip = swayClip(1000);
    for (const int step : {1, 3}) {
        const RetargetOptions options{.frameStep = step};
        const RetargetMapping mapping = mapSkeletons(clip, t, options);
        const RetargetedClip whole = retargetClip(clip, t, mapping, options);
        for (const Eigen::Index block : {Eigen::Index(1), Eigen::Index(7), Eigen::Index(1000)}) {
            Motion head = clip;
            head.frames = clip.frames.topRows(std::min<Eigen::Index>(block, clip.frameCount()));
            ClipRetargeter retargeter(head, t, mapping, options, block == 7 ? 0 : clip.frameCount());
            for (Eigen::Index r = 0; r < clip.frameCount(); r += block) {
                const MotionFrames part = clip.frames.middleRows(r, std::min(block, clip.frameCount() - r));
                retargeter.add(part);
            }
            expectSameClip(retargeter.finish(), whole);
        }
    }
}

TEST(RetargetMemory, AClipStreamedFromABvhFileRetargetsAsReadWhole)
{
    const Skeleton t = target();
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("rigsmith_retarget_stream_" + std::to_string(::getpid()) + ".bvh");
    writeBvh(swayClip(5000), path.string());
    const Motion whole = readBvh(path.string());
    const RetargetMapping mapping = mapSkeletons(whole, t);
    BvhFrameReader reader(path.string());
    Motion head = reader.hierarchy();
    reader.read(head.frames, 256);
    EXPECT_EQ(mapSkeletons(head, t).restUsed, mapping.restUsed); // frame 0 is all the mapping needs
    ClipRetargeter retargeter(head, t, mapping, {}, reader.declaredFrames());
    retargeter.add(head.frames);
    for (MotionFrames block; reader.read(block, 256);)
        retargeter.add(block);
    std::filesystem::remove(path);
    expectSameClip(retargeter.finish(), retargetClip(whole, t, mapping));
}

TEST(RetargetMemory, TheBlockRetargeterRefusesWhatRetargetClipRefuses)
{
    const Skeleton t = target();
    const Motion clip = swayClip(10);
    const RetargetMapping mapping = mapSkeletons(clip, t);
    EXPECT_THROW(ClipRetargeter(clip, t, mapping, {.frameStep = 0}), InvalidInput);
    ClipRetargeter retargeter(clip, t, mapping);
    EXPECT_THROW(retargeter.finish(), InvalidInput); // no frames added
    EXPECT_THROW(retargeter.add(MotionFrames::Zero(2, clip.channelCount() - 1)), InvalidInput);
    MotionFrames bad = clip.frames.topRows(2);
    bad(1, 4) = std::nan("");
    EXPECT_THROW(retargeter.add(bad), InvalidInput);
}

} // namespace
} // namespace rig
