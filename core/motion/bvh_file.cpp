#include "core/motion/bvh_file.h"
#include "core/motion/bvh_frame_lines.h"

#include "core/common/decimal_text.h"
#include "core/common/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <unordered_set>

namespace rig {
namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

/// Strips `prefix` (case-insensitive) from the front of s; false if absent.
bool consumePrefix(std::string_view& s, std::string_view prefix)
{
    if (s.size() < prefix.size() || !equalsIgnoreCase(s.substr(0, prefix.size()), prefix))
        return false;
    s.remove_prefix(prefix.size());
    return true;
}

std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

/// A piece of input for an error message: at most 40 characters, control and
/// non-ASCII bytes shown as '?', so fuzzed garbage stays readable.
std::string quote(std::string_view s)
{
    std::string out = "'";
    for (size_t i = 0; i < s.size() && i < 40; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        out += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
    }
    if (s.size() > 40)
        out += "...";
    return out + "'";
}

using bvh::FrameLines;
using bvh::NumberStatus;

/// "1e+09" for messages.
std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

NumberStatus parseDouble(const char* first, const char* last, double& value, const char*& stop)
{
    const char* p = first;
    if (p != last && *p == '+' && p + 1 != last && *(p + 1) != '-')
        ++p;
    if (parseSimpleDecimal(p, last, value, stop))
        return NumberStatus::ok;
    const auto [ptr, ec] = std::from_chars(p, last, value);
    stop = ptr;
    if (ptr == p || (ptr != last && !isBlank(*ptr)))
        return NumberStatus::notANumber;
    if (ec == std::errc::result_out_of_range)
        return NumberStatus::outOfRange; // |x| > DBL_MAX, or so tiny it is 0: neither belongs in a BVH
    if (ec != std::errc())
        return NumberStatus::notANumber;
    return std::isfinite(value) ? NumberStatus::ok : NumberStatus::notFinite;
}

struct Token {
    std::string_view text; ///< Empty at the end of the input.
    long long line = 0;
    bool end() const { return text.empty(); }
};

/// What is open while reading the hierarchy: a joint, or an End Site of one.
struct Open {
    int joint = -1;
    bool endSite = false;
    long long line = 0;
    bool hasOffset = false;
    bool hasChannels = false;
};

class BvhParser {
public:
    BvhParser(std::string_view text, const std::string& source, const BvhReadOptions& options,
              const Progress& progress)
        : m_text(text), m_source(source), m_options(options), m_progress(progress)
    {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
            m_pos = 3;
    }

    Motion parse()
    {
        parseHierarchy();
        parseMotion();
        return std::move(m_motion);
    }

private:
    [[noreturn]] void fail(long long line, const std::string& problem) const
    {
        throw IoError(m_source + ":" + std::to_string(line) + ": " + problem);
    }

    // --- Lexer: tokens are runs of non-blank characters; '{' and '}' are tokens of their own.

    void skipBlanks()
    {
        while (m_pos < m_text.size() && isBlank(m_text[m_pos]))
            ++m_pos;
    }

    Token lexToken()
    {
        const size_t start = m_pos;
        if (m_text[m_pos] == '{' || m_text[m_pos] == '}') {
            ++m_pos;
        } else {
            while (m_pos < m_text.size() && !isBlank(m_text[m_pos]) && m_text[m_pos] != '\n' &&
                   m_text[m_pos] != '{' && m_text[m_pos] != '}')
                ++m_pos;
        }
        return {m_text.substr(start, m_pos - start), m_line};
    }

    /// The number of the last line, for problems found at the end of the input.
    long long lastLine() const
    {
        return !m_text.empty() && m_text.back() == '\n' && m_line > 1 ? m_line - 1 : m_line;
    }

    /// The next token, on any line; an empty token at the end of the input.
    Token next()
    {
        for (;;) {
            skipBlanks();
            if (m_pos >= m_text.size())
                return {{}, lastLine()};
            if (m_text[m_pos] != '\n')
                return lexToken();
            ++m_pos;
            ++m_line;
        }
    }

