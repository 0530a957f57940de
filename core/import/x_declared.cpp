#include "core/import/x_declared.h"

#include <cctype>
#include <charconv>
#include <cstring>

namespace rig {
namespace {

enum class Kind { Name, Number, Open, Close, Other, End };

struct Token {
    Token(Kind k = Kind::End, std::string_view n = {}, double v = 0.0) : kind(k), name(n), value(v) {}
    Kind kind;
    std::string_view name; // Kind::Name
    double value;          // Kind::Number
};

/// Tokens of a text .X body: names, numbers, braces; separators and comments skipped.
class TextTokens {
public:
    explicit TextTokens(std::string_view s) : s_(s) {}
    bool failed() const { return false; }

    Token next()
    {
        skipSeparators();
        if (p_ >= s_.size())
            return {};
        const char c = s_[p_];
        if (c == '{' || c == '}') {
            ++p_;
            return {c == '{' ? Kind::Open : Kind::Close};
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.')
            return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = p_;
            while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || std::strchr("_-.", s_[p_])))
                ++p_;
            return {Kind::Name, s_.substr(start, p_ - start)};
        }
        if (c == '"' || c == '<') // a string or a GUID
            p_ = std::min(s_.find(c == '"' ? '"' : '>', p_ + 1), s_.size() - 1);
        ++p_;
        return {Kind::Other};
    }

private:
    void skipSeparators()
    {
        while (p_ < s_.size()) {
            const char c = s_[p_];
            if (c == '#' || (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '/'))
                p_ = std::min(s_.find('\n', p_), s_.size());
            else if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';')
                ++p_;
            else
                return;
        }
    }

    Token number()
    {
        const std::size_t start = p_ + (s_[p_] == '+' ? 1 : 0);
        double v = 0.0;
        const auto r = std::from_chars(s_.data() + start, s_.data() + s_.size(), v);
        if (r.ec != std::errc()) {
            ++p_;
            return {Kind::Other};
        }
        p_ = static_cast<std::size_t>(r.ptr - s_.data());
        return {Kind::Number, {}, v};
    }

    std::string_view s_;
    std::size_t p_ = 0;
};

/// Tokens of a binary .X body (16-bit token ids; integer and float lists
/// yield their values one by one). A token that does not fit the file, or an
/// unknown one, ends the walk as failed.
class BinaryTokens {
public:
    BinaryTokens(std::string_view s, int floatBytes) : s_(s), floatBytes_(floatBytes) {}
    bool failed() const { return failed_; }

