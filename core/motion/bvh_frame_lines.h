#pragma once
/// @file bvh_frame_lines.h
/// Internal to the BVH reader (bvh_file.cpp, bvh_frame_reader.cpp): the
/// frame lines, read a chunk of the input at a time, and the header alone,
/// shared by parseBvh() and BvhFrameReader so that both take and refuse the
/// same input with the same messages.

#include "core/motion/bvh_file.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rig::bvh {

/// How a number in a frame line failed (or not).
enum class NumberStatus { ok, notANumber, notFinite, outOfRange, absurd };

/// The reading of frame lines: where it is, what it has read.
struct FrameLines {
    const std::string& source;     ///< The file name in messages.
    const BvhReadOptions& options;
    const Progress& progress;      ///< "read BVH", fraction of the declared frames.
    long long columns = 0;         ///< Values per frame line (#C).
    long long declared = 0;        ///< "Frames:".
    long long framesLine = 0;      ///< The line of "Frames:", for messages.
    long long line = 0;            ///< The number of the line the next read() starts on.
    long long lastContentLine = 0; ///< The last line that was not blank.
    long long frames = 0;          ///< Frame lines read, those past `declared` included.
    std::vector<double> extra;     ///< A line past `declared`: checked, then dropped.

    /// @throws rig::IoError "SOURCE:AT: problem".
    [[noreturn]] void fail(long long at, const std::string& problem) const;
    /// Steps over the end of the "Frame Time:" line at `p`, if there.
    const char* skipHeaderLineEnd(const char* p, const char* end);
    /// Reads the frame lines of [p, end), frame after frame into `rows`
    /// (#C values each), until `maxRows` rows are filled (`filled` says how
    /// many); lines past `declared` are checked and dropped. A line is read
    /// when a '\n' ends it before `end`, or when `end` is the end of the input
    /// (`atEnd`). Returns where the first line not read starts (`end` when
    /// all were). @throws rig::IoError for a bad line; rig::Cancelled.
    const char* read(const char* p, const char* end, bool atEnd, double* rows, long long maxRows, long long& filled);
    /// At the end of the input. @throws rig::IoError when fewer frame lines than declared were read.
    void finish() const;

private:
    /// The #C values of the frame line [q, eol) into `row`.
    void readValues(const char* q, const char* eol, double* row) const;
    [[noreturn]] void failValue(long long frame, long long value, const char* first, const char* last,
                                NumberStatus status) const;
};

/// The header of BVH text: the motion without frames (0 by #C), the frame
/// lines to read next, and where the "Frame Time:" line ends in `text`.
struct Header {
    Motion motion;
    FrameLines lines;
    std::size_t end = 0;
};

/// Parses the hierarchy and the "Frames:" and "Frame Time:" lines of `text`.
/// @throws rig::IoError as parseBvh().
Header parseHeader(std::string_view text, const std::string& source, const BvhReadOptions& options,
                   const Progress& progress);

/// Whether `line` is a "Frame Time:" line: "frame", blanks, "time", case aside.
bool isFrameTimeLine(std::string_view line);

} // namespace rig::bvh
