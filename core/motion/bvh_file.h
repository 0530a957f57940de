#pragma once
/// @file bvh_file.h
/// Reading and writing Biovision Hierarchy (BVH) motion files.
///
/// The reader takes the whole format: any channel order per joint, 0 to 6
/// channels on any joint, End Sites, spaces or tabs, LF or CRLF, a UTF-8 BOM,
/// ASCII case-insensitive keywords and channel names, joint names with inner
/// spaces (the rest of the ROOT/JOINT line), braces on their own line or at
/// the end of the joint's line. It is strict about everything else and reports
/// the first problem as "FILE:LINE: problem" (lines count from 1):
/// unknown keywords, missing or extra braces, a second ROOT, CHANNELS counts
/// that do not match the names, unknown or repeated channels, non-numbers,
/// NaN or infinite values, absurdly large offsets or channel values
/// (BvhReadOptions::maxAbsValue), missing/negative/absurd "Frames:", missing or
/// non-positive or absurd "Frame Time:", frame lines with the wrong number of
/// values, fewer frame lines than declared (more: see
/// BvhReadOptions::strictFrameCount), duplicate joint names, an
/// empty hierarchy, nesting deeper than a limit. No input crashes it: nesting
/// is parsed with an explicit stack and memory grows with the input, not with
/// what the header claims (it is fuzzed: tests/fuzz/bvh_fuzz.cpp).
///
/// Numbers are parsed without locale or allocation: plain decimals by
/// Clinger's exact fast path (core/common/decimal_text.h), the rest by
/// std::from_chars: a 31-joint, 10 000-frame clip loads in a few tens of ms
/// (see bench/bvh_bench.cpp).

#include "core/common/progress.h"
#include "core/motion/motion.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace rig {

struct BvhReadOptions {
    /// Refuse files larger than this (bytes) before reading them.
    std::size_t maxFileBytes = std::size_t(2) << 30; // 2 GiB
    /// Largest accepted "Frames:" value (never more than INT_MAX).
    long long maxFrames = 10'000'000;
    /// Largest number of joints (ROOT + JOINT, End Sites excluded).
    int maxJoints = 10'000;
    /// Deepest accepted nesting of joints and End Sites (the root is depth 1).
    int maxDepth = 1'000;
    /// Largest accepted size of an OFFSET value or a channel value (units or
    /// degrees). Real clips stay far below (CMU: under 100; millimetre rigs:
    /// thousands); 1e308 made the retargeting's bone lengths infinite.
    double maxAbsValue = 1e9;
    /// Largest accepted "Frame Time:" in seconds (smallest: above 0).
    double maxFrameTime = 3600.0;
    /// Frame lines beyond the "Frames:" count: an error when true; when false
    /// they are checked like the others (a bad one is still an error) and then
    /// dropped, trusting the header as Assimp does. Exporters do write one line
    /// too many: assimp's test model Boxing_Toes.bvh has 3070 lines for 3069
    /// frames. Fewer lines than declared is always an error.
    bool strictFrameCount = false;
};

/// Reads a BVH file, through `BvhFrameReader`: the file in 4 MiB pieces, never
/// its whole text (642 MB at 10^6 frames). Reports progress ("read BVH",
/// fraction of frames) and honours cancellation.
/// @throws rig::IoError when the file cannot be read, is too large or is
///         malformed ("FILE:LINE: problem"); rig::Cancelled when cancelled.
Motion readBvh(const std::string& path, const BvhReadOptions& options = {}, const Progress& progress = {});

/// A BVH file read a block of frames at a time, so that a clip of 10^6 frames
/// is never whole in memory, neither as text nor as values (issue 47: a
/// 642 MB file was read whole, then parsed into a 768 MB matrix). The file is
/// read in pieces of 4 MiB; `readBvh()` is this reader's blocks gathered.
/// It takes and refuses exactly what `parseBvh()` does, with the same
/// messages, a problem in a frame line when the block holding it is read.
class BvhFrameReader {
public:
    /// Opens `path` and reads the hierarchy and the "Frames:" and "Frame
    /// Time:" lines. Reports progress ("read BVH", fraction of the frames)
    /// as blocks are read and honours cancellation.
    /// @throws rig::IoError as readBvh() for the file and its hierarchy.
    explicit BvhFrameReader(const std::string& path, const BvhReadOptions& options = {},
                            const Progress& progress = {});
    ~BvhFrameReader();
    BvhFrameReader(const BvhFrameReader&) = delete;
    BvhFrameReader& operator=(const BvhFrameReader&) = delete;

    /// The hierarchy and frame time; its frames are 0 by #C.
    const Motion& hierarchy() const;
    /// The frame count "Frames:" declares (what read() gives in all).
    Eigen::Index declaredFrames() const;
    /// Reads the next frames into `block` (resized to n by #C, n <= maxFrames),
    /// returns n; 0 once all are read, after the rest of the file was checked.
    /// Expects maxFrames >= 1.
    /// @throws rig::IoError as readBvh() for a bad frame line or a short file.
    Eigen::Index read(MotionFrames& block, Eigen::Index maxFrames);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// Parses BVH text; sourceName stands for the file name in messages.
/// The result satisfies validateMotion().
/// @throws rig::IoError for malformed text ("SOURCE:LINE: problem");
///         rig::Cancelled when cancelled.
Motion parseBvh(std::string_view text, const std::string& sourceName = "<memory>",
                const BvhReadOptions& options = {}, const Progress& progress = {});

/// Formats a motion as BVH text: tab-indented hierarchy, channels in their
/// order, End Sites, then one line per frame. Numbers are written in the
/// shortest fixed-point form that reads back to the same double, so
/// parseBvh(formatBvh(m)) reproduces m exactly.
/// @throws rig::InvalidInput when validateMotion(motion) fails.
std::string formatBvh(const Motion& motion);

/// Writes formatBvh(motion) to a file atomically (a temporary file beside it,
/// synced, then renamed over it: a crash or a full disk leaves the previous
/// file), formatted 4,096 frames at a time: the text is never whole in memory.
/// @throws rig::InvalidInput as formatBvh(); rig::IoError when the file cannot be written.
void writeBvh(const Motion& motion, const std::string& path);

/// writeBvh() of a motion whose frames are made as they are written, so
/// that they are never all in memory: `frameValues(f, values)` fills frame
/// f's #C channel values (f from 0 to frameCount - 1, in order). The frames
/// of `hierarchy` itself are ignored.
/// @throws rig::InvalidInput as formatBvh(), or naming the file and the frame
///         when a value is not finite (nothing is written); rig::IoError when
///         the file cannot be written; what `frameValues` throws.
void writeBvh(const Motion& hierarchy, Eigen::Index frameCount,
              const std::function<void(Eigen::Index, std::span<double>)>& frameValues, const std::string& path);

} // namespace rig
