#include "core/common/decimal_text.h"

#include <cstddef>
#include <cstdint>

namespace rig {

bool parseSimpleDecimal(const char* first, const char* last, double& v, const char*& stop)
{
    static constexpr double powersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = first;
    const bool negative = p != last && *p == '-';
    if (negative)
        ++p;
    std::uint64_t m = 0;
    int digits = 0;
    const auto readDigits = [&](const char* q) {
        while (q != last && static_cast<unsigned>(*q - '0') < 10u && ++digits <= 19) {
            m = 10 * m + static_cast<unsigned>(*q - '0');
            ++q;
        }
        return q;
    };
    const char* q = readDigits(p);
    if (q == p)
        return false;
    std::ptrdiff_t decimals = 0;
    if (q != last && *q == '.') {
        const char* fraction = q + 1;
        q = readDigits(fraction);
        decimals = q - fraction;
        if (decimals == 0 || decimals > 22)
            return false;
    }
    const bool blank = q != last && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\v' || *q == '\f');
    if (digits > 19 || (q != last && !blank) || m > (std::uint64_t(1) << 53))
        return false;
    const double x = static_cast<double>(m) / powersOfTen[decimals];
    v = negative ? -x : x;
    stop = q;
    return true;
}

} // namespace rig
