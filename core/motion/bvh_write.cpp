// Writing BVH files (bvh_file.h): formatBvh() and writeBvh().
#include "core/motion/bvh_file.h"

#include "core/common/atomic_write.h"
#include "core/common/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

void appendNumber(std::string& out, double v)
{
    // Shortest fixed-point text that reads back to the same double: exact
    // round trips, and no exponents for readers that do not expect them.
    char buf[400];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    (void)ec; // 400 characters hold any finite double in fixed notation
    out.append(buf, ptr);
}

void appendIndent(std::string& out, size_t depth)
{
    out.append(depth, '\t');
}

void appendOffset(std::string& out, size_t depth, const Eigen::RowVector3d& o)
{
    appendIndent(out, depth);
    out += "OFFSET";
    for (int k = 0; k < 3; ++k) {
        out += ' ';
        appendNumber(out, o[k]);
    }
    out += '\n';
}


/// The HIERARCHY of `m` and the MOTION lines before `frameCount` frames;
/// `columns` gets the frame columns in the order the joints are written.
/// Expects a valid motion.
std::string bvhHeader(const Motion& m, Eigen::Index frameCount, std::vector<int>& columns)
{
    const std::vector<std::vector<int>> children = [&] {
        std::vector<std::vector<int>> c(m.names.size());
        for (size_t j = 1; j < m.parents.size(); ++j)
            c[static_cast<size_t>(m.parents[j])].push_back(static_cast<int>(j));
        return c;
    }();
    std::vector<std::vector<int>> endSites(m.names.size());
    for (size_t e = 0; e < m.endSiteParents.size(); ++e)
        endSites[static_cast<size_t>(m.endSiteParents[e])].push_back(static_cast<int>(e));

    std::string out = "HIERARCHY\n";
    // Columns in the order the joints are written (depth-first, children by
    // index), which is the motion's own order when it came from a file.
    columns.clear();
    columns.reserve(m.channels.size());
    // Iterative depth-first walk: (joint, next child to visit).
    std::vector<std::pair<int, size_t>> stack = {{0, 0}};
    const auto openJoint = [&](int j, size_t depth) {
        appendIndent(out, depth);
        out += j == 0 ? "ROOT " : "JOINT ";
        out += m.names[static_cast<size_t>(j)];
        out += '\n';
        appendIndent(out, depth);
        out += "{\n";
        appendOffset(out, depth + 1, m.offsets.row(j));
        appendIndent(out, depth + 1);
        const std::span<const Channel> ch = m.jointChannels(j);
        out += "CHANNELS " + std::to_string(ch.size());
        for (const Channel c : ch) {
            out += ' ';
            out += channelName(c);
        }
        out += '\n';
        for (int c = m.channelStarts[static_cast<size_t>(j)]; c < m.channelStarts[static_cast<size_t>(j) + 1]; ++c)
            columns.push_back(c);
    };
    openJoint(0, 0);
    while (!stack.empty()) {
        auto& [j, nextChild] = stack.back();
        const size_t depth = stack.size();
        const auto& kids = children[static_cast<size_t>(j)];
        if (nextChild < kids.size()) {
            const int child = kids[nextChild++];
            openJoint(child, depth);
            stack.push_back({child, 0});
            continue;
        }
        for (const int e : endSites[static_cast<size_t>(j)]) {
            appendIndent(out, depth);
            out += "End Site\n";
            appendIndent(out, depth);
            out += "{\n";
            appendOffset(out, depth + 1, m.endSiteOffsets.row(e));
            appendIndent(out, depth);
            out += "}\n";
        }
        appendIndent(out, depth - 1);
        out += "}\n";
        stack.pop_back();
    }

    out += "MOTION\nFrames: " + std::to_string(frameCount) + "\nFrame Time: ";
    appendNumber(out, m.frameTime);
    out += '\n';
    return out;
}

/// Appends one frame's line: `values` (#C, in channel order) in `columns` order.
void appendFrame(const std::vector<int>& columns, const double* values, std::string& out)
{
    for (size_t k = 0; k < columns.size(); ++k) {
        if (k > 0)
            out += ' ';
        appendNumber(out, values[columns[k]]);
    }
    out += '\n';
}

} // namespace

std::string formatBvh(const Motion& m)
{
    validateMotion(m);
    std::vector<int> columns;
    std::string out = bvhHeader(m, m.frames.rows(), columns);
    for (Eigen::Index f = 0; f < m.frames.rows(); ++f)
        appendFrame(columns, m.frames.row(f).data(), out);
    return out;
}

void writeBvh(const Motion& motion, const std::string& path)
{
    validateMotion(motion); // before the file is touched, as formatBvh()
    writeBvh(motion, motion.frames.rows(),
             [&motion](Eigen::Index f, std::span<double> values) {
                 std::copy_n(motion.frames.row(f).data(), values.size(), values.begin());
             },
             path);
}

void writeBvh(const Motion& hierarchy, Eigen::Index frameCount,
              const std::function<void(Eigen::Index, std::span<double>)>& frameValues, const std::string& path)
{
    // Atomically, like the project and glTF writes: a crash or a full disk
    // leaves the previous file as it was. In pieces of 4,096 frames: the text
    // of 10^6 frames (over 1 GB, built by reallocations) was never needed whole.
    Motion header = hierarchy;
    header.frames.resize(0, hierarchy.channelCount());
    validateMotion(header);
    std::vector<int> columns;
    std::string text = bvhHeader(header, frameCount, columns);
    std::vector<double> values(static_cast<size_t>(header.channelCount()));
    Eigen::Index next = 0;
    writeFileAtomically(
        path,
        [&](std::string& piece) {
            if (next == 0) { // the hierarchy, then room for a piece of frames: one allocation
                piece.swap(text);
                piece.reserve(piece.size() + static_cast<size_t>(std::min<Eigen::Index>(frameCount, 4096)) *
                                                 (columns.size() * 20 + 1));
            }
            for (const Eigen::Index last = std::min<Eigen::Index>(next + 4096, frameCount); next < last; ++next) {
                frameValues(next, values);
                if (!std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
                    throw InvalidInput(path + ": frame " + std::to_string(next) +
                                       " holds NaN or infinite values; nothing was written");
                appendFrame(columns, values.data(), piece);
            }
            return next < frameCount;
        },
        "the BVH file");
}

} // namespace rig