    /// The next token on the current line; an empty token at its end.
    Token nextOnLine()
    {
        skipBlanks();
        if (m_pos >= m_text.size() || m_text[m_pos] == '\n')
            return {{}, m_line};
        return lexToken();
    }

    void expectLineEnd(std::string_view after)
    {
        const Token t = nextOnLine();
        if (!t.end())
            fail(t.line, "unexpected " + quote(t.text) + " after " + std::string(after));
    }

    double number(const Token& t, const std::string& what)
    {
        if (t.end())
            fail(t.line, "missing " + what);
        double v = 0.0;
        const char* stop = nullptr;
        const char* last = t.text.data() + t.text.size();
        switch (parseDouble(t.text.data(), last, v, stop)) {
        case NumberStatus::ok:
            if (stop == last)
                return v;
            break;
        case NumberStatus::notFinite: fail(t.line, what + " " + quote(t.text) + " is not finite");
        case NumberStatus::outOfRange: fail(t.line, what + " " + quote(t.text) + " is out of range");
        case NumberStatus::notANumber:
        case NumberStatus::absurd: break;
        }
        fail(t.line, what + " " + quote(t.text) + " is not a number");
    }

    std::string jointName(int j) const { return "'" + m_motion.names[static_cast<size_t>(j)] + "'"; }

    std::string describe(const Open& o) const
    {
        return (o.endSite ? "the End Site of joint " : "joint ") + jointName(o.joint) + " opened on line " +
               std::to_string(o.line);
    }

    // --- HIERARCHY

    /// After ROOT or JOINT: the name (the rest of the line up to '{'), then '{'.
    void openJoint(const Token& keyword, int parent)
    {
        std::string name;
        bool braceOnLine = false;
        for (Token t = nextOnLine(); !t.end(); t = nextOnLine()) {
            if (t.text == "{") {
                braceOnLine = true;
                break;
            }
            if (t.text == "}")
                fail(t.line, "unexpected '}' in the name of a joint");
            if (!name.empty())
                name += ' ';
            name.append(t.text);
        }
        if (name.empty())
            fail(keyword.line, std::string(keyword.text) + " without a name");
        if (!braceOnLine) {
            const Token brace = next();
            if (brace.text != "{")
                fail(brace.line, "expected '{' after " + std::string(keyword.text) + " " + name + ", found " +
                                     (brace.end() ? std::string("the end of the file") : quote(brace.text)));
        }
        if (static_cast<int>(m_motion.names.size()) >= m_options.maxJoints)
            fail(keyword.line, "more than " + std::to_string(m_options.maxJoints) + " joints");
        if (static_cast<int>(m_stack.size()) >= m_options.maxDepth)
            fail(keyword.line, "joints nested deeper than " + std::to_string(m_options.maxDepth) + " levels");
        if (!m_names.insert(name).second)
            fail(keyword.line, "joint name '" + name + "' is used twice");
        m_motion.names.push_back(std::move(name));
        m_motion.parents.push_back(parent);
        m_offsets.push_back(Vec3::Zero());
        m_motion.channelStarts.push_back(static_cast<int>(m_motion.channels.size()));
        m_stack.push_back({static_cast<int>(m_motion.names.size()) - 1, false, keyword.line});
    }

    void readOffset(const Token& keyword, Open& top)
    {
        if (top.hasOffset)
            fail(keyword.line, "a second OFFSET in " + describe(top));
        Vec3 o;
        for (int k = 0; k < 3; ++k) {
            const Token t = nextOnLine();
            o[k] = number(t, "OFFSET value " + std::to_string(k + 1));
            if (std::abs(o[k]) > m_options.maxAbsValue)
                fail(t.line, "OFFSET value " + std::to_string(k + 1) + " " + quote(t.text) + " is absurd (more than " +
                                 shortNumber(m_options.maxAbsValue) + " in size; a corrupt file?)");
        }
        expectLineEnd("the three OFFSET values");
        top.hasOffset = true;
        if (top.endSite)
            m_endSiteOffsets.back() = o;
        else
            m_offsets[static_cast<size_t>(top.joint)] = o;
    }