    Token next()
    {
        if (listLeft_ > 0) {
            --listLeft_;
            return listValue();
        }
        if (failed_ || p_ + 2 > s_.size())
            return {};
        const unsigned id = read<std::uint16_t>();
        switch (id) {
        case 1: return sized(0);                                 // name: count, bytes
        case 2: return sized(2).kind == Kind::End ? Token{} : Token{Kind::Other}; // string: count, bytes, terminator
        case 3: return fits(4) ? Token{Kind::Number, {}, double(read<std::uint32_t>())} : fail();
        case 5: return fits(16) ? (p_ += 16, Token{Kind::Other}) : fail(); // GUID
        case 6:
        case 7: return list(id == 6);
        case 10: return {Kind::Open};
        case 11: return {Kind::Close};
        default: return id >= 12 && id <= 60 ? Token{Kind::Other} : fail();
        }
    }

private:
    bool fits(std::size_t n) const { return n <= s_.size() - p_; }
    Token fail()
    {
        failed_ = true;
        return {};
    }
    template <class T> T read()
    {
        T v;
        std::memcpy(&v, s_.data() + p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    Token sized(std::size_t trailer)
    {
        if (!fits(4))
            return fail();
        const std::uint32_t n = read<std::uint32_t>();
        if (!fits(std::size_t(n) + trailer))
            return fail();
        const std::string_view text = s_.substr(p_, n);
        p_ += n + trailer;
        return {Kind::Name, text};
    }
    Token list(bool ints)
    {
        const int width = ints ? 4 : floatBytes_;
        if (!fits(4))
            return fail();
        const std::uint32_t n = read<std::uint32_t>();
        if (std::uint64_t(n) * std::uint64_t(width) > s_.size() - p_)
            return fail(); // a count past the file's end
        listLeft_ = n;
        listWidth_ = width;
        listInts_ = ints;
        return next();
    }
    Token listValue()
    {
        if (listInts_)
            return {Kind::Number, {}, double(read<std::uint32_t>())};
        return {Kind::Number, {}, listWidth_ == 8 ? read<double>() : double(read<float>())};
    }

    std::string_view s_;
    int floatBytes_;
    std::size_t p_ = 0;
    bool failed_ = false;
    std::uint32_t listLeft_ = 0;
    int listWidth_ = 4;
    bool listInts_ = true;
};

/// The next token as a count (a non-negative integer no larger than `cap`).
template <class Tokens> std::optional<std::int64_t> count(Tokens& t, std::int64_t cap)
{
    const Token k = t.next();
    if (k.kind != Kind::Number || k.value < 0 || k.value > double(cap) || k.value != double(std::int64_t(k.value)))
        return std::nullopt;
    return std::int64_t(k.value);
}

template <class Tokens> bool skipNumbers(Tokens& t, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        if (t.next().kind != Kind::Number)
            return false;
    return true;
}

/// One Mesh object's triangles, from just after its "Mesh" keyword.
template <class Tokens> std::optional<std::int64_t> meshTriangles(Tokens& t, std::int64_t cap)
{
    Token k = t.next();
    if (k.kind == Kind::Name) // the object's name
        k = t.next();
    if (k.kind != Kind::Open)
        return std::nullopt;
    const auto vertices = count(t, cap);
    if (!vertices || !skipNumbers(t, 3 * *vertices))
        return std::nullopt;
    const auto faces = count(t, cap);
    if (!faces)
        return std::nullopt;
    std::int64_t triangles = 0;
    for (std::int64_t f = 0; f < *faces; ++f) {
        const auto corners = count(t, cap);
        if (!corners || !skipNumbers(t, *corners))
            return std::nullopt;
        triangles += std::max<std::int64_t>(0, *corners - 2);
    }
    return triangles;
}

template <class Tokens> std::optional<std::int64_t> sumMeshes(Tokens t, std::int64_t cap)
{
    std::int64_t total = 0;
    bool any = false;
    bool afterTemplate = false;
    for (Token k = t.next(); k.kind != Kind::End; k = t.next()) {
        const bool mesh = k.kind == Kind::Name && k.name == "Mesh" && !afterTemplate;
        afterTemplate = k.kind == Kind::Name && k.name == "template";
        if (!mesh)
            continue;
        const auto triangles = meshTriangles(t, cap);
        if (!triangles)
            return std::nullopt;
        total += *triangles;
        any = true;
    }
    if (t.failed() || !any)
        return std::nullopt;
    return total;
}

} // namespace

std::optional<std::int64_t> xDeclaredTriangles(std::string_view bytes)
{
    // "xof 0303txt 0032": magic, version, format, float size.
    if (bytes.size() < 16 || bytes.substr(0, 4) != "xof ")
        return std::nullopt;
    const std::string_view format = bytes.substr(8, 4);
    const std::string_view floats = bytes.substr(12, 4);
    if (floats != "0032" && floats != "0064")
        return std::nullopt;
    const std::int64_t cap = static_cast<std::int64_t>(bytes.size()); // every count needs a byte at least
    if (format == "txt ")
        return sumMeshes(TextTokens(bytes.substr(16)), cap);
    if (format == "bin ")
        return sumMeshes(BinaryTokens(bytes.substr(16), floats == "0064" ? 8 : 4), cap);
    return std::nullopt; // "tzip", "bzip": compressed
}

} // namespace rig
