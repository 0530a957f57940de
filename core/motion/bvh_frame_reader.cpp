// BvhFrameReader and readBvh() of bvh_file.h: a BVH file in pieces, its frames in blocks.
#include "core/motion/bvh_file.h"
#include "core/motion/bvh_frame_lines.h"

#include "core/common/error.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace rig {

namespace {

constexpr std::size_t pieceBytes = std::size_t(4) << 20;

} // namespace

struct BvhFrameReader::State {
    std::string path;
    BvhReadOptions options;
    Progress progress;
    std::ifstream in;
    std::uintmax_t fileBytes = 0;
    std::string buffer; ///< Bytes read and not yet parsed: [pos, buffer.size()).
    std::size_t pos = 0;
    bool atEnd = false; ///< The whole file is in `buffer`.
    Motion hierarchy;
    std::optional<bvh::FrameLines> lines;
    Eigen::Index served = 0; ///< Frames given by read().
    bool finished = false;

    /// Appends the next piece of the file to `buffer`, dropping what was parsed.
    void refill()
    {
        buffer.erase(0, pos);
        pos = 0;
        const std::size_t old = buffer.size();
        buffer.resize(old + pieceBytes);
        in.read(buffer.data() + old, static_cast<std::streamsize>(pieceBytes));
        const auto got = static_cast<std::size_t>(in.gcount());
        buffer.resize(old + got);
        if (got < pieceBytes) {
            if (in.bad())
                throw IoError(path + ": cannot read: the read failed after " + std::to_string(old + got) + " bytes");
            atEnd = true;
        }
        progress.checkCancelled();
    }
};

BvhFrameReader::BvhFrameReader(const std::string& path, const BvhReadOptions& options, const Progress& progress)
    : m_state(std::make_unique<State>())
{
    State& st = *m_state;
    st.path = path;
    st.options = options;
    st.progress = progress;
    std::error_code ec;
    st.fileBytes = std::filesystem::file_size(path, ec);
    if (ec)
        throw IoError(path + ": cannot read: " + ec.message());
    if (st.fileBytes > options.maxFileBytes)
        throw IoError(path + ": the file is " + std::to_string(st.fileBytes) + " bytes, more than the limit of " +
                      std::to_string(options.maxFileBytes));
    st.in.open(path, std::ios::binary);
    if (!st.in)
        throw IoError(path + ": cannot open for reading");
    // The header ends with the "Frame Time:" line: read pieces until it is whole.
    std::size_t scanned = 0, headerEnd = std::string::npos;
    while (headerEnd == std::string::npos) {
        if (st.atEnd)
            break;
        st.refill();
        for (;;) {
            const std::size_t eol = st.buffer.find('\n', scanned);
            if (eol == std::string::npos && !st.atEnd)
                break;
            const std::size_t stop = eol == std::string::npos ? st.buffer.size() : eol;
            if (bvh::isFrameTimeLine(std::string_view(st.buffer).substr(scanned, stop - scanned))) {
                headerEnd = stop;
                break;
            }
            if (eol == std::string::npos)
                break;
            scanned = eol + 1;
        }
    }
    if (headerEnd == std::string::npos) {
        // No "Frame Time:" line: the parser of the whole text says what is wrong.
        parseBvh(st.buffer, st.path, st.options, st.progress);
        throw IoError(path + ": no 'Frame Time:' line"); // not reached: parseBvh() throws
    }
    bvh::Header header = bvh::parseHeader(std::string_view(st.buffer).substr(0, headerEnd), st.path, st.options, st.progress);
    st.hierarchy = std::move(header.motion);
    st.lines.emplace(std::move(header.lines));
    st.pos = header.end;
    const char* p = st.buffer.data() + st.pos;
    st.pos = static_cast<std::size_t>(st.lines->skipHeaderLineEnd(p, st.buffer.data() + st.buffer.size()) - st.buffer.data());
}

BvhFrameReader::~BvhFrameReader() = default;

const Motion& BvhFrameReader::hierarchy() const { return m_state->hierarchy; }

Eigen::Index BvhFrameReader::declaredFrames() const { return static_cast<Eigen::Index>(m_state->lines->declared); }

Eigen::Index BvhFrameReader::read(MotionFrames& block, Eigen::Index maxFrames)
{
    State& st = *m_state;
    bvh::FrameLines& lines = *st.lines;
    const Eigen::Index columns = st.hierarchy.channelCount();
    const Eigen::Index n = std::min<Eigen::Index>(std::max<Eigen::Index>(maxFrames, 0), declaredFrames() - st.served);
    block.resize(n, columns);
    // Without channels a frame line has no values: the rows are empty, the file is still checked.
    const bool noValues = columns == 0;
    Eigen::Index rows = 0;
    while (!st.finished && (noValues || n == 0 || rows < n)) {
        long long filled = 0;
        const char* end = st.buffer.data() + st.buffer.size();
        const char* p = lines.read(st.buffer.data() + st.pos, end, st.atEnd, block.data() + rows * columns,
                                   noValues ? 0 : n - rows, filled);
        st.pos = static_cast<std::size_t>(p - st.buffer.data());
        rows += filled;
        if (p == end && st.atEnd) {
            lines.finish();
            st.finished = true;
        } else if (noValues || n == 0 || rows < n) {
            st.refill(); // the piece is parsed up to a line that goes on in the next
        }
    }
    if (noValues)
        rows = n;
    assert(rows == n);
    st.served += rows;
    return rows;
}

Motion readBvh(const std::string& path, const BvhReadOptions& options, const Progress& progress)
{
    BvhFrameReader reader(path, options, progress);
    Motion m = reader.hierarchy();
    // Memory follows the input, not the header: a frame line takes at least 2C bytes.
    const Eigen::Index columns = m.channelCount();
    const Eigen::Index declared = reader.declaredFrames();
    Eigen::Index capacity = columns == 0 ? declared
                                         : std::min<Eigen::Index>(declared, static_cast<Eigen::Index>(
                                                                                std::filesystem::file_size(path) /
                                                                                static_cast<std::uintmax_t>(2 * columns)) + 1);
    m.frames.resize(capacity, columns);
    MotionFrames block;
    Eigen::Index rows = 0;
    while (const Eigen::Index got = reader.read(block, 4096)) {
        if (rows + got > capacity) { // only when the size estimate was low
            capacity = std::min(declared, std::max(2 * capacity + 16, rows + got));
            m.frames.conservativeResize(capacity, Eigen::NoChange);
        }
        m.frames.middleRows(rows, got) = block;
        rows += got;
    }
    m.frames.conservativeResize(rows, Eigen::NoChange);
    return m;
}

} // namespace rig