    void readChannels(const Token& keyword, Open& top)
    {
        if (top.endSite)
            fail(keyword.line, "CHANNELS in an End Site");
        if (top.hasChannels)
            fail(keyword.line, "a second CHANNELS in " + describe(top));
        const Token countToken = nextOnLine();
        if (countToken.end())
            fail(keyword.line, "CHANNELS without a count");
        int count = 0;
        const auto [ptr, ec] =
            std::from_chars(countToken.text.data(), countToken.text.data() + countToken.text.size(), count);
        if (ec != std::errc() || ptr != countToken.text.data() + countToken.text.size())
            fail(keyword.line, "CHANNELS count " + quote(countToken.text) + " is not a whole number");
        if (count < 0 || count > 6)
            fail(keyword.line, "CHANNELS count " + std::to_string(count) + ": a joint has 0 to 6 channels");
        unsigned used = 0;
        int listed = 0;
        for (Token t = nextOnLine(); !t.end(); t = nextOnLine(), ++listed) {
            if (listed >= count)
                continue; // counted for the message below
            const std::optional<Channel> c = parseChannelName(t.text);
            if (!c)
                fail(t.line, "unknown channel " + quote(t.text) +
                                 " (expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)");
            const unsigned bit = 1u << static_cast<unsigned>(*c);
            if (used & bit)
                fail(t.line, "channel " + std::string(channelName(*c)) + " listed twice for joint " +
                                 jointName(top.joint));
            used |= bit;
            m_motion.channels.push_back(*c);
        }
        if (listed != count)
            fail(keyword.line, "CHANNELS " + std::to_string(count) + " lists " + std::to_string(listed) +
                                   " channel names for joint " + jointName(top.joint));
        top.hasChannels = true;
    }

    void closeTop(const Token& brace)
    {
        const Open& top = m_stack.back();
        if (!top.hasOffset)
            fail(brace.line, describe(top) + " has no OFFSET");
        if (!top.endSite && !top.hasChannels)
            fail(brace.line, describe(top) + " has no CHANNELS");
        m_stack.pop_back();
    }

