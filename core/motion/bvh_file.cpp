#include "core/motion/bvh_file.h"

#include "core/common/atomic_write.h"
#include "core/common/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
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

/// Parses a number that ends at `last` or at a blank, setting `stop` after it
/// (std::from_chars takes no '+', so one is skipped here).
enum class NumberStatus { ok, notANumber, notFinite, outOfRange, absurd };

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

    [[noreturn]] void failValue(long long line, long long frame, long long value, const char* first, const char* last,
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
                            ? " is absurd (more than " + shortNumber(m_options.maxAbsValue) + " in size; a corrupt file?)"
                            : " is not a number"));
    }

    void parseMotion()
    {
        Motion& m = m_motion;
        const long long declared = readFrameCount();
        m.frameTime = readFrameTime();
        const long long lastHeaderLine = m_line;
        const long long columns = m.channelCount(); // values per frame line

        if (columns == 0) {
            // No values to read: frame lines would be empty, which reads as blank.
            std::string_view line;
            long long lineNumber = 0;
            if (nextContentLine(line, lineNumber))
                fail(lineNumber, "values " + quote(line) + " but the hierarchy has no channels");
            m.frames.resize(static_cast<Eigen::Index>(declared), 0);
            return;
        }

        // Memory follows the input, not the header: a frame takes at least 2C bytes.
        const long long remaining = static_cast<long long>(m_text.size() - m_pos);
        long long capacity = std::min(declared, remaining / (2 * columns) + 1);
        m.frames.resize(static_cast<Eigen::Index>(capacity), static_cast<Eigen::Index>(columns));

        const char* p = m_text.data() + m_pos;
        const char* const end = m_text.data() + m_text.size();
        long long line = m_line;
        long long lastContentLine = lastHeaderLine;
        long long f = 0;
        std::vector<double> extra;
        if (p != end && *p == '\n') { // the end of the Frame Time line
            ++p;
            ++line;
        }
        while (p < end) {
            const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
            if (!eol)
                eol = end;
            const char* q = p;
            while (q != eol && isBlank(*q))
                ++q;
            if (q != eol) {
                if (f == declared && m_options.strictFrameCount)
                    fail(line, "more frame lines than the " + std::to_string(declared) +
                                   " declared by 'Frames:' on line " + std::to_string(m_framesLine));
                if (f == capacity && f < declared) { // only when the size estimate was low
                    capacity = std::min(declared, 2 * capacity + 16);
                    m.frames.conservativeResize(static_cast<Eigen::Index>(capacity), Eigen::NoChange);
                }
                // Lines past the declared count are checked like the others, then dropped.
                if (f >= declared)
                    extra.resize(static_cast<size_t>(columns));
                double* row = f < declared ? m.frames.row(static_cast<Eigen::Index>(f)).data() : extra.data();
                long long k = 0;
                while (q != eol) {
                    double v = 0.0;
                    const char* stop = nullptr;
                    NumberStatus status = parseDouble(q, eol, v, stop);
                    if (status == NumberStatus::ok && std::abs(v) > m_options.maxAbsValue)
                        status = NumberStatus::absurd;
                    if (status != NumberStatus::ok)
                        failValue(line, f, k, q, eol, status);
                    if (k < columns)
                        row[k] = v;
                    ++k;
                    q = stop;
                    while (q != eol && isBlank(*q))
                        ++q;
                }
                if (k != columns)
                    fail(line, "frame " + std::to_string(f + 1) + " has " + std::to_string(k) + " values, expected " +
                                   std::to_string(columns) + " (one per channel)");
                ++f;
                lastContentLine = line;
                if ((f & 4095) == 0)
                    m_progress.update("read BVH", std::min(1.0, static_cast<double>(f) / static_cast<double>(declared)));
            }
            if (eol == end)
                break;
            p = eol + 1;
            ++line;
        }
        if (f < declared)
            fail(lastContentLine, "the file ends after " + std::to_string(f) + " of the " + std::to_string(declared) +
                                      " frames declared by 'Frames:' on line " + std::to_string(m_framesLine));
        m_progress.update("read BVH", 1.0);
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

// --- Writing

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

} // namespace

Motion parseBvh(std::string_view text, const std::string& sourceName, const BvhReadOptions& options,
                const Progress& progress)
{
    return BvhParser(text, sourceName, options, progress).parse();
}

Motion readBvh(const std::string& path, const BvhReadOptions& options, const Progress& progress)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        throw IoError(path + ": cannot read: " + ec.message());
    if (size > options.maxFileBytes)
        throw IoError(path + ": the file is " + std::to_string(size) + " bytes, more than the limit of " +
                      std::to_string(options.maxFileBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IoError(path + ": cannot open for reading");
    std::string text(static_cast<size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size)
        throw IoError(path + ": read " + std::to_string(in.gcount()) + " of " + std::to_string(size) + " bytes");
    return parseBvh(text, path, options, progress);
}

namespace {

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
            piece.swap(text); // the hierarchy, then nothing
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