    void parseHierarchy()
    {
        Token t = next();
        if (t.end())
            fail(t.line, "the file is empty; expected HIERARCHY");
        if (!equalsIgnoreCase(t.text, "HIERARCHY"))
            fail(t.line, "expected HIERARCHY, found " + quote(t.text));
        expectLineEnd("HIERARCHY");
        t = next();
        if (t.end() || equalsIgnoreCase(t.text, "MOTION"))
            fail(t.line, "the hierarchy is empty: no ROOT");
        if (!equalsIgnoreCase(t.text, "ROOT"))
            fail(t.line, "expected ROOT, found " + quote(t.text));
        openJoint(t, -1);

        while (!m_stack.empty()) {
            t = next();
            Open& top = m_stack.back();
            if (t.end())
                fail(t.line, "the file ends inside " + describe(top) + ": missing '}'");
            if (t.text == "}") {
                closeTop(t);
            } else if (t.text == "{") {
                fail(t.line, "unexpected '{' in " + describe(top));
            } else if (equalsIgnoreCase(t.text, "OFFSET")) {
                readOffset(t, top);
            } else if (equalsIgnoreCase(t.text, "CHANNELS")) {
                readChannels(t, top);
            } else if (equalsIgnoreCase(t.text, "JOINT")) {
                if (top.endSite)
                    fail(t.line, "JOINT inside " + describe(top));
                if (!top.hasChannels)
                    fail(t.line, "joint " + jointName(top.joint) + " has a child joint before its CHANNELS");
                openJoint(t, top.joint);
            } else if (equalsIgnoreCase(t.text, "End")) {
                if (top.endSite)
                    fail(t.line, "End Site inside " + describe(top));
                const Token site = nextOnLine();
                if (!equalsIgnoreCase(site.text, "Site"))
                    fail(t.line, "expected 'End Site'");
                const Token brace = next();
                if (brace.text != "{")
                    fail(brace.line, "expected '{' after End Site, found " +
                                         (brace.end() ? std::string("the end of the file") : quote(brace.text)));
                if (static_cast<int>(m_stack.size()) >= m_options.maxDepth)
                    fail(t.line, "joints nested deeper than " + std::to_string(m_options.maxDepth) + " levels");
                const int owner = top.joint;
                m_endSiteParents.push_back(owner);
                m_endSiteOffsets.push_back(Vec3::Zero());
                m_stack.push_back({owner, true, t.line});
            } else if (equalsIgnoreCase(t.text, "ROOT")) {
                fail(t.line, "ROOT inside " + describe(top));
            } else if (equalsIgnoreCase(t.text, "MOTION")) {
                fail(t.line, "MOTION before the end of " + describe(top) + ": missing '}'");
            } else {
                fail(t.line, "unknown keyword " + quote(t.text) + " in " + describe(top));
            }
        }

        t = next();
        if (t.end())
            fail(t.line, "no MOTION section after the hierarchy");
        if (t.text == "}")
            fail(t.line, "unmatched '}'");
        if (equalsIgnoreCase(t.text, "ROOT"))
            fail(t.line, "a second ROOT: only one hierarchy per file is supported");
        if (!equalsIgnoreCase(t.text, "MOTION"))
            fail(t.line, "expected MOTION after the hierarchy, found " + quote(t.text));
        expectLineEnd("MOTION");

        Motion& m = m_motion;
        m.channelStarts.push_back(static_cast<int>(m.channels.size()));
        m.offsets.resize(static_cast<Eigen::Index>(m_offsets.size()), 3);
        for (size_t j = 0; j < m_offsets.size(); ++j)
            m.offsets.row(static_cast<Eigen::Index>(j)) = m_offsets[j].transpose();
        m.endSiteParents = std::move(m_endSiteParents);
        m.endSiteOffsets.resize(static_cast<Eigen::Index>(m_endSiteOffsets.size()), 3);
        for (size_t e = 0; e < m_endSiteOffsets.size(); ++e)
            m.endSiteOffsets.row(static_cast<Eigen::Index>(e)) = m_endSiteOffsets[e].transpose();
    }

    // --- MOTION: line by line from here on.

    /// The next line that is not blank; false at the end of the input.
    bool nextContentLine(std::string_view& line, long long& lineNumber)
    {
        while (m_pos < m_text.size()) {
            if (m_text[m_pos] == '\n') { // the end of the previous line
                ++m_pos;
                ++m_line;
                continue;
            }
            const size_t eol = std::min(m_text.find('\n', m_pos), m_text.size());
            line = trimBlanks(m_text.substr(m_pos, eol - m_pos));
            lineNumber = m_line;
            m_pos = eol;
            if (!line.empty())
                return true;
        }
        return false;
    }

    long long readFrameCount()
    {
        std::string_view line;
        long long lineNumber = 0;
        if (!nextContentLine(line, lineNumber))
            fail(lastLine(), "no 'Frames:' line after MOTION");
        std::string_view rest = line;
        if (!consumePrefix(rest, "Frames") || !consumePrefix(rest = trimBlanks(rest), ":"))
            fail(lineNumber, "expected 'Frames: N', found " + quote(line));
        rest = trimBlanks(rest);
        if (rest.empty())
            fail(lineNumber, "'Frames:' without a number");
        long long n = 0;
        const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
        if (ec == std::errc::result_out_of_range)
            fail(lineNumber, "Frames " + quote(rest) + " is absurd (more than " +
                                 std::to_string(m_options.maxFrames) + ")");
        if (ec != std::errc() || ptr != rest.data() + rest.size())
            fail(lineNumber, "Frames " + quote(rest) + " is not a whole number");
        if (n < 0)
            fail(lineNumber, "Frames " + std::to_string(n) + " is negative");
        if (n > std::min<long long>(m_options.maxFrames, std::numeric_limits<int>::max()))
            fail(lineNumber, "Frames " + std::to_string(n) + " is absurd (more than " +
                                 std::to_string(m_options.maxFrames) + ")");
        m_framesLine = lineNumber;
        return n;
    }

    double readFrameTime()
    {
        std::string_view line;
        long long lineNumber = 0;
        if (!nextContentLine(line, lineNumber))
            fail(lastLine(), "no 'Frame Time:' line after 'Frames:'");
        std::string_view rest = line;
        if (!consumePrefix(rest, "Frame") || !consumePrefix(rest = trimBlanks(rest), "Time") ||
            !consumePrefix(rest = trimBlanks(rest), ":"))
            fail(lineNumber, "expected 'Frame Time: SECONDS', found " + quote(line));
        rest = trimBlanks(rest);
        const double t = number({rest, lineNumber}, "Frame Time");
        if (t <= 0.0)
            fail(lineNumber, "Frame Time " + quote(rest) + " is not positive");
        if (t > m_options.maxFrameTime)
            fail(lineNumber, "Frame Time " + quote(rest) + " is absurd (more than " +
                                 std::to_string(m_options.maxFrameTime) + " s)");
        return t;
    }

    void parseMotion()
    {
        Motion& m = m_motion;
        FrameLines lines = readMotionHeader();
        const long long columns = lines.columns;
        if (columns == 0) {
            // No values to read: frame lines would be empty, which reads as blank.
            std::string_view line;
            long long lineNumber = 0;
            if (nextContentLine(line, lineNumber))
                fail(lineNumber, "values " + quote(line) + " but the hierarchy has no channels");
            m.frames.resize(static_cast<Eigen::Index>(lines.declared), 0);
            return;
        }
        // Memory follows the input, not the header: a frame takes at least 2C bytes.
        const long long remaining = static_cast<long long>(m_text.size() - m_pos);
        long long capacity = std::min(lines.declared, remaining / (2 * columns) + 1);
        m.frames.resize(static_cast<Eigen::Index>(capacity), static_cast<Eigen::Index>(columns));
        const char* p = m_text.data() + m_pos;
        const char* const end = m_text.data() + m_text.size();
        p = lines.skipHeaderLineEnd(p, end);
        for (long long rows = 0;;) {
            long long filled = 0;
            p = lines.read(p, end, true, m.frames.data() + rows * columns, capacity - rows, filled);
            rows += filled;
            if (p == end)
                break;
            capacity = std::min(lines.declared, 2 * capacity + 16); // only when the size estimate was low
            m.frames.conservativeResize(static_cast<Eigen::Index>(capacity), Eigen::NoChange);
        }
        lines.finish();
    }

public:
    /// The hierarchy and the "Frames:" and "Frame Time:" lines only: the
    /// motion without frames, and a FrameLines to read the frames with,
    /// from `position()` on.
    std::pair<Motion, FrameLines> parseHeader()
    {
        parseHierarchy();
        FrameLines lines = readMotionHeader();
        return {std::move(m_motion), std::move(lines)};
    }
    /// Where parsing stopped: the end of the "Frame Time:" line after parseHeader().
    size_t position() const { return m_pos; }

private:
    FrameLines readMotionHeader()
    {
        const long long declared = readFrameCount();
        m_motion.frameTime = readFrameTime();
        return FrameLines{m_source, m_options, m_progress, m_motion.channelCount(), declared, m_framesLine,
                          m_line, m_line, 0, {}};
    }

    std::string_view m_text;
    const std::string& m_source;
    const BvhReadOptions& m_options;
    const Progress& m_progress;
    size_t m_pos = 0;
    long long m_line = 1; // lines, like frames, may outnumber int in a huge file
    long long m_framesLine = 0;

    Motion m_motion;
    std::vector<Open> m_stack;
    std::unordered_set<std::string> m_names;
    std::vector<Vec3> m_offsets;
    std::vector<int> m_endSiteParents;
    std::vector<Vec3> m_endSiteOffsets;
};

} // namespace

Motion parseBvh(std::string_view text, const std::string& sourceName, const BvhReadOptions& options,
                const Progress& progress)
{
    return BvhParser(text, sourceName, options, progress).parse();
}

namespace bvh {

void FrameLines::fail(long long at, const std::string& problem) const
{
    throw IoError(source + ":" + std::to_string(at) + ": " + problem);
}


void FrameLines::failValue(long long frame, long long value, const char* first, const char* last,
                            NumberStatus status) const
{
    const char* end = first;
    while (end != last && !isBlank(*end))
        ++end;
    fail(line, "frame " + std::to_string(frame + 1) + ", value " + std::to_string(value + 1) + ": " +
                   quote(std::string_view(first, static_cast<size_t>(end - first))) +
                   (status == NumberStatus::notFinite    ? " is not finite"
                    : status == NumberStatus::outOfRange ? " is out of range"
                    : status == NumberStatus::absurd
                        ? " is absurd (more than " + shortNumber(options.maxAbsValue) + " in size; a corrupt file?)"
                        : " is not a number"));
}


const char* FrameLines::skipHeaderLineEnd(const char* p, const char* end)
{
    if (p != end && *p == '\n') {
        ++p;
        ++line;
    }
    return p;
}


const char* FrameLines::read(const char* p, const char* end, bool atEnd, double* rows, long long maxRows, long long& filled)
{
    filled = 0;
    while (p < end) {
        const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        if (!eol && !atEnd)
            return p; // the rest of this line is in the next chunk
        if (!eol)
            eol = end;
        const char* q = p;
        while (q != eol && isBlank(*q))
            ++q;
        if (q != eol) {
            if (columns == 0)
                fail(line, "values " + quote(trimBlanks(std::string_view(q, static_cast<size_t>(eol - q)))) +
                               " but the hierarchy has no channels");
            if (frames == declared && options.strictFrameCount)
                fail(line, "more frame lines than the " + std::to_string(declared) +
                               " declared by 'Frames:' on line " + std::to_string(framesLine));
            if (frames < declared && filled == maxRows)
                return p; // the rows are full
            if (frames >= declared)
                extra.resize(static_cast<size_t>(columns));
            double* row = frames < declared ? rows + filled * columns : extra.data();
            readValues(q, eol, row);
            if (frames < declared)
                ++filled;
            ++frames;
            lastContentLine = line;
            if ((frames & 4095) == 0)
                progress.update("read BVH", std::min(1.0, static_cast<double>(frames) / static_cast<double>(declared)));
        }
        if (eol == end)
            return end;
        p = eol + 1;
        ++line;
    }
    return p;
}


void FrameLines::readValues(const char* q, const char* eol, double* row) const
{
    long long k = 0;
    while (q != eol) {
        double v = 0.0;
        const char* stop = nullptr;
        NumberStatus status = parseDouble(q, eol, v, stop);
        if (status == NumberStatus::ok && std::abs(v) > options.maxAbsValue)
            status = NumberStatus::absurd;
        if (status != NumberStatus::ok)
            failValue(frames, k, q, eol, status);
        if (k < columns)
            row[k] = v;
        ++k;
        q = stop;
        while (q != eol && isBlank(*q))
            ++q;
    }
    if (k != columns)
        fail(line, "frame " + std::to_string(frames + 1) + " has " + std::to_string(k) + " values, expected " +
                       std::to_string(columns) + " (one per channel)");
}


void FrameLines::finish() const
{
    if (frames < declared)
        fail(lastContentLine, "the file ends after " + std::to_string(frames) + " of the " +
                                  std::to_string(declared) + " frames declared by 'Frames:' on line " +
                                  std::to_string(framesLine));
    progress.update("read BVH", 1.0);
}


Header parseHeader(std::string_view text, const std::string& source, const BvhReadOptions& options,
                   const Progress& progress)
{
    BvhParser parser(text, source, options, progress);
    auto [motion, lines] = parser.parseHeader();
    motion.frames.resize(0, motion.channelCount());
    return {std::move(motion), std::move(lines), parser.position()};
}

bool isFrameTimeLine(std::string_view line)
{
    line = trimBlanks(line);
    return consumePrefix(line, "Frame") && consumePrefix(line = trimBlanks(line), "Time");
}

} // namespace bvh

} // namespace rig
